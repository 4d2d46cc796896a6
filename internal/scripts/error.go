package scripts

import "fmt"

// Kinds of ScriptError.
const (
	// KindException: the script threw, its handler's promise rejected, or it
	// returned something that is not a valid Response.
	KindException = "exception"
	// KindTimeout: the run used up its CPU or wall time, its context ended,
	// or its promise can never settle.
	KindTimeout = "timeout"
	// KindMemory: the engine refused an allocation past Limits.Memory.
	KindMemory = "memory"
	// KindInvalidScript: the source is too large, does not parse, imports
	// modules, or has no default export with a fetch function.
	KindInvalidScript = "invalid-script"
	// KindResponseTooLarge: the returned body is over Limits.MaxResponse.
	KindResponseTooLarge = "response-too-large"
)

// ScriptError is the error of a run that the script caused. Its Message is
// safe to show to the integration's owner; it never holds Folio internals.
type ScriptError struct {
	Kind    string // one of the Kind constants
	Message string // what happened, e.g. "TypeError: x is not a function"
	Stack   string // the JavaScript stack, when there is one
	Err     error  // the cause, e.g. context.Canceled, when there is one
}

// Error implements error.
func (e *ScriptError) Error() string {
	return fmt.Sprintf("script %s: %s", e.Kind, e.Message)
}

// Unwrap returns the cause, so errors.Is(err, context.Canceled) works.
func (e *ScriptError) Unwrap() error { return e.Err }

func scriptErrorf(kind, format string, args ...any) *ScriptError {
	return &ScriptError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}
