package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

// auditEntry is an audit log entry on the wire (folio).
type auditEntry struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	Actor  string `json:"actor"`
	Action string `json:"action"`
	Target struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"target"`
	Fields    json.RawMessage `json:"fields"`
	RequestID string          `json:"requestId,omitempty"`
	Address   string          `json:"address,omitempty"` // the client's
	CreatedAt string          `json:"createdAt"`
}

// listAuditLog serves GET /orgs/{organizationId}/audit-log (folio; admins):
// newest first, filtered by actor, action, target, and a time range
// (from inclusive, to exclusive, RFC 3339).
func (s *Server) listAuditLog(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := folio.AuditFilter{Actor: q.Get("actor"), Action: q.Get("action"), Target: q.Get("target")}
	for _, t := range []struct {
		name string
		dst  **time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(t.name); v != "" {
			tm, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return folio.FieldErrorf(t.name, "%s must be an RFC 3339 time such as 2026-01-02T15:04:05Z", t.name)
			}
			*t.dst = &tm
		}
	}
	l, err := s.app.ListAuditLog(r.Context(), caller(r), r.PathValue("organizationId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(e *folio.AuditEntry) auditEntry {
		out := auditEntry{Object: "audit-entry", ID: e.ID, Actor: e.Actor, Action: e.Action, Fields: e.Fields,
			RequestID: e.RequestID, Address: e.Address, CreatedAt: wire.Time(e.CreatedAt)}
		out.Target.Type, out.Target.ID = e.TargetType, e.TargetID
		return out
	}))
	return nil
}
