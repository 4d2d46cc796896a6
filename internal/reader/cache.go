package reader

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/lru"
	"github.com/prometheus/client_golang/prometheus"
)

// The reader caches, per process, what a document page shows of its
// revision: the rendered article, the navigation, the table of contents,
// breadcrumbs and previous/next. Revisions never change, so an entry is
// keyed by what it was made of and can never be stale, only evicted;
// several servers each keep their own without coordination:
//
//   - the space and revision ids, and the page id;
//   - the URL prefix of the site space (site base path, section and site
//     space paths, which site settings may change), which every page link
//     carries;
//   - the hour window of the signed file URLs (see app.Content.FileURL),
//     which image and file links carry;
//   - for a page with OpenAPI blocks, the latest version of each
//     specification they name (see below).
//
// OpenAPI blocks show the latest version of a specification, which
// changes without a new revision. Which specifications a page names is
// fixed by its revision, so its parts record them (Specs) with the
// versions they were rendered from (Versions). A request that finds such
// parts asks the app for the specifications' current latest versions (one
// read transaction, app.OpenAPILatestVersions) and uses the parts only
// when they match; the whole-page key carries the versions, so a page of
// an older version is never served either: a new version shows on the
// next request, on every server. Parts are the first thing looked up,
// before the whole page, because they say whether the page has such
// blocks; a page whose parts were evicted is rendered again (pages of
// OpenAPI pages always carry versions in their key, so the key without
// them cannot find one). A page whose specification lookup failed for
// another reason than absence shows a note and is not cached.
//
// Everything that depends on the visitor or on mutable site settings (the
// site's visibility and share key, which site spaces and sections the
// visitor may see, the customization, title and theme) is not in an entry:
// it is looked up and rendered on every request around the cached parts.

// DefaultCacheBytes is the default bound of the rendered HTML cache.
const DefaultCacheBytes = 64 << 20

// pageParts is what a document page shows of its revision.
type pageParts struct {
	Title, Description string
	NoIndex            bool
	Body               template.HTML // the article's blocks
	Nav                template.HTML // the navigation tree
	TOC                []heading
	Breadcrumbs        []link
	Prev, Next         *link
	Cover              *block // the page's cover image, when it shows one
	// Specs are the specifications the page's OpenAPI blocks name, and
	// Versions the latest version of each when rendered ("" for none).
	Specs    []string
	Versions []folio.ID
	// transient: a specification could not be read; not to be cached.
	transient bool
	// stub: only Specs and Versions are kept, what finding the page's
	// whole page again needs (htmlCache.putPage); the HTML is not.
	stub bool
}

// size estimates the bytes an entry holds.
func (p *pageParts) size(key string) int {
	n := 256 + len(key) + len(p.Title) + len(p.Description) + len(p.Body) + len(p.Nav)
	if p.Cover != nil {
		n += 64 + len(p.Cover.Src) + len(p.Cover.DarkSrc)
	}
	for _, h := range p.TOC {
		n += 48 + len(h.ID) + len(h.Text)
	}
	for _, l := range p.Breadcrumbs {
		n += 48 + len(l.Title) + len(l.Href)
	}
	for _, l := range []*link{p.Prev, p.Next} {
		if l != nil {
			n += 48 + len(l.Title) + len(l.Href)
		}
	}
	for i := range p.Specs {
		n += 32 + len(p.Specs[i]) + len(p.Versions[i])
	}
	return n
}

// partsKey is the cache key of a page of content c under the URL prefix,
// in the language of the site space's interface strings.
func partsKey(c *app.Content, pageID, prefix, lang string) string {
	return strings.Join([]string{c.Space.ID, c.Revision.ID, pageID, prefix,
		strconv.FormatInt(c.FileURLWindow(), 10), lang}, "\x00")
}

// pageKey is the cache key of a whole document page as one visitor sees
// it: everything the page is rendered from. The site's profile (its key
// changes with any stored setting it is built from), the site spaces and
// sections this visitor sees (their claims decide), the theme they chose,
// the addresses (base, host, the request's own path and query, which the
// theme form returns to), and the parts' key (revision, page, prefix and
// file URL window), and the OpenAPI versions shown (versionsKey). "" when
// the profile has no key: not cached.
func pageKey(q *request, c *app.Content, sp *placed, all []placed, sections []*folio.SiteSectionView, node content.PageNode, versions string) string {
	if q.site.ProfileKey == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("page\x00")
	for _, s := range []string{q.site.ProfileKey, q.base, q.absolute, returnPath(q.r), chosenTheme(q), sp.ss.ID,
		partsKey(c, node.Page.ID, q.base+sp.prefix, localeOf(q.customization(&sp.ss))), versions} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	for i := range all {
		b.WriteString(all[i].ss.ID)
		b.WriteString(all[i].prefix)
		b.WriteByte(1)
	}
	for _, s := range sections {
		b.WriteString(s.ID)
		b.WriteByte(2)
	}
	return b.String()
}

