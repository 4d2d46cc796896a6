package scripts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"modernc.org/quickjs"
)

// host is the one Go function the prelude calls: host(op, ...args). Each op
// takes and returns strings, numbers and booleans only; bytes travel as
// binary strings. An error becomes a TypeError in JavaScript. A panic is
// recovered here, since one going up through the engine would abandon the VM.
func (s *session) host(args []any) (res any, err error) {
	op := argString(args, 0)
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("internal error in the runtime (%s)", op)
		}
	}()
	a := args[1:]
	switch op {
	case "log":
		return s.log(argString(a, 0), argString(a, 1)), nil
	case "fetch":
		return nil, s.startFetch(a)
	case "fetchAbort":
		s.abortFetch(int(argNumber(a, 0)))
		return nil, nil
	case "respond":
		return nil, s.respond(a)
	case "done":
		s.done = true
		return nil, nil
	case "fail":
		s.fail(argString(a, 0), argString(a, 1), argString(a, 2), argString(a, 3))
		return nil, nil
	case "random":
		n := int(argNumber(a, 0))
		if n < 0 || n > 65536 {
			return nil, fmt.Errorf("random: %d bytes asked, the limit is 65536", n)
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return binaryString(b), nil
	case "uuid":
		return newUUID(), nil
	case "digest":
		data, err := argBinary(a, 1)
		if err != nil {
			return nil, err
		}
		h, err := newHash(argString(a, 0))
		if err != nil {
			return nil, err
		}
		h.Write(data)
		return binaryString(h.Sum(nil)), nil
	case "hmac", "hmacVerify":
		key, err := argBinary(a, 1)
		if err != nil {
			return nil, err
		}
		data, err := argBinary(a, 2)
		if err != nil {
			return nil, err
		}
		mac, err := hmacSum(argString(a, 0), key, data)
		if err != nil {
			return nil, err
		}
		if op == "hmac" {
			return binaryString(mac), nil
		}
		sig, err := argBinary(a, 3)
		if err != nil {
			return nil, err
		}
		return hmac.Equal(mac, sig), nil
	case "utf8Encode":
		// The engine already turned lone surrogates into U+FFFD, as
		// TextEncoder does.
		return binaryString([]byte(argString(a, 0))), nil
	case "utf8Decode":
		b, err := argBinary(a, 0)
		if err != nil {
			return nil, err
		}
		return utf8Decode(b, argBool(a, 1), argBool(a, 2))
	case "btoa":
		b, err := argBinary(a, 0)
		if err != nil {
			return nil, errors.New("InvalidCharacterError: the string has characters outside of Latin1")
		}
		return base64.StdEncoding.EncodeToString(b), nil
	case "atob":
		b, err := forgivingBase64(argString(a, 0))
		if err != nil {
			return nil, err
		}
		return binaryString(b), nil
	case "parseURL":
		return parseURL(argString(a, 0), argString(a, 1), argBool(a, 2))
	case "parseForm":
		body, err := argBinary(a, 1)
		if err != nil {
			return nil, err
		}
		return parseMultipart(argString(a, 0), body)
	}
	return nil, fmt.Errorf("unknown runtime operation %q", op)
}

// log keeps one console line and reports whether later lines will be kept.
func (s *session) log(level, msg string) bool {
	if len(s.logList) >= s.limits.MaxLogs {
		s.dropped++
		return false
	}
	if len(msg) > s.limits.MaxLogLine {
		cut := s.limits.MaxLogLine
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "… (truncated)"
	}
	switch level {
	case "log", "info", "warn", "error", "debug":
	default:
		level = "log"
	}
	s.logList = append(s.logList, Log{Level: level, Message: msg, At: time.Now()})
	return len(s.logList) < s.limits.MaxLogs
}

// respond records the Response the handler returned.
func (s *session) respond(a []any) error {
	status := int(argNumber(a, 0))
	if status < 200 || status > 599 {
		s.failure = scriptErrorf(KindException, "the fetch handler returned a Response with status %d (Response.error()?)", status)
		return nil
	}
	var pairs [][2]string
	if err := json.Unmarshal([]byte(argString(a, 2)), &pairs); err != nil {
		return fmt.Errorf("respond: headers: %w", err)
	}
	body, err := argBinary(a, 3)
	if err != nil {
		return err
	}
	if int64(len(body)) > s.limits.MaxResponse {
		s.failure = scriptErrorf(KindResponseTooLarge, "the response body is %d bytes, over the limit of %d", len(body), s.limits.MaxResponse)
		return nil
	}
	h := make(http.Header, len(pairs))
	for _, p := range pairs {
		h.Add(p[0], p[1])
	}
	s.response = &Response{Status: status, Header: h, Body: body}
	return nil
}

// fail records how the script failed, as the prelude saw it.
func (s *session) fail(kind, name, message, stack string) {
	if s.failure != nil {
		return
	}
	switch kind {
	case KindResponseTooLarge, KindInvalidScript:
		s.failure = &ScriptError{Kind: kind, Message: message}
	default:
		s.failure = errorFromJS(name, message, stack)
	}
}

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

// headerPairs flattens h into lower-case [name, value] pairs, names sorted.
func headerPairs(h http.Header) [][2]string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	pairs := make([][2]string, 0, len(h))
	for _, k := range names {
		for _, v := range h[k] {
			pairs = append(pairs, [2]string{strings.ToLower(k), v})
		}
	}
	return pairs
}

func argString(a []any, i int) string {
	if i < len(a) {
		if s, ok := a[i].(string); ok {
			return s
		}
	}
	return ""
}

func argNumber(a []any, i int) float64 {
	if i < len(a) {
		return toFloat(a[i])
	}
	return math.NaN()
}

func argBool(a []any, i int) bool {
	if i < len(a) {
		b, _ := a[i].(bool)
		return b
	}
	return false
}

// argBinary returns argument i, a binary string, as bytes.
func argBinary(a []any, i int) ([]byte, error) {
	return binaryBytes(argString(a, i))
}

// isAbsent reports whether argument i is missing, null or undefined.
func isAbsent(a []any, i int) bool {
	if i >= len(a) || a[i] == nil {
		return true
	}
	_, ok := a[i].(quickjs.Undefined)
	return ok
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case float64:
		return n
	}
	return math.NaN()
}
