package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// auditView is an organization's audit log (admins): the API's filters
// (actor, action, target, from, to) and one bounded page of entries.
type auditView struct {
	Frame                 *orgFrame
	Actor, Action, Target string
	From, To              string // yyyy-mm-dd
	Entries               []auditRow
	Count                 int
	Next                  string
	Filtered              bool
	ClearHref             string
}

type auditRow struct {
	When                        time.Time
	Actor, Action, Target       string
	TargetType, Fields, Request string
	Address                     string
}

func (h *Handler) auditLog(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "audit")
	if err != nil {
		return err
	}
	qs := r.URL.Query()
	v := auditView{Frame: f, Actor: strings.TrimSpace(qs.Get("actor")), Action: strings.TrimSpace(qs.Get("action")),
		Target: strings.TrimSpace(qs.Get("target")), From: qs.Get("from"), To: qs.Get("to"), ClearHref: f.Href + "/audit"}
	filter := folio.AuditFilter{Actor: v.Actor, Action: v.Action, Target: v.Target}
	if v.From != "" {
		t, err := time.Parse("2006-01-02", v.From)
		if err != nil {
			return folio.FieldErrorf("from", "from must be a date such as 2026-01-31")
		}
		filter.From = &t
	}
	if v.To != "" {
		t, err := time.Parse("2006-01-02", v.To)
		if err != nil {
			return folio.FieldErrorf("to", "to must be a date such as 2026-01-31")
		}
		t = t.Add(24 * time.Hour) // the whole day
		filter.To = &t
	}
	v.Filtered = v.Actor != "" || v.Action != "" || v.Target != "" || v.From != "" || v.To != ""
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListAuditLog(ctx, q.caller, f.Org.ID, filter, opts)
	if err != nil {
		return err
	}
	v.Count, v.Next = l.Count, nextHref(r, l.Next)
	names := map[string]string{}
	for _, e := range l.Items {
		actor, ok := names[e.Actor]
		if !ok {
			actor = e.Actor
			if m, err := h.app.GetMember(ctx, q.caller, f.Org.ID, e.Actor); err == nil {
				actor = m.User.DisplayName + " (" + m.User.Email + ")"
			}
			names[e.Actor] = actor
		}
		fields := string(e.Fields)
		if fields == "{}" || fields == "null" {
			fields = ""
		}
		v.Entries = append(v.Entries, auditRow{When: e.CreatedAt.UTC(), Actor: actor, Action: e.Action, Target: e.TargetID,
			TargetType: e.TargetType, Fields: fields, Request: e.RequestID, Address: e.Address})
	}
	h.render(w, http.StatusOK, "audit", q, "Audit log · "+f.Org.Title, v)
	return nil
}
