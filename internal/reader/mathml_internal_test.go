package reader

import (
	"strings"
	"testing"
)

// TestTeXToMathML: the simple subset of TeX becomes MathML Core, with
// the TeX as annotation; anything outside it is refused, so the reader
// shows the TeX as text.
func TestTeXToMathML(t *testing.T) {
	for _, c := range []struct{ tex, want string }{
		{"E = mc^2", "<mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>"},
		{"x_i^2", "<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>"},
		{"x^{2}_{i}", "<msubsup><mi>x</mi><mrow><mi>i</mi></mrow><mrow><mn>2</mn></mrow></msubsup>"},
		{"a_{n+1} - 3.14", "<msub><mi>a</mi><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></msub><mo>−</mo><mn>3.14</mn>"},
		{"x^23", "<msup><mi>x</mi><mn>2</mn></msup><mn>3</mn>"},
		{`\frac{a+b}{2}`, "<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mrow><mn>2</mn></mrow></mfrac>"},
		{`\frac12`, "<mfrac><mn>1</mn><mn>2</mn></mfrac>"},
		{`\sqrt{x^2 + y^2}`, "<msqrt><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><msup><mi>y</mi><mn>2</mn></msup></mrow></msqrt>"},
		{`\sqrt[3]{8}`, "<mroot><mrow><mn>8</mn></mrow><mrow><mn>3</mn></mrow></mroot>"},
		{`\alpha \leq \Omega`, `<mi>α</mi><mo>≤</mo><mi mathvariant="normal">Ω</mi>`},
		{`\sum_{i=1}^{n} i`, "<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mrow><mi>n</mi></mrow></munderover><mi>i</mi>"},
		{`\lim_{x \to \infty} f(x)`, "<munder><mo>lim</mo><mrow><mi>x</mi><mo>→</mo><mi>∞</mi></mrow></munder><mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo>"},
		{`\left( x \right)`, "<mo>(</mo><mi>x</mi><mo>)</mo>"},
		{`a \cdot b \times c \pm d \neq e`, "<mi>a</mi><mo>⋅</mo><mi>b</mi><mo>×</mo><mi>c</mi><mo>±</mo><mi>d</mi><mo>≠</mo><mi>e</mi>"},
		{`x \in A \text{ for all } x`, "<mi>x</mi><mo>∈</mo><mi>A</mi><mtext> for all </mtext><mi>x</mi>"},
		{`a\,b\quad c`, `<mi>a</mi><mspace width="0.1667em"></mspace><mi>b</mi><mspace width="1em"></mspace><mi>c</mi>`},
		{`\sin \theta < 1`, "<mi>sin</mi><mi>θ</mi><mo>&lt;</mo><mn>1</mn>"},
		{`f'(x)`, "<mi>f</mi><mo>′</mo><mo>(</mo><mi>x</mi><mo>)</mo>"},
		{`\{ a \}`, "<mo>{</mo><mi>a</mi><mo>}</mo>"},
	} {
		got, ok := texToMathML(c.tex)
		want := "<semantics><mrow>" + c.want + `</mrow><annotation encoding="application/x-tex">` + htmlEscape(c.tex) + "</annotation></semantics>"
		if !ok || string(got) != want {
			t.Errorf("%q: %v\n got %s\nwant %s", c.tex, ok, got, want)
		}
	}
	for _, tex := range []string{
		"", "   ", `\begin{matrix} a & b \end{matrix}`, `a \\ b`, `x^2^3`, `x_1_2`, `{a`, `a}`, `\frac{a}`, `\unknown x`,
		`\sqrt[3{x}`, `\text{a{b}}`, `x^`, `^2`, `a & b`, `\mathbb{R}`, `100\%`, `é`, `\left< x \right>`,
		strings.Repeat("{", 40) + "x" + strings.Repeat("}", 40), strings.Repeat("x", 4001),
	} {
		if got, ok := texToMathML(tex); ok || got != "" {
			t.Errorf("%q: converted to %s", tex, got)
		}
	}
	// What is converted is escaped: markup in TeX stays text.
	if got, ok := texToMathML("<script>alert(1)</script>"); !ok || strings.Contains(string(got), "<script") || !strings.Contains(string(got), "<mo>&lt;</mo><mi>s</mi>") {
		t.Errorf("markup in TeX: %v %s", ok, got)
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
