package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// pushRef is the local ref a commit is pushed from, in the cache.
const pushRef = plumbing.ReferenceName("refs/folio/push")

// Push commits files (the complete new tree, slash paths) on top of parent
// (a hash Fetch returned, or "" for a new branch) with msg and author, and
// pushes it to r.Ref, returning the new commit's hash. Symlinks, submodules
// and the executable bit of the parent's tree are carried over for paths
// files does not replace. Without force, a push that would not be a
// fast-forward (the branch moved since parent, or exists when parent is "")
// fails with a Conflict wrapping ErrNonFastForward and leaves the remote
// unchanged; with force it overwrites the branch. Other errors are as for
// Fetch; bad paths, author or parent are Invalid.
func (c *Client) Push(ctx context.Context, r Remote, cacheID, parent string, files map[string][]byte, msg string, author Signature, force bool) (string, error) {
	ep, err := c.endpoint(r)
	if err != nil {
		return "", err
	}
	var parentHash plumbing.Hash
	if parent != "" {
		if len(parent) != 40 || !plumbing.IsHash(parent) {
			return "", folio.FieldErrorf("parent", "parent must be a 40-character commit hash")
		}
		parentHash = plumbing.NewHash(parent)
	}
	if strings.TrimSpace(author.Name) == "" || strings.TrimSpace(author.Email) == "" ||
		strings.ContainsAny(author.Name+author.Email, "<>\n\x00") || len(author.Name)+len(author.Email) > 512 {
		return "", folio.FieldErrorf("author", "author needs a name and an email without <, > or line breaks")
	}
	if !utf8.ValidString(msg) || strings.ContainsRune(msg, 0) || len(msg) > 64<<10 {
		return "", folio.FieldErrorf("commitMessage", "commit message must be UTF-8 text of at most 65536 bytes")
	}
	if err := c.checkFiles(files); err != nil {
		return "", err
	}

	ctx, cancel := c.opContext(ctx)
	defer cancel()
	if err := c.pinSSH(ctx, ep); err != nil {
		return "", err
	}
	st := &opState{http: c.o.HTTP, budget: c.o.MaxBytes}
	ctx = withOp(ctx, st)
	rc, err := c.openCache(ctx, cacheID, ep, st)
	if err != nil {
		return "", c.mapError(ctx, ep, err)
	}
	defer rc.close()

	// The remote's tip must be in the cache for go-git to tell a
	// fast-forward, and the parent for the pack to hold only new objects.
	if _, err := c.fetchRef(ctx, rc, ep); err != nil {
		return "", err
	}
	var parents []plumbing.Hash
	special := map[string]entryInfo{}
	if !parentHash.IsZero() {
		pc, err := object.GetCommit(rc.sto, parentHash)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			if !force {
				return "", kindError(folio.Conflict, ErrNonFastForward, nil, "the parent commit %s is no longer on the branch %s", parent, ep.ref.Short())
			}
			return "", folio.FieldErrorf("parent", "the parent commit %s is not in the repository", parent)
		}
		if err != nil {
			return "", fmt.Errorf("gitrepo: read parent: %w", err)
		}
		parents = []plumbing.Hash{parentHash}
		w, err := c.readTree(ctx, rc.sto, pc.TreeHash)
		if err != nil {
			return "", err
		}
		special = w.special
	}

	treeHash, err := writeTree(rc.sto, files, special)
	if err != nil {
		return "", err
	}
	when := author.When
	if when.IsZero() {
		when = time.Now()
	}
	sig := object.Signature{Name: author.Name, Email: author.Email, When: when}
	commit := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: treeHash, ParentHashes: parents}
	commitHash, err := storeObject(rc.sto, commit)
	if err != nil {
		return "", err
	}
	if err := rc.sto.SetReference(plumbing.NewHashReference(pushRef, commitHash)); err != nil {
		return "", fmt.Errorf("gitrepo: set push ref: %w", err)
	}
	defer rc.sto.RemoveReference(pushRef)

	spec := pushRef.String() + ":" + ep.ref.String()
	if force {
		spec = "+" + spec
	}
	remote := git.NewRemote(rc.sto, &config.RemoteConfig{Name: "origin", URLs: []string{ep.dialURL()}})
	err = remote.PushContext(ctx, &git.PushOptions{
		RemoteName: "origin",
		RefSpecs:   []config.RefSpec{config.RefSpec(spec)},
		Auth:       ep.auth,
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return "", c.mapError(ctx, ep, err)
	}
	// The cache mirrors the remote branch.
	if err := rc.sto.SetReference(plumbing.NewHashReference(ep.ref, commitHash)); err != nil {
		return "", fmt.Errorf("gitrepo: update cached ref: %w", err)
	}
	return commitHash.String(), nil
}

