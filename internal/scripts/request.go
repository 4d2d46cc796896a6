package scripts

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"time"
)

// Request is the HTTP request a run hands to the script's fetch handler.
type Request struct {
	Method string
	URL    string // absolute
	Header http.Header
	Body   []byte
}

// Response is what the script's fetch handler returned.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Log is one console line of a run.
type Log struct {
	Level   string // log, info, warn, error or debug
	Message string
	At      time.Time
}

// Result is the outcome of a run. Run returns it also with a *ScriptError,
// with the logs written until then (and the Response, when the handler had
// responded before its waitUntil work failed).
type Result struct {
	Response *Response
	Logs     []Log
	Duration time.Duration
}

// EventURL is where MultipartEventRequest sends events; GitBook's runtime
// checks only that the path is /v1.
const EventURL = "https://integration.invalid/v1"

// MultipartEventRequest builds the request GitBook's dispatcher sends to an
// integration for one event: a POST to EventURL whose multipart/form-data body
// has the fields "event" and "environment" (JSON documents) and, when
// fetchBody is not nil, "fetch-body", the body of the HTTP request a fetch
// event forwards (as a file part, so binary bodies survive). Pass nil
// fetchBody for GET and HEAD requests: GitBook's runtime rebuilds the request
// with that body and a GET with a body is a TypeError.
func MultipartEventRequest(event, environment []byte, fetchBody []byte) (Request, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("event", string(event)); err != nil {
		return Request{}, fmt.Errorf("scripts: write event field: %w", err)
	}
	if err := w.WriteField("environment", string(environment)); err != nil {
		return Request{}, fmt.Errorf("scripts: write environment field: %w", err)
	}
	if fetchBody != nil {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", `form-data; name="fetch-body"; filename="blob"`)
		h.Set("Content-Type", "application/octet-stream")
		part, err := w.CreatePart(h)
		if err != nil {
			return Request{}, fmt.Errorf("scripts: write fetch-body field: %w", err)
		}
		if _, err := part.Write(fetchBody); err != nil {
			return Request{}, fmt.Errorf("scripts: write fetch-body field: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return Request{}, fmt.Errorf("scripts: close multipart body: %w", err)
	}
	return Request{
		Method: http.MethodPost,
		URL:    EventURL,
		Header: http.Header{"Content-Type": {w.FormDataContentType()}},
		Body:   buf.Bytes(),
	}, nil
}
