package wire

import (
	"time"

	"github.com/foliodocs/folio"
)

// URLs builds absolute URLs from the server's public URL.
type URLs struct {
	Public string // e.g. https://docs.example.com, without a trailing slash
}

// API returns the absolute API URL of a path under /v1.
func (u URLs) API(path string) string { return u.Public + "/v1" + path }

// App returns the absolute URL of a path in the web application.
func (u URLs) App(path string) string { return u.Public + path }

// List is the list envelope of every list response.
type List[T any] struct {
	Next  *Next `json:"next,omitempty"`
	Count int   `json:"count"`
	Items []T   `json:"items"`
}

// Next names the following page.
type Next struct {
	Page string `json:"page"`
}

// NewList converts a page of folio items with conv.
func NewList[F, T any](l folio.List[F], conv func(*F) T) List[T] {
	out := List[T]{Count: l.Count, Items: make([]T, len(l.Items))}
	for i := range l.Items {
		out.Items[i] = conv(&l.Items[i])
	}
	if l.Next != "" {
		out.Next = &Next{Page: l.Next}
	}
	return out
}

// Time formats a timestamp as ISO 8601 in UTC with millisecond precision,
// as GitBook does.
func Time(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// TimePtr formats an optional timestamp.
func TimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Time(*t)
	return &s
}

// Error is the body of every error response.
type Error struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody carries the status code and a message safe to show.
type ErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