// checkFiles validates the paths and total size of a tree to push.
func (c *Client) checkFiles(files map[string][]byte) error {
	if len(files) > c.o.MaxFiles {
		return kindError(folio.Invalid, ErrTooLarge, nil, "a commit may hold at most %d files", c.o.MaxFiles)
	}
	var total int64
	for p, data := range files {
		total += int64(len(data))
		if !validPath(p) {
			return folio.FieldErrorf("files", "file path %q is not a valid repository path", truncate(p, 100))
		}
	}
	if total > c.o.MaxBytes {
		return kindError(folio.Invalid, ErrTooLarge, nil, "the files are larger than the limit of %d bytes", c.o.MaxBytes)
	}
	return nil
}

func validPath(p string) bool {
	if p == "" || len(p) > maxPathLen || !utf8.ValidString(p) || strings.Count(p, "/") > maxDepth {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if !safeName(seg) {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// dirNode is a directory of the tree being written.
type dirNode struct {
	entries map[string]object.TreeEntry // files, symlinks, submodules
	dirs    map[string]*dirNode
}

func newDir() *dirNode {
	return &dirNode{entries: map[string]object.TreeEntry{}, dirs: map[string]*dirNode{}}
}

// writeTree stores the blobs and trees of files, with the preserved special
// entries of the parent, and returns the root tree's hash.
func writeTree(s storer.EncodedObjectStorer, files map[string][]byte, special map[string]entryInfo) (plumbing.Hash, error) {
	root := newDir()
	// Files first, sorted, so a path clash is reported the same way each time.
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		blob := &plumbing.MemoryObject{}
		blob.SetType(plumbing.BlobObject)
		if _, err := blob.Write(files[p]); err != nil {
			return plumbing.ZeroHash, err
		}
		h, err := s.SetEncodedObject(blob)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("gitrepo: store blob: %w", err)
		}
		mode := filemode.Regular
		if sp, ok := special[p]; ok && sp.mode == filemode.Executable {
			mode = filemode.Executable
		}
		if !root.add(p, object.TreeEntry{Mode: mode, Hash: h}) {
			return plumbing.ZeroHash, folio.FieldErrorf("files", "file path %q clashes with another file's directory", truncate(p, 100))
		}
	}
	// Preserved entries go in only where no file or directory took their place.
	for p, sp := range special {
		if sp.mode == filemode.Executable {
			continue
		}
		if _, replaced := files[p]; !replaced {
			root.add(p, object.TreeEntry{Mode: sp.mode, Hash: sp.hash})
		}
	}
	return root.store(s)
}

// add places an entry at path p, reporting false when a file and a
// directory would share a name.
func (d *dirNode) add(p string, e object.TreeEntry) bool {
	segs := strings.Split(p, "/")
	for _, seg := range segs[:len(segs)-1] {
		if _, isFile := d.entries[seg]; isFile {
			return false
		}
		sub := d.dirs[seg]
		if sub == nil {
			sub = newDir()
			d.dirs[seg] = sub
		}
		d = sub
	}
	name := segs[len(segs)-1]
	if _, isDir := d.dirs[name]; isDir {
		return false
	}
	if _, exists := d.entries[name]; exists {
		return false
	}
	e.Name = name
	d.entries[name] = e
	return true
}

func (d *dirNode) store(s storer.EncodedObjectStorer) (plumbing.Hash, error) {
	tree := &object.Tree{}
	for _, e := range d.entries {
		tree.Entries = append(tree.Entries, e)
	}
	for name, sub := range d.dirs {
		h, err := sub.store(s)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		tree.Entries = append(tree.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	// Git orders entries by name, comparing a directory as if it ended in "/".
	sortKey := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(tree.Entries, func(i, j int) bool { return sortKey(tree.Entries[i]) < sortKey(tree.Entries[j]) })
	return storeObject(s, tree)
}

// encoder is an object (tree, commit) that encodes itself.
type encoder interface {
	Encode(plumbing.EncodedObject) error
}

func storeObject(s storer.EncodedObjectStorer, o encoder) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("gitrepo: encode object: %w", err)
	}
	h, err := s.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("gitrepo: store object: %w", err)
	}
	return h, nil
}
