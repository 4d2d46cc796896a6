package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/foliodocs/folio/internal/store"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

var (
	errPageNotFound     = folio.Errorf(folio.NotFound, "page not found")
	errFileNotFound     = folio.Errorf(folio.NotFound, "file not found")
	errRevisionNotFound = folio.Errorf(folio.NotFound, "revision not found")
)

// Content is one revision of a space as a caller sees it.
type Content struct {
	Space    *folio.SpaceView
	Revision *folio.Revision
	Tree     *content.Tree
	// MergedFrom is the change request a merge revision merged.
	MergedFrom *ChangeRequestView
	rt         *revTree
	urls       fileURLs
}

// Paths returns the path of every document and group page by id, built on
// first use for the revision.
func (c *Content) Paths() map[string]string { return c.rt.pathIndex() }

// chain returns the indexes leading from the top of the tree to a page
// (see content.Tree.EditAt), from the lookups: O(depth).
func (c *Content) chain(pageID string) []int {
	var rev []int
	for id := pageID; ; {
		n, ok := c.rt.index().nodes.Node(id)
		if !ok || len(rev) > content.MaxPageDepth {
			return nil
		}
		rev = append(rev, n.Index)
		if n.Parent == "" {
			break
		}
		id = n.Parent
	}
	slices.Reverse(rev)
	return rev
}

// Node returns a page of the revision with its place in the tree.
func (c *Content) Node(pageID string) (content.PageNode, bool) {
	n, ok := c.rt.index().nodes.Node(pageID)
	return n, ok
}

// File returns a file of the revision by id.
func (c *Content) File(fileID string) (content.File, bool) {
	i, ok := c.rt.index().files[fileID]
	if !ok {
		return content.File{}, false
	}
	return c.Tree.Files[i], true
}

// PageContent is a page read: the page in its revision and, as asked, its
// document or its Markdown.
type PageContent struct {
	*Content
	Node     content.PageNode
	Document json.RawMessage // set for FormatDocument: the stored JSON
	Markdown *string         // set for FormatMarkdown
}

// hashHex converts a content hash to the store's key.
func hashHex(h content.Hash) string { return h.String() }

// fetcher loads objects through tx for content.LoadTree.
func fetcher(ctx context.Context, tx *store.Tx) content.Fetch {
	return func(hashes []content.Hash) (map[content.Hash][]byte, error) {
		keys := make([]string, len(hashes))
		for i, h := range hashes {
			keys[i] = hashHex(h)
		}
		got, err := store.GetObjects(ctx, tx, keys)
		if err != nil {
			return nil, err
		}
		out := make(map[content.Hash][]byte, len(got))
		for _, h := range hashes {
			if o, ok := got[hashHex(h)]; ok {
				out[h] = o.Data
			}
		}
		return out, nil
	}
}

// loadTree returns the decoded tree stored under hash, from the cache when
// possible.
func (a *App) loadTree(ctx context.Context, tx *store.Tx, hash string) (*revTree, error) {
	h, err := content.ParseHash(hash)
	if err != nil {
		return nil, fmt.Errorf("revision tree hash %q: %w", hash, err)
	}
	if rt, ok := a.trees.Get(h); ok {
		return rt, nil
	}
	t, err := content.LoadTree(h, fetcher(ctx, tx))
	if err != nil {
		return nil, fmt.Errorf("load revision tree: %w", err)
	}
	rt := newRevTree(t, -1)
	a.trees.Add(h, rt)
	return rt, nil
}

// emptyDocumentJSON is the JSON of an empty document (the zero hash).
var emptyDocumentJSON = func() []byte {
	b, _ := content.NewDocument().MarshalJSON()
	return b
}()

// loadDocumentJSON returns the JSON of the document stored under h, with
// keys and anchors (upgradeStored); the zero hash is an empty document.
func (a *App) loadDocumentJSON(ctx context.Context, tx *store.Tx, h content.Hash) ([]byte, error) {
	if h.IsZero() {
		return emptyDocumentJSON, nil
	}
	if b, ok := a.docs.Get(h); ok {
		return b, nil
	}
	got, err := store.GetObjects(ctx, tx, []string{hashHex(h)})
	if err != nil {
		return nil, err
	}
	o, ok := got[hashHex(h)]
	if !ok {
		return nil, fmt.Errorf("document object %s is missing", h)
	}
	b, err := upgradeStored(h, o.Data)
	if err != nil {
		return nil, err
	}
	a.docs.Add(h, b)
	return b, nil
}

