package app

// SetGCAfterMarkForTest runs f between the mark and the sweep of each
// garbage collection of a.
func SetGCAfterMarkForTest(a *App, f func()) { a.gcAfterMark = f }
