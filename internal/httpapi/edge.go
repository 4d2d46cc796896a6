package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// The checks in this file run at the edge, before any handler, so that no
// byte a store may refuse reaches a query. PostgreSQL rejects NUL and
// invalid UTF-8 in text where SQLite stores them, so without them the two
// stores would disagree (and PostgreSQL would answer 500).

// maxPathID bounds the length of an id in a path: ids are 20 characters,
// but a user may also be named by email (at most 254).
const maxPathID = 254

// pathParam is a wildcard of a route pattern and the check its value needs.
type pathParam struct {
	name string
	id   bool   // an id: printable ASCII only
	noun string // what a malformed value is not found as
}

// pathParams lists the wildcards of a route pattern such as
// "GET /v1/spaces/{spaceId}/content/path/{pagePath...}".
func pathParams(pattern string) []pathParam {
	var out []pathParam
	for rest := pattern; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return out
		}
		name := strings.TrimSuffix(rest[i+1:i+j], "...")
		rest = rest[i+j+1:]
		p := pathParam{name: name, noun: nounOf(name)}
		// A user may be named by email, which may hold any clean text.
		p.id = (strings.HasSuffix(name, "Id") || name == "hash") && name != "userId"
		out = append(out, p)
	}
}

// nounOf turns a wildcard name into what users call it: "samlProviderId"
// becomes "SAML provider", "pagePath" becomes "page".
func nounOf(name string) string {
	switch name {
	case "hash":
		return "file"
	case "pagePath":
		return "page"
	}
	name = strings.TrimSuffix(name, "Id")
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	n := b.String()
	if strings.HasPrefix(n, "saml") {
		n = "SAML" + n[4:]
	}
	return n
}

// wellFormedID reports whether s can be an id of this server (or an
// email): ids are letters and digits, so anything outside printable ASCII
// names nothing.
func wellFormedID(s string) bool {
	return s != "" && len(s) <= maxPathID && printableASCII(s)
}

// cleanText reports whether s is valid UTF-8 without NUL.
func cleanText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// checkPath answers 404 for path values that cannot name anything: ids
// that are not well formed, and any value that is not clean text.
func checkPath(r *http.Request, params []pathParam) error {
	for _, p := range params {
		v := r.PathValue(p.name)
		if p.id && !wellFormedID(v) || !p.id && !cleanText(v) {
			return folio.Errorf(folio.NotFound, "%s not found", p.noun)
		}
	}
	return nil
}

// Bounds of a query string (docs/decisions.md, "Hostile list queries").
// A filter such as title= or search= becomes a LIKE pattern, which SQLite
// refuses past 50,000 bytes (with a 500), and no value of any parameter
// needs more than a kilobyte; page identifiers get folio.MaxCursorLength.
const (
	maxQueryValue  = 1024 // characters of a query parameter's value, unless queryBounds says otherwise
	maxQueryValues = 200  // values in one query string, repeats included (authors= takes 100)
)

// queryBounds are the parameters whose bound differs from maxQueryValue.
var queryBounds = map[string]int{
	"page": folio.MaxCursorLength,
}

// checkQuery answers 400, naming the parameter, for a query string whose
// names or values are not clean text once unescaped, or beyond the bounds
// above.
func checkQuery(r *http.Request) error {
	raw := r.URL.RawQuery
	if raw == "" {
		return nil
	}
	if len(raw) <= maxQueryValue && strings.Count(raw, "&")+strings.Count(raw, ";") < maxQueryValues &&
		strings.IndexByte(raw, '%') < 0 && cleanText(raw) {
		return nil // nothing escaped, nothing unclean, nothing long, not many
	}
	vs := r.URL.Query()
	if err := checkValues(vs, "query parameter"); err != nil {
		return err
	}
	n := 0
	for k, list := range vs {
		n += len(list)
		bound := maxQueryValue
		if b, ok := queryBounds[k]; ok {
			bound = b
		}
		for _, v := range list {
			if len(v) > bound && utf8.RuneCountInString(v) > bound {
				return folio.FieldErrorf(k, "query parameter %q must be at most %d characters", k, bound)
			}
		}
	}
	if n > maxQueryValues {
		return folio.Errorf(folio.Invalid, "a query string may hold at most %d parameters", maxQueryValues)
	}
	return nil
}

// checkValues checks form or query values.
func checkValues(vs url.Values, what string) error {
	for k, list := range vs {
		if !cleanText(k) {
			return folio.Errorf(folio.Invalid, "a %s name is not valid UTF-8 or contains a NUL character", what)
		}
		for _, v := range list {
			if !cleanText(v) {
				return folio.FieldErrorf(k, "%s %q is not valid UTF-8 or contains a NUL character", what, k)
			}
		}
	}
	return nil
}

// nulEscape is how JSON writes U+0000.
var nulEscape = []byte(`\u0000`)

// checkJSONText refuses a JSON body with a string (value or key) that is
// not valid UTF-8 or holds U+0000, naming where it is. encoding/json would
// quietly replace invalid bytes, and keep NUL.
func checkJSONText(body []byte) error {
	bad := -1 // offset of the first bad byte
	if !utf8.Valid(body) {
		for i := 0; i < len(body); {
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && n <= 1 {
				bad = i
				break
			}
			i += n
		}
	}
	for from := 0; ; {
		i := bytes.Index(body[from:], nulEscape)
		if i < 0 {
			break
		}
		i += from
		// An odd number of backslashes before "u0000" makes it an escape;
		// an even number is an escaped backslash followed by text.
		n := 0
		for j := i - 1; j >= 0 && body[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 && (bad < 0 || i < bad) {
			bad = i
			break
		}
		from = i + len(nulEscape)
	}
	if bad < 0 {
		return nil
	}
	if field := jsonFieldAt(body, bad); field != "" {
		return folio.FieldErrorf(field, "%s must be valid UTF-8 text without NUL characters", field)
	}
	return folio.Errorf(folio.Invalid, "request body strings must be valid UTF-8 text without NUL characters")
}

// jsonFieldAt names the member of a JSON document whose text covers byte
// offset at: "title", "members[3]", "position.before.space". It returns ""
// when the document does not parse that far.
func jsonFieldAt(body []byte, at int) string {
	type frame struct {
		array bool
		key   string
		index int
	}
	var stack []frame
	expectKey := false
	name := func() string {
		var b strings.Builder
		for i, f := range stack {
			if f.array {
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
				continue
			}
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		end := int(dec.InputOffset())
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{})
				expectKey = true
			case '[':
				stack = append(stack, frame{array: true, index: -1})
			case '}', ']':
				stack = stack[:len(stack)-1]
				expectKey = len(stack) > 0 && !stack[len(stack)-1].array
			}
			if t == '{' || t == '[' {
				if len(stack) > 1 && stack[len(stack)-2].array {
					stack[len(stack)-2].index++
				}
			}
			continue
		case string:
			if len(stack) > 0 && !stack[len(stack)-1].array && expectKey {
				stack[len(stack)-1].key = t
				expectKey = false
				if end > at {
					return name()
				}
				continue
			}
		}
		// A value: a scalar of an object member or of an array.
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.array {
				top.index++
			} else {
				expectKey = true
			}
		}
		if end > at {
			return name()
		}
	}
}

// readBody reads a whole request body within the size limit.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, errTooLarge(maxErr.Limit)
		}
		if isTimeout(err) {
			return nil, errBodyTimeout
		}
		return nil, err
	}
	return b, nil
}