// cachedParts returns the cached parts under key when they are current
// (their OpenAPI versions are the latest), else nil; versions is the
// versionsKey of the latest versions of the specifications the cached
// parts name ("" when there are none or no parts are cached).
func (h *Handler) cachedParts(ctx context.Context, c *app.Content, key string) (p *pageParts, versions string, err error) {
	p, ok := h.cache.peek(key)
	if !ok {
		return nil, "", nil
	}
	if len(p.Specs) == 0 {
		return p, "", nil
	}
	latest, err := h.app.OpenAPILatestVersions(ctx, c.Space.OrganizationID, p.Specs)
	if err != nil {
		return nil, "", err
	}
	versions = versionsKey(p.Specs, latest)
	if versions != versionsKey(p.Specs, p.Versions) {
		return nil, versions, nil
	}
	return p, versions, nil
}

// pageParts renders the parts of a document page from its document (the
// only case that loads it) and caches them.
func (h *Handler) pageParts(ctx context.Context, q *request, c *app.Content, sp *placed, node content.PageNode) (*pageParts, error) {
	doc, err := h.app.ReaderDocument(ctx, c, node.Page)
	if err != nil {
		return nil, err
	}
	r := q.renderer(c, sp)
	r.openapi = newOpResolver(ctx, h.app, c.Space.OrganizationID)
	p, err := renderParts(q, c, sp, node, doc, r)
	if err != nil {
		return nil, err
	}
	p.Specs, p.Versions, p.transient = r.openapi.refs, r.openapi.used, r.openapi.transient
	if !p.transient {
		h.cache.put(partsKey(c, node.Page.ID, q.base+sp.prefix, localeOf(q.customization(&sp.ss))), p)
	}
	return p, nil
}

// renderParts renders the parts of a document page with r.
func renderParts(q *request, c *app.Content, sp *placed, node content.PageNode, doc *content.Document, r *renderer) (*pageParts, error) {
	paths := c.Paths()
	pageURL := func(p *content.Page) string { return q.base + sp.prefix + "/" + escapePath(paths[p.ID]) }
	p := &pageParts{Title: node.Page.Title, Description: node.Page.Description,
		NoIndex: node.Page.NoIndex || node.Page.NoRobotsIndex}
	var err error
	if p.Body, err = fragment("blocks", r.document(doc)); err != nil {
		return nil, err
	}
	p.TOC = r.headings
	if cv := node.Page.Cover; cv != nil && (node.Page.Layout == nil || node.Page.Layout.Cover) {
		var ref, dark any
		_ = decodeJSON(cv.Ref, &ref)
		_ = decodeJSON(cv.RefDark, &dark)
		img := r.image(&content.Node{Data: map[string]any{"ref": ref, "refDark": dark}})
		if img.Src != "" {
			p.Cover = &img
		}
	}
	if p.Nav, err = fragment("tree", navOf(c, node, pageURL, r.ref, func(t string) string { return fmt.Sprintf(r.s("subpages"), t) })); err != nil {
		return nil, err
	}
	if prev, next := prevNext(c, node); prev != nil || next != nil {
		if prev != nil {
			p.Prev = &link{Title: prev.Title, Href: pageURL(prev)}
		}
		if next != nil {
			p.Next = &link{Title: next.Title, Href: pageURL(next)}
		}
	}
	for id := node.Parent; id != ""; {
		n, ok := c.Node(id)
		if !ok {
			break
		}
		bc := link{Title: n.Page.Title}
		if n.Page.Type == content.PageDocument {
			bc.Href = pageURL(n.Page)
		}
		p.Breadcrumbs = append([]link{bc}, p.Breadcrumbs...)
		id = n.Parent
	}
	return p, nil
}

// fragment executes a template of the page for its HTML, which the page
// template then includes as is.
func fragment(name string, data any) (template.HTML, error) {
	var buf strings.Builder
	if err := pageTemplate.ExecuteTemplate(&buf, name, data); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil //nolint:gosec // html/template's own escaped output
}

// htmlCache is a least-recently-used cache of page parts and whole pages
// bounded in bytes, with Prometheus metrics.
type htmlCache struct {
	lru *lru.Cache[string, *cacheEntry]

	hits, misses, evictions prometheus.CounterFunc
	bytes, entries, limit   prometheus.GaugeFunc
}

type cacheEntry struct {
	parts *pageParts // a page's parts, or
	page  []byte     // a whole page (pageKey), gzip-compressed
	n     int        // the whole page's length uncompressed
	size  int
}

func newHTMLCache(maxBytes int) *htmlCache {
	c := &htmlCache{lru: lru.New(int64(maxBytes), func(_ string, e *cacheEntry) int64 { return int64(e.size) })}
	stat := func(f func(lru.Stats) float64) func() float64 {
		return func() float64 { return f(c.lru.Stats()) }
	}
	c.hits = prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "folio_reader_cache_hits_total",
		Help: "Reader pages whose rendered HTML came from the cache."}, stat(func(s lru.Stats) float64 { return float64(s.Hits) }))
	c.misses = prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "folio_reader_cache_misses_total",
		Help: "Reader pages rendered because their HTML was not in the cache."}, stat(func(s lru.Stats) float64 { return float64(s.Misses) }))
	c.evictions = prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "folio_reader_cache_evictions_total",
		Help: "Rendered pages dropped from the reader cache to stay within its bound."}, stat(func(s lru.Stats) float64 { return float64(s.Evictions) }))
	c.bytes = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "folio_reader_cache_bytes",
		Help: "Estimated bytes of rendered HTML held by the reader cache."}, stat(func(s lru.Stats) float64 { return float64(s.Used) }))
	c.entries = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "folio_reader_cache_entries",
		Help: "Rendered pages held by the reader cache."}, stat(func(s lru.Stats) float64 { return float64(s.Entries) }))
	c.limit = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "folio_reader_cache_limit_bytes",
		Help: "The bound of the reader cache in bytes."}, stat(func(s lru.Stats) float64 { return float64(s.Limit) }))
	return c
}

