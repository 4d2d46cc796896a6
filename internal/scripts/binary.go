package scripts

import (
	"fmt"
	"unicode/utf8"
)

// Bytes cross between Go and JavaScript as "binary strings": one character
// per byte, U+0000 to U+00FF. The engine converts strings as UTF-8, so these
// two functions map each byte to the rune of the same value and back.

// binaryString returns b as a binary string.
func binaryString(b []byte) string {
	n := len(b)
	for _, c := range b {
		if c >= utf8.RuneSelf {
			n++
		}
	}
	out := make([]byte, 0, n)
	for _, c := range b {
		if c < utf8.RuneSelf {
			out = append(out, c)
		} else {
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return string(out)
}

// binaryBytes returns the bytes of binary string s. A character above U+00FF
// is an error: JavaScript handed over text where bytes were expected.
func binaryBytes(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0xFF {
			return nil, fmt.Errorf("binary string has character U+%04X above U+00FF", r)
		}
		out = append(out, byte(r))
		i += size
	}
	return out, nil
}
