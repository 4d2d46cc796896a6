package specval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// basePath is the prefix under which the document's operations are served
// (the document's server is "{host}/v1").
const basePath = "/v1"

// Validator validates HTTP exchanges against one OpenAPI document.
// It is immutable after Load and safe for concurrent use.
type Validator struct {
	doc         *openapi3.T
	router      routers.Router
	errorSchema *openapi3.Schema
	// schemaOpts are the options of every schema validation that Check runs.
	schemaOpts []openapi3.SchemaValidationOption
}

// Exchange is one request and its response, with bodies already read.
type Exchange struct {
	Method     string      // request method; empty means GET
	URL        *url.URL    // as sent, e.g. http://127.0.0.1:4321/v1/orgs/abc?limit=5
	Header     http.Header // request headers
	Body       []byte      // request body (may be nil)
	Status     int         // response status code
	RespHeader http.Header // response headers
	RespBody   []byte      // response body (may be nil)
}

var (
	cacheMu sync.Mutex
	cache   = map[cacheKey]*Validator{}
)

type cacheKey struct {
	path    string
	size    int64
	modTime time.Time
}

// Load reads an OpenAPI 3 document (JSON or YAML, by file extension) and
// prepares it for validation. Results are cached by path, so repeated calls
// for an unchanged file return the same Validator.
//
// The in-memory document is adjusted; the file is left alone. Its servers
// are replaced by "/v1" so that requests to any host match. A schema $ref
// with a sibling "nullable": true (GitBook's OrganizationBilling.endDate),
// which OpenAPI 3.0 and kin-openapi ignore, is replaced by a nullable copy of
// its target, as the authors mean. OpenAPISpecContent.filesystem, typed as
// an object, also accepts the array of files GitBook serves and its renderer
// reads. No package-global setting of kin-openapi
// is changed: the "date-time" and "uri" formats are validated with
// per-validation validators.
func Load(path string) (*Validator, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("specval: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("specval: %w", err)
	}
	key := cacheKey{path: abs, size: fi.Size(), modTime: fi.ModTime()}

	cacheMu.Lock()
	defer cacheMu.Unlock()
	if v := cache[key]; v != nil {
		return v, nil
	}
	v, err := load(abs)
	if err != nil {
		return nil, err
	}
	cache[key] = v
	return v, nil
}

func load(path string) (*Validator, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("specval: %w", err)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json":
		if !json.Valid(data) {
			return nil, fmt.Errorf("specval: %s: not valid JSON", path)
		}
	case ".yaml", ".yml":
		// kin-openapi's loader reads YAML (and JSON, a subset of YAML).
	default:
		return nil, fmt.Errorf("specval: %s: unknown extension %q (want .json, .yaml or .yml)", path, ext)
	}

	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromDataWithPath(data, &url.URL{Path: filepath.ToSlash(path)})
	if err != nil {
		return nil, fmt.Errorf("specval: loading %s: %w", path, err)
	}
	if err := doc.Validate(loader.Context,
		openapi3.DisableExamplesValidation(),
		openapi3.DisableSchemaDefaultsValidation(),
		openapi3.EnableMultiError(),
	); err != nil {
		return nil, fmt.Errorf("specval: %s is not a valid OpenAPI document: %w", path, err)
	}

	if err := patchDocument(doc); err != nil {
		return nil, fmt.Errorf("specval: %s: %w", path, err)
	}

	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("specval: building router for %s: %w", path, err)
	}

	var errorSchema *openapi3.Schema
	if doc.Components != nil {
		if ref := doc.Components.Schemas["Error"]; ref != nil {
			errorSchema = ref.Value
		}
	}
	if errorSchema == nil {
		return nil, fmt.Errorf("specval: %s has no #/components/schemas/Error", path)
	}

	return &Validator{
		doc:         doc,
		router:      router,
		errorSchema: errorSchema,
		schemaOpts: []openapi3.SchemaValidationOption{
			openapi3.MultiErrors(),
			openapi3.WithStringFormatValidators(map[string]openapi3.StringFormatValidator{
				"date-time": openapi3.NewCallbackValidator(validateDateTime),
				"uri":       openapi3.NewCallbackValidator(validateURI),
			}),
			openapi3.SetSchemaErrorMessageCustomizer(schemaErrorMessage),
		},
	}, nil
}

