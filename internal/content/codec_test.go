package content

import (
	"encoding/json"
	"errors"
	"testing"
)

// objectStore is an in-memory object table for codec tests; fetches counts
// the calls LoadTree makes.
type objectStore struct {
	objs    map[Hash][]byte
	fetches int
}

func (s *objectStore) put(objs []Object) {
	for _, o := range objs {
		s.objs[o.Hash] = o.Data
	}
}

func (s *objectStore) fetch(hashes []Hash) (map[Hash][]byte, error) {
	s.fetches++
	out := map[Hash][]byte{}
	for _, h := range hashes {
		if b, ok := s.objs[h]; ok {
			out[h] = b
		}
	}
	return out, nil
}

func TestTreeObjectsRoundTrip(t *testing.T) {
	tr := tree(pg("a", pg("a1", pg("a11")), pg("a2")), pg("b"))
	tr.Pages[1].Variables = map[string]string{"x": "1"}
	tr.Pages[1].Target = json.RawMessage(`{"kind":"url","url":"https://example.com"}`)
	tr.Files = []File{{ID: "f2", Name: "b.png", ContentType: "image/png", Size: 3, Width: 1, Height: 2}, {ID: "f1", Name: "a.txt", Size: 1}}
	tr.Variables = map[string]string{"v": "w"}
	s := &objectStore{objs: map[Hash][]byte{}}
	objs := TreeObjects(nil, tr)
	if len(objs) != 6 { // five pages and the tree
		t.Fatalf("TreeObjects wrote %d objects, want 6", len(objs))
	}
	for _, o := range objs {
		if o.Hash != sum("folio."+o.Kind+".v1", o.Data) {
			t.Fatalf("object %s of kind %s does not hash to its data", o.Hash, o.Kind)
		}
	}
	s.put(objs)
	back, err := LoadTree(tr.Hash(), s.fetch)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != tr.Hash() {
		t.Fatal("loaded tree hashes differently")
	}
	if c := Diff(tr, back); len(c) != 0 {
		t.Fatalf("loaded tree differs: %+v", c)
	}
	if s.fetches != 4 { // the tree, then one call per level
		t.Fatalf("LoadTree made %d fetches, want 4", s.fetches)
	}
	// The rebuilt pages hash the same when recomputed from their fields.
	fresh := back.Pages[0].Clone()
	if fresh.Hash() != back.Pages[0].Hash() {
		t.Fatal("recomputed page hash differs from the stored one")
	}
}

func TestTreeObjectsWritesOnlyTheEditedPath(t *testing.T) {
	base, n := bigTree(10, 4) // 11,110 pages
	s := &objectStore{objs: map[Hash][]byte{}}
	s.put(TreeObjects(nil, base))
	if len(s.objs) != n+1 {
		t.Fatalf("stored %d objects, want %d", len(s.objs), n+1)
	}
	deep := base.Pages[3].Pages[4].Pages[5].Pages[6].ID
	edited, err := base.Edit(deep, func(p *Page) { p.Title = "changed" })
	if err != nil {
		t.Fatal(err)
	}
	objs := TreeObjects(base, edited)
	if len(objs) != 5 { // the page, its three ancestors and the tree
		t.Fatalf("an edit of one page wrote %d objects, want 5", len(objs))
	}
	s.put(objs)
	back, err := LoadTree(edited.Hash(), s.fetch)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != edited.Hash() {
		t.Fatal("edited tree does not load back")
	}
	// The old revision stays readable.
	old, err := LoadTree(base.Hash(), s.fetch)
	if err != nil || old.Hash() != base.Hash() {
		t.Fatalf("old tree: %v", err)
	}
}

func TestLoadTreeMissingObject(t *testing.T) {
	tr := tree(pg("a", pg("b")))
	s := &objectStore{objs: map[Hash][]byte{}}
	for _, o := range TreeObjects(nil, tr) {
		if o.Kind == KindTree || o.Data == nil {
			s.objs[o.Hash] = o.Data
		}
	}
	if _, err := LoadTree(tr.Hash(), s.fetch); err == nil {
		t.Fatal("LoadTree of a tree with missing pages succeeded")
	}
	boom := errors.New("boom")
	if _, err := LoadTree(tr.Hash(), func([]Hash) (map[Hash][]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("fetch error not returned: %v", err)
	}
}

func BenchmarkTreeObjectsOneEdit(b *testing.B) {
	base, _ := bigTree(10, 4)
	id := base.Pages[3].Pages[4].Pages[5].Pages[6].ID
	for b.Loop() {
		edited, _ := base.Edit(id, func(p *Page) { p.Title = "changed" })
		TreeObjects(base, edited)
	}
}
