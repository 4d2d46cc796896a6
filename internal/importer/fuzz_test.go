package importer

import (
	"bytes"
	"testing"

	"github.com/foliodocs/folio"
)

// FuzzHTML checks that any HTML converts into a valid page or an Invalid
// error, never a panic. The seeds run with go test; fuzz with
// go test -fuzz FuzzHTML ./internal/importer.
func FuzzHTML(f *testing.F) {
	for _, seed := range []string{
		"<h1>T</h1><p>a <b>b</b></p>", "<ul><li><table><tr><td><pre>x</pre></td></tr></table></li></ul>",
		"<details><summary><h1>x</h1></summary><details>y</details></details>", "<a href=x><a href=y>z</a></a>",
		"<figure><figcaption>c</figcaption></figure>", "<table><caption><img src=x></caption></table>",
		"<p>\xff<br><br></p>", "<ol start=-5><li><input type=checkbox></li></ol>",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := HTML(src, "t")
		if err != nil {
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("error of kind %v: %v", folio.KindOf(err), err)
			}
			return
		}
		checkSnapshot(t, s)
	})
}

// FuzzZip checks that any bytes import or fail with an Invalid error.
func FuzzZip(f *testing.F) {
	f.Add(makeZip(f, file{"SUMMARY.md", "* [a](a.md)\n  * [b](https://x)\n## g\n"}, file{"a.md", "# A\n[b](b.md)"}))
	f.Add(makeZip(f, file{"r/README.md", "x"}, file{"r/d/e.html", "<p>e</p>"}, file{"r/i.png", "\x89PNG"}))
	f.Add([]byte("PK\x05\x06"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Zip(bytes.NewReader(b), int64(len(b)), Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 4 << 20})
		if err != nil {
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("error of kind %v: %v", folio.KindOf(err), err)
			}
			return
		}
		checkSnapshot(t, s)
	})
}
