package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// CreateEvent records an event; CreatedAt is the transaction's time.
func CreateEvent(ctx context.Context, t *Tx, e *folio.Event) error {
	e.CreatedAt = t.Now
	_, err := t.exec(ctx, `INSERT INTO events (id, organization_id, space_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		e.ID, e.OrgID, e.SpaceID, e.Type, string(e.Payload), micros(t.Now))
	return wrap(err, "create event")
}

// ListSpaceEvents returns a space's newest events, newest first, at most
// limit.
func ListSpaceEvents(ctx context.Context, t *Tx, spaceID folio.ID, limit int) ([]folio.Event, error) {
	var out []folio.Event
	err := t.query(ctx, `SELECT id, organization_id, space_id, type, payload, created_at FROM events
		WHERE space_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, []any{spaceID, limit},
		func(rows *sql.Rows) error {
			var (
				e       folio.Event
				payload string
				created int64
			)
			if err := rows.Scan(&e.ID, &e.OrgID, &e.SpaceID, &e.Type, &payload, &created); err != nil {
				return err
			}
			e.Payload, e.CreatedAt = []byte(payload), fromMicros(created)
			out = append(out, e)
			return nil
		})
	return out, wrap(err, "list space events")
}
