package scripts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"unicode/utf8"
)

// formEntry is one multipart/form-data part as the prelude's FormData takes
// it: a text field (Value) or a file (Filename, Type, Data as a binary
// string).
type formEntry struct {
	Name     string  `json:"name"`
	Value    *string `json:"value,omitempty"`
	Filename string  `json:"filename,omitempty"`
	Type     string  `json:"type,omitempty"`
	Data     *string `json:"data,omitempty"`
}

// maxFormParts bounds the parts of one body.
const maxFormParts = 10000

// parseMultipart parses a multipart/form-data body and returns its entries
// as JSON.
func parseMultipart(contentType string, body []byte) (string, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return "", errors.New("could not parse content as FormData: the content type is not multipart/form-data with a boundary")
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var entries []formEntry
	for {
		part, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("could not parse content as FormData: %v", err)
		}
		if len(entries) == maxFormParts {
			return "", fmt.Errorf("could not parse content as FormData: more than %d parts", maxFormParts)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return "", fmt.Errorf("could not parse content as FormData: %v", err)
		}
		e := formEntry{Name: part.FormName()}
		if _, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil {
			if fn, ok := params["filename"]; ok {
				e.Filename = fn
				e.Type = part.Header.Get("Content-Type")
				d := binaryString(data)
				e.Data = &d
			}
		}
		if e.Data == nil {
			v := string(data)
			if !utf8.ValidString(v) {
				v = strings.ToValidUTF8(v, "\uFFFD")
			}
			e.Value = &v
		}
		entries = append(entries, e)
	}
	b, err := json.Marshal(entries)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