// patchDocument applies the in-memory adjustments described on Load.
func patchDocument(doc *openapi3.T) error {
	// Any scheme, host and port: only the path after /v1 matters.
	doc.Servers = openapi3.Servers{{URL: basePath}}
	for _, p := range doc.Paths.Map() {
		p.Servers = nil
		// Statuses Folio's service description states where the reference
		// declares another: applying a template answers 204 (no body).
		if op := p.Post; op != nil && op.OperationID == "applyTemplateToSpace" {
			op.Responses.Set("204", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("Template applied")})
		}
		// Every delete answers 204 (wire rule 5); the reference declares
		// only 205 for leaving integration development mode.
		if op := p.Delete; op != nil && op.Responses.Status(http.StatusNoContent) == nil {
			op.Responses.Set("204", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("Deleted")})
		}
	}

	// Document's "Empty" alternative (a page without a body) forbids every
	// property, so under RevisionPageDocument's allOf it rejects every page
	// that carries neither document nor markdown, which is what the
	// reference's own revision listings return. Read it as meant: an object
	// with neither.
	if d := doc.Components.Schemas["Document"]; d != nil && d.Value != nil {
		for i, alt := range d.Value.OneOf {
			if alt.Value != nil && alt.Value.Title == "Empty" {
				empty := openapi3.NewObjectSchema()
				empty.Title = "Empty"
				empty.Not = openapi3.NewSchemaRef("", &openapi3.Schema{AnyOf: openapi3.SchemaRefs{
					openapi3.NewSchemaRef("", &openapi3.Schema{Required: []string{"markdown"}}),
					openapi3.NewSchemaRef("", &openapi3.Schema{Required: []string{"document"}}),
				}})
				d.Value.OneOf[i] = openapi3.NewSchemaRef("", empty)
			}
		}
	}

	// OpenAPISpecContent.filesystem says "type: object", but what GitBook
	// serves and its renderer reads (@gitbook/openapi-parser's
	// createFileSystem, fetchOpenAPIFilesystem) is an array of
	// FilesystemEntry: accept either.
	if c := doc.Components.Schemas["OpenAPISpecContent"]; c != nil && c.Value != nil {
		if fs := c.Value.Properties["filesystem"]; fs != nil {
			c.Value.Properties["filesystem"] = openapi3.NewSchemaRef("", &openapi3.Schema{OneOf: openapi3.SchemaRefs{
				openapi3.NewSchemaRef("", openapi3.NewObjectSchema()),
				openapi3.NewSchemaRef("", openapi3.NewArraySchema().WithItems(openapi3.NewObjectSchema())),
			}, Description: fs.Value.Description})
		}
	}

	typeRecursiveObjects(doc)

	// OpenAPI 3.0 ignores the siblings of a $ref, so {"$ref": X,
	// "nullable": true} would reject null; the authors mean "X or null".
	return doc.WalkSchemas(func(_ string, s *openapi3.SchemaRef) error {
		v := s.Value
		patch := func(r *openapi3.SchemaRef) {
			if r != nil && r.Ref != "" && r.Value != nil && !r.Value.Nullable && refSiblingNullable(r) {
				c := *r.Value
				c.Nullable = true
				r.Value = &c
			}
		}
		for _, r := range v.Properties {
			patch(r)
		}
		patch(v.Items)
		patch(v.Not)
		patch(v.AdditionalProperties.Schema)
		for _, l := range []openapi3.SchemaRefs{v.AllOf, v.AnyOf, v.OneOf} {
			for _, r := range l {
				patch(r)
			}
		}
		return nil
	})
}

