package app

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// actorOf names the caller in the audit log.
func actorOf(c folio.Caller) string {
	switch {
	case c.Installation != nil:
		return "installation:" + c.Installation.Installation
	case c.Site != nil:
		return "site:" + c.Site.Site
	case c.UserID == "":
		return "system"
	}
	return c.UserID
}

// audit records an administrative change in the caller's transaction.
// fields holds what changed; callers never put a secret in it.
func audit(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID, action, targetType, targetID string, fields map[string]any) error {
	e := &folio.AuditEntry{ID: folio.NewID(), OrgID: orgID, Actor: actorOf(caller), Action: action, TargetType: targetType,
		TargetID: targetID, RequestID: folio.RequestID(ctx), Address: folio.ClientAddress(ctx)}
	if fields != nil {
		e.Fields, _ = json.Marshal(fields)
	}
	return store.CreateAuditEntry(ctx, tx, e)
}

// ListAuditLog lists an organization's audit log, newest first, for its
// admins.
func (a *App) ListAuditLog(ctx context.Context, caller folio.Caller, orgID folio.ID, f folio.AuditFilter, opts folio.ListOptions) (l folio.List[folio.AuditEntry], err error) {
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return l, folio.FieldErrorf("from", "from must be before to")
	}
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins read the audit log"); err != nil {
			return err
		}
		l, err = store.ListAuditEntries(ctx, tx, orgID, f, opts)
		return err
	})
	return l, err
}

// PruneAuditJob removes audit entries older than the retention.
func (a *App) PruneAuditJob(ctx context.Context, _ string) error {
	if a.auditRetention <= 0 {
		return nil
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		_, err := store.PruneAuditEntries(ctx, tx, tx.Now.Add(-a.auditRetention))
		return err
	})
}

// auditPruneEvery is how often the audit log is pruned.
const auditPruneEvery = 24 * time.Hour

// auditChanges returns the fields a PATCH body of Optionals sets, by their
// JSON names, with their new values (nil for null). Only for bodies
// without secrets.
func auditChanges(body any) map[string]any {
	out := map[string]any{}
	v := reflect.Indirect(reflect.ValueOf(body))
	for i := range v.NumField() {
		f, sf := v.Field(i), v.Type().Field(i)
		set := f.Kind() == reflect.Struct && f.FieldByName("Set").IsValid() && f.FieldByName("Set").Bool()
		if !set {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if f.FieldByName("Null").Bool() {
			out[name] = nil
			continue
		}
		out[name] = f.FieldByName("Value").Interface()
	}
	return out
}
