package reader

import (
	"fmt"
	"html/template"
	"strings"
	"testing"
)

// TestHTMLCacheBound: the cache never holds more bytes than its bound,
// evicts the least recently used entries first, and keeps nothing larger
// than the bound (nor anything at all when the bound is 0).
func TestHTMLCacheBound(t *testing.T) {
	t.Parallel()
	part := func(n int) *pageParts { return &pageParts{Body: template.HTML(strings.Repeat("x", n))} }
	c := newHTMLCache(20_000)
	const bound = 20_000
	usage := func() (int, int) { s := c.lru.Stats(); return int(s.Used), s.Entries }
	for i := range 200 {
		c.put(fmt.Sprint(i), part(1000))
		if _, ok := c.get("0"); !ok {
			t.Fatalf("after %d puts, the entry read after each put was evicted", i)
		}
		if used, _ := usage(); used > bound {
			t.Fatalf("after %d puts, %d bytes held, bound %d", i, used, bound)
		}
	}
	used, n := usage()
	if n < 10 || n > 20 || used > bound {
		t.Fatalf("%d entries of %d bytes held", n, used)
	}
	if _, ok := c.get("1"); ok {
		t.Fatal("the least recently used entry was kept")
	}
	if _, ok := c.get("199"); !ok {
		t.Fatal("the newest entry was evicted")
	}
	c.put("big", part(30_000))
	if _, ok := c.get("big"); ok {
		t.Fatal("an entry larger than the bound was kept")
	}
	if used2, n2 := usage(); used2 != used || n2 != n {
		t.Fatalf("refusing an entry changed the cache: %d/%d entries, %d/%d bytes", n2, n, used2, used)
	}

	off := newHTMLCache(0)
	off.put("a", part(1))
	if _, ok := off.get("a"); ok {
		t.Fatal("a cache of 0 bytes kept an entry")
	}
}

// TestHTMLCacheOneCopy: once the whole page made from a page's parts is
// cached, the parts' HTML is no longer held, only their OpenAPI
// specifications and versions; the bytes held are the page's and a small
// stub's. Parts that are not the ones cached under the key are left alone.
func TestHTMLCacheOneCopy(t *testing.T) {
	t.Parallel()
	c := newHTMLCache(1 << 20)
	parts := &pageParts{Title: "Install", Body: template.HTML(strings.Repeat("b", 20_000)),
		Nav: template.HTML(strings.Repeat("n", 10_000)), Specs: []string{"petstore"}, Versions: []string{"v1"}}
	c.put("parts", parts)
	// A page as rendered: in a buffer with room to spare, which the cache
	// does not keep; held compressed.
	page := make([]byte, 31_000, 60_000)
	for i := range page {
		page[i] = "<p>Folio keeps pages compressed.</p>\n"[i%37]
	}
	c.putPage("page", page, "parts", parts)

	stub, ok := c.peek("parts")
	if !ok || !stub.stub || stub.Body != "" || stub.Nav != "" || stub.Title != "" {
		t.Fatalf("the parts after their page was cached: %+v, %v", stub, ok)
	}
	if versionsKey(stub.Specs, stub.Versions) != versionsKey(parts.Specs, parts.Versions) {
		t.Fatalf("the stub lost the OpenAPI versions: %v %v", stub.Specs, stub.Versions)
	}
	gz, n, ok := c.getPage("page")
	if !ok || n != len(page) || cap(gz) > 4<<10 {
		t.Fatalf("the whole page is not cached compressed, without spare room: %d bytes held for %d (%v)", cap(gz), n, ok)
	}
	if b, err := inflatePage(gz, n); err != nil || string(b) != string(page) {
		t.Fatalf("the cached page does not inflate to the page rendered: %v", err)
	}
	if s := c.lru.Stats(); s.Entries != 2 || s.Used > 4<<10+1024 {
		t.Fatalf("%d entries of %d bytes held for a page of %d bytes", s.Entries, s.Used, len(page))
	}

	// Another visitor's page made from the stub (after its parts were
	// rendered again and replaced): the full parts stay until their own
	// page is cached; parts that are not the cached ones are not touched.
	again := &pageParts{Body: "again", Specs: parts.Specs, Versions: parts.Versions}
	c.put("parts", again)
	c.putPage("page-dark", page, "parts", parts)
	if p, _ := c.peek("parts"); p != again {
		t.Fatal("putPage replaced parts it was not made from")
	}
	c.putPage("page-dark", page, "parts", again)
	if p, _ := c.peek("parts"); !p.stub {
		t.Fatal("the parts were kept beside their page")
	}
}
