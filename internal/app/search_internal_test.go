package app

import (
	"testing"

	"github.com/foliodocs/folio/internal/content"
)

// TestUnlisted: a hidden page and every page under it are unlisted, the
// rest of the tree is not.
func TestUnlisted(t *testing.T) {
	doc := func(id string, hidden bool, children ...*content.Page) *content.Page {
		return &content.Page{ID: id, Type: content.PageDocument, Title: id, Hidden: hidden, Pages: children}
	}
	tree := &content.Tree{Pages: []*content.Page{
		doc("shown", false, doc("child", false)),
		doc("secret", true, doc("under", false, doc("deeper", false))),
	}}
	rt := newRevTree(tree, -1)
	for id, want := range map[string]bool{"shown": false, "child": false, "secret": true, "under": true, "deeper": true} {
		n, ok := rt.index().nodes.Node(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		if got := unlisted(rt, n); got != want {
			t.Errorf("unlisted(%s) = %v, want %v", id, got, want)
		}
	}
}
