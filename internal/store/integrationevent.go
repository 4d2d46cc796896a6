package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/foliodocs/folio"
)

const integrationEventColumns = `e.id, e.integration_name, e.installation_id, e.type, e.payload, e.status, e.logs, e.attempts,
	e.created_at, e.updated_at`

func scanIntegrationEvent(rows *sql.Rows, e *folio.IntegrationEvent) error {
	var (
		payload, logs    string
		created, updated int64
	)
	if err := rows.Scan(&e.ID, &e.Integration, &e.InstallationID, &e.Type, &payload, &e.State, &logs, &e.Attempts,
		&created, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(logs), &e.Logs); err != nil {
		return fmt.Errorf("decode the trace of event %s: %w", e.ID, err)
	}
	e.Payload = json.RawMessage(payload)
	e.CreatedAt, e.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateIntegrationEvent records an event for an installation.
func CreateIntegrationEvent(ctx context.Context, t *Tx, e *folio.IntegrationEvent) error {
	e.CreatedAt, e.UpdatedAt = t.Now, t.Now
	if e.Logs == nil {
		e.Logs = []folio.IntegrationEventLog{}
	}
	_, err := t.exec(ctx, `INSERT INTO integration_events (id, integration_name, installation_id, type, payload, status, logs,
		attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, e.Integration, e.InstallationID, e.Type,
		string(e.Payload), e.State, mustJSON(e.Logs), e.Attempts, micros(t.Now), micros(t.Now))
	return wrap(err, "create integration event")
}

// GetIntegrationEvent returns an event of an integration, or NotFound.
func GetIntegrationEvent(ctx context.Context, t *Tx, integration string, id folio.ID) (*folio.IntegrationEvent, error) {
	e := new(folio.IntegrationEvent)
	err := t.one(ctx, `SELECT `+integrationEventColumns+` FROM integration_events e WHERE e.integration_name = ? AND e.id = ?`,
		[]any{integration, id}, func(rows *sql.Rows) error { return scanIntegrationEvent(rows, e) })
	if err != nil {
		return nil, notFound(err, "get integration event", "Not found")
	}
	return e, nil
}

// ListIntegrationEvents lists an integration's events, newest first.
func ListIntegrationEvents(ctx context.Context, t *Tx, integration string, opts folio.ListOptions) (folio.List[folio.IntegrationEvent], error) {
	opts.Desc = true
	where := ` WHERE e.integration_name = ?`
	args := []any{integration}
	q := listQuery{
		Query: `SELECT ` + integrationEventColumns + ` FROM integration_events e` + where, Args: args,
		Keys: []string{"e.created_at", "e.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM integration_events e` + where, CountArgs: args,
	}
	return page(ctx, t, "list integration events", q, opts, func(r *sql.Rows) (folio.IntegrationEvent, []any, error) {
		var e folio.IntegrationEvent
		err := scanIntegrationEvent(r, &e)
		return e, []any{micros(e.CreatedAt), e.ID}, err
	})
}

// UpdateIntegrationEvent saves an event's state, attempts and trace.
func UpdateIntegrationEvent(ctx context.Context, t *Tx, e *folio.IntegrationEvent) error {
	e.UpdatedAt = t.Now
	_, err := t.exec(ctx, `UPDATE integration_events SET status = ?, logs = ?, attempts = ?, updated_at = ? WHERE id = ?`,
		e.State, mustJSON(e.Logs), e.Attempts, micros(t.Now), e.ID)
	return wrap(err, "update integration event")
}
