package folio

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// List page sizes: DefaultLimit when the client sends none, MaxLimit at most.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Bounds of a page identifier (docs/decisions.md, "Hostile list queries").
// Every cursor Folio makes fits well inside them: at most three keys, of
// ids, timestamps, integration names and redirect sources (512 bytes).
const (
	MaxCursorLength = 4096 // characters of the encoded page identifier
	MaxCursorKeys   = 4    // values in one cursor
	MaxCursorString = 1024 // bytes of one string value
)

// Cursor is a decoded list position: the keyset values of the last item of
// the previous page, in the order of the list's sort keys. On the wire it is
// an opaque string (see EncodeCursor).
type Cursor []any

// ListOptions selects one page of a list. After is nil for the first page.
type ListOptions struct {
	Limit int
	After Cursor
	Desc  bool // newest first, for lists that take an order parameter
}

// List is one page of results and the total number of matching items.
// Next is the cursor of the following page, empty on the last page.
type List[T any] struct {
	Items []T
	Count int
	Next  string
}

// ParseListOptions validates the page and limit query parameters.
// It returns Invalid errors naming the parameter.
func ParseListOptions(page, limit string) (ListOptions, error) {
	opts := ListOptions{Limit: DefaultLimit}
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > MaxLimit {
			return opts, FieldErrorf("limit", "limit must be an integer between 1 and %d", MaxLimit)
		}
		opts.Limit = n
	}
	if page != "" {
		c, err := DecodeCursor(page)
		if err != nil {
			return opts, err
		}
		opts.After = c
	}
	return opts, nil
}

// ParseOrder validates the order query parameter (asc or desc, def when absent).
func ParseOrder(s string, def string) (desc bool, err error) {
	if s == "" {
		s = def
	}
	switch s {
	case "asc":
		return false, nil
	case "desc":
		return true, nil
	}
	return false, FieldErrorf("order", "order must be asc or desc")
}

var errBadCursor = FieldErrorf("page", "page is not a valid page identifier")

// EncodeCursor turns keyset values (strings and integers) into an opaque,
// URL-safe page identifier.
func EncodeCursor(keys ...any) string {
	b, _ := json.Marshal(keys) // strings and integers always marshal
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a page identifier made by EncodeCursor. Integers come
// back as int64 and strings as string; anything else is rejected with an
// Invalid error on page, as are identifiers beyond the bounds above and
// strings that are not valid UTF-8 or hold NUL, which no list key holds
// and which PostgreSQL refuses as query arguments.
func DecodeCursor(s string) (Cursor, error) {
	if len(s) > MaxCursorLength {
		return nil, errBadCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || !utf8.Valid(b) {
		return nil, errBadCursor
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil || len(raw) == 0 || len(raw) > MaxCursorKeys || dec.More() {
		return nil, errBadCursor
	}
	c := make(Cursor, len(raw))
	for i, v := range raw {
		switch v := v.(type) {
		case string:
			// The text was valid UTF-8, and encoding/json turns lone
			// surrogates into U+FFFD, but it keeps \u0000.
			if len(v) > MaxCursorString || !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
				return nil, errBadCursor
			}
			c[i] = v
		case json.Number:
			n, err := v.Int64()
			if err != nil {
				return nil, errBadCursor
			}
			c[i] = n
		default:
			return nil, errBadCursor
		}
	}
	return c, nil
}

// Matches reports whether the cursor has the given shape: "s" for a string
// key and "i" for an integer key, in order. Lists call it before using a
// cursor, so a cursor of another list is refused rather than misread.
func (c Cursor) Matches(shape string) bool {
	if len(c) != len(shape) {
		return false
	}
	for i, k := range shape {
		switch c[i].(type) {
		case string:
			if k != 's' {
				return false
			}
		case int64:
			if k != 'i' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ErrBadCursor is the error for a cursor that does not fit the list it is
// used with.
func ErrBadCursor() error { return errBadCursor }
