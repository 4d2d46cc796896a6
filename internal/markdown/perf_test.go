package markdown

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestLargeInputsAreFast(t *testing.T) {
	var all []byte
	for _, f := range corpus(t) {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
		all = append(all, '\n')
	}
	inputs := map[string]string{
		"corpus x50":       strings.Repeat(string(all), 50),
		"unclosed math":    "$$\n" + strings.Repeat("x\n", 20000),
		"file tags":        strings.Repeat("{% file src=\"x\" %}\n", 20000),
		"marks":            strings.Repeat("*a* **b** ", 20000),
		"unclosed hints":   strings.Repeat("{% hint style=\"info\" %}\n", 5000),
		"nested quotes":    strings.Repeat(">", 5000) + " x",
		"nested lists":     strings.Repeat("- ", 2000) + "x",
		"details no close": strings.Repeat("<details>\n<summary>a</summary>\n", 3000),
	}
	for name, src := range inputs {
		start := time.Now()
		doc, err := ToDocument([]byte(src), nil)
		if err == nil {
			if _, err := FromDocument(doc, nil); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %v", name, time.Since(start))
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}
