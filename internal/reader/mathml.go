package reader

import (
	"html"
	"html/template"
	"strings"
)

// texToMathML converts a simple subset of TeX to MathML Core, which
// Chromium, Firefox and Safari draw without a script: letters, numbers,
// operators and brackets, ^ and _ (with braces), \frac, \sqrt (with an
// optional index), \text, \left and \right, spacing, and the common Greek
// letters and symbols of texSymbols. Anything else (environments, \\, &,
// unknown commands, unbalanced braces, a double superscript) gives false:
// the reader then shows the TeX as text, which never misleads. The result
// holds the MathML children of a <math> element, with the TeX kept as its
// annotation.
func texToMathML(tex string) (template.HTML, bool) {
	if len(tex) > 4000 || strings.TrimSpace(tex) == "" {
		return "", false
	}
	p := &texParser{src: tex}
	body, ok := p.row(0)
	if !ok || p.pos < len(p.src) {
		return "", false
	}
	return template.HTML("<semantics><mrow>" + body + `</mrow><annotation encoding="application/x-tex">` + //nolint:gosec // built from escaped parts
		html.EscapeString(tex) + "</annotation></semantics>"), true
}

// texSymbols are the commands drawn as one character: identifiers (mi),
// operators (mo), or big operators that take limits (op).
var texSymbols = map[string]struct{ kind, char string }{
	"alpha": {"mi", "α"}, "beta": {"mi", "β"}, "gamma": {"mi", "γ"}, "delta": {"mi", "δ"}, "epsilon": {"mi", "ϵ"},
	"varepsilon": {"mi", "ε"}, "zeta": {"mi", "ζ"}, "eta": {"mi", "η"}, "theta": {"mi", "θ"}, "iota": {"mi", "ι"},
	"kappa": {"mi", "κ"}, "lambda": {"mi", "λ"}, "mu": {"mi", "μ"}, "nu": {"mi", "ν"}, "xi": {"mi", "ξ"}, "pi": {"mi", "π"},
	"rho": {"mi", "ρ"}, "sigma": {"mi", "σ"}, "tau": {"mi", "τ"}, "upsilon": {"mi", "υ"}, "phi": {"mi", "ϕ"},
	"varphi": {"mi", "φ"}, "chi": {"mi", "χ"}, "psi": {"mi", "ψ"}, "omega": {"mi", "ω"},
	"Gamma": {"MI", "Γ"}, "Delta": {"MI", "Δ"}, "Theta": {"MI", "Θ"}, "Lambda": {"MI", "Λ"}, "Xi": {"MI", "Ξ"},
	"Pi": {"MI", "Π"}, "Sigma": {"MI", "Σ"}, "Phi": {"MI", "Φ"}, "Psi": {"MI", "Ψ"}, "Omega": {"MI", "Ω"},
	"infty": {"mi", "∞"}, "partial": {"mi", "∂"}, "nabla": {"mi", "∇"}, "ell": {"mi", "ℓ"},
	"times": {"mo", "×"}, "cdot": {"mo", "⋅"}, "pm": {"mo", "±"}, "mp": {"mo", "∓"}, "div": {"mo", "÷"},
	"leq": {"mo", "≤"}, "le": {"mo", "≤"}, "geq": {"mo", "≥"}, "ge": {"mo", "≥"}, "neq": {"mo", "≠"}, "ne": {"mo", "≠"},
	"approx": {"mo", "≈"}, "equiv": {"mo", "≡"}, "sim": {"mo", "∼"}, "propto": {"mo", "∝"},
	"to": {"mo", "→"}, "rightarrow": {"mo", "→"}, "leftarrow": {"mo", "←"}, "Rightarrow": {"mo", "⇒"},
	"Leftrightarrow": {"mo", "⇔"}, "mapsto": {"mo", "↦"},
	"in": {"mo", "∈"}, "notin": {"mo", "∉"}, "subset": {"mo", "⊂"}, "subseteq": {"mo", "⊆"}, "cup": {"mo", "∪"},
	"cap": {"mo", "∩"}, "forall": {"mo", "∀"}, "exists": {"mo", "∃"}, "ldots": {"mo", "…"}, "cdots": {"mo", "⋯"},
	"sum": {"op", "∑"}, "prod": {"op", "∏"}, "int": {"mo", "∫"}, "lim": {"lim", "lim"},
	"sin": {"fn", "sin"}, "cos": {"fn", "cos"}, "tan": {"fn", "tan"}, "log": {"fn", "log"}, "ln": {"fn", "ln"},
	"exp": {"fn", "exp"}, "min": {"lim", "min"}, "max": {"lim", "max"},
}

// texSpaces are the spacing commands and their widths.
var texSpaces = map[string]string{",": "0.1667em", ":": "0.2222em", ";": "0.2778em", " ": "0.25em", "quad": "1em", "qquad": "2em"}

const texOperators = "+-=<>()[],./|!':;*"

type texParser struct {
	src string
	pos int
}

func (p *texParser) skipSpace() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\r\n", rune(p.src[p.pos])) {
		p.pos++
	}
}

