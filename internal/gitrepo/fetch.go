package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/foliodocs/folio"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Fetch fetches r.Ref into the cache named by cacheID ("" for a throwaway
// one) and returns the branch's tip commit with its whole tree; a branch or
// repository that does not exist yet gives a Commit with Empty set. Errors
// for bad input, refused transports, credentials, missing repositories and
// limits are Invalid (wrapping ErrNotAllowed, ErrAuth, ErrRepoNotFound,
// ErrTooLarge); unreachable servers and timeouts are Unavailable
// (ErrUnavailable).
func (c *Client) Fetch(ctx context.Context, r Remote, cacheID string) (*Commit, error) {
	ep, err := c.endpoint(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	if err := c.pinSSH(ctx, ep); err != nil {
		return nil, err
	}
	st := &opState{http: c.o.HTTP, budget: c.o.MaxBytes}
	ctx = withOp(ctx, st)
	rc, err := c.openCache(ctx, cacheID, ep, st)
	if err != nil {
		return nil, c.mapError(ctx, ep, err)
	}
	defer rc.close()

	tip, err := c.fetchRef(ctx, rc, ep)
	if err != nil {
		return nil, err
	}
	if tip.IsZero() {
		return &Commit{Empty: true}, nil
	}
	commit, err := object.GetCommit(rc.sto, tip)
	if err != nil {
		return nil, fmt.Errorf("gitrepo: read commit %s: %w", tip, err)
	}
	files, _, err := c.readTree(ctx, rc.sto, commit.TreeHash, true)
	if err != nil {
		return nil, err
	}
	return &Commit{Hash: tip.String(), Message: commit.Message, Files: files}, nil
}

// fetchRef brings ep.ref into the cache under the same name, and returns its
// hash, or the zero hash when the remote has no such branch (the cached one
// is then deleted).
func (c *Client) fetchRef(ctx context.Context, rc *repoCache, ep *endpoint) (plumbing.Hash, error) {
	remote := git.NewRemote(rc.sto, &config.RemoteConfig{Name: "origin", URLs: []string{ep.dialURL()}})
	spec := config.RefSpec("+" + ep.ref.String() + ":" + ep.ref.String())
	err := remote.FetchContext(ctx, &git.FetchOptions{
		RemoteName: "origin",
		RefSpecs:   []config.RefSpec{spec},
		Auth:       ep.auth,
		Tags:       git.NoTags,
		Force:      true,
	})
	var noMatch git.NoMatchingRefSpecError
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.As(err, &noMatch), errors.Is(err, transport.ErrEmptyRemoteRepository):
		if err := rc.sto.RemoveReference(ep.ref); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("gitrepo: drop cached ref: %w", err)
		}
		return plumbing.ZeroHash, nil
	default:
		rc.removeTempPacks()
		return plumbing.ZeroHash, c.mapError(ctx, ep, err)
	}
	ref, err := rc.sto.Reference(ep.ref)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("gitrepo: read fetched ref: %w", err)
	}
	return ref.Hash(), nil
}

// mapError turns a go-git or transport error into this package's errors,
// with the URL's secrets scrubbed from the text.
func (c *Client) mapError(ctx context.Context, ep *endpoint, err error) error {
	if err == nil {
		return nil
	}
	var fe *folio.Error
	if errors.As(err, &fe) {
		if fe.Err != nil {
			fe.Err = &redactedError{err: fe.Err, secrets: ep.secrets}
		}
		return fe
	}
	red := &redactedError{err: err, secrets: ep.secrets}
	msg := err.Error()
	switch {
	case errors.Is(err, errTransferTooLarge):
		return kindError(folio.Invalid, ErrTooLarge, red, "the repository transfer is larger than the limit of %d bytes", c.o.MaxBytes)
	case errors.Is(err, ErrNotAllowed):
		return kindError(folio.Invalid, ErrNotAllowed, red, "this repository URL is not allowed on this server")
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		errors.Is(err, transport.ErrInvalidAuthMethod):
		return kindError(folio.Invalid, ErrAuth, red, "the git server refused the credentials for %s", ep.redacted)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return kindError(folio.Invalid, ErrRepoNotFound, red, "no git repository at %s", ep.redacted)
	case strings.Contains(msg, "non-fast-forward") || strings.Contains(msg, "fetch first") ||
		// git receive-pack when the branch moved between the ref
		// advertisement and the update (compare-and-swap failed).
		(strings.Contains(msg, "is at ") && strings.Contains(msg, "but expected")):
		return kindError(folio.Conflict, ErrNonFastForward, red, "the branch %s has changed on the remote; the push was not a fast-forward", ep.ref.Short())
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return kindError(folio.Unavailable, ErrUnavailable, red, "the git operation on %s timed out or was canceled", ep.redacted)
	case strings.Contains(msg, "knownhosts") || strings.Contains(msg, "ssh: handshake failed"):
		return kindError(folio.Invalid, ErrAuth, red, "the SSH connection to %s failed (host key or credentials)", ep.redacted)
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) || strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host") {
		return kindError(folio.Unavailable, ErrUnavailable, red, "could not reach the git server at %s", ep.redacted)
	}
	return fmt.Errorf("gitrepo: %s: %w", ep.redacted, red)
}

