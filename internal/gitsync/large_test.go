package gitsync

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/content"
)

// TestLargeRepository checks that work stays linear: many pages in one
// SUMMARY.md, many assets of one name, many pages of one slug.
func TestLargeRepository(t *testing.T) {
	const pages, assets = 3000, 3000
	files := Files{}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n")
	for i := 0; i < pages; i++ {
		p := fmt.Sprintf("part-%d/page.md", i%50)
		if i >= 50 {
			p = fmt.Sprintf("part-%d/page-%d.md", i%50, i)
		}
		fmt.Fprintf(&summary, "* [Page %d](%s)\n", i, p)
		files[p] = []byte(fmt.Sprintf("---\ndescription: Page %d\n---\n\n# Page %d\n\nSee [next](../part-%d/page.md) and ![](../.gitbook/assets/img-%d.png).\n", i, i, (i+1)%50, i))
	}
	files["SUMMARY.md"] = []byte(summary.String())
	for i := 0; i < assets; i++ {
		files[fmt.Sprintf(".gitbook/assets/img-%d.png", i)] = []byte(fmt.Sprintf("png %d", i))
	}
	start := time.Now()
	res := read(t, files, ReadOptions{})
	readTime := time.Since(start)
	if n := len(content.Nodes(res.Snapshot.Tree)); n != pages {
		t.Fatalf("pages = %d", n)
	}
	// Every file gets the same name and every page the same title, so
	// unique names and paths are needed throughout.
	tree := res.Snapshot.Tree.Fork()
	for i := range tree.Files {
		tree.Files[i].Name = "image.png"
		tree.Files[i].Git = nil
	}
	for i, p := range tree.Pages {
		c := p.Clone()
		c.Git, c.Slug = nil, fmt.Sprintf("same-%d", i)
		tree.Pages[i] = c
	}
	snap := &content.Snapshot{Tree: tree, Documents: res.Snapshot.Documents, Blobs: res.Snapshot.Blobs}
	start = time.Now()
	out, err := Write(snap, WriteOptions{})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	writeTime := time.Since(start)
	if _, ok := out[".gitbook/assets/image (2999).png"]; !ok {
		t.Errorf("unique asset names missing")
	}
	t.Logf("read %v, write %v", readTime, writeTime)
	if readTime > 10*time.Second || writeTime > 10*time.Second {
		t.Errorf("too slow: read %v, write %v", readTime, writeTime)
	}
}
