package folio

import (
	"context"
	"encoding/json"
	"time"
)

// AuditEntry records one administrative change: who, what, on what, when,
// in which request, and the fields it changed (never a secret).
type AuditEntry struct {
	ID         ID
	OrgID      ID
	Actor      string // a user id, or "installation:<id>", "site:<id>"
	Action     string // e.g. member.role_updated
	TargetType string // member, space, site, ...
	TargetID   string
	Fields     json.RawMessage // an object; {} when none
	RequestID  string
	Address    string // the client address of that request ("" outside requests)
	CreatedAt  time.Time
}

// AuditFilter narrows the audit log.
type AuditFilter struct {
	Actor, Action, Target string
	From, To              *time.Time
}

// DefaultAuditRetention is how long audit entries are kept unless the
// server is told otherwise.
const DefaultAuditRetention = 365 * 24 * time.Hour

type requestIDKey struct{}

// WithRequestID returns ctx carrying the id of the request it serves, for
// the records the request writes.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries ("" outside requests).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

type clientAddressKey struct{}

// WithClientAddress returns ctx carrying the address of the client whose
// request it serves (behind trusted proxies, the forwarded one).
func WithClientAddress(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientAddressKey{}, addr)
}

// ClientAddress returns the client address ctx carries ("" outside
// requests).
func ClientAddress(ctx context.Context) string {
	a, _ := ctx.Value(clientAddressKey{}).(string)
	return a
}

// JobPruneAudit removes audit entries older than the retention (the
// "audit-prune" schedule). Payload: {}.
const JobPruneAudit = "prune-audit"
