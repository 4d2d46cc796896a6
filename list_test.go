package folio_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/google/go-cmp/cmp"
)

// raw encodes a cursor's JSON text as a page identifier, as a client that
// forges one would.
func raw(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

// TestDecodeCursorRefusesWhatNoListMakes: one row per rule of
// DecodeCursor, each bound on both sides.
func TestDecodeCursorRefusesWhatNoListMakes(t *testing.T) {
	long := strings.Repeat("a", folio.MaxCursorString)
	for _, c := range []struct {
		name, page string
		ok         bool
	}{
		{"string/plain", raw(`["abc"]`), true},
		{"string/NUL", raw(`["\u0000"]`), false},
		{"string/NUL inside", raw(`[1,"a\u0000b"]`), false},
		{"string/invalid UTF-8", base64.RawURLEncoding.EncodeToString([]byte("[\"\xff\"]")), false},
		{"string/at most MaxCursorString bytes", raw(`["` + long + `"]`), true},
		{"string/over MaxCursorString bytes", raw(`["` + long + `a"]`), false},
		{"keys/MaxCursorKeys", raw(`[1,2,3,4]`), true},
		{"keys/over MaxCursorKeys", raw(`[1,2,3,4,5]`), false},
		{"keys/none", raw(`[]`), false},
		{"length/over MaxCursorLength", strings.Repeat("A", folio.MaxCursorLength+1), false},
		{"type/float", raw(`[1.5]`), false},
		{"type/bool", raw(`[true]`), false},
		{"type/object", raw(`[{}]`), false},
		{"type/null", raw(`[null]`), false},
		{"type/integer beyond int64", raw(`[99999999999999999999]`), false},
		{"shape/not a list", raw(`"a"`), false},
		{"shape/two lists", raw(`[1][1]`), false},
		{"encoding/not base64", "!!", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := folio.DecodeCursor(c.page)
			if c.ok && err != nil {
				t.Fatalf("DecodeCursor: %v", err)
			}
			if !c.ok && (folio.KindOf(err) != folio.Invalid || folio.MessageOf(err) != "page is not a valid page identifier") {
				t.Fatalf("DecodeCursor = %v, want the Invalid page error", err)
			}
		})
	}
}

// FuzzDecodeCursor: whatever a client sends, DecodeCursor either refuses it
// as Invalid or returns keys a list can bind (int64, or bounded UTF-8
// strings without NUL), which encode back to the same cursor.
func FuzzDecodeCursor(f *testing.F) {
	for _, seed := range []string{
		folio.EncodeCursor(int64(1700000000123456), "abc"),
		folio.EncodeCursor("/docs/a", "id"),
		"WyJcdTAwMDAiXQ", // ["\u0000"], from the issue
		raw(`[1,"\u0000"]`),
		raw(`["\ud800"]`),
		raw(`[1,2,3,4,5]`),
		raw(`[1e400]`),
		raw(`[-9223372036854775808,"x"]`),
		"", "!!", "W10", "bnVsbA",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		c, err := folio.DecodeCursor(page)
		if err != nil {
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("DecodeCursor(%q) = %v, want Invalid", page, err)
			}
			return
		}
		if len(c) == 0 || len(c) > folio.MaxCursorKeys {
			t.Fatalf("DecodeCursor(%q) has %d keys", page, len(c))
		}
		for _, v := range c {
			switch v := v.(type) {
			case int64:
			case string:
				if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 || len(v) > folio.MaxCursorString {
					t.Fatalf("DecodeCursor(%q) let through %q", page, v)
				}
			default:
				t.Fatalf("DecodeCursor(%q) returned a %T", page, v)
			}
		}
		again, err := folio.DecodeCursor(folio.EncodeCursor(c...))
		if err != nil {
			t.Fatalf("a decoded cursor does not decode again: %v", err)
		}
		if d := cmp.Diff(c, again); d != "" {
			t.Fatalf("round trip (-first +again):\n%s", d)
		}
	})
}