// loadDocument returns the document stored under h, decoded.
func (a *App) loadDocument(ctx context.Context, tx *store.Tx, h content.Hash) (*content.Document, error) {
	b, err := a.loadDocumentJSON(ctx, tx, h)
	if err != nil {
		return nil, err
	}
	return decodeDocument(h, b)
}

// decodeDocument decodes document h, stored as b, with keys and anchors
// (content.Upgrade).
func decodeDocument(h content.Hash, b []byte) (*content.Document, error) {
	d := new(content.Document)
	if err := d.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("decode document %s: %w", h, err)
	}
	content.Upgrade(d, h)
	return d, nil
}

// revisionContent loads a revision of a space the caller may view:
// revisionID "" is the space's current revision.
func (a *App) revisionContent(ctx context.Context, tx *store.Tx, caller folio.Caller, spaceID, revisionID folio.ID) (*Content, error) {
	sv, _, err := space(ctx, tx, caller, spaceID)
	if err != nil {
		return nil, err
	}
	if caller.Site != nil && revisionID != "" && revisionID != sv.Revision {
		// A site API token reads only what is published: current revisions.
		return nil, errRevisionNotFound
	}
	return a.contentOf(ctx, tx, sv, revisionID)
}

func (a *App) contentOf(ctx context.Context, tx *store.Tx, sv *folio.SpaceView, revisionID folio.ID) (*Content, error) {
	if revisionID == "" {
		revisionID = sv.Revision
	}
	rev, err := store.GetRevision(ctx, tx, sv.ID, revisionID)
	if folio.IsNotFound(err) {
		return nil, errRevisionNotFound
	}
	if err != nil {
		return nil, err
	}
	rt, err := a.loadTree(ctx, tx, rev.TreeHash)
	if err != nil {
		return nil, err
	}
	c := &Content{Space: sv, Revision: rev, Tree: rt.tree, rt: rt}
	if rev.Type == folio.RevisionMerge {
		if c.MergedFrom, err = a.mergedFrom(ctx, tx, sv, rev.ID); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// GetContent returns a revision of a space (revisionID "" for the current
// one) the caller may view.
func (a *App) GetContent(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID) (c *Content, err error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err = a.revisionContent(ctx, tx, caller, spaceID, revisionID)
		if c != nil {
			c.urls = urls
		}
		return err
	})
	return c, err
}

// GetPage returns one page of a revision, by id or (when pageID is empty)
// by path, with its body in the format asked for.
func (a *App) GetPage(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID, pageID, path string, opts folio.PageOptions) (pc *PageContent, err error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		c, err := a.revisionContent(ctx, tx, caller, spaceID, revisionID)
		if err != nil {
			return err
		}
		c.urls = urls
		var (
			n  content.PageNode
			ok bool
		)
		if pageID != "" {
			n, ok = c.Node(pageID)
		} else if path != "" {
			n, err = content.FindByPath(c.Tree, path)
			ok = err == nil
		}
		if !ok {
			return errPageNotFound
		}
		pc = &PageContent{Content: c, Node: n}
		if opts.Format == "" || n.Page.Type != content.PageDocument {
			return nil
		}
		if opts.Format == folio.FormatDocument {
			pc.Document, err = a.pageDocumentJSON(ctx, tx, c.Space.OrganizationID, n.Page, opts.Computed)
			return err
		}
		doc, err := a.pageDocument(ctx, tx, c.Space.OrganizationID, n.Page, opts.Computed)
		if err != nil {
			return err
		}
		if doc == nil {
			doc = content.NewDocument()
		}
		md, err := markdown.FromDocument(doc, contentLinks{c})
		if err != nil {
			return err
		}
		s := string(md)
		pc.Markdown = &s
		return nil
	})
	return pc, err
}

// ListFiles returns one page of a revision's files, ordered by id.
func (a *App) ListFiles(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID, opts folio.ListOptions) (c *Content, l folio.List[content.File], err error) {
	if opts.After != nil && !opts.After.Matches("s") {
		return nil, l, folio.ErrBadCursor()
	}
	c, err = a.GetContent(ctx, caller, spaceID, revisionID)
	if err != nil {
		return nil, l, err
	}
	files := c.rt.index().byID
	start := 0
	if opts.After != nil {
		after := opts.After[0].(string)
		for start < len(files) && files[start].ID <= after {
			start++
		}
	}
	end := min(start+opts.Limit, len(files))
	l = folio.List[content.File]{Items: files[start:end], Count: len(files)}
	if end < len(files) {
		l.Next = folio.EncodeCursor(files[end-1].ID)
	}
	return c, l, nil
}

