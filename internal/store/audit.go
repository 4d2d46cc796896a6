package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// CreateAuditEntry records an entry; CreatedAt is the transaction's time.
func CreateAuditEntry(ctx context.Context, t *Tx, e *folio.AuditEntry) error {
	e.CreatedAt = t.Now
	if len(e.Fields) == 0 {
		e.Fields = []byte("{}")
	}
	_, err := t.exec(ctx, `INSERT INTO audit_log (id, organization_id, actor, action, target_type, target_id, fields, request_id,
		address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, e.OrgID, e.Actor, e.Action, e.TargetType, e.TargetID,
		string(e.Fields), e.RequestID, e.Address, micros(t.Now))
	return wrap(err, "create audit entry")
}

// ListAuditEntries lists an organization's audit log, newest first.
func ListAuditEntries(ctx context.Context, t *Tx, orgID folio.ID, f folio.AuditFilter, opts folio.ListOptions) (folio.List[folio.AuditEntry], error) {
	opts.Desc = true
	where, args := ` WHERE a.organization_id = ?`, []any{orgID}
	if f.Actor != "" {
		where, args = where+` AND a.actor = ?`, append(args, f.Actor)
	}
	if f.Action != "" {
		where, args = where+` AND a.action = ?`, append(args, f.Action)
	}
	if f.Target != "" {
		where, args = where+` AND a.target_id = ?`, append(args, f.Target)
	}
	if f.From != nil {
		where, args = where+` AND a.created_at >= ?`, append(args, micros(*f.From))
	}
	if f.To != nil {
		where, args = where+` AND a.created_at < ?`, append(args, micros(*f.To))
	}
	q := listQuery{
		Query: `SELECT a.id, a.organization_id, a.actor, a.action, a.target_type, a.target_id, a.fields, a.request_id, a.address, a.created_at
			FROM audit_log a` + where, Args: args,
		Keys: []string{"a.created_at", "a.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM audit_log a` + where, CountArgs: args,
	}
	return page(ctx, t, "list audit log", q, opts, func(r *sql.Rows) (folio.AuditEntry, []any, error) {
		var (
			e       folio.AuditEntry
			fields  string
			created int64
		)
		err := r.Scan(&e.ID, &e.OrgID, &e.Actor, &e.Action, &e.TargetType, &e.TargetID, &fields, &e.RequestID, &e.Address, &created)
		e.Fields, e.CreatedAt = []byte(fields), fromMicros(created)
		return e, []any{created, e.ID}, err
	})
}

// PruneAuditEntries removes the entries older than before.
func PruneAuditEntries(ctx context.Context, t *Tx, before time.Time) (int64, error) {
	n, err := t.exec(ctx, `DELETE FROM audit_log WHERE created_at < ?`, micros(before))
	return n, wrap(err, "prune audit log")
}
