package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/foliodocs/folio"
)

// healthz answers 200 when the store answers, 503 otherwise.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.app.DB().Ping(ctx); err != nil {
		return &folio.Error{Kind: folio.Unavailable, Message: "the database does not answer", Err: err}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "store": s.app.DB().Dialect()})
	return nil
}
