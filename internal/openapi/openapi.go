package openapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/foliodocs/folio"
)

// The processing error codes of the GitBook reference
// (OpenAPISpecProcessingErrorCode).
const (
	CodeFetchTimeout = "FETCH_TIMEOUT"
	CodeFetchError   = "FETCH_ERROR"
	CodeParseError   = "PARSE_ERROR"
)

// ErrTimeout is what a Fetcher wraps when a URL did not answer in time;
// Process reports it as FETCH_TIMEOUT.
var ErrTimeout = errors.New("openapi: fetch timed out")

// Fetcher loads the document at an absolute http or https URL. The server
// passes its guarded outbound client (time limit, size cap, private
// addresses refused). Errors that wrap ErrTimeout, or that are net.Error
// timeouts, become FETCH_TIMEOUT; any other error becomes FETCH_ERROR. A
// *folio.Error in the chain gives the message shown to the user.
type Fetcher func(ctx context.Context, url string) ([]byte, error)

// Limits bound the work of one Process call. Zero fields take the defaults
// of DefaultLimits.
type Limits struct {
	MaxFiles  int // documents in all, the entrypoint included
	MaxBytes  int // bytes of all documents together
	MaxDepth  int // length of a chain of files referring to files
	MaxNodes  int // JSON values in all documents, YAML aliases expanded
	MaxNest   int // nesting of arrays and objects in one document
	MaxIssues int // validation problems kept in Result.Problems
}

// DefaultLimits are generous for real specifications (GitBook's own is
// 1.2 MB with about 29,000 values) and small enough for a shared server: a
// document that hits MaxNodes has cost about 50 ms and 45 MB.
var DefaultLimits = Limits{
	MaxFiles:  100,
	MaxBytes:  20 << 20,
	MaxDepth:  10,
	MaxNodes:  500_000,
	MaxNest:   256,
	MaxIssues: 50,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxFiles > 0 {
		d.MaxFiles = l.MaxFiles
	}
	if l.MaxBytes > 0 {
		d.MaxBytes = l.MaxBytes
	}
	if l.MaxDepth > 0 {
		d.MaxDepth = l.MaxDepth
	}
	if l.MaxNodes > 0 {
		d.MaxNodes = l.MaxNodes
	}
	if l.MaxNest > 0 {
		d.MaxNest = l.MaxNest
	}
	if l.MaxIssues > 0 {
		d.MaxIssues = l.MaxIssues
	}
	return d
}

// File is one entry of a version's filesystem, in the shape GitBook's
// renderer reads (@gitbook/openapi-parser's FilesystemEntry).
type File struct {
	Filename      string          `json:"filename"`
	Dir           string          `json:"dir"`
	IsEntrypoint  bool            `json:"isEntrypoint"`
	References    []string        `json:"references"`
	Specification json.RawMessage `json:"specification"` // the bundled OpenAPI 3.x document, keys in source order
}

// Problem is a validation finding that does not stop processing, or one
// detail of a processing Error. It has the shape of the reference's
// OpenAPIErrorObject; Line is the source line when known.
type Problem struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	Line    int    `json:"-"`
}

// Result is a processed specification.
type Result struct {
	// Filesystem is the version's content: one entrypoint file holding the
	// whole bundled document (see the package documentation).
	Filesystem []File
	// Hash is the SHA-256 of the bundled document, in hex; a new version is
	// needed only when it differs from the last one.
	Hash string
	// Version is the source document's "swagger" or "openapi" value, such as
	// "2.0", "3.0.3" or "3.1.0". Swagger 2.0 is converted to OpenAPI 3.0.3.
	Version string
	// Sources are the absolute URLs of the other documents bundled in, in
	// the order they were first referred to.
	Sources []string
	// Problems are validation findings (warnings); the document is served anyway.
	Problems []Problem

	root *node // the bundled document, for Operations
}

