package app

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"github.com/google/go-cmp/cmp"
)

// deepCopy returns a tree whose pages are all new copies, free to edit.
func deepCopy(t *content.Tree) *content.Tree {
	var cp func(ps []*content.Page) []*content.Page
	cp = func(ps []*content.Page) []*content.Page {
		out := make([]*content.Page, len(ps))
		for i, p := range ps {
			c := p.Clone()
			c.Pages = cp(p.Pages)
			out[i] = c
		}
		return out
	}
	f := t.Fork()
	f.Pages = cp(t.Pages)
	return f
}

// pageIn finds a page of a tree by id.
func pageIn(t *content.Tree, id string) *content.Page {
	n, err := content.Find(t, id)
	if err != nil {
		return nil
	}
	return n.Page
}

// removeFrom takes a page out of its list and returns it.
func removeFrom(t *content.Tree, id string) *content.Page {
	var rm func(ps *[]*content.Page) *content.Page
	rm = func(ps *[]*content.Page) *content.Page {
		for i, p := range *ps {
			if p.ID == id {
				*ps = slices.Delete(*ps, i, i+1)
				return p
			}
			if got := rm(&p.Pages); got != nil {
				return got
			}
		}
		return nil
	}
	return rm(&t.Pages)
}

// crFixture is a space with pages a, b (with child b1) and c, each with a
// three-paragraph document, a change request on it, and ways to edit both.
type crFixture struct {
	a      *App
	caller folio.Caller
	space  folio.ID
	cr     folio.ID
}

func doc(paragraphs ...string) *content.Document { return content.NewDocument(paragraphs...) }

