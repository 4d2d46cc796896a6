package content_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// seqKeys makes keys k1, k2… so tests can name them.
func seqKeys() func() string { return prefixKeys("k") }

func prefixKeys(prefix string) func() string {
	n := 0
	return func() string { n++; return prefix + strconv.Itoa(n) }
}

func kpara(text, key string) content.Node {
	n := content.NewBlock(content.BlockParagraph, content.NewText(text))
	n.Key = key
	return n
}

func heading(typ, text string) content.Node {
	return content.NewBlock(typ, content.NewText(text))
}

func orderedList(items ...string) content.Node {
	var kids []content.Node
	for _, it := range items {
		kids = append(kids, content.NewBlock(content.BlockListItem, content.NewBlock(content.BlockParagraph, content.NewText(it))))
	}
	return content.NewBlock(content.BlockListOrdered, kids...)
}

func kdoc(nodes ...content.Node) *content.Document {
	d := &content.Document{Nodes: nodes}
	d.Normalize()
	return d
}

// keysOf lists the keys of every node in document order, "" for none;
// text nodes are written "t".
func keysOf(d *content.Document) []string {
	var out []string
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for i := range nodes {
			n := &nodes[i]
			switch {
			case n.Object == content.ObjectText && n.Key == "":
				out = append(out, "t")
			default:
				out = append(out, n.Key)
			}
			walk(n.Nodes)
			for _, f := range n.Fragments {
				walk(f.Nodes)
			}
		}
	}
	walk(d.Nodes)
	return out
}

func TestFinish(t *testing.T) {
	t.Run("EveryBlockAndInlineGetsAKeyTextNodesNone", func(t *testing.T) {
		link := content.NewInline(content.InlineLink, content.NewText("here"))
		link.Data = map[string]any{"ref": map[string]any{"kind": "url", "url": "https://example.com"}}
		d := kdoc(content.NewBlock(content.BlockParagraph, content.NewText("see "), link), orderedList("a", "b"))
		out, changed := content.Finish(d, nil, seqKeys())
		if !changed {
			t.Fatal("changed = false")
		}
		want := []string{"k1", "t", "k2", "t", "k3", "k4", "k5", "t", "k6", "k7", "t"}
		if diff := cmp.Diff(want, keysOf(out)); diff != "" {
			t.Errorf("keys (-want +got):\n%s", diff)
		}
		if keys := keysOf(d); keys[0] != "" {
			t.Errorf("the input changed: %v", keys)
		}
		if !content.Complete(out) {
			t.Error("Complete(out) = false")
		}
		if again, changed := content.Finish(out, nil, seqKeys()); changed || again != out {
			t.Error("a complete document changed")
		}
	})
	t.Run("RepeatedKeyKeptByFirstOnly", func(t *testing.T) {
		d := kdoc(kpara("a", "x"), kpara("b", "x"), kpara("c", "y"))
		out, _ := content.Finish(d, nil, seqKeys())
		if diff := cmp.Diff([]string{"x", "t", "k1", "t", "y", "t"}, keysOf(out)); diff != "" {
			t.Errorf("keys (-want +got):\n%s", diff)
		}
	})
	t.Run("DerivedKeysLookLikeGitBooks", func(t *testing.T) {
		a, b := content.DerivedKeys(content.Hash{1}), content.DerivedKeys(content.Hash{1})
		seen := map[string]bool{}
		for range 1000 {
			k := a()
			if !regexp.MustCompile(`^[0-9A-Za-z]{12}$`).MatchString(k) || seen[k] {
				t.Fatalf("key %q (seen before: %v)", k, seen[k])
			}
			seen[k] = true
			if k2 := b(); k2 != k {
				t.Fatalf("two makers with one seed differ: %q, %q", k, k2)
			}
		}
		if content.DerivedKeys(content.Hash{2})() == content.DerivedKeys(content.Hash{1})() {
			t.Error("the seed does not matter")
		}
	})
}

