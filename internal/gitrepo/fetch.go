package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
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
// one) and returns the branch's tip commit with its whole tree read into
// Files; a branch or repository that does not exist yet gives a Commit with
// Empty set. Errors for bad input, refused transports, credentials, missing
// repositories and limits are Invalid (wrapping ErrNotAllowed, ErrAuth,
// ErrRepoNotFound, ErrTooLarge); unreachable servers and timeouts are
// Unavailable (ErrUnavailable).
func (c *Client) Fetch(ctx context.Context, r Remote, cacheID string) (*Commit, error) {
	var files map[string][]byte
	commit, err := c.FetchTree(ctx, r, cacheID, func(_ *Commit, t *Tree) error {
		files = make(map[string][]byte, len(t.w.files))
		for _, p := range t.Paths() {
			data, err := t.ReadFile(p)
			if err != nil {
				return err
			}
			files[p] = data
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	commit.Files = files
	return commit, nil
}

// FetchTree fetches r.Ref as Fetch does, but reads no file by itself: read
// is called, while the cache is held, with the tip commit (Files nil) and
// its tree, and reads only the files it needs. The commit is returned
// without calling read when the branch does not exist (Empty). read's
// error is returned as is.
func (c *Client) FetchTree(ctx context.Context, r Remote, cacheID string, read func(*Commit, *Tree) error) (*Commit, error) {
	ep, err := c.endpoint(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	var (
		sto storer.EncodedObjectStorer
		tip plumbing.Hash
	)
	if ep.local {
		// A local repository is read where it is: a fetch into a cache
		// would only copy it, through go-git's in-process server, which
		// spends most of its time choosing deltas for the pack.
		if sto, tip, err = c.localTip(ep); err != nil {
			return nil, c.mapError(ctx, ep, err)
		}
	} else {
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
		if tip, err = c.fetchRef(ctx, rc, ep); err != nil {
			return nil, err
		}
		sto = rc.sto
	}
	if tip.IsZero() {
		return &Commit{Empty: true}, nil
	}
	commit, err := object.GetCommit(sto, tip)
	if err != nil {
		return nil, fmt.Errorf("gitrepo: read commit %s: %w", tip, err)
	}
	w, err := c.readTree(ctx, sto, commit.TreeHash)
	if err != nil {
		return nil, err
	}
	out := &Commit{Hash: tip.String(), Message: commit.Message}
	if err := read(out, &Tree{w: w, read: map[plumbing.Hash][]byte{}}); err != nil {
		return nil, err
	}
	return out, nil
}

// Tree is the tree of a fetched commit, valid only during FetchTree's
// read callback. Files are read on demand; the byte limit (MaxBytes)
// counts each distinct blob once, however many paths name it.
type Tree struct {
	w    *treeWalker
	read map[plumbing.Hash][]byte
}

// Paths returns the paths of the tree's regular and executable files, sorted.
func (t *Tree) Paths() []string {
	out := make([]string, 0, len(t.w.files))
	for p := range t.w.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Has reports whether p is a file of the tree.
func (t *Tree) Has(p string) bool {
	_, ok := t.w.files[p]
	return ok
}

// BlobID returns the git blob id of the file at p, "" when there is none.
func (t *Tree) BlobID(p string) string {
	h, ok := t.w.files[p]
	if !ok {
		return ""
	}
	return h.String()
}

// ReadFile returns the bytes of the file at p. Paths naming the same blob
// share one slice, which callers must not modify. A missing path gives an
// error wrapping fs.ErrNotExist; the byte limit an Invalid error wrapping
// ErrTooLarge.
func (t *Tree) ReadFile(p string) ([]byte, error) {
	h, ok := t.w.files[p]
	if !ok {
		return nil, fmt.Errorf("gitrepo: %s: %w", p, fs.ErrNotExist)
	}
	if data, ok := t.read[h]; ok {
		return data, nil
	}
	data, err := t.w.blob(h, p)
	if err != nil {
		return nil, err
	}
	t.read[h] = data
	return data, nil
}

// BytesRead returns the bytes of the distinct blobs read so far.
func (t *Tree) BytesRead() int64 { return t.w.bytes }

// fetchRef brings ep.ref into the cache under the same name, and returns its
// hash, or the zero hash when the remote has no such branch (the cached one
// is then deleted).
func (c *Client) fetchRef(ctx context.Context, rc *repoCache, ep *endpoint) (plumbing.Hash, error) {
	remote := git.NewRemote(rc.sto, &config.RemoteConfig{Name: "origin", URLs: []string{ep.dialURL()}})
	spec := config.RefSpec("+" + ep.ref.String() + ":" + ep.ref.String())
	opts := &git.FetchOptions{
		RemoteName: "origin",
		RefSpecs:   []config.RefSpec{spec},
		Auth:       ep.auth,
		Tags:       git.NoTags,
		Force:      true,
	}
	if !ep.local && !rc.hasCommit(ep.ref) {
		// A first fetch takes only the tip: history is neither transferred
		// nor kept. A later one asks for no depth and offers the cached tip
		// as common, so only the commits since and their new objects come
		// over (git's upload-pack, asked for depth 1 again, resends the
		// whole tree even when it acknowledges the cached tip).
		opts.Depth = 1
	}
	err := remote.FetchContext(ctx, opts)
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

// readTree walks a tree within the limits. It returns the walker holding
// the blob id of every regular or executable file, and the entries a push
// must preserve (symlinks, submodules and the executable bit); no file is
// read.
func (c *Client) readTree(ctx context.Context, s storer.EncodedObjectStorer, root plumbing.Hash) (*treeWalker, error) {
	w := &treeWalker{c: c, s: s, ctx: ctx, files: map[string]plumbing.Hash{}, special: map[string]entryInfo{}}
	if err := w.walk(root, "", 0); err != nil {
		return nil, err
	}
	return w, nil
}

type treeWalker struct {
	c       *Client
	s       storer.EncodedObjectStorer
	ctx     context.Context
	entries int
	bytes   int64
	files   map[string]plumbing.Hash
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
			w.files[p] = e.Hash
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
		return nil, w.tooLarge("the repository's files read are larger than the limit of %d bytes (at %s)", w.c.o.MaxBytes, p)
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

// hasCommit reports whether the cache holds the commit that ref points to.
func (rc *repoCache) hasCommit(ref plumbing.ReferenceName) bool {
	r, err := rc.sto.Reference(ref)
	if err != nil {
		return false
	}
	_, err = rc.sto.EncodedObject(plumbing.CommitObject, r.Hash())
	return err == nil
}

// localTip opens a local repository and returns its storage and the
// branch's tip (zero when the branch does not exist).
func (c *Client) localTip(ep *endpoint) (storer.EncodedObjectStorer, plumbing.Hash, error) {
	s, err := localLoader{}.Load(&transport.Endpoint{Protocol: "file", Path: ep.path})
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	ref, err := storer.ResolveReference(s, ep.ref)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return s, plumbing.ZeroHash, nil
	}
	if err != nil {
		return nil, plumbing.ZeroHash, fmt.Errorf("gitrepo: read ref: %w", err)
	}
	return s, ref.Hash(), nil
}
