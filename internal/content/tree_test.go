package content

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
)

// pg returns a document page whose slug and document derive from id.
func pg(id string, kids ...*Page) *Page {
	return &Page{ID: id, Type: PageDocument, Title: "Title " + id, Slug: id,
		Document: HashDocument(NewDocument("body " + id)), Pages: kids}
}

func tree(pages ...*Page) *Tree { return &Tree{Pages: pages} }

func TestHashRoundTrip(t *testing.T) {
	h := HashDocument(NewDocument("x"))
	got, err := ParseHash(h.String())
	if err != nil || got != h {
		t.Fatalf("ParseHash(%s) = %v, %v", h, got, err)
	}
	if _, err := ParseHash("zz"); folio.KindOf(err) != folio.Invalid {
		t.Fatalf("ParseHash(zz) error kind = %v, want invalid", folio.KindOf(err))
	}
	b, _ := json.Marshal(struct{ H Hash }{h})
	var back struct{ H Hash }
	if err := json.Unmarshal(b, &back); err != nil || back.H != h {
		t.Fatalf("JSON round trip = %v, %v", back.H, err)
	}
}

func TestHashDocumentIgnoresMapOrder(t *testing.T) {
	a := NewDocument("x")
	a.Data = map[string]any{}
	b := NewDocument("x")
	b.Data = map[string]any{}
	for i := range 50 {
		a.Data[fmt.Sprint("k", i)] = i
		b.Data[fmt.Sprint("k", 49-i)] = 49 - i
	}
	if HashDocument(a) != HashDocument(b) {
		t.Fatal("same document, different insertion order: hashes differ")
	}
	b.Data["k0"] = "changed"
	if HashDocument(a) == HashDocument(b) {
		t.Fatal("changed document kept its hash")
	}
}

func TestPageHashStableAcrossMapOrder(t *testing.T) {
	build := func(reverse bool) *Tree {
		vars := map[string]string{}
		for i := range 30 {
			k := i
			if reverse {
				k = 29 - i
			}
			vars[fmt.Sprint("v", k)] = fmt.Sprint(k)
		}
		p := pg("a", pg("b"))
		p.Variables = vars
		p.Target = json.RawMessage(`{"kind":"url","url":"x"}`)
		if reverse {
			p.Target = json.RawMessage(`{ "url": "x", "kind": "url" }`)
		}
		return &Tree{Pages: []*Page{p}, Variables: vars}
	}
	if build(false).Hash() != build(true).Hash() {
		t.Fatal("same tree, different map insertion order: hashes differ")
	}
}

func TestPageHashCoversEveryField(t *testing.T) {
	edits := map[string]func(p *Page){
		"id":            func(p *Page) { p.ID = "other" },
		"type":          func(p *Page) { p.Type = PageGroup },
		"title":         func(p *Page) { p.Title = "New" },
		"emoji":         func(p *Page) { p.Emoji = "🎉" },
		"icon":          func(p *Page) { p.Icon = "gear" },
		"slug":          func(p *Page) { p.Slug = "new" },
		"description":   func(p *Page) { p.Description = "d" },
		"layout":        func(p *Page) { p.Layout = &Layout{Width: "wide"} },
		"layout/field":  func(p *Page) { p.Layout = &Layout{Outline: true} },
		"cover":         func(p *Page) { p.Cover = &Cover{YPos: 3} },
		"hidden":        func(p *Page) { p.Hidden = true },
		"noIndex":       func(p *Page) { p.NoIndex = true },
		"noRobotsIndex": func(p *Page) { p.NoRobotsIndex = true },
		"variables":     func(p *Page) { p.Variables = map[string]string{"a": "b"} },
		"metaLinks":     func(p *Page) { p.MetaLinks = &MetaLinks{Canonical: "https://x"} },
		"git":           func(p *Page) { p.Git = &GitSync{OID: "1", Path: "a.md"} },
		"computed":      func(p *Page) { p.Computed = json.RawMessage(`{"a":1}`) },
		"target":        func(p *Page) { p.Target = json.RawMessage(`{"a":1}`) },
		"document":      func(p *Page) { p.Document = HashDocument(NewDocument("other")) },
		"children":      func(p *Page) { p.Pages = append(p.Pages, pg("new")) },
		"child order":   func(p *Page) { p.Pages[0], p.Pages[1] = p.Pages[1], p.Pages[0] },
		"child field":   func(p *Page) { c := p.Pages[0].Clone(); c.Title = "x"; p.Pages[0] = c },
	}
	base := tree(pg("root", pg("c1"), pg("c2")))
	before := base.Hash()
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			edited, err := base.Edit("root", edit)
			if err != nil {
				t.Fatal(err)
			}
			if edited.Hash() == before {
				t.Fatalf("changing %s kept the tree hash", name)
			}
			if base.Hash() != before {
				t.Fatal("Edit changed the original tree")
			}
		})
	}
	t.Run("path is not hashed", func(t *testing.T) {
		edited, _ := base.Edit("root", func(p *Page) { p.Path = "x/y" })
		if edited.Hash() != before {
			t.Fatal("path changed the hash")
		}
	})
}

func TestEditSharesUnchangedPages(t *testing.T) {
	a := tree(pg("a", pg("a1")), pg("b", pg("b1")))
	b, err := a.Edit("b1", func(p *Page) { p.Title = "x" })
	if err != nil {
		t.Fatal(err)
	}
	if b.Pages[0] != a.Pages[0] {
		t.Error("untouched subtree was copied")
	}
	if b.Pages[1] == a.Pages[1] || b.Pages[1].Pages[0].Title != "x" || a.Pages[1].Pages[0].Title == "x" {
		t.Error("edited path not copied")
	}
	if _, err := a.Edit("nope", func(*Page) {}); folio.KindOf(err) != folio.NotFound {
		t.Errorf("Edit(unknown) kind = %v, want not found", folio.KindOf(err))
	}
}

