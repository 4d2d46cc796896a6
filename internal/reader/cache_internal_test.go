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