// get returns a page's parts. A request counts once in the metrics: a
// hit when its whole page (getPage) or its parts were cached, a miss when
// the parts had to be rendered.
func (c *htmlCache) get(key string) (*pageParts, bool) {
	p, ok := c.peek(key)
	if !ok {
		c.lru.CountMiss()
		return nil, false
	}
	c.lru.CountHit()
	return p, true
}

// peek returns a page's parts without counting a hit or a miss (the
// caller counts with hit or miss once it knows).
func (c *htmlCache) peek(key string) (*pageParts, bool) {
	e, ok := c.lru.Peek(key)
	if !ok || e.parts == nil {
		return nil, false
	}
	return e.parts, true
}

// hit and miss count a request whose parts were cached or rendered.
func (c *htmlCache) hit()  { c.lru.CountHit() }
func (c *htmlCache) miss() { c.lru.CountMiss() }

// getPage returns a whole page cached under a pageKey, gzip-compressed,
// with its length uncompressed.
func (c *htmlCache) getPage(key string) (gz []byte, n int, ok bool) {
	if key == "" {
		return nil, 0, false
	}
	e, ok := c.lru.Peek(key)
	if !ok || e.page == nil {
		return nil, 0, false // counted by get
	}
	c.lru.CountHit()
	return e.page, e.n, true
}

// put adds a page's parts, replacing parts under the same key (rendered
// again for newer OpenAPI versions); an entry larger than the whole bound
// is not kept.
func (c *htmlCache) put(key string, p *pageParts) {
	c.lru.Add(key, &cacheEntry{parts: p, size: p.size(key)})
}

// putPage adds a whole page (see put) rendered from the parts p cached
// under partsKey, and replaces those parts with a stub that keeps only
// their OpenAPI specifications and versions: the whole page already holds
// their HTML, and keeping both would hold each page twice (about 30 KB
// each, the reader's largest use of memory). The stub is what finds the
// page again (its key carries the versions); a visitor who sees the page
// differently (another theme or set of sections) renders the parts again.
//
// The page is held gzip-compressed (docs/decisions.md, "Reader pages
// cached compressed"): about a fifth of its length, sent as it is to the
// browsers that accept gzip (all of them) and inflated for the clients
// that do not. The bound counts the compressed bytes held.
func (c *htmlCache) putPage(key string, b []byte, partsKey string, p *pageParts) {
	gz := compressPage(b)
	c.lru.Add(key, &cacheEntry{page: gz, n: len(b), size: 128 + len(key) + cap(gz)})
	if p.stub {
		return
	}
	if e, ok := c.lru.Peek(partsKey); ok && e.parts == p {
		s := &pageParts{Specs: p.Specs, Versions: p.Versions, stub: true}
		c.lru.Add(partsKey, &cacheEntry{parts: s, size: s.size(partsKey)})
	}
}

// SetCacheBytes bounds the rendered HTML cache (DefaultCacheBytes unless
// set); 0 or less turns it off. Call it before serving.
func (h *Handler) SetCacheBytes(n int) {
	h.cache = newHTMLCache(max(n, 0))
}

// Describe and Collect make the Handler a Prometheus collector of its
// cache's metrics (httpapi registers it with the server's).
func (h *Handler) Describe(ch chan<- *prometheus.Desc) { prometheus.DescribeByCollect(h, ch) }

// Collect sends the cache's metrics.
func (h *Handler) Collect(ch chan<- prometheus.Metric) {
	c := h.cache
	for _, m := range []prometheus.Collector{c.hits, c.misses, c.evictions, c.bytes, c.entries, c.limit} {
		m.Collect(ch)
	}
}

// compressPage gzips a page into a slice of exactly its compressed
// length (a growing buffer would hold up to twice it).
func compressPage(b []byte) []byte {
	buf := gzipBuffers.Get().(*bytes.Buffer)
	defer gzipBuffers.Put(buf)
	buf.Reset()
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(buf)
	_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	return bytes.Clone(buf.Bytes())
}

// inflatePage is compressPage undone, into a slice of the page's length n.
func inflatePage(gz []byte, n int) ([]byte, error) {
	r := gzipReaders.Get().(*gzip.Reader)
	defer gzipReaders.Put(r)
	if err := r.Reset(bytes.NewReader(gz)); err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

var (
	gzipBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	gzipWriters = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
		return w
	}}
	gzipReaders = sync.Pool{New: func() any { return new(gzip.Reader) }}
)
