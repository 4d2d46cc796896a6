package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// Defaults for the zero values of Options.
const (
	DefaultMaxBytes = 256 << 20
	DefaultMaxFiles = 100_000
	DefaultTimeout  = 10 * time.Minute

	// maxDepth bounds the nesting of directories read from or written to a tree.
	maxDepth = 64
	// maxPathLen bounds one file path, in bytes.
	maxPathLen = 4096
)

// Sentinel errors. Every error this package returns for them is a
// *folio.Error whose Err wraps the sentinel, so both errors.Is and
// folio.KindOf work.
var (
	// ErrNonFastForward: the remote branch moved on and the push was not forced (Conflict).
	ErrNonFastForward = errors.New("gitrepo: non-fast-forward")
	// ErrAuth: the git server refused the credentials or asked for some (Invalid).
	ErrAuth = errors.New("gitrepo: authentication failed")
	// ErrRepoNotFound: no repository at the URL (Invalid).
	ErrRepoNotFound = errors.New("gitrepo: repository not found")
	// ErrTooLarge: the transfer or the tree is over MaxBytes or MaxFiles (Invalid).
	ErrTooLarge = errors.New("gitrepo: repository too large")
	// ErrNotAllowed: the URL's transport is not enabled by the Options (Invalid).
	ErrNotAllowed = errors.New("gitrepo: transport not allowed")
	// ErrUnavailable: the git server could not be reached or timed out (Unavailable).
	ErrUnavailable = errors.New("gitrepo: git server unavailable")
)

// Options configure a Client. CacheDir is required; everything else has a
// safe default (no transport is enabled by default).
type Options struct {
	// CacheDir is where repository caches live, one bare repository per
	// cache id and URL. It is created when missing.
	CacheDir string
	// HTTP is the guarded outbound client used for http and https URLs: its
	// Transport (http.DefaultTransport when nil) carries every request, so
	// its dialer's address checks apply to each redirect hop too. Its
	// CheckRedirect and Timeout are not used (go-git follows the initial
	// redirect itself; Options.Timeout bounds the operation). nil refuses
	// http(s).
	HTTP *http.Client
	// AllowFile allows file:// URLs and absolute local paths, served in
	// process by go-git (never by running git).
	AllowFile bool
	// SSHKey is a PEM private key (unencrypted) for ssh URLs; nil refuses ssh.
	SSHKey []byte
	// SSHKnownHosts is the content of a known_hosts file that the server's
	// host key must match. ssh is refused without it: host keys are never
	// accepted blindly.
	SSHKnownHosts []byte
	// CheckAddress, when set, vets each address an ssh remote's host name
	// resolves to (an error refuses it): the connection goes to the first
	// address it accepts, pinned, so a second lookup cannot change it.
	// http(s) is guarded by HTTP's dialer instead.
	CheckAddress func(netip.Addr) error
	// MaxBytes caps the bytes received by one operation (the pack, and for
	// http every response) and the total size of the files of a tree read
	// into memory or pushed. 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxFiles caps the entries of a tree (files, directories and skipped
	// entries). 0 means DefaultMaxFiles.
	MaxFiles int
	// Timeout limits a whole Fetch or Push, waiting for the cache included.
	// 0 means DefaultTimeout.
	Timeout time.Duration
}

// Client fetches and pushes branches of remote repositories through caches
// on disk. It is safe for concurrent use.
type Client struct {
	o              Options
	knownHostsFile string
}

// New returns a Client, creating o.CacheDir when missing. It fails with an
// Invalid error when CacheDir is empty or the SSH settings are unusable.
func New(o Options) (*Client, error) {
	if o.CacheDir == "" {
		return nil, folio.Errorf(folio.Invalid, "git cache directory is required")
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	dir, err := filepath.Abs(o.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("gitrepo: cache dir: %w", err)
	}
	o.CacheDir = dir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("gitrepo: cache dir: %w", err)
	}
	removeStaleThrowaways(dir, 2*o.Timeout)
	c := &Client{o: o}
	if o.SSHKey != nil {
		if len(o.SSHKnownHosts) == 0 {
			return nil, folio.Errorf(folio.Invalid, "an SSH key needs SSH known hosts")
		}
		// go-git's known-hosts callback reads files, so the configured
		// content is written once next to the caches.
		c.knownHostsFile = filepath.Join(dir, "known_hosts")
		if err := os.WriteFile(c.knownHostsFile, o.SSHKnownHosts, 0o600); err != nil {
			return nil, fmt.Errorf("gitrepo: known hosts: %w", err)
		}
		if _, err := c.sshAuth("git"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Remote names a branch of a repository.
type Remote struct {
	// URL is http(s)://[user:password@]host/path, ssh://user@host/path,
	// user@host:path, file:///path or /path.
	URL string
	// Ref is the branch, as refs/heads/<branch>.
	Ref string
}

// Commit is the tip of a branch and its whole tree.
type Commit struct {
	Hash    string
	Message string
	// Files maps slash-separated paths to contents. Symlinks and submodules
	// are not included.
	Files map[string][]byte
	// Empty reports that the branch (or the whole repository) does not exist
	// yet; the other fields are then zero.
	Empty bool
}

// Signature is the author (and committer) of a pushed commit.
type Signature struct {
	Name, Email string
	When        time.Time
}

// kindError returns a *folio.Error of the given kind whose chain holds the
// sentinel and, when not nil, the (already redacted) cause.
func kindError(kind folio.Kind, sentinel error, cause error, format string, args ...any) error {
	e := folio.Errorf(kind, format, args...)
	if cause != nil {
		e.Err = &chainError{sentinel: sentinel, cause: cause}
	} else {
		e.Err = sentinel
	}
	return e
}

// chainError joins a sentinel and a cause so errors.Is finds both, while
// its text stays the cause's.
type chainError struct {
	sentinel, cause error
}

func (e *chainError) Error() string   { return e.cause.Error() }
func (e *chainError) Unwrap() []error { return []error{e.sentinel, e.cause} }

// redactedError hides secrets in the text of the error it wraps.
type redactedError struct {
	err     error
	secrets []string
}

func (e *redactedError) Error() string { return scrub(e.err.Error(), e.secrets) }
func (e *redactedError) Unwrap() error { return e.err }

func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "xxxxx")
		}
	}
	return s
}

// opContext bounds one operation by the configured timeout.
func (c *Client) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.o.Timeout)
}

// removeStaleThrowaways deletes throwaway caches that a crashed process left
// behind: any older than maxAge, which no running operation can still use.
func removeStaleThrowaways(dir string, maxAge time.Duration) {
	matches, _ := filepath.Glob(filepath.Join(dir, "tmp-*"))
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > maxAge {
			os.RemoveAll(m)
		}
	}
}
