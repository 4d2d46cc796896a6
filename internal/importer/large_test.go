package importer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
)

var lorem = strings.Fields(`lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris
nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum`)

// words returns n words of filler text, with some emphasis, starting at seed.
func words(n, seed int) string {
	var b strings.Builder
	for i := range n {
		w := lorem[(seed+i)%len(lorem)]
		switch {
		case i%40 == 39:
			b.WriteString(w + ".\n\n")
			continue
		case i%17 == 0:
			w = "**" + w + "**"
		case i%23 == 0:
			w = "`" + w + "`"
		}
		b.WriteString(w + " ")
	}
	return b.String()
}

// largeArchive returns 1,000 Markdown pages: 10 sections of 9 sub-sections
// of 10 pages, every folder with a README, each page about 300 words with
// links to its siblings and its parent and one image of its sub-section.
func largeArchive(t testing.TB) []byte {
	t.Helper()
	var files []file
	logo := string(pngBytes(t, 4, 4))
	for s := range 10 {
		sec := fmt.Sprintf("docs-main/section-%d", s)
		files = append(files, file{sec + "/README.md", fmt.Sprintf("# Section %d\n\n%s\n", s, words(300, s))})
		for u := range 9 {
			sub := fmt.Sprintf("%s/topic-%d", sec, u)
			files = append(files, file{sub + "/README.md", fmt.Sprintf("# Topic %d.%d\n\n%s\n\n[Up](../README.md)\n", s, u, words(300, u))})
			files = append(files, file{sub + "/img/diagram.png", logo})
			for p := range 10 {
				body := fmt.Sprintf("# Page %d.%d.%d\n\n%s\n\nSee [previous](page-%d.md), [next](page-%d.md#intro) and [the topic](README.md).\n\n![Diagram](img/diagram.png)\n\n%s\n",
					s, u, p, words(150, p), (p+9)%10, (p+1)%10, words(150, p+s))
				files = append(files, file{fmt.Sprintf("%s/page-%d.md", sub, p), body})
			}
		}
	}
	return makeZip(t, files...)
}

func TestZip1000Pages(t *testing.T) {
	b := largeArchive(t)
	s, err := Zip(bytes.NewReader(b), int64(len(b)), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshot(t, s)
	nodes := content.Nodes(s.Tree)
	if len(nodes) != 1000 {
		t.Fatalf("got %d pages, want 1000", len(nodes))
	}
	if len(s.Tree.Files) != 90 {
		t.Errorf("got %d files, want 90", len(s.Tree.Files))
	}
	ids := map[string]bool{}
	for _, n := range nodes {
		ids[n.Page.ID] = true
	}
	fileIDs := map[string]bool{}
	for _, f := range s.Tree.Files {
		fileIDs[f.ID] = true
	}
	for _, n := range nodes {
		if !strings.HasPrefix(n.Page.Title, "Page ") {
			continue
		}
		var pages, files int
		for _, r := range refs(s.Documents[n.Page.Document]) {
			switch r["kind"] {
			case "page", "anchor":
				if !ids[r["page"].(string)] {
					t.Fatalf("%s links to unknown page %v", n.Page.Title, r)
				}
				pages++
			case "file":
				if !fileIDs[r["file"].(string)] {
					t.Fatalf("%s shows unknown file %v", n.Page.Title, r)
				}
				files++
			default:
				t.Fatalf("%s has an unresolved reference %v", n.Page.Title, r)
			}
		}
		if pages != 3 || files != 1 {
			t.Fatalf("%s: %d page and %d file references, want 3 and 1", n.Page.Title, pages, files)
		}
	}
	if got := content.Paths(s.Tree)[nodes[len(nodes)-1].Page.ID]; got != "section-9/topic-8/page-9" {
		t.Errorf("last page path = %q", got)
	}
}

func BenchmarkZip1000Pages(b *testing.B) {
	data := largeArchive(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Zip(bytes.NewReader(data), int64(len(data)), DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}
