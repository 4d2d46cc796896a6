package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

// call sends one HTTP request to an engine under cfg.Timeout and decodes its
// JSON answer into out. body is JSON-encoded unless it is url.Values, which
// is sent as a form. Errors name the engine, never its URL or key.
func call(ctx context.Context, cfg Config, name, method, target string, header http.Header, body any, out any) error {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, contentType = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return fmt.Errorf("translate: encode %s request: %w", name, err)
		}
		rd, contentType = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return folio.Errorf(folio.Invalid, "the URL of translation engine %s is not valid", name)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := cfg.HTTP.Do(req)
	if err != nil {
		return engineFailed(name, redact(err, cfg.APIKey))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return engineFailed(name, redact(err, cfg.APIKey))
	}
	if len(raw) > maxResponseBytes {
		return folio.Errorf(folio.Unavailable, "translation engine %s answered more than %d MB", name, maxResponseBytes>>20)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return engineRefused(name, resp.StatusCode, errorDetail(raw), cfg.APIKey)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &folio.Error{Kind: folio.Unavailable, Message: "translation engine " + name + " answered something that is not the expected JSON", Err: err}
	}
	return nil
}

// errorDetail picks the message out of an engine's error body: "error"
// (LibreTranslate), "message" (DeepL), "error.message" (OpenAI) or
// "responseDetails" (APy). Bodies that are not JSON give nothing, since they
// may be a proxy's HTML page.
func errorDetail(raw []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Details string          `json:"responseDetails"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(v.Error, &s) == nil && s != "" {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
		return o.Message
	}
	if v.Message != "" {
		return v.Message
	}
	return v.Details
}

// redactedError hides a key that a transport error may quote.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), key, "[key]"), err: err}
}

// errAnswer reports an answer of the wrong shape.
func errAnswer(name string) error {
	return folio.Errorf(folio.Unavailable, "translation engine %s answered something that is not the expected JSON", name)
}
