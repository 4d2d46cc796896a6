package gitsync

import (
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/content"
	"github.com/google/go-cmp/cmp"
)

// outlineIDs is outline with link targets' page ids replaced by the
// titles of the pages they name.
func outlineIDs(s *content.Snapshot) string {
	out := outline(s)
	content.Walk(s.Tree, func(n content.PageNode) bool {
		out = strings.ReplaceAll(out, `"page":"`+n.Page.ID+`"`, `"page":"`+n.Page.Title+`"`)
		return true
	})
	return out
}

func TestReadSummary(t *testing.T) {
	pages := Files{
		"README.md":       []byte("# Home\n\nWelcome.\n"),
		"guide/README.md": []byte("# Guide\n\nText.\n"),
		"guide/a.md":      []byte("# Heading A\n\nA.\n"),
		"guide/b.md":      []byte("B without heading.\n"),
		"guide/deep.md":   []byte("Deep.\n"),
		"api/v1.md":       []byte("# Version 1\n\nV1.\n"),
		"notes.md":        []byte("# Notes\n\nN.\n"),
	}
	tests := []struct {
		name    string
		summary string
		want    string
	}{
		{"nesting", `# Table of contents

* [Home](README.md)
* [Guide](guide/README.md)
  * [A](guide/a.md)
    * [Deep](guide/deep.md)
  * [B](guide/b.md)
`, `Home [home] README.md
Guide [guide] guide/README.md
  A [a] guide/a.md
    Deep [deep] guide/deep.md
  B [b] guide/b.md
`},
		{"groups and a rule ending a group", `# Table of contents

* [Home](README.md)

## API

* [Version 1](api/v1.md)

## Guides

* [Guide](guide/README.md)

***

* [Notes](notes.md)
`, `Home [home] README.md
group API [api]
  Version 1 [v1] api/v1.md
group Guides [guides]
  Guide [guide] guide/README.md
Notes [notes] notes.md
`},
		{"dashes and rule of dashes", `- [Home](README.md)

## Group

- [Notes](notes.md)

---

- [Version 1](api/v1.md)
`, `Home [home] README.md
group Group [group]
  Notes [notes] notes.md
Version 1 [v1] api/v1.md
`},
		{"external links, duplicates and anchors", `* [Home](README.md)
* [Site](https://example.com/docs)
  * [Child of a link](notes.md)
* [Home again](README.md)
* [Home section](README.md#setup)
* [Mail](mailto:team@example.com)
`, `Home [home] README.md
link Site [] -> {"kind":"url","url":"https://example.com/docs"}
Child of a link [notes] notes.md
link Home again [] -> {"kind":"page","page":"Home"}
link Home section [] -> {"anchor":"setup","kind":"anchor","page":"Home"}
link Mail [] -> {"kind":"url","url":"mailto:team@example.com"}
`},
		{"title fallback", `* [](guide/a.md)
* [](guide/b.md)
* [ ](api/v1.md)
`, `Heading A [a] guide/a.md
B [b] guide/b.md
Version 1 [v1] api/v1.md
`},
		{"missing files, folders and plain entries", `* [Gone](gone.md)
* [Guide folder](guide/)
* [Guide no ext](guide/a)
* Plain entry
  * [Notes](notes.md)
* 
`, `Gone [gone] (empty)
Guide folder [guide] guide/README.md
Guide no ext [a] guide/a.md
Plain entry [plain-entry] (empty)
  Notes [notes] notes.md
`},
		{"escapes and angle brackets", `* [Home \[beta\]](<README.md>)
* [Notes](./notes.md "title")
`, `Home [beta] [home-beta] README.md
Notes [notes] notes.md
`},
		{"heading before any entry is a group when not level 1", `## First

* [Home](README.md)
`, `group First [first]
  Home [home] README.md
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := Files{"SUMMARY.md": []byte(tt.summary)}
			for p, b := range pages {
				files[p] = b
			}
			res := read(t, files, ReadOptions{})
			if diff := cmp.Diff(tt.want, outlineIDs(res.Snapshot)); diff != "" {
				t.Errorf("outline (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadSummaryH1LeavesBody(t *testing.T) {
	res := read(t, Files{
		"SUMMARY.md": []byte("* [Link text](a.md)\n"),
		"a.md":       []byte("# Heading\n\nBody.\n"),
	}, ReadOptions{})
	p := byTitle(t, res.Snapshot, "Link text")
	if got := body(t, res.Snapshot, p); got != "Body." {
		t.Errorf("body = %q", got)
	}
}

func TestReadSummaryErrors(t *testing.T) {
	var deep strings.Builder
	for i := 0; i <= content.MaxPageDepth; i++ {
		fmt.Fprintf(&deep, "%s* [P%d](p%d.md)\n", strings.Repeat("  ", i), i, i)
	}
	many := strings.Repeat("* [x](https://example.com)\n", 11)
	tests := []struct {
		name  string
		files Files
		lim   int
		want  string
	}{
		{"too deep", Files{"SUMMARY.md": []byte(deep.String())}, 0, "nest at most 16 levels"},
		{"too many entries", Files{"SUMMARY.md": []byte(many)}, 10, "more than 10 pages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := ReadOptions{}
			opts.Limits.MaxPages = tt.lim
			_, err := Read(tt.files, opts)
			wantInvalid(t, err, tt.want)
		})
	}
}

func TestWriteSummaryFormat(t *testing.T) {
	items := []*summaryItem{
		{title: "Home", target: "README.md"},
		{title: "Guide [beta]", target: "guide/README.md", children: []*summaryItem{
			{title: "Install", target: "guide/install.md"},
			{title: "My page", target: "guide/my page.md"},
		}},
		{group: true, title: "API", children: []*summaryItem{{title: "V1", target: "api/v1.md"}}},
		{group: true, title: "Empty"},
		{title: "Site", target: "https://example.com"},
	}
	want := `# Table of contents

* [Home](README.md)
* [Guide \[beta\]](guide/README.md)
  * [Install](guide/install.md)
  * [My page](<guide/my page.md>)

## API

* [V1](api/v1.md)

## Empty

***

* [Site](https://example.com)
`
	got := string(writeSummary(items))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SUMMARY.md (-want +got):\n%s", diff)
	}
	back, err := parseSummary(got, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !sameSummary(items, back) {
		t.Errorf("parse of the written summary differs")
	}
}