func TestFindAndWalk(t *testing.T) {
	tr := tree(pg("a", pg("b", pg("c"))), pg("d"))
	n, err := Find(tr, "c")
	if err != nil || n.Parent != "b" || n.Depth != 3 || n.Index != 0 {
		t.Fatalf("Find(c) = %+v, %v", n, err)
	}
	n, err = FindByPath(tr, "/a/b/c")
	if err != nil || n.Page.ID != "c" {
		t.Fatalf("FindByPath = %+v, %v", n, err)
	}
	if _, err := FindByPath(tr, "a/x"); folio.KindOf(err) != folio.NotFound {
		t.Fatalf("FindByPath(a/x) kind = %v", folio.KindOf(err))
	}
	if _, err := Find(tr, "x"); folio.KindOf(err) != folio.NotFound {
		t.Fatalf("Find(x) kind = %v", folio.KindOf(err))
	}
	var ids []string
	for _, n := range Nodes(tr) {
		ids = append(ids, n.Parent+">"+n.Page.ID)
	}
	if got := fmt.Sprint(ids); got != "[>a a>b b>c >d]" {
		t.Fatalf("Nodes = %s", got)
	}
}

func TestTreeValidate(t *testing.T) {
	link := func(id string) *Page {
		return &Page{ID: id, Type: PageLink, Title: "L", Target: json.RawMessage(`{"kind":"url","url":"https://x"}`)}
	}
	deep := pg("d0")
	cur := deep
	for i := 1; i < MaxPageDepth; i++ {
		c := pg(fmt.Sprint("d", i))
		cur.Pages = []*Page{c}
		cur = c
	}
	tooDeep := pg("e0")
	cur = tooDeep
	for i := 1; i <= MaxPageDepth; i++ {
		c := pg(fmt.Sprint("e", i))
		cur.Pages = []*Page{c}
		cur = c
	}
	many := make([]*Page, MaxPages+1)
	for i := range many {
		many[i] = pg(fmt.Sprint("p", i))
	}
	with := func(edit func(p *Page)) *Tree { p := pg("a"); edit(p); return tree(p) }
	tests := []struct {
		name  string
		tree  *Tree
		field string // "" means valid
	}{
		{"valid", tree(pg("a", pg("b"), link("l")), &Page{ID: "g", Type: PageGroup, Title: "G", Slug: "g"}), ""},
		{"id/missing", with(func(p *Page) { p.ID = "" }), "pages[0].id"},
		{"id/duplicate", tree(pg("a"), pg("b", &Page{ID: "a", Type: PageDocument, Title: "x", Slug: "x"})), "pages[1].pages[0].id"},
		{"title/empty", with(func(p *Page) { p.Title = "" }), "pages[0].title"},
		{"title/max", with(func(p *Page) { p.Title = string(make([]rune, MaxTitleLength)) }), ""},
		{"title/too long", with(func(p *Page) { p.Title = string(make([]rune, MaxTitleLength+1)) }), "pages[0].title"},
		{"type/unknown", with(func(p *Page) { p.Type = "sheet" }), "pages[0].type"},
		{"group/with document", tree(&Page{ID: "g", Type: PageGroup, Title: "G", Slug: "g", Document: HashDocument(NewDocument())}), "pages[0].document"},
		{"group/nested", tree(pg("a", &Page{ID: "g", Type: PageGroup, Title: "G", Slug: "g"})), "pages[0].pages[0].type"},
		{"link/with document", tree(func() *Page { l := link("l"); l.Document = HashDocument(NewDocument()); return l }()), "pages[0].document"},
		{"link/no target", tree(func() *Page { l := link("l"); l.Target = nil; return l }()), "pages[0].target"},
		{"link/children", tree(func() *Page { l := link("l"); l.Pages = []*Page{pg("x")}; return l }()), "pages[0].pages"},
		{"slug/missing", with(func(p *Page) { p.Slug = "" }), "pages[0].slug"},
		{"slug/sibling clash", tree(pg("a"), func() *Page { p := pg("b"); p.Slug = "a"; return p }()), "pages[1].slug"},
		{"slug/same in cousins", tree(pg("a", pg("x")), pg("b", func() *Page { p := pg("y"); p.Slug = "x"; return p }())), ""},
		{"depth/max", tree(deep), ""},
		{"depth/too deep", tree(tooDeep), "pages[0]" + func() string {
			s := ""
			for range MaxPageDepth {
				s += ".pages[0]"
			}
			return s
		}()},
		{"pages/max", tree(many[:MaxPages]...), ""},
		{"pages/too many", tree(many...), "pages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.tree.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			fe, ok := err.(*folio.Error)
			if !ok || fe.Kind != folio.Invalid || fe.Field != tt.field {
				t.Fatalf("Validate() = %#v, want Invalid on %s", err, tt.field)
			}
		})
	}
}

func TestEditAtChecksThePlace(t *testing.T) {
	tr := tree(pg("a", pg("a1"), pg("a2")), pg("b"))
	out, err := tr.EditAt([]int{0, 1}, "a2", func(p *Page) { p.Title = "x" })
	if err != nil || out.Pages[0].Pages[1].Title != "x" || tr.Pages[0].Pages[1].Title == "x" {
		t.Fatalf("EditAt: %v", err)
	}
	for _, chain := range [][]int{nil, {0, 0}, {5}, {0, 9}, {-1}} {
		if _, err := tr.EditAt(chain, "a2", func(*Page) {}); folio.KindOf(err) != folio.NotFound {
			t.Errorf("EditAt(%v) error %v, want NotFound", chain, err)
		}
	}
}