// GetFile returns one file of a revision.
func (a *App) GetFile(ctx context.Context, caller folio.Caller, spaceID, revisionID folio.ID, fileID string) (*Content, content.File, error) {
	c, err := a.GetContent(ctx, caller, spaceID, revisionID)
	if err != nil {
		return nil, content.File{}, err
	}
	f, ok := c.File(fileID)
	if !ok {
		return nil, content.File{}, errFileNotFound
	}
	return c, f, nil
}

// contentLinks writes page and file references of Markdown output as URLs:
// pages by their app URL, files by their download URL.
type contentLinks struct{ c *Content }

func (l contentLinks) PagePath(pageID, anchor string) string {
	u := l.c.urls.base + "/s/" + l.c.Space.ID
	if p, ok := l.c.Paths()[pageID]; ok {
		u += "/" + p
	}
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}

func (l contentLinks) FilePath(fileID string) string {
	if f, ok := l.c.File(fileID); ok {
		return l.c.FileURL(f)
	}
	return "file:" + fileID
}

// blobKey is where a file's bytes live in the bucket.
func blobKey(h content.Hash) string { return blobPrefix + h.String() }

// The bucket's folders: files' bytes, PDF exports, integration assets.
const (
	blobPrefix  = "blobs/"
	pdfPrefix   = "pdf/"
	assetPrefix = "integrations/assets/"
)

// fileURLLifetime is how long a download URL stays valid at least; URLs are
// issued per hour window so that repeated reads give the same URL.
const fileURLLifetime = time.Hour

// fileURLs signs download URLs.
type fileURLs struct {
	base string
	key  []byte
	now  time.Time
}

// fileURLs returns the signer of download URLs for this request.
func (a *App) fileURLs(ctx context.Context) (fileURLs, error) {
	key, err := a.secret(ctx, "file-urls")
	if err != nil {
		return fileURLs{}, err
	}
	return fileURLs{base: a.publicURL, key: []byte(key), now: a.clock.Now()}, nil
}

func (u fileURLs) sign(hash, name, contentType string, expires int64) string {
	return u.mac(hash, name, contentType, strconv.FormatInt(expires, 10))
}

// mac signs the fields of a URL, one per line. Download URLs sign four
// fields starting with a content hash; other signed URLs (print.go) start
// with a word naming their kind, so no URL's signature fits another kind.
func (u fileURLs) mac(fields ...string) string {
	m := hmac.New(sha256.New, u.key)
	for i, f := range fields {
		if i > 0 {
			m.Write([]byte{'\n'})
		}
		m.Write([]byte(f))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// FileURL returns the signed download URL of a file of the revision.
func (c *Content) FileURL(f content.File) string {
	expires := c.urls.now.Truncate(fileURLLifetime).Add(2 * fileURLLifetime).Unix()
	q := url.Values{}
	q.Set("name", f.Name)
	q.Set("type", f.ContentType)
	q.Set("expires", strconv.FormatInt(expires, 10))
	q.Set("sig", c.urls.sign(f.Blob.String(), f.Name, f.ContentType, expires))
	return c.urls.base + "/v1/files/" + f.Blob.String() + "?" + q.Encode()
}

// Download is an open file download.
type Download struct {
	Reader      *blob.Reader
	Name        string
	ContentType string
	Size        int64
}

// OpenFile checks a signed download URL's parameters and opens the file's
// bytes. A bad or expired signature is NotFound, as is a missing blob.
func (a *App) OpenFile(ctx context.Context, hash string, q url.Values) (*Download, error) {
	notFound := folio.Errorf(folio.NotFound, "file not found or link expired")
	h, err := content.ParseHash(hash)
	if err != nil {
		return nil, notFound
	}
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil || a.clock.Now().Unix() > expires {
		return nil, notFound
	}
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	want := urls.sign(h.String(), q.Get("name"), q.Get("type"), expires)
	if !hmac.Equal([]byte(want), []byte(q.Get("sig"))) {
		return nil, notFound
	}
	r, err := a.blobs.NewReader(ctx, blobKey(h), nil)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, notFound
		}
		return nil, fmt.Errorf("open blob %s: %w", h, err)
	}
	return &Download{Reader: r, Name: q.Get("name"), ContentType: q.Get("type"), Size: r.Size()}, nil
}
