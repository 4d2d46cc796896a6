package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/foliodocs/folio"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v with the status. Encoding into a buffer first means a
// value that fails to encode still gets a proper error answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"code":500,"message":"Internal server error"}}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// hasBody reports whether the request carries a body.
func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

// checkBody enforces the wire rules on a request body before any handler
// runs: a body must be JSON (415) and within the size limit (413).
func (s *Server) checkBody(w http.ResponseWriter, r *http.Request) error {
	if !hasBody(r) {
		return nil
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return folio.Errorf(folio.UnsupportedMedia, "request bodies must be JSON, sent with Content-Type: application/json")
	}
	if r.ContentLength > s.maxBody {
		return errTooLarge(s.maxBody)
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
	return nil
}

// errBodyTimeout answers a body that did not arrive within the body timeout.
var errBodyTimeout = folio.Errorf(folio.Timeout, "the request body did not arrive in time")

// isTimeout reports whether err is a read deadline that passed.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func errTooLarge(limit int64) error {
	return folio.Errorf(folio.TooLarge, "request body is larger than %d bytes", limit)
}

// decode reads a JSON body into v. A missing body decodes as {} so that
// endpoints whose fields are all optional accept none. Errors name the
// offending field; strings that are not clean text are refused before
// anything decodes them.
func decode(r *http.Request, v any) error {
	if !hasBody(r) {
		return nil
	}
	body, err := readBody(r)
	if err != nil {
		return decodeError(err)
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return folio.Errorf(folio.Invalid, "request body must hold a single JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
		maxErr    *http.MaxBytesError
		fe        *folio.Error
	)
	switch {
	case errors.As(err, &maxErr):
		return errTooLarge(maxErr.Limit)
	case isTimeout(err):
		return errBodyTimeout
	case errors.As(err, &fe):
		return fe
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return folio.Errorf(folio.Invalid, "invalid request body: expected %s", jsonKind(typeErr.Type.String()))
		}
		return folio.FieldErrorf(typeErr.Field, "invalid value for %q: expected %s", typeErr.Field, jsonKind(typeErr.Type.String()))
	case errors.As(err, &syntaxErr):
		return folio.Errorf(folio.Invalid, "malformed JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return folio.Errorf(folio.Invalid, "malformed JSON: the body ends too early")
	}
	return folio.Errorf(folio.Invalid, "malformed JSON body")
}

// jsonKind names a Go type the way a JSON client thinks of it.
func jsonKind(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "."):
		return "an object"
	}
	return fmt.Sprintf("a value of type %s", goType)
}

// listOptions parses page and limit.
func listOptions(r *http.Request) (folio.ListOptions, error) {
	q := r.URL.Query()
	return folio.ParseListOptions(q.Get("page"), q.Get("limit"))
}