// entryInfo is a non-regular tree entry, or an executable file, kept so a
// push can carry it over from the parent tree.
type entryInfo struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// readTree walks a tree within the limits. With content it returns every
// regular or executable file's bytes; it always returns the entries a push
// must preserve (symlinks, submodules and the executable bit).
func (c *Client) readTree(ctx context.Context, s storer.EncodedObjectStorer, root plumbing.Hash, content bool) (map[string][]byte, map[string]entryInfo, error) {
	w := &treeWalker{c: c, s: s, ctx: ctx, content: content, files: map[string][]byte{}, special: map[string]entryInfo{}}
	if err := w.walk(root, "", 0); err != nil {
		return nil, nil, err
	}
	return w.files, w.special, nil
}

type treeWalker struct {
	c       *Client
	s       storer.EncodedObjectStorer
	ctx     context.Context
	content bool
	entries int
	bytes   int64
	files   map[string][]byte
	special map[string]entryInfo
}

func (w *treeWalker) tooLarge(format string, args ...any) error {
	return kindError(folio.Invalid, ErrTooLarge, nil, format, args...)
}

func (w *treeWalker) walk(h plumbing.Hash, prefix string, depth int) error {
	if depth > maxDepth {
		return w.tooLarge("the repository nests directories deeper than %d levels", maxDepth)
	}
	if err := w.ctx.Err(); err != nil {
		return kindError(folio.Unavailable, ErrUnavailable, err, "reading the repository timed out")
	}
	tree, err := object.GetTree(w.s, h)
	if err != nil {
		return fmt.Errorf("gitrepo: read tree %s: %w", h, err)
	}
	for _, e := range tree.Entries {
		w.entries++
		if w.entries > w.c.o.MaxFiles {
			return w.tooLarge("the repository has more than %d files and directories", w.c.o.MaxFiles)
		}
		if !safeName(e.Name) {
			continue
		}
		p := prefix + e.Name
		if len(p) > maxPathLen {
			continue
		}
		switch e.Mode {
		case filemode.Dir:
			if err := w.walk(e.Hash, p+"/", depth+1); err != nil {
				return err
			}
		case filemode.Regular, filemode.Deprecated, filemode.Executable:
			if e.Mode == filemode.Executable {
				w.special[p] = entryInfo{mode: e.Mode, hash: e.Hash}
			}
			if !w.content {
				continue
			}
			data, err := w.blob(e.Hash, p)
			if err != nil {
				return err
			}
			w.files[p] = data
		default:
			// Symlinks and submodules are not docs: skipped, but kept on push.
			w.special[p] = entryInfo{mode: e.Mode, hash: e.Hash}
		}
	}
	return nil
}

func (w *treeWalker) blob(h plumbing.Hash, p string) ([]byte, error) {
	obj, err := w.s.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("gitrepo: read blob %s: %w", h, err)
	}
	size := obj.Size()
	if size < 0 || w.bytes+size > w.c.o.MaxBytes {
		return nil, w.tooLarge("the repository's files are larger than the limit of %d bytes (at %s)", w.c.o.MaxBytes, p)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("gitrepo: read blob %s: %w", h, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, size+1))
	if err != nil {
		return nil, fmt.Errorf("gitrepo: read blob %s: %w", h, err)
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("gitrepo: blob %s has %d bytes, header says %d", h, len(data), size)
	}
	w.bytes += size
	return data, nil
}

// safeName reports whether a tree entry name can become a path segment.
// Others (possible only in doctored repositories) are skipped.
func safeName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.EqualFold(name, ".git") &&
		!strings.ContainsAny(name, "/\x00")
}
