package markdown

import (
	"os"
	"strings"
	"testing"
)

// TestLargeInputsConvert runs pathological inputs that once took minutes
// (quadratic scans). It asserts no timing: a regression shows as the test
// binary's timeout, and BenchmarkLargeInputs measures the cost.
func TestLargeInputsConvert(t *testing.T) {
	for name, src := range largeInputs(t) {
		doc, err := ToDocument([]byte(src), nil)
		if err == nil {
			if _, err := FromDocument(doc, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
}

func BenchmarkLargeInputs(b *testing.B) {
	inputs := largeInputs(b)
	for range b.N {
		for _, src := range inputs {
			if doc, err := ToDocument([]byte(src), nil); err == nil {
				FromDocument(doc, nil)
			}
		}
	}
}

func largeInputs(t testing.TB) map[string]string {
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
		"unknown tags":     strings.Repeat("{% foo %}\n", 20000) + "{% endfoo %}\n",
		"unknown tag ends": "{% foo %}\n" + strings.Repeat("{% hint style=\"info\" %}\n{% endfoo %}\n", 10000),
		"code tags":        strings.Repeat("{% code title=\"x\" %}\n```\nx\n```\n", 10000),
		"figures":          strings.Repeat("<div><figure><img src=\"a.png\" alt=\"\"><figcaption></figcaption></figure> ", 2000),
		"definitions":      strings.Repeat("[a]: b\n", 20000) + "[a]",
		"steppers":         strings.Repeat("{% stepper %}\n{% step %}\n", 5000),
		"embed captions":   strings.Repeat("{% embed url=\"x\" %}\ncaption\n", 10000),
		"huge attribute":   "{% code title=\"" + strings.Repeat("x", 1_000_000) + "\" %}\n```\nx\n```\n{% endcode %}\n",
		"raw paragraphs":   strings.Repeat("a <b>b</b> c\n\n", 20000),
	}
	return inputs
}
