package scripts

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
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
