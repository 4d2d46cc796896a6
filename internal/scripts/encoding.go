package scripts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"strings"
	"unicode/utf8"
)

// The pure helpers behind the host operations for crypto, TextDecoder and
// atob. An error whose text starts with a DOMException name
// ("NotSupportedError: …") becomes that DOMException in JavaScript.

// hmacSum returns the HMAC of data under key with hash alg ("SHA-256"…).
func hmacSum(alg string, key, data []byte) ([]byte, error) {
	if _, err := newHash(alg); err != nil {
		return nil, err
	}
	m := hmac.New(func() hash.Hash { h, _ := newHash(alg); return h }, key)
	m.Write(data)
	return m.Sum(nil), nil
}

func newHash(alg string) (hash.Hash, error) {
	switch strings.ToUpper(alg) {
	case "SHA-1":
		return sha1.New(), nil
	case "SHA-256":
		return sha256.New(), nil
	case "SHA-384":
		return sha512.New384(), nil
	case "SHA-512":
		return sha512.New(), nil
	}
	return nil, fmt.Errorf("NotSupportedError: unsupported hash algorithm %q", alg)
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// utf8Decode decodes b as TextDecoder("utf-8") does: a leading BOM is
// dropped unless ignoreBOM, and each maximal invalid subsequence becomes one
// U+FFFD (the WHATWG decoder's rule), or an error when fatal.
func utf8Decode(b []byte, fatal, ignoreBOM bool) (string, error) {
	if !ignoreBOM && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	if fatal {
		return "", errors.New("the encoded data was not valid utf-8")
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError || size > 1 {
			sb.WriteRune(r)
			b = b[size:]
			continue
		}
		sb.WriteRune(utf8.RuneError)
		b = b[invalidPrefix(b):]
	}
	return sb.String(), nil
}

// invalidPrefix returns the length of the maximal subpart at the start of b,
// which holds no valid sequence: the lead byte and the continuation bytes
// that could still have completed it.
func invalidPrefix(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead >= 0xE0 && lead <= 0xEF:
		need = 2
		if lead == 0xE0 {
			lo = 0xA0
		} else if lead == 0xED {
			hi = 0x9F
		}
	case lead >= 0xF0 && lead <= 0xF4:
		need = 3
		if lead == 0xF0 {
			lo = 0x90
		} else if lead == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

// forgivingBase64 decodes s as atob does: ASCII whitespace is ignored and
// padding is optional.
func forgivingBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\f', '\r':
			return -1
		}
		return r
	}, s)
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(s, "=")
		s = strings.TrimSuffix(s, "=")
	}
	if len(s)%4 == 1 || strings.ContainsRune(s, '=') {
		return nil, errors.New("InvalidCharacterError: the string to be decoded is not correctly encoded")
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("InvalidCharacterError: the string to be decoded is not correctly encoded")
	}
	return b, nil
}
