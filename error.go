package folio

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller can do about it. The HTTP layer
// maps each kind to one status code; jobs use it to decide whether to retry.
type Kind int

// The error kinds.
const (
	Internal         Kind = iota // a bug or an outage; the message is never shown
	Invalid                      // the request is malformed or breaks a rule (400)
	Unauthenticated              // no or unknown credentials (401)
	Forbidden                    // the caller may see the resource but not do this (403)
	NotFound                     // absent, or hidden from the caller (404)
	MethodNotAllowed             // the route exists for other methods (405)
	Conflict                     // the request clashes with the current state (409)
	TooLarge                     // the request body is over the limit (413)
	UnsupportedMedia             // the request body is not JSON (415)
	Unavailable                  // a dependency is down; retrying may help (503)
	Timeout                      // the request itself did not arrive in time (408)
	TooManyRequests              // the caller went over its rate limit (429)
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found",
	"method not allowed", "conflict", "too large", "unsupported media type", "unavailable", "timeout", "too many requests"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is an error with a kind and a message that is safe to show to the
// caller. Field names the offending request field for Invalid errors.
type Error struct {
	Kind    Kind
	Message string
	Field   string
	Err     error // the underlying cause, logged but never shown
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error of the given kind with a formatted, user-facing message.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns an Invalid error about one request field.
func FieldErrorf(field, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// KindOf reports the kind of the first *Error in err's chain, and Internal
// for any other error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// MessageOf returns the user-facing message of err, or a fixed text for
// internal errors so that no detail leaks.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal {
		return e.Message
	}
	return "Internal server error"
}

// IsNotFound reports whether err is of kind NotFound.
func IsNotFound(err error) bool { return KindOf(err) == NotFound }
