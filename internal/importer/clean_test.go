package importer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/foliodocs/folio/internal/content"
)

// TestNULAndInvalidUTF8 checks that no source lets a NUL byte or invalid
// UTF-8 into a snapshot: both become U+FFFD, in text, titles, descriptions,
// slugs and file names.
func TestNULAndInvalidUTF8(t *testing.T) {
	const bad = "a\x00b\xff\xfec"
	zipOf := func(files ...file) func() (*content.Snapshot, error) {
		return func() (*content.Snapshot, error) {
			b := makeZip(t, files...)
			return Zip(bytes.NewReader(b), int64(len(b)), Limits{})
		}
	}
	tests := []struct {
		name string
		run  func() (*content.Snapshot, error)
		want []string // texts that must appear, with U+FFFD in place
	}{
		{"markdown", func() (*content.Snapshot, error) {
			return Markdown([]byte("---\ndescription: d"+bad+"\n---\n# T"+bad+"\n\nx "+bad+" *"+bad+"*\n\n```\n"+bad+"\n```\n"), "n"+bad)
		}, []string{"Ta\uFFFDb\uFFFDc", "x a\uFFFDb\uFFFDc"}},
		{"markdown fallback title", func() (*content.Snapshot, error) { return Markdown([]byte("x"), "n"+bad) },
			[]string{"na\uFFFDb\uFFFDc"}},
		{"html", func() (*content.Snapshot, error) {
			return HTML([]byte("<title>T"+bad+"</title><meta name=description content=\"d"+bad+"\"><p title=\""+bad+"\">x "+bad+"</p><pre>"+bad+"</pre><a href=\"/"+bad+"\">l</a>"), "n")
		}, []string{"Ta\uFFFDb\uFFFDc", "x a\uFFFDb\uFFFDc"}},
		{"zip pages", zipOf(file{"a.md", "# A\n\nx " + bad}, file{"b.html", "<p>y " + bad + "</p>"}), []string{"x a\uFFFDb\uFFFDc", "y a\uFFFDb\uFFFDc"}},
		{"zip summary", zipOf(file{"SUMMARY.md", "* [S" + bad + "](a.md)"}, file{"a.md", "x"}), []string{"Sa\uFFFDb\uFFFDc"}},
		{"zip names", zipOf(file{"d\xff\xfe/p\xff.md", "x [l](../d\xff\xfe/f\xfe.png)"}, file{"d\xff\xfe/f\xfe.png", "png"}), []string{"P\uFFFD", "f\uFFFD.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.run()
			if err != nil {
				t.Fatal(err)
			}
			checkSnapshot(t, s)
			var all bytes.Buffer
			tree, err := json.Marshal(s.Tree)
			if err != nil {
				t.Fatal(err)
			}
			all.Write(tree)
			for _, d := range s.Documents {
				b, err := json.Marshal(d)
				if err != nil {
					t.Fatal(err)
				}
				all.Write(b)
			}
			var text strings.Builder
			for _, n := range content.Nodes(s.Tree) {
				text.WriteString(n.Page.Title + "\n" + n.Page.Description + "\n" + n.Page.Slug + "\n")
				if d := s.Documents[n.Page.Document]; d != nil {
					text.WriteString(d.PlainText() + "\n")
				}
			}
			for _, f := range s.Tree.Files {
				text.WriteString(f.Name + "\n")
			}
			got := text.String()
			if !utf8.ValidString(got) || strings.ContainsRune(got, 0) || !utf8.Valid(all.Bytes()) || bytes.Contains(all.Bytes(), []byte(`\u0000`)) {
				t.Fatalf("NUL or invalid UTF-8 kept:\n%q", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("text lacks %q:\n%q", w, got)
				}
			}
		})
	}
}
