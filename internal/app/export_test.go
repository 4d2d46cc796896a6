package app

// SetGCAfterMarkForTest runs f between the mark and the sweep of each
// garbage collection of a.
func SetGCAfterMarkForTest(a *App, f func()) { a.gcAfterMark = f }

// SetGitProgressHookForTest runs f, with the space, each time a git
// operation of a records its progress.
func SetGitProgressHookForTest(a *App, f func(space string)) { a.gitProgressHook = f }
