package app

import (
	"context"
	"testing"

	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/content"
)

// TestFinishImportedAsCommit: an import's documents finished once up front
// (finishImported) are the ones finishDocuments gives the same conversion
// in a commit, links between pages included, and finishDocuments then
// leaves them alone.
func TestFinishImportedAsCommit(t *testing.T) {
	zip := corpus.Zip(3, 6, 150, 5)
	snap, err := parseImport("zip", zip, "docs.zip")
	if err != nil {
		t.Fatal(err)
	}
	base := &Content{Tree: emptyTree, rt: newRevTree(emptyTree, 0)}
	a := &App{}
	commit := func(s *content.Snapshot) (*content.Snapshot, map[content.Hash]string) {
		t.Helper()
		g, err := graft(base, "", s)
		if err != nil {
			t.Fatal(err)
		}
		g = ownPages(g, base.Tree, base.rt.index().nodes)
		if err := a.finishDocuments(context.Background(), base, g); err != nil {
			t.Fatal(err)
		}
		stored := map[content.Hash]string{}
		for _, d := range g.Documents {
			o, err := content.DocumentObject(d)
			if err != nil {
				t.Fatal(err)
			}
			stored[o.Hash] = string(o.Data)
		}
		return g, stored
	}
	before, want := commit(snap) // as every import did before finishImported

	finishImported(snap)
	if len(snap.Documents) != len(want) {
		t.Fatalf("finishImported left %d documents, the commit stores %d", len(snap.Documents), len(want))
	}
	for h, d := range snap.Documents {
		if !content.Complete(d) || content.HashDocument(d) != h {
			t.Fatalf("document %s is not finished under its hash", h)
		}
	}
	after, got := commit(snap)
	if len(got) != len(want) {
		t.Fatalf("%d documents stored, want %d", len(got), len(want))
	}
	for h, b := range want {
		if got[h] != b {
			t.Fatalf("document %s differs or is missing", h)
		}
	}
	if after.Tree.Hash() != before.Tree.Hash() {
		t.Error("the tree differs")
	}
	for h, d := range after.Documents {
		if snap.Documents[h] != d {
			t.Errorf("finishDocuments made a new document %s for an import finished up front", h)
		}
	}
}