// typeRecursiveObjects gives the type "object" to each component schema
// that reaches itself again and has no type of its own but properties or
// additionalProperties (GitBook's PlainObject, the visitor's unsigned
// claims). kin-openapi's Schema.IsEmpty looks for a constraint depth first
// and, finding none on such a cycle, recurses until the stack overflows.
// The type is what the schema means anyway: properties only apply to
// objects, and every use of it is an object.
func typeRecursiveObjects(doc *openapi3.T) {
	for _, ref := range doc.Components.Schemas {
		v := ref.Value
		if v == nil || v.Type != nil || (v.Properties == nil && v.AdditionalProperties.Schema == nil) {
			continue
		}
		if reaches(v, v, map[*openapi3.Schema]bool{}) {
			v.Type = &openapi3.Types{openapi3.TypeObject}
		}
	}
}

// reaches reports whether target can be reached from s through the
// subschemas IsEmpty visits.
func reaches(s, target *openapi3.Schema, seen map[*openapi3.Schema]bool) bool {
	var subs []*openapi3.SchemaRef
	subs = append(subs, s.Not, s.AdditionalProperties.Schema, s.Items)
	for _, p := range s.Properties {
		subs = append(subs, p)
	}
	subs = append(subs, s.OneOf...)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.AllOf...)
	for _, r := range subs {
		if r == nil || r.Value == nil {
			continue
		}
		if r.Value == target {
			return true
		}
		if !seen[r.Value] {
			seen[r.Value] = true
			if reaches(r.Value, target, seen) {
				return true
			}
		}
	}
	return false
}

// refSiblingNullable reports whether the $ref r was written with a sibling
// "nullable": true.
func refSiblingNullable(r *openapi3.SchemaRef) bool {
	y, err := r.MarshalYAML()
	if err != nil {
		return false
	}
	m, ok := y.(map[string]any)
	return ok && m["nullable"] == true
}

// dateTimeRE is RFC 3339's date-time, as kin-openapi spells it.
var dateTimeRE = regexp.MustCompile(openapi3.FormatOfStringDateTime)

func validateDateTime(s string) error {
	if !dateTimeRE.MatchString(s) {
		return errors.New("not an RFC 3339 date-time")
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return errors.New("not an RFC 3339 date-time")
	}
	return nil
}

// validateURI accepts an absolute URI (RFC 3986: a scheme is required)
// without spaces or control characters.
func validateURI(s string) error {
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return errors.New("URI contains a space or control character")
	}
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("not a URI")
	}
	if u.Scheme == "" {
		return errors.New("not an absolute URI (no scheme)")
	}
	return nil
}

// schemaErrorMessage renders a schema error on one line: where, why, and a
// short rendering of the offending value, without kin-openapi's dump of the
// whole schema.
func schemaErrorMessage(e *openapi3.SchemaError) string {
	var b strings.Builder
	if p := e.JSONPointer(); len(p) > 0 {
		b.WriteString(`at "/`)
		b.WriteString(strings.Join(p, "/"))
		b.WriteString(`": `)
	}
	if e.Origin != nil {
		b.WriteString(e.Origin.Error())
		return b.String()
	}
	if e.Reason != "" {
		b.WriteString(e.Reason)
	} else {
		fmt.Fprintf(&b, "doesn't match schema %q", e.SchemaField)
	}
	if e.SchemaField == "required" {
		// The value is the whole object: too long to help.
		return b.String()
	}
	if v, err := json.Marshal(e.Value); err == nil {
		const max = 120
		s := string(v)
		if len(s) > max {
			s = s[:max] + "..."
		}
		b.WriteString(" (value: ")
		b.WriteString(s)
		b.WriteString(")")
	}
	return b.String()
}

