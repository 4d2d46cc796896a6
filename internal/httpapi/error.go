package httpapi

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

// statusOf is the one table from error kinds to HTTP statuses.
func statusOf(k folio.Kind) int {
	switch k {
	case folio.Invalid:
		return http.StatusBadRequest
	case folio.Unauthenticated:
		return http.StatusUnauthorized
	case folio.Forbidden:
		return http.StatusForbidden
	case folio.NotFound:
		return http.StatusNotFound
	case folio.MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case folio.Conflict:
		return http.StatusConflict
	case folio.TooLarge:
		return http.StatusRequestEntityTooLarge
	case folio.UnsupportedMedia:
		return http.StatusUnsupportedMediaType
	case folio.Unavailable:
		return http.StatusServiceUnavailable
	case folio.Timeout:
		return http.StatusRequestTimeout
	case folio.TooManyRequests:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// writeError answers err as {"error":{"code":N,"message":M}}. Internal
// errors get a fixed message; their detail goes to the log with the
// request id, never to the client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	kind := folio.KindOf(err)
	status := statusOf(kind)
	if kind == folio.Internal || kind == folio.Unavailable {
		s.logger.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", requestIDFrom(r.Context())),
			slog.String("method", r.Method), slog.String("path", loggedPath(r.Pattern, r.URL.Path)),
			slog.Int("status", status), slog.String("error", err.Error()))
	}
	if kind == folio.Timeout {
		// The rest of the body may still trickle in: the connection cannot
		// carry another request.
		w.Header().Set("Connection", "close")
	}
	if kind == folio.Unauthenticated {
		w.Header().Set("WWW-Authenticate", `Bearer realm="folio"`)
	}
	var fe *folio.Error
	if kind == folio.MethodNotAllowed && errors.As(err, &fe) && fe.Field != "" {
		w.Header().Set("Allow", fe.Field)
	}
	writeJSON(w, status, wire.Error{Error: wire.ErrorBody{Code: status, Message: folio.MessageOf(err)}})
}