// Error is a processing failure with a reference error code. Its message is
// safe to show; it wraps a *folio.Error whose kind is Invalid for
// PARSE_ERROR and Unavailable for the fetch codes.
type Error struct {
	Code     string
	Message  string
	Problems []Problem // details, such as the line of a YAML error
	err      *folio.Error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the *folio.Error carrying the kind and the cause.
func (e *Error) Unwrap() error { return e.err }

func newError(code string, cause error, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	kind := folio.Invalid
	if code != CodeParseError {
		kind = folio.Unavailable
	}
	e := &Error{Code: code, Message: msg, err: &folio.Error{Kind: kind, Message: msg, Err: cause}}
	e.Problems = []Problem{{Message: msg, Code: code}}
	var se *syntaxError
	if errors.As(cause, &se) {
		e.Problems[0].Line = se.line
	}
	return e
}

// Process turns a specification into a version's content. entry is the
// entrypoint document (JSON or YAML; Swagger 2.0, OpenAPI 3.0 or 3.1) and
// entryURL where it came from ("" for a text source, which then cannot refer
// to other files). External $refs are fetched through fetch, within limits,
// and bundled into the entrypoint; Swagger 2.0 is converted to OpenAPI 3.0.
// Failures are *Error with code FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR;
// a cancelled ctx returns ctx's error.
func Process(ctx context.Context, entry []byte, entryURL string, fetch Fetcher, limits Limits) (*Result, error) {
	lim := limits.withDefaults()
	b, err := newBundler(ctx, entryURL, fetch, lim)
	if err != nil {
		return nil, err
	}
	root, err := b.parse(entry, "the specification")
	if err != nil {
		return nil, err
	}
	version, swagger, err := detectVersion(root)
	if err != nil {
		return nil, err
	}
	if err := b.bundle(root); err != nil {
		return nil, err
	}
	res := &Result{Version: version, Sources: b.sources()}
	if swagger {
		if root, err = convertSwagger(root, lim); err != nil {
			return nil, err
		}
	}
	spec := encode(root)
	sum := sha256.Sum256(spec)
	res.Hash = hex.EncodeToString(sum[:])
	res.root = root
	res.Filesystem = []File{{
		Filename:      "openapi.json",
		Dir:           ".",
		IsEntrypoint:  true,
		References:    []string{},
		Specification: spec,
	}}
	res.Problems = append(b.warnings, validate(ctx, root, spec, lim.MaxIssues-len(b.warnings))...)
	return res, nil
}

// ProcessURL fetches the entrypoint at url through fetch and processes it
// like Process.
func ProcessURL(ctx context.Context, url string, fetch Fetcher, limits Limits) (*Result, error) {
	lim := limits.withDefaults()
	data, err := fetchDoc(ctx, fetch, url, fmt.Sprintf("the specification at %q", folio.Clip(url, 200)), lim.MaxBytes)
	if err != nil {
		return nil, err
	}
	return Process(ctx, data, url, fetch, limits)
}

// fetchDoc calls fetch and maps its failure to a processing error; name is
// how messages refer to the document.
func fetchDoc(ctx context.Context, fetch Fetcher, url, name string, maxBytes int) ([]byte, error) {
	if fetch == nil {
		return nil, newError(CodeFetchError, nil, "%s could not be fetched: no fetcher is configured", name)
	}
	data, err := fetch(ctx, url)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("openapi: fetch %s: %w", url, ctx.Err())
		}
		var ne net.Error
		if errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
			return nil, newError(CodeFetchTimeout, err, "%s could not be fetched: it did not answer in time", name)
		}
		reason := "the request failed"
		var fe *folio.Error
		if errors.As(err, &fe) && fe.Kind != folio.Internal {
			reason = fe.Message
		}
		return nil, newError(CodeFetchError, err, "%s could not be fetched: %s", name, reason)
	}
	if len(data) > maxBytes {
		return nil, newError(CodeFetchError, nil, "%s is larger than %d bytes", name, maxBytes)
	}
	return data, nil
}

// detectVersion checks that root is an OpenAPI or Swagger document of a
// supported version.
func detectVersion(root *node) (version string, swagger bool, err error) {
	if root.kind != kObject {
		return "", false, newError(CodeParseError, nil, "the specification is not an OpenAPI document: it is not an object")
	}
	if v := root.get("openapi"); v != nil {
		s := v.s
		if v.kind != kString && v.kind != kNumber {
			s = ""
		}
		// Unquoted in YAML, "openapi: 3.0" is a number; readers want a string.
		v.kind = kString
		v.s = s
		for _, p := range []string{"3.0", "3.1", "3.2"} {
			if s == p || strings.HasPrefix(s, p+".") {
				return s, false, nil
			}
		}
		return "", false, newError(CodeParseError, nil, "OpenAPI version %q is not supported; use Swagger 2.0 or OpenAPI 3.0 or 3.1", folio.Clip(s, 20))
	}
	if v := root.get("swagger"); v != nil {
		if v.s == "2.0" && (v.kind == kString || v.kind == kNumber) {
			v.kind = kString
			return "2.0", true, nil
		}
		return "", false, newError(CodeParseError, nil, "Swagger version %q is not supported; use Swagger 2.0 or OpenAPI 3.0 or 3.1", folio.Clip(v.s, 20))
	}
	return "", false, newError(CodeParseError, nil, `the specification is not an OpenAPI document: it has neither an "openapi" nor a "swagger" field`)
}