// Check validates one exchange. matched reports whether the document declares
// the operation; when it does not (folio's own extensions, e.g. POST /v1/orgs),
// Check returns (false, nil).
func (v *Validator) Check(ctx context.Context, x Exchange) (matched bool, err error) {
	if x.URL == nil {
		return false, errors.New("specval: Exchange.URL is nil")
	}
	method := x.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := newRequest(ctx, method, x)
	if err != nil {
		return false, fmt.Errorf("specval: %s %s: %w", method, x.URL.Path, err)
	}
	route, pathParams, err := v.router.FindRoute(req)
	if err != nil || route == nil || route.Operation == nil {
		// routers.ErrPathNotFound or routers.ErrMethodNotAllowed: the document
		// does not declare this operation.
		return false, nil
	}

	ce := &checkError{
		operationID: route.Operation.OperationID,
		method:      method,
		path:        x.URL.Path,
		status:      x.Status,
	}

	opts := &openapi3filter.Options{
		MultiError:              true,
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults:     true,
		IncludeResponseStatus:   true,
		SchemaValidationOptions: v.schemaOpts,
	}
	opts.WithCustomSchemaErrorFunc(schemaErrorMessage)
	reqInput := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: pathParams,
		Route:      route,
		Options:    opts,
	}

	// 1. The request, only when the server accepted it.
	if x.Status >= 200 && x.Status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, reqInput); err != nil {
			ce.add("request", err)
		}
		// ValidateRequest consumed the body: give the response validation a
		// fresh one.
		req.Body = io.NopCloser(bytes.NewReader(x.Body))
	}

	// 2. The response.
	responses := route.Operation.Responses
	declared := responses.Status(x.Status)
	if declared == nil {
		declared = responses.Default()
	}
	switch {
	case declared != nil:
		if x.Status == http.StatusNoContent || x.Status == http.StatusResetContent {
			if len(x.RespBody) != 0 {
				ce.add("response", fmt.Errorf("status %d must have an empty body, got %d bytes: %s",
					x.Status, len(x.RespBody), snippet(x.RespBody)))
			}
			break
		}
		respHeader := x.RespHeader
		if respHeader == nil {
			respHeader = http.Header{}
		}
		if mt, _, _ := mime.ParseMediaType(respHeader.Get("Content-Type")); mt == "text/event-stream" {
			for _, err := range v.checkEventStream(declared.Value, x.RespBody) {
				ce.add("response", err)
			}
			break
		}
		respInput := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: reqInput,
			Status:                 x.Status,
			Header:                 respHeader,
			Options:                opts,
		}
		respInput.SetBodyBytes(x.RespBody)
		if err := openapi3filter.ValidateResponse(ctx, respInput); err != nil {
			ce.add("response", err)
		}
	case x.Status >= 400:
		for _, err := range v.checkErrorBody(x) {
			ce.add("response", err)
		}
	default:
		ce.add("response", fmt.Errorf("undeclared status %d for operationId %s (declared: %s)",
			x.Status, route.Operation.OperationID, strings.Join(responses.Keys(), ", ")))
	}

	if len(ce.errs) == 0 {
		return true, nil
	}
	return true, ce
}

// checkEventStream validates a server-sent event stream, which
// kin-openapi cannot decode: the operation must declare text/event-stream,
// and the JSON data of each event must match its schema. An empty stream
// (no event) is valid.
func (v *Validator) checkEventStream(resp *openapi3.Response, body []byte) []error {
	mt := resp.Content.Get("text/event-stream")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return []error{errors.New("text/event-stream is not a declared content type")}
	}
	var errs []error
	for _, event := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		var data []string
		for _, line := range strings.Split(event, "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(d, " "))
			}
		}
		if len(data) == 0 {
			continue
		}
		var val any
		if err := json.Unmarshal([]byte(strings.Join(data, "\n")), &val); err != nil {
			errs = append(errs, fmt.Errorf("event data is not JSON: %v", err))
			continue
		}
		if err := mt.Schema.Value.VisitJSON(val, v.schemaOpts...); err != nil {
			errs = append(errs, fmt.Errorf("event data: %w", err))
		}
	}
	return errs
}