// row parses atoms up to a closing brace or the end.
func (p *texParser) row(depth int) (string, bool) {
	if depth > 32 {
		return "", false
	}
	var b strings.Builder
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] == '}' {
			return b.String(), true
		}
		atom, limits, ok := p.atom(depth)
		if !ok {
			return "", false
		}
		var sub, sup string
		for {
			p.skipSpace()
			if p.pos >= len(p.src) || (p.src[p.pos] != '^' && p.src[p.pos] != '_') {
				break
			}
			c := p.src[p.pos]
			p.pos++
			arg, ok := p.arg(depth)
			if !ok || (c == '^' && sup != "") || (c == '_' && sub != "") {
				return "", false
			}
			if c == '^' {
				sup = arg
			} else {
				sub = arg
			}
		}
		under, over, both := "msub", "msup", "msubsup"
		if limits {
			under, over, both = "munder", "mover", "munderover"
		}
		switch {
		case sub != "" && sup != "":
			b.WriteString("<" + both + ">" + atom + sub + sup + "</" + both + ">")
		case sub != "":
			b.WriteString("<" + under + ">" + atom + sub + "</" + under + ">")
		case sup != "":
			b.WriteString("<" + over + ">" + atom + sup + "</" + over + ">")
		default:
			b.WriteString(atom)
		}
	}
}

// arg parses the argument of ^, _, \frac or \sqrt: a group in braces, or
// a single character or command.
func (p *texParser) arg(depth int) (string, bool) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] == '}' || p.src[p.pos] == '^' || p.src[p.pos] == '_' {
		return "", false
	}
	if p.src[p.pos] == '{' {
		return p.group(depth)
	}
	if c := p.src[p.pos]; c >= '0' && c <= '9' { // x^23 is x^{2}3
		p.pos++
		return "<mn>" + string(c) + "</mn>", true
	}
	atom, _, ok := p.atom(depth)
	return atom, ok
}

// group parses {…} into one mrow.
func (p *texParser) group(depth int) (string, bool) {
	p.pos++ // {
	inner, ok := p.row(depth + 1)
	if !ok || p.pos >= len(p.src) || p.src[p.pos] != '}' {
		return "", false
	}
	p.pos++
	return "<mrow>" + inner + "</mrow>", true
}

// atom parses one thing that ^ and _ apply to; limits reports a big
// operator, whose scripts go under and over it.
func (p *texParser) atom(depth int) (string, bool, bool) {
	c := p.src[p.pos]
	switch {
	case c == '{':
		s, ok := p.group(depth)
		return s, false, ok
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		p.pos++
		return "<mi>" + string(c) + "</mi>", false, true
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9') {
			p.pos++
		}
		return "<mn>" + p.src[start:p.pos] + "</mn>", false, true
	case c == '-':
		p.pos++
		return "<mo>−</mo>", false, true
	case c == '\'':
		p.pos++
		return "<mo>′</mo>", false, true
	case strings.IndexByte(texOperators, c) >= 0:
		p.pos++
		return "<mo>" + html.EscapeString(string(c)) + "</mo>", false, true
	case c == '\\':
		return p.command(depth)
	}
	return "", false, false // & # $ % ~ ^ _ and anything not ASCII
}

// command parses a backslash command.
func (p *texParser) command(depth int) (string, bool, bool) {
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		return "", false, false
	}
	name := ""
	if c := p.src[p.pos]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		start := p.pos
		for p.pos < len(p.src) && (p.src[p.pos] >= 'a' && p.src[p.pos] <= 'z' || p.src[p.pos] >= 'A' && p.src[p.pos] <= 'Z') {
			p.pos++
		}
		name = p.src[start:p.pos]
	} else {
		name = string(c)
		p.pos++
	}
	if w, ok := texSpaces[name]; ok {
		return `<mspace width="` + w + `"></mspace>`, false, true
	}
	if s, ok := texSymbols[name]; ok {
		switch s.kind {
		case "MI":
			return `<mi mathvariant="normal">` + s.char + "</mi>", false, true
		case "op", "lim":
			return "<mo>" + s.char + "</mo>", true, true
		case "fn":
			return "<mi>" + s.char + "</mi>", false, true
		}
		return "<" + s.kind + ">" + s.char + "</" + s.kind + ">", false, true
	}
	switch name {
	case "{", "}":
		return "<mo>" + name + "</mo>", false, true
	case "frac":
		num, ok1 := p.arg(depth)
		den, ok2 := p.arg(depth)
		return "<mfrac>" + num + den + "</mfrac>", false, ok1 && ok2
	case "sqrt":
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '[' {
			end := strings.IndexByte(p.src[p.pos:], ']')
			if end < 0 {
				return "", false, false
			}
			index, ok := (&texParser{src: p.src[p.pos+1 : p.pos+end]}).row(depth + 1)
			p.pos += end + 1
			body, ok2 := p.arg(depth)
			return "<mroot>" + body + "<mrow>" + index + "</mrow></mroot>", false, ok && ok2
		}
		body, ok := p.arg(depth)
		return "<msqrt>" + body + "</msqrt>", false, ok
	case "text", "mathrm":
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '{' {
			return "", false, false
		}
		end := strings.IndexAny(p.src[p.pos+1:], "{}\\$")
		if end < 0 || p.src[p.pos+1+end] != '}' {
			return "", false, false
		}
		text := p.src[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		if name == "mathrm" {
			return `<mi mathvariant="normal">` + html.EscapeString(text) + "</mi>", false, true
		}
		return "<mtext>" + html.EscapeString(text) + "</mtext>", false, true
	case "left", "right":
		p.skipSpace()
		if p.pos >= len(p.src) {
			return "", false, false
		}
		d := p.src[p.pos]
		p.pos++
		switch {
		case d == '.':
			return "<mrow></mrow>", false, true
		case strings.IndexByte("()[]|", d) >= 0:
			return "<mo>" + string(d) + "</mo>", false, true
		case d == '\\' && p.pos < len(p.src) && (p.src[p.pos] == '{' || p.src[p.pos] == '}'):
			p.pos++
			return "<mo>" + string(p.src[p.pos-1]) + "</mo>", false, true
		}
	}
	return "", false, false
}
