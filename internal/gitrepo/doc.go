// Package gitrepo is the small git client of Folio's background sync jobs:
// Fetch brings one branch of a remote repository into a cache on disk and
// returns its tip commit with the whole tree in memory; FetchTree does the
// same fetch but hands the tree to a callback that reads only the files it
// needs (an import reads the pages and the assets they link to); Push writes a
// complete new tree as a commit on top of a known parent and pushes it to
// the branch. It speaks git through go-git only and never runs a git
// program.
//
// # Transports
//
// Which transports work is decided by Options, per Client:
//   - http and https (smart protocol) go through Options.HTTP, the server's
//     guarded client, with basic auth taken from the URL's user:password@.
//     go-git keeps transports in a process-wide registry, so this package
//     installs, once at init, an http transport whose RoundTripper takes the
//     per-operation client from the request's context; a request made
//     outside a Fetch or Push (for instance by another package using go-git
//     directly) is refused. Only the client's Transport is used (its dialer
//     checks every redirect hop); go-git follows the initial redirect
//     itself and drops credentials when it leaves the origin.
//   - file:// URLs and absolute paths, only with Options.AllowFile, are
//     served in process by go-git's server package (bare repositories, or
//     the .git directory of a work tree). go-git's default file transport,
//     which runs git-upload-pack, is replaced at init for the whole process.
//   - ssh (ssh://user@host/path and user@host:path) with Options.SSHKey.
//     Host keys are checked against Options.SSHKnownHosts (known_hosts
//     format, written to CacheDir/known_hosts); without known hosts a key is
//     refused by New, so host keys are never accepted blindly.
//   - git:// is removed from the registry (unauthenticated, unguarded).
//
// Credentials stay out of everything returned: the URL handed to go-git has
// none (basic auth travels as an auth method), the cache never stores a
// remote in its config, error texts are scrubbed of the password, user info
// and raw URL, and messages name the URL as Redact returns it.
//
// # Caching
//
// Over http and ssh, a fetch into a cache that does not hold the branch yet
// is shallow (depth 1): only the tip commit, its trees and blobs come over,
// never the history. A later fetch into the same cache asks for no depth
// and offers the cached tip, so only the commits since and their new
// objects come over (git's upload-pack, asked for depth 1 again, resends
// the whole tree although it acknowledges the cached tip). A local
// repository (file://) is read in place, without a cache: copying it
// through go-git's in-process server would cost more than the import.
//
// With a cache id, the repository lives in CacheDir/repo-<hash>, a bare
// repository named by a SHA-256 of the id and the redacted URL, so user input
// never becomes a path and two URLs never share one. The branch is fetched
// into the ref of the same name, so the next Fetch or Push negotiates with
// what the cache holds and transfers only new objects. Operations on one
// cache directory are serialized within the process (a lock per directory,
// waited for within the operation's context); across processes or servers
// the caller must not sync the same space concurrently (the jobs already
// guarantee that). A cache that cannot be opened is deleted and rebuilt.
// With an empty cache id, a throwaway repository under CacheDir is used and
// removed afterwards; New deletes throwaways older than twice the Timeout,
// which only a crashed process leaves behind.
//
// Over file://, go-git's in-process receive-pack does not compare the old
// value of the branch when it updates it, so a peer pushing in the instant
// between Push's check and its update can be overwritten; http and ssh
// peers (real git) refuse such an update, and Push reports it as
// ErrNonFastForward.
//
// # Limits
//
// MaxBytes bounds the bytes received by one operation (counted at the pack
// writer for every transport, and on every http response body), the total
// size of the files read into memory (checked from object headers before
// reading; each distinct blob counts once, however many paths name it, and
// files FetchTree's callback does not read count nothing), and the size of
// the files pushed. MaxFiles bounds the entries
// of a tree, directories nesting deeper than 64 levels are refused, and
// Timeout bounds a whole operation. Exceeding a limit gives an Invalid error
// wrapping ErrTooLarge; a timeout gives Unavailable wrapping ErrUnavailable.
// A pack that is small on the wire but inflates hugely is bounded only by
// those tree checks: go-git indexes the whole pack when it is written.
//
// # Trees
//
// Fetch returns regular and executable files. Symlinks and submodules are
// not docs: Fetch skips them, and so it does entries whose names cannot be
// paths (".", "..", ".git" in any case, names with "/" or NUL), which only
// doctored repositories hold. Push writes the files it is given as the
// whole tree, but carries over the parent's symlinks, submodules and
// executable bits for paths the new files do not replace, so a docs export
// never deletes or alters them.
//
// # Errors
//
// Errors caused by the input (bad URL or ref, refused transport, rejected
// credentials, missing repository, limits, bad paths) are *folio.Error of
// kind Invalid with messages safe to show; a push that is not a
// fast-forward is Conflict; an unreachable or slow server is Unavailable.
// Each wraps its sentinel (ErrNotAllowed, ErrAuth, ErrRepoNotFound,
// ErrTooLarge, ErrNonFastForward, ErrUnavailable) for errors.Is. Anything
// else is a plain wrapped error (Internal).
//
// Allowed imports: folio, go-git, the standard library.
package gitrepo
