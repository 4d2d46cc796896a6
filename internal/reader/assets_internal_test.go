package reader

import (
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

// TestCodeColoursReadable: every colour of code highlighting, in both
// themes, reaches WCAG AA (4.5:1) on its theme's code background, and
// the dark rules name every class the light ones do, so no light colour
// shows on the dark background.
func TestCodeColoursReadable(t *testing.T) {
	t.Parallel()
	css := string(readerCSS)
	rule := regexp.MustCompile(`(?m)^(\[data-theme="(dark|system)"\] )?\.chroma \.([a-z0-9]+)\{([^}]*)\}`)
	colour := regexp.MustCompile(`color:(#[0-9a-f]{6})`)
	light, dark := map[string]bool{}, map[string]bool{}
	n := 0
	for _, m := range rule.FindAllStringSubmatch(css, -1) {
		bg := lightCodeBG
		if m[1] != "" {
			bg = darkCodeBG
			dark[m[3]] = true
		} else {
			light[m[3]] = true
		}
		if c := colour.FindStringSubmatch(m[4]); c != nil {
			n++
			f, _ := rgb(c[1])
			b, _ := rgb(bg)
			if r := contrast(f, b); r < minContrast {
				t.Errorf("%s: %s on %s is %.2f:1", strings.TrimSpace(m[0]), c[1], bg, r)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d coloured rules in\n%s", n, css)
	}
	for c := range light {
		if !dark[c] {
			t.Errorf("class %s has a light colour and no dark rule", c)
		}
	}
}

// TestReadablePrimary: the site's colour is kept when readable and
// darkened or lightened when not, on both backgrounds.
func TestReadablePrimary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ fg, bg string }{
		{"#346DDB", lightBG}, {"#346DDB", darkBG}, {"#ffff00", lightBG}, {"#000080", darkBG}, {"#777777", lightBG}, {"#777777", darkBG},
	} {
		got := readableAt(tc.fg, tc.bg, 5.6)
		f, _ := rgb(got)
		b, _ := rgb(tc.bg)
		if r := contrast(f, b); r < 5.6 {
			t.Errorf("%s on %s: %s is %.2f:1", tc.fg, tc.bg, got, r)
		}
	}
	if got := readable("#1a7f37", lightBG); got != "#1a7f37" {
		t.Errorf("a readable colour changed: %s", got)
	}
}

// TestEditURL: the edit link of a git-synced page on GitHub, GitLab or
// another host, and none for a space without sync or a URL that is not
// http(s).
func TestEditURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, file, want string
	}{
		{"https://github.com/o/r/tree/main", "guide/install.md", "https://github.com/o/r/edit/main/guide/install.md"},
		{"https://github.com/o/r/tree/main/docs/", "a b.md", "https://github.com/o/r/edit/main/docs/a%20b.md"},
		{"https://gitlab.com/o/r/-/tree/main", "README.md", "https://gitlab.com/o/r/-/edit/main/README.md"},
		{"https://git.example/o/r", "x.md", "https://git.example/o/r/x.md"},
		{"javascript:alert(1)//", "x.md", ""},
		{"/srv/repo", "x.md", ""},
		{"https://github.com/o/r/tree/main", "", ""},
	} {
		if got := editURL(&folio.GitSyncState{URL: tc.url}, tc.file); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.url, tc.file, got, tc.want)
		}
	}
	if got := editURL(nil, "x.md"); got != "" {
		t.Errorf("no sync: %q", got)
	}
}