func TestFinishCarriesKeys(t *testing.T) {
	old, _ := content.Finish(kdoc(heading(content.BlockHeading1, "Intro"), kpara("one", ""), orderedList("a", "b"), kpara("two", "")), nil, seqKeys())
	oldKeys := keysOf(old)

	t.Run("UnchangedDocumentKeepsEveryKey", func(t *testing.T) {
		nw := kdoc(heading(content.BlockHeading1, "Intro"), kpara("one", ""), orderedList("a", "b"), kpara("two", ""))
		out, _ := content.Finish(nw, old, func() string { t.Fatal("a new key was made"); return "" })
		if content.HashDocument(out) != content.HashDocument(old) {
			t.Errorf("re-read document differs:\n%s\n%s", mustJSON(t, out), mustJSON(t, old))
		}
	})
	t.Run("EditedAndInsertedBlocks", func(t *testing.T) {
		// "one" edited, a paragraph inserted at the end, a list item added.
		nw := kdoc(heading(content.BlockHeading1, "Intro"), kpara("one!", ""), orderedList("a", "b", "c"), kpara("two", ""), kpara("three", ""))
		out, _ := content.Finish(nw, old, prefixKeys("n"))
		got := keysOf(out)
		// heading, t, para, t, list, item a, p, t, item b, p, t, item c, p, t, para two, t, para three, t
		want := []string{oldKeys[0], "t", oldKeys[2], "t", oldKeys[4], oldKeys[5], oldKeys[6], "t", oldKeys[8], oldKeys[9], "t", "n1", "n2", "t", oldKeys[11], "t", "n3", "t"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("keys (-want +got):\n%s", diff)
		}
	})
	t.Run("MovedKeyNotDuplicated", func(t *testing.T) {
		// The new document already uses the old heading's key elsewhere.
		nw := kdoc(heading(content.BlockHeading1, "Intro"), kpara("one", oldKeys[0]))
		out, _ := content.Finish(nw, old, prefixKeys("n"))
		got := keysOf(out)
		if got[0] == oldKeys[0] || got[2] != oldKeys[0] {
			t.Errorf("keys %v (old %v)", got, oldKeys)
		}
	})
}

func TestHeadingAnchors(t *testing.T) {
	h2 := heading(content.BlockHeading2, "Getting  started!")
	custom := heading(content.BlockHeading3, "Whatever")
	custom.Data["id"] = "my-anchor"
	bad := heading(content.BlockHeading3, "Bad id")
	bad.Data["id"] = "Not Valid"
	hint := content.NewBlock(content.BlockHint, heading(content.BlockHeading2, "Getting started"))
	d := kdoc(h2, heading(content.BlockHeading1, "Getting started"), custom, bad, hint,
		heading(content.BlockHeading1, "Déjà vu"), heading(content.BlockHeading1, "安装"), heading(content.BlockHeading1, "!!"),
		heading(content.BlockHeading1, "getting-started-1"))
	out, _ := content.Finish(d, nil, seqKeys())
	var got []string
	var walk func(nodes []content.Node)
	walk = func(nodes []content.Node) {
		for i := range nodes {
			if id, ok := nodes[i].Meta["id"].(string); ok {
				got = append(got, id)
			}
			walk(nodes[i].Nodes)
		}
	}
	walk(out.Nodes)
	want := []string{"getting-started", "getting-started-1", "my-anchor", "bad-id", "getting-started-2", "deja-vu", "安装", "heading", "getting-started-1-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("anchors (-want +got):\n%s", diff)
	}
	// Other blocks get no meta.
	if out.Nodes[4].Meta != nil {
		t.Errorf("hint meta %v", out.Nodes[4].Meta)
	}
}

func TestUpgrade(t *testing.T) {
	mk := func() *content.Document {
		return kdoc(heading(content.BlockHeading1, "Intro"), orderedList("a", "b"), kpara("kept", "mine"))
	}
	d1, d2 := mk(), mk()
	h := content.HashDocument(d1)
	if !content.Upgrade(d1, h) || !content.Upgrade(d2, h) {
		t.Fatal("Upgrade reported no change")
	}
	if diff := cmp.Diff(mustJSON(t, d1), mustJSON(t, d2)); diff != "" {
		t.Errorf("two upgrades of one document differ:\n%s", diff)
	}
	if !content.Complete(d1) || keysOf(d1)[len(keysOf(d1))-2] != "mine" {
		t.Errorf("upgraded document: %s", mustJSON(t, d1))
	}
	other := mk()
	content.Upgrade(other, content.Hash{1})
	if keysOf(other)[0] == keysOf(d1)[0] {
		t.Error("keys do not depend on the hash")
	}
	if content.Upgrade(d1, h) {
		t.Error("a second Upgrade changed the document")
	}
}

func TestKeyedJSON(t *testing.T) {
	full := unmarshal(t, readFull(t))
	finished, _ := content.Finish(full, nil, seqKeys())
	dup := kdoc(kpara("a", "x"), kpara("b", "x"))
	noMeta := kdoc(heading(content.BlockHeading1, "x"))
	content.Upgrade(noMeta, content.Hash{})
	delete(noMeta.Nodes[0].Meta, "id")
	for name, tc := range map[string]struct {
		d    *content.Document
		want bool
	}{
		"keyless":             {full, false},
		"finished":            {finished, true},
		"repeated key":        {dup, false},
		"heading without id":  {noMeta, false},
		"empty":               {kdoc(), true},
		"text in a paragraph": {kdoc(kpara("a", "p")), true},
	} {
		t.Run(name, func(t *testing.T) {
			b := []byte(mustJSON(t, tc.d))
			if got := content.KeyedJSON(b); got != tc.want {
				t.Errorf("KeyedJSON = %v, want %v: %s", got, tc.want, b)
			}
			if tc.want && !content.Complete(tc.d) {
				t.Error("KeyedJSON true but not Complete")
			}
		})
	}
}

func mustJSON(t *testing.T, d *content.Document) string {
	t.Helper()
	b, err := d.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
