package reader

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestPageIconsAreSVG: every page icon Folio draws is well-formed SVG in
// the reader's icon style, hidden from assistive technology; names match
// whatever their case and surrounding spaces; unknown names give nothing.
func TestPageIconsAreSVG(t *testing.T) {
	for _, name := range []string{"book", "rocket", "gear", "code", "terminal", "lightbulb", "shield", "key",
		"globe", "database", "cloud", "circle-info", "circle-question", "house", "bolt"} {
		svg := string(pageIcon(name))
		if !strings.HasPrefix(svg, `<svg class="page-icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor"`) ||
			!strings.Contains(svg, `aria-hidden="true"`) {
			t.Fatalf("%s: %s", name, svg)
		}
		d := xml.NewDecoder(strings.NewReader(svg))
		shapes := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v\n%s", name, err, svg)
			}
			if s, ok := tok.(xml.StartElement); ok && s.Name.Local != "svg" {
				shapes++
			}
		}
		if shapes == 0 {
			t.Fatalf("%s: nothing drawn", name)
		}
	}
	if len(pageIcons) != 15 {
		t.Fatalf("%d page icons, the test knows 15", len(pageIcons))
	}
	if pageIcon(" Rocket ") != pageIcon("rocket") {
		t.Fatal("names are not matched case-insensitively")
	}
	for _, name := range []string{"", "fa-rocket", "face-smile", "<script>", "search"} {
		if got := pageIcon(name); got != "" {
			t.Fatalf("%q: %s", name, got)
		}
	}
}