func newCRFixture(t *testing.T, a *App) *crFixture {
	ctx := context.Background()
	acc, err := a.CreateAccount(ctx, NewAccount{Email: "admin@example.com", Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	caller := folio.Caller{UserID: acc.User.ID}
	org, err := a.CreateOrganization(ctx, caller, folio.NewOrganization{Title: "Org"})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := a.CreateSpace(ctx, caller, org.ID, folio.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f := &crFixture{a: a, caller: caller, space: sv.ID}
	f.live(t, func(tr *content.Tree, docs map[content.Hash]*content.Document) {
		mk := func(id string, kids ...*content.Page) *content.Page {
			d := doc(id+" one", id+" two", id+" three")
			h := content.HashDocument(d)
			docs[h] = d
			return &content.Page{ID: id, Type: content.PageDocument, Title: strings.ToUpper(id), Document: h, Pages: kids}
		}
		tr.Pages = []*content.Page{mk("a"), mk("b", mk("b1")), mk("c")}
	})
	v, err := a.CreateChangeRequest(ctx, caller, sv.ID, folio.NewChangeRequest{Subject: "Change"})
	if err != nil {
		t.Fatal(err)
	}
	f.cr = v.ID
	return f
}

type treeEdit func(tr *content.Tree, docs map[content.Hash]*content.Document)

func build(fn treeEdit) func(base *Content) (*content.Snapshot, error) {
	return func(base *Content) (*content.Snapshot, error) {
		tr := deepCopy(base.Tree)
		docs := map[content.Hash]*content.Document{}
		fn(tr, docs)
		return &content.Snapshot{Tree: tr, Documents: docs}, nil
	}
}

// live edits the space's current content.
func (f *crFixture) live(t *testing.T, fn treeEdit) {
	t.Helper()
	_, err := f.a.commit(context.Background(), f.caller, f.space, edit{check: requireEditable, typ: folio.RevisionEdits, build: build(fn)})
	if err != nil {
		t.Fatal(err)
	}
}

// inCR edits the change request's head.
func (f *crFixture) inCR(t *testing.T, fn treeEdit) {
	t.Helper()
	if _, err := f.a.commitChangeRequest(context.Background(), f.caller, f.space, f.cr, "", build(fn)); err != nil {
		t.Fatal(err)
	}
}

// setDoc returns an edit replacing a page's document.
func setDoc(id string, paragraphs ...string) treeEdit {
	return func(tr *content.Tree, docs map[content.Hash]*content.Document) {
		d := doc(paragraphs...)
		h := content.HashDocument(d)
		docs[h] = d
		pageIn(tr, id).Document = h
	}
}

// shapeOf renders the space's current tree as parent>id lines.
func (f *crFixture) shape(t *testing.T) []string {
	t.Helper()
	c, err := f.a.GetContent(context.Background(), f.caller, f.space, "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range content.Nodes(c.Tree) {
		out = append(out, n.Parent+">"+n.Page.ID)
	}
	return out
}

func (f *crFixture) text(t *testing.T, id string) string {
	t.Helper()
	var out string
	err := f.a.db.Read(context.Background(), func(tx *store.Tx) error {
		c, err := f.a.revisionContent(context.Background(), tx, f.caller, f.space, "")
		if err != nil {
			return err
		}
		d, err := f.a.loadDocument(context.Background(), tx, pageIn(c.Tree, id).Document)
		if err != nil {
			return err
		}
		out = d.PlainText()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestChangeRequestMergeTrees(t *testing.T) {
	type want struct {
		shape     []string
		conflicts []string // page/field of each conflict; nil: the merge succeeds
		texts     map[string]string
	}
	tests := []struct {
		name     string
		live, cr treeEdit
		want     want
	}{
		{name: "moved on one side, edited on the other",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) {
				p := removeFrom(tr, "c")
				pageIn(tr, "b").Pages = append(pageIn(tr, "b").Pages, p)
			},
			cr: setDoc("c", "c one", "c two", "c three edited"),
			want: want{shape: []string{">a", ">b", "b>b1", "b>c"},
				texts: map[string]string{"c": "c one\nc two\nc three edited"}}},
		{name: "deleted on one side, edited on the other",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) { removeFrom(tr, "a") },
			cr:   setDoc("a", "a edited"),
			want: want{conflicts: []string{"a/removed"}}},
		{name: "deleted on one side, untouched on the other",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) { removeFrom(tr, "a") },
			cr:   setDoc("c", "c edited"),
			want: want{shape: []string{">b", "b>b1", ">c"}}},
		{name: "reordered on one side, edited on the other",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) {
				tr.Pages[0], tr.Pages[2] = tr.Pages[2], tr.Pages[0]
			},
			cr: setDoc("a", "a edited"),
			want: want{shape: []string{">c", ">b", "b>b1", ">a"},
				texts: map[string]string{"a": "a edited"}}},
		{name: "renamed on both sides differently",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) { pageIn(tr, "a").Title = "Live" },
			cr:   func(tr *content.Tree, docs map[content.Hash]*content.Document) { pageIn(tr, "a").Title = "Mine" },
			want: want{conflicts: []string{"a/title"}}},
		{name: "moved to different parents",
			live: func(tr *content.Tree, docs map[content.Hash]*content.Document) {
				pageIn(tr, "a").Pages = append(pageIn(tr, "a").Pages, removeFrom(tr, "c"))
			},
			cr: func(tr *content.Tree, docs map[content.Hash]*content.Document) {
				pageIn(tr, "b").Pages = append(pageIn(tr, "b").Pages, removeFrom(tr, "c"))
			},
			want: want{conflicts: []string{"c/parent"}}},
		{name: "different blocks of one page",
			live: setDoc("b", "b one live", "b two", "b three"),
			cr:   setDoc("b", "b one", "b two", "b three mine"),
			want: want{shape: []string{">a", ">b", "b>b1", ">c"},
				texts: map[string]string{"b": "b one live\nb two\nb three mine"}}},
		{name: "same block differently",
			live: setDoc("b", "b one", "b two live", "b three"),
			cr:   setDoc("b", "b one", "b two mine", "b three"),
			want: want{conflicts: []string{"b/document"}}},
	}
	for _, kind := range storetest.Stores(t) {
		for _, tc := range tests {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				a := New(Config{DB: storetest.Open(t, kind, store.Config{})})
				f := newCRFixture(t, a)
				f.inCR(t, tc.cr)
				f.live(t, tc.live)
				before := f.shape(t)
				res, err := a.MergeChangeRequest(context.Background(), f.caller, f.space, f.cr)
				if tc.want.conflicts != nil {
					mc, ok := err.(*MergeConflictError)
					if !ok {
						t.Fatalf("merge: %v, want conflicts", err)
					}
					var got []string
					for _, c := range mc.Conflicts {
						got = append(got, c.PageID+"/"+c.Field)
					}
					if d := cmp.Diff(tc.want.conflicts, got); d != "" {
						t.Fatalf("conflicts (-want +got):\n%s", d)
					}
					if folio.KindOf(err) != folio.Conflict {
						t.Fatalf("kind %v", folio.KindOf(err))
					}
					if d := cmp.Diff(before, f.shape(t)); d != "" {
						t.Fatalf("refused merge changed the space:\n%s", d)
					}
					v, _ := a.GetChangeRequest(context.Background(), f.caller, f.space, f.cr)
					if v.Status != folio.ChangeRequestOpen || v.RevisionMerged != "" {
						t.Fatalf("refused merge changed the change request: %+v", v.ChangeRequest)
					}
					return
				}
				if err != nil {
					t.Fatalf("merge: %v", err)
				}
				if d := cmp.Diff(tc.want.shape, f.shape(t)); d != "" {
					t.Fatalf("merged shape (-want +got):\n%s", d)
				}
				for id, want := range tc.want.texts {
					if got := f.text(t, id); got != want {
						t.Errorf("page %s text %q, want %q", id, got, want)
					}
				}
				v, _ := a.GetChangeRequest(context.Background(), f.caller, f.space, f.cr)
				if v.Status != folio.ChangeRequestMerged || v.RevisionMerged != res.Revision {
					t.Fatalf("change request after merge %+v", v.ChangeRequest)
				}
			})
		}
	}
}

