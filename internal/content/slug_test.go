package content

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSlugify(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Getting Started", "getting-started"},
		{"  Héllo,  Wörld!! ", "hello-world"},
		{"Straße & Cœur", "strasse-coeur"},
		{"API v2.0 / Auth", "api-v2-0-auth"},
		{"---", "page"},
		{"日本語", "page"},
		{"", "page"},
		{strings.Repeat("a", 150), strings.Repeat("a", 100)},
		{strings.Repeat("a", 99) + " b", strings.Repeat("a", 99)},
	}
	for _, tt := range tests {
		if got := Slugify(tt.in); got != tt.want {
			t.Errorf("Slugify(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUniqueSlug(t *testing.T) {
	tests := []struct {
		existing []string
		want     string
		out      string
	}{
		{nil, "a", "a"},
		{[]string{"a"}, "a", "a-2"},
		{[]string{"a", "a-2"}, "a", "a-3"},
		{[]string{"b"}, "a", "a"},
		{[]string{strings.Repeat("x", 100)}, strings.Repeat("x", 100), strings.Repeat("x", 98) + "-2"},
	}
	for _, tt := range tests {
		if got := UniqueSlug(tt.existing, tt.want); got != tt.out {
			t.Errorf("UniqueSlug(%v, %q) = %q, want %q", tt.existing, tt.want, got, tt.out)
		}
	}
}

func TestFillSlugsAndPaths(t *testing.T) {
	a := &Page{ID: "a", Type: PageDocument, Title: "Intro", Pages: []*Page{
		{ID: "b", Type: PageDocument, Title: "Setup"},
		{ID: "c", Type: PageDocument, Title: "Setup"},
		{ID: "l", Type: PageLink, Title: "Link"},
	}}
	d := &Page{ID: "d", Type: PageDocument, Title: "Other", Slug: "intro"}
	tr := tree(a, d)
	tr.FillSlugs()
	want := map[string]string{"a": "intro-2", "a/b": "", "b": "intro-2/setup", "c": "intro-2/setup-2", "d": "intro"}
	delete(want, "a/b")
	if diff := cmp.Diff(want, Paths(tr)); diff != "" {
		t.Fatalf("Paths (-want +got):\n%s", diff)
	}
	if err := tr.Validate(); err == nil {
		t.Fatal("link without target should fail validation")
	}
}
