package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/buildinfo"
)

// jobsStalled is how long the job runner's loop may go without a round
// before /healthz reports it stalled (it goes round at least every poll).
const jobsStalled = time.Minute

// health is the body of /healthz.
type health struct {
	Status string         `json:"status"`
	Store  string         `json:"store"`
	Jobs   string         `json:"jobs"`
	Build  buildinfo.Info `json:"build"`
}

// healthz answers 200 when the store answers, 503 otherwise. Its "jobs"
// field says whether this server's job runner is alive: "ok", "stalled"
// (its loop has not gone round for a minute: jobs still run on the other
// servers, but this one should be restarted) or "off" (no runner). Its
// "build" field is what "folio version" prints.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.app.DB().Ping(ctx); err != nil {
		return &folio.Error{Kind: folio.Unavailable, Message: "the database does not answer", Err: err}
	}
	jobs := "off"
	if s.jobsAlive != nil {
		jobs = "ok"
		if last := s.jobsAlive(); last.IsZero() || time.Since(last) > jobsStalled {
			jobs = "stalled"
		}
	}
	writeJSON(w, http.StatusOK, health{Status: "ok", Store: s.app.DB().Dialect(), Jobs: jobs, Build: s.build})
	return nil
}