// checkErrorBody validates the body of an undeclared error status against
// #/components/schemas/Error and checks that error.code is the status.
func (v *Validator) checkErrorBody(x Exchange) []error {
	var errs []error
	if ct := x.RespHeader.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			errs = append(errs, fmt.Errorf("undeclared status %d: content type %q, want application/json", x.Status, ct))
		}
	}
	var body any
	dec := json.NewDecoder(bytes.NewReader(x.RespBody))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		return append(errs, fmt.Errorf("undeclared status %d: body is not JSON (%v): %s", x.Status, err, snippet(x.RespBody)))
	}
	if dec.More() {
		return append(errs, fmt.Errorf("undeclared status %d: trailing data after JSON body: %s", x.Status, snippet(x.RespBody)))
	}
	body = numbersToFloat(body)
	opts := append(v.schemaOpts[:len(v.schemaOpts):len(v.schemaOpts)], openapi3.VisitAsResponse())
	if err := v.errorSchema.VisitJSON(body, opts...); err != nil {
		errs = append(errs, fmt.Errorf("undeclared status %d: body doesn't match #/components/schemas/Error: %w", x.Status, err))
		return errs
	}
	obj, _ := body.(map[string]any)
	e, _ := obj["error"].(map[string]any)
	if code, ok := e["code"].(float64); !ok || code != float64(x.Status) {
		errs = append(errs, fmt.Errorf("error.code is %v, want the HTTP status %d", e["code"], x.Status))
	}
	return errs
}

// numbersToFloat turns the json.Numbers of a decoded value into float64, as
// kin-openapi's validators expect.
func numbersToFloat(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return t.String()
		}
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbersToFloat(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbersToFloat(e)
		}
	}
	return v
}

func newRequest(ctx context.Context, method string, x Exchange) (*http.Request, error) {
	u := *x.URL
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(x.Body))
	if err != nil {
		return nil, err
	}
	if x.Header != nil {
		req.Header = x.Header.Clone()
	}
	if len(x.Body) == 0 {
		req.Body = http.NoBody
		req.GetBody = func() (io.ReadCloser, error) { return http.NoBody, nil }
		req.ContentLength = 0
	}
	return req, nil
}

func snippet(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// checkError is what Check returns: every problem found in one exchange.
type checkError struct {
	operationID string
	method      string
	path        string
	status      int
	errs        []error
	where       []string
}

func (e *checkError) add(where string, err error) {
	// Flatten kin-openapi's MultiErrors so that each problem gets its own
	// line, keeping the request/response error types around each of them.
	switch t := err.(type) {
	case openapi3.MultiError:
		for _, err := range t {
			e.add(where, err)
		}
		return
	case *openapi3filter.RequestError:
		if me, ok := t.Err.(openapi3.MultiError); ok && len(me) > 0 {
			for _, err := range me {
				c := *t
				c.Err = err
				e.add(where, &c)
			}
			return
		}
	case *openapi3filter.ResponseError:
		if me, ok := t.Err.(openapi3.MultiError); ok && len(me) > 0 {
			for _, err := range me {
				c := *t
				c.Err = err
				e.add(where, &c)
			}
			return
		}
	}
	e.errs = append(e.errs, err)
	e.where = append(e.where, where)
}

func (e *checkError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "specval: %s %s -> %d (operationId %s): ", e.method, e.path, e.status, e.operationID)
	if len(e.errs) == 1 {
		fmt.Fprintf(&b, "%s: %v", e.where[0], e.errs[0])
		return b.String()
	}
	fmt.Fprintf(&b, "%d problems:", len(e.errs))
	for i, err := range e.errs {
		fmt.Fprintf(&b, "\n  - %s: %v", e.where[i], err)
	}
	return b.String()
}

func (e *checkError) Unwrap() []error { return e.errs }
