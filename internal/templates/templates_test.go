package templates

import (
	"errors"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/google/go-cmp/cmp"
)

// mustPlain converts Markdown and returns its plain text.
func mustPlain(t *testing.T, src string) string {
	t.Helper()
	d, err := markdown.ToDocument([]byte(src), nil)
	if err != nil {
		t.Fatalf("ToDocument(%q): %v", src, err)
	}
	return d.PlainText()
}

// build runs Build and fails the test on an error.
func build(t *testing.T, id string, in Input) *content.Snapshot {
	t.Helper()
	snap, err := Build(id, in)
	if err != nil {
		t.Fatalf("Build(%q): %v", id, err)
	}
	return snap
}

// outline writes a tree one page per line, indented by depth, with the
// page's type when not a document and its emoji when set.
func outline(tree *content.Tree) string {
	var b strings.Builder
	for _, n := range content.Nodes(tree) {
		b.WriteString(strings.Repeat("  ", n.Depth-1) + n.Page.Title)
		if n.Page.Type != content.PageDocument {
			b.WriteString(" [" + n.Page.Type + "]")
		}
		if n.Page.Emoji != "" {
			b.WriteString(" " + n.Page.Emoji)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// docOf returns the document of the page at path, failing when it has none.
func docOf(t *testing.T, snap *content.Snapshot, path string) *content.Document {
	t.Helper()
	n, err := content.FindByPath(snap.Tree, path)
	if err != nil {
		t.Fatalf("page %s: %v", path, err)
	}
	d := snap.Documents[n.Page.Document]
	if d == nil {
		t.Fatalf("page %s has no document", path)
	}
	return d
}

// walkNodes calls fn for every node of doc, fragments included.
func walkNodes(nodes []content.Node, fn func(n content.Node)) {
	for _, n := range nodes {
		fn(n)
		walkNodes(n.Nodes, fn)
		for _, f := range n.Fragments {
			walkNodes(f.Nodes, fn)
		}
	}
}

// checkSnapshot applies the rules every template must meet: a valid tree,
// every document present and valid, no document stored that no page uses,
// no Markdown link left unresolved and, unless literal is set, no GitBook
// tag or placeholder left as text outside code.
func checkSnapshot(t *testing.T, snap *content.Snapshot) { checkSnapshotText(t, snap, false) }

func checkSnapshotText(t *testing.T, snap *content.Snapshot, literal bool) {
	t.Helper()
	if err := snap.Tree.Validate(); err != nil {
		t.Fatalf("tree: %v", err)
	}
	used := map[content.Hash]bool{}
	for _, n := range content.Nodes(snap.Tree) {
		h := n.Page.Document
		if h.IsZero() {
			continue
		}
		used[h] = true
		doc := snap.Documents[h]
		if doc == nil {
			t.Fatalf("page %q: document missing", n.Page.Title)
		}
		if err := doc.Validate("document"); err != nil {
			t.Fatalf("page %q: %v", n.Page.Title, err)
		}
		// Code blocks may show GitBook syntax on purpose (article templates).
		text := (&content.Document{Nodes: withoutCode(doc.Nodes)}).PlainText()
		for _, leak := range []string{"{%", "{{", "<details>", "<summary>"} {
			if !literal && strings.Contains(text, leak) {
				t.Errorf("page %q: %q left as text", n.Page.Title, leak)
			}
		}
		walkNodes(doc.Nodes, func(node content.Node) {
			if node.Type != content.InlineLink {
				return
			}
			ref, _ := node.Data["ref"].(map[string]any)
			if u, _ := ref["url"].(string); ref["kind"] == "url" && strings.Contains(u, ".md") {
				t.Errorf("page %q: link %q not resolved to a page", n.Page.Title, u)
			}
		})
	}
	if len(used) != len(snap.Documents) {
		t.Errorf("%d documents stored, %d used", len(snap.Documents), len(used))
	}
}

// withoutCode returns nodes with every code block left out, at any depth.
func withoutCode(nodes []content.Node) []content.Node {
	var out []content.Node
	for _, n := range nodes {
		if n.Type == content.BlockCode {
			continue
		}
		n.Nodes = withoutCode(n.Nodes)
		frags := make([]content.Fragment, len(n.Fragments))
		for i, f := range n.Fragments {
			f.Nodes = withoutCode(f.Nodes)
			frags[i] = f
		}
		n.Fragments = frags
		out = append(out, n)
	}
	return out
}

func TestIDs(t *testing.T) {
	want := []string{"blank", "product-docs", "knowledge-base", "changelog", "api-reference"}
	if diff := cmp.Diff(want, IDs()); diff != "" {
		t.Fatalf("IDs (-want +got):\n%s", diff)
	}
	ids := IDs()
	ids[0] = "changed"
	if IDs()[0] != "blank" {
		t.Fatal("IDs returned the package's own slice")
	}
	list := List()
	if len(list) != len(want) {
		t.Fatalf("List: %d templates, want %d", len(list), len(want))
	}
	for i, tpl := range list {
		if tpl.ID != want[i] || tpl.Title == "" || tpl.Subtitle == "" || tpl.Emoji == "" {
			t.Errorf("List()[%d] = %+v", i, tpl)
		}
	}
}

func TestEveryTemplateBuildsAndValidates(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			snap := build(t, id, Input{Title: "Acme"})
			checkSnapshot(t, snap)
			if len(snap.Tree.Pages) == 0 {
				t.Fatal("no pages")
			}
			for _, n := range content.Nodes(snap.Tree) {
				if n.Page.Type == content.PageDocument && n.Page.Document.IsZero() && id != Blank {
					t.Errorf("page %q is empty", n.Page.Title)
				}
			}
		})
	}
}