// TestChangeRequestMergesRaceOnTwoServers merges change requests through
// two apps sharing one database, as two servers on PostgreSQL would: every
// merge of a different change request lands (later ones on top of earlier
// ones), and one change request merged through both servers at once is
// merged exactly once.
func TestChangeRequestMergesRaceOnTwoServers(t *testing.T) {
	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			cfg := storetest.Location(t, kind, store.Config{})
			var apps [2]*App
			for i := range apps {
				db, err := store.Open(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				apps[i] = New(Config{DB: db})
			}
			f := newCRFixture(t, apps[0])
			// Three more change requests, each editing its own page.
			crs := []folio.ID{f.cr}
			for _, id := range []string{"b", "c"} {
				v, err := apps[0].CreateChangeRequest(ctx, f.caller, f.space, folio.NewChangeRequest{Subject: id})
				if err != nil {
					t.Fatal(err)
				}
				f.cr = v.ID
				f.inCR(t, setDoc(id, id+" from its change request"))
				crs = append(crs, v.ID)
			}
			f.cr = crs[0]
			f.inCR(t, setDoc("a", "a from its change request"))

			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i, cr := range []folio.ID{crs[0], crs[1], crs[2], crs[0]} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = apps[i%2].MergeChangeRequest(ctx, f.caller, f.space, cr)
				}()
			}
			wg.Wait()
			for i := 1; i < 3; i++ {
				if errs[i] != nil {
					t.Fatalf("merge %d: %v", i, errs[i])
				}
			}
			if (errs[0] == nil) == (errs[3] == nil) || folio.KindOf(errors2(errs[0], errs[3])) != folio.Conflict {
				t.Fatalf("one change request merged twice at once: %v, %v; want one success and one Conflict", errs[0], errs[3])
			}
			for _, id := range []string{"a", "b", "c"} {
				if got := f.text(t, id); got != id+" from its change request" {
					t.Errorf("page %s: %q, a merge was lost", id, got)
				}
			}
		})
	}
}

// errors2 returns the first non-nil error.
func errors2(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
