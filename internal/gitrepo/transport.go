package gitrepo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// go-git keeps its transports in a global map that is not safe to write
// while it is read, so they are replaced once, when the package loads:
//   - http and https go through ctxTransport, which takes the per-operation
//     client and byte budget from the request's context (go-git passes the
//     operation's context to every request) and refuses requests without;
//   - file is served in process by go-git's server package, and only for
//     sessions that carry localAuth, which Client gives out only when
//     AllowFile is set. go-git's own file transport runs git-upload-pack,
//     which the product must never do.
//
// Anything else in the process that uses go-git over these schemes is
// therefore refused unless it goes through this package.
func init() {
	hc := githttp.NewClientWithOptions(&http.Client{Transport: ctxTransport{}}, nil)
	client.InstallProtocol("http", hc)
	client.InstallProtocol("https", hc)
	client.InstallProtocol("file", fileTransport{inner: server.NewClient(localLoader{})})
	// git:// is unauthenticated and bypasses the guarded client.
	client.InstallProtocol("git", nil)
}

// opKey is the context key of the per-operation state.
type opKey struct{}

// opState is what one Fetch or Push hands to the transports through its context.
type opState struct {
	http     *http.Client
	budget   int64        // bytes the operation may still receive
	received atomic.Int64 // bytes received so far
}

func withOp(ctx context.Context, st *opState) context.Context {
	return context.WithValue(ctx, opKey{}, st)
}

var errNoClient = errors.New("gitrepo: http request outside an operation")

// ctxTransport is the RoundTripper of the shared go-git http transport.
type ctxTransport struct{}

func (ctxTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	st, _ := req.Context().Value(opKey{}).(*opState)
	if st == nil || st.http == nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, errNoClient
	}
	rt := st.http.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	res, err := rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &budgetReader{rc: res.Body, st: st}
	return res, nil
}

// budgetReader counts the bytes of a response against the operation's budget.
type budgetReader struct {
	rc io.ReadCloser
	st *opState
}

func (b *budgetReader) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if b.st.received.Add(int64(n)) > b.st.budget {
		return n, errTransferTooLarge
	}
	return n, err
}

func (b *budgetReader) Close() error { return b.rc.Close() }

var errTransferTooLarge = errors.New("gitrepo: transfer over the byte limit")

// localAuth marks sessions that may use the in-process file transport.
type localAuth struct{}

func (localAuth) Name() string   { return "local" }
func (localAuth) String() string { return "local" }

// fileTransport serves file:// in process, for localAuth sessions only.
type fileTransport struct{ inner transport.Transport }

func (t fileTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	if _, ok := auth.(localAuth); !ok {
		return nil, ErrNotAllowed
	}
	return t.inner.NewUploadPackSession(ep, nil)
}

func (t fileTransport) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	if _, ok := auth.(localAuth); !ok {
		return nil, ErrNotAllowed
	}
	return t.inner.NewReceivePackSession(ep, nil)
}

// localLoader opens the repository at an absolute path: a bare repository,
// or the .git directory of a work tree (go-git's filesystem loader would
// take the work tree itself for the git directory).
type localLoader struct{}

func (localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	dir := filepath.Clean(ep.Path)
	if !filepath.IsAbs(dir) {
		return nil, transport.ErrRepositoryNotFound
	}
	if !isGitDir(dir) {
		dir = filepath.Join(dir, ".git")
		if !isGitDir(dir) {
			return nil, transport.ErrRepositoryNotFound
		}
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, transport.ErrRepositoryNotFound
	}
	return storageOf(repo)
}

func isGitDir(dir string) bool {
	for _, name := range []string{"objects", "refs"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	_, err := os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil
}