func TestTemplateTrees(t *testing.T) {
	tests := map[string]string{
		Blank: "Untitled\n",
		ProductDocs: `Getting started [group]
  Overview 1f44b
  Quickstart 1f680
Guides [group]
  Installation
  Configuration
  Working with teams 1f465
    Roles and permissions
    Inviting teammates
Reference [group]
  Glossary 1f4d6
  Limits and quotas
Resources [group]
  FAQ 2753
  Release notes 1f4e3
`,
		KnowledgeBase: `Welcome 1f44b
  Writing an article 270d
Getting help [group]
  Contact support 1f4ac
  Report a bug 1f41e
  Service status 1f6a6
Accounts [group]
  Create an account
  Reset your password
  Set up two-factor authentication 1f510
  Account questions 2753
Troubleshooting [group]
  Sign-in problems
  Slow or unresponsive app
  Error messages
`,
		Changelog: `Changelog 1f4e3
  2025-06-02 · Version 1.2
  2025-04-14 · Version 1.1
  2025-02-03 · Version 1.0
How we version 1f3f7
Writing an entry 270d
`,
		APIReference: `Introduction 1f44b
Authentication 1f511
Errors 26a0
Users
`,
	}
	for id, want := range tests {
		t.Run(id, func(t *testing.T) {
			if diff := cmp.Diff(want, outline(build(t, id, Input{}).Tree)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBlankIsOneEmptyPage(t *testing.T) {
	snap := build(t, Blank, Input{Title: "Anything"})
	if len(snap.Tree.Pages) != 1 || len(snap.Documents) != 0 {
		t.Fatalf("blank: %d pages, %d documents", len(snap.Tree.Pages), len(snap.Documents))
	}
	p := snap.Tree.Pages[0]
	if p.Type != content.PageDocument || p.Title != "Untitled" || p.Slug != "untitled" || !p.Document.IsZero() {
		t.Fatalf("blank page = %+v", p)
	}
}

func TestSlugsFollowTitles(t *testing.T) {
	snap := build(t, ProductDocs, Input{})
	got := content.Paths(snap.Tree)
	byTitle := map[string]string{}
	for _, n := range content.Nodes(snap.Tree) {
		byTitle[n.Page.Title] = got[n.Page.ID]
	}
	want := map[string]string{
		"Overview":              "getting-started/overview",
		"Roles and permissions": "guides/working-with-teams/roles-and-permissions",
		"Limits and quotas":     "reference/limits-and-quotas",
		"FAQ":                   "resources/faq",
	}
	for title, path := range want {
		if byTitle[title] != path {
			t.Errorf("path of %q = %q, want %q", title, byTitle[title], path)
		}
	}
	cl := build(t, Changelog, Input{})
	if s := cl.Tree.Pages[0].Pages[0].Slug; s != "2025-06-02-version-1-2" {
		t.Errorf("changelog entry slug = %q", s)
	}
}

func TestFreshIDsOnEveryBuild(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			a, b := build(t, id, Input{}), build(t, id, Input{})
			seen := map[string]bool{}
			for _, n := range content.Nodes(a.Tree) {
				seen[n.Page.ID] = true
			}
			for _, n := range content.Nodes(b.Tree) {
				if seen[n.Page.ID] {
					t.Fatalf("page id %s reused across builds", n.Page.ID)
				}
			}
			// Only the ids differ: same titles and slugs in the same places.
			if outline(a.Tree) != outline(b.Tree) {
				t.Fatal("two builds differ in shape")
			}
		})
	}
}

func TestLinksBetweenPagesResolve(t *testing.T) {
	snap := build(t, ProductDocs, Input{})
	quick, err := content.FindByPath(snap.Tree, "getting-started/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	walkNodes(docOf(t, snap, "getting-started/overview").Nodes, func(n content.Node) {
		ref, _ := n.Data["ref"].(map[string]any)
		if n.Type == content.InlineLink && ref["kind"] == "page" && ref["page"] == quick.Page.ID {
			found = true
		}
	})
	if !found {
		t.Fatal("Overview has no page link to Quickstart")
	}
}

func TestUnknownTemplate(t *testing.T) {
	for _, id := range []string{"", "nope", "Blank", "pages"} {
		_, err := Build(id, Input{})
		var fe *folio.Error
		if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "id" {
			t.Fatalf("Build(%q) error = %v, want Invalid on field id", id, err)
		}
		if !strings.Contains(fe.Message, "product-docs") {
			t.Errorf("message %q does not list the templates", fe.Message)
		}
	}
}

func TestSpaceTitleIsUsedLiterally(t *testing.T) {
	tests := map[string]struct{ title, want string }{
		"plain":       {"Acme", "documentation for Acme."},
		"markdown":    {"A*b* [x](y) _z_ `c` <b>", "documentation for A*b* [x](y) _z_ `c` <b>."},
		"gitbook tag": {"{% hint %} $$x$$", "documentation for {% hint %} $$x$$."},
		"new lines":   {"Two\nlines  here", "documentation for Two lines here."},
		"empty":       {"  ", "documentation for our product."},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			snap := build(t, ProductDocs, Input{Title: tt.title})
			text := docOf(t, snap, "getting-started/overview").PlainText()
			if !strings.Contains(text, tt.want) {
				t.Fatalf("overview text does not contain %q:\n%s", tt.want, text)
			}
		})
	}
}

func TestEmojiCode(t *testing.T) {
	tests := map[string]string{"👋": "1f44b", "✍️": "270d", "⚠️": "26a0", "🏷️": "1f3f7", "": "", "👩‍💻": "1f469-1f4bb"}
	for in, want := range tests {
		if got := emojiCode(in); got != want {
			t.Errorf("emojiCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInlineTextRoundTrip(t *testing.T) {
	for _, s := range []string{"a|b", `back\slash`, "# not a heading", "1. not a list", "<!-- x -->", "~~s~~", "x{%y"} {
		var b md
		b.table([]string{"h"}, [][]string{{inlineText(s)}})
		// Header cells are column titles, outside the plain text.
		if got := mustPlain(t, b.String()); got != s {
			t.Errorf("table cell %q read back as %q", s, got)
		}
		if got := mustPlain(t, inlineText(s)+"\n"); got != s {
			t.Errorf("paragraph %q read back as %q", s, got)
		}
	}
}
