package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/foliodocs/folio"
)

const webhookColumns = `w.id, w.organization_id, w.url, w.events, w.active, w.disabled_reason, w.failures, w.created_at, w.updated_at`

func scanWebhook(rows *sql.Rows, w *folio.Webhook) error {
	var (
		events           string
		created, updated int64
	)
	if err := rows.Scan(&w.ID, &w.OrganizationID, &w.URL, &events, &w.Active, &w.DisabledReason, &w.Failures,
		&created, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
		return fmt.Errorf("decode events of webhook %s: %w", w.ID, err)
	}
	w.CreatedAt, w.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateWebhook records a webhook with its sealed secret.
func CreateWebhook(ctx context.Context, t *Tx, w *folio.Webhook, sealedSecret string) error {
	w.CreatedAt, w.UpdatedAt = t.Now, t.Now
	events, _ := json.Marshal(w.Events)
	_, err := t.exec(ctx, `INSERT INTO webhooks (id, organization_id, url, secret, events, active, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, w.ID, w.OrganizationID, w.URL, sealedSecret, string(events), w.Active,
		micros(t.Now), micros(t.Now))
	return wrap(err, "create webhook")
}

// GetWebhook returns an organization's webhook, or NotFound.
func GetWebhook(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.Webhook, error) {
	w := new(folio.Webhook)
	err := t.one(ctx, `SELECT `+webhookColumns+` FROM webhooks w WHERE w.organization_id = ? AND w.id = ?`,
		[]any{orgID, id}, func(rows *sql.Rows) error { return scanWebhook(rows, w) })
	if err != nil {
		return nil, notFound(err, "get webhook", "webhook not found")
	}
	return w, nil
}

// WebhookSecret returns a webhook's sealed secret.
func WebhookSecret(ctx context.Context, t *Tx, id folio.ID) (sealed string, err error) {
	if err = t.get(ctx, `SELECT secret FROM webhooks WHERE id = ?`, []any{id}, &sealed); err != nil {
		return "", notFound(err, "get webhook secret", "webhook not found")
	}
	return sealed, nil
}

// ListWebhooks lists an organization's webhooks, oldest first.
func ListWebhooks(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.Webhook], error) {
	where := ` WHERE w.organization_id = ?`
	args := []any{orgID}
	q := listQuery{
		Query: `SELECT ` + webhookColumns + ` FROM webhooks w` + where, Args: args,
		Keys: []string{"w.created_at", "w.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM webhooks w` + where, CountArgs: args,
	}
	return page(ctx, t, "list webhooks", q, opts, func(r *sql.Rows) (folio.Webhook, []any, error) {
		var w folio.Webhook
		err := scanWebhook(r, &w)
		return w, []any{micros(w.CreatedAt), w.ID}, err
	})
}

// ActiveWebhooks returns an organization's active webhooks (at most
// folio.MaxWebhooks).
func ActiveWebhooks(ctx context.Context, t *Tx, orgID folio.ID) ([]folio.Webhook, error) {
	var out []folio.Webhook
	err := t.query(ctx, `SELECT `+webhookColumns+` FROM webhooks w WHERE w.organization_id = ? AND w.active
		ORDER BY w.created_at, w.id LIMIT ?`, []any{orgID, folio.MaxWebhooks}, func(r *sql.Rows) error {
		var w folio.Webhook
		if err := scanWebhook(r, &w); err != nil {
			return err
		}
		out = append(out, w)
		return nil
	})
	return out, wrap(err, "active webhooks")
}

// CountWebhooks counts an organization's webhooks.
func CountWebhooks(ctx context.Context, t *Tx, orgID folio.ID) (n int, err error) {
	err = t.get(ctx, `SELECT COUNT(*) FROM webhooks WHERE organization_id = ?`, []any{orgID}, &n)
	return n, wrap(err, "count webhooks")
}

// UpdateWebhook saves a webhook's URL, events, state and failure count.
func UpdateWebhook(ctx context.Context, t *Tx, w *folio.Webhook) error {
	w.UpdatedAt = t.Now
	events, _ := json.Marshal(w.Events)
	_, err := t.exec(ctx, `UPDATE webhooks SET url = ?, events = ?, active = ?, disabled_reason = ?, failures = ?, updated_at = ?
		WHERE id = ?`, w.URL, string(events), w.Active, w.DisabledReason, w.Failures, micros(t.Now), w.ID)
	return wrap(err, "update webhook")
}

// DeleteWebhook removes a webhook and its deliveries.
func DeleteWebhook(ctx context.Context, t *Tx, id folio.ID) error {
	if _, err := t.exec(ctx, `DELETE FROM webhook_deliveries WHERE webhook_id = ?`, id); err != nil {
		return wrap(err, "delete webhook deliveries")
	}
	_, err := t.exec(ctx, `DELETE FROM webhooks WHERE id = ?`, id)
	return wrap(err, "delete webhook")
}

const deliveryColumns = `d.id, d.webhook_id, d.event_id, d.event_type, d.state, d.attempts, d.last_status, d.last_error,
	d.last_millis, d.next_attempt, d.created_at, d.delivered_at`

func scanDelivery(rows *sql.Rows, d *folio.WebhookDelivery) error {
	var (
		next, delivered sql.NullInt64
		created         int64
	)
	if err := rows.Scan(&d.ID, &d.WebhookID, &d.EventID, &d.EventType, &d.State, &d.Attempts, &d.LastStatus, &d.LastError,
		&d.LastMillis, &next, &created, &delivered); err != nil {
		return err
	}
	d.NextAttempt, d.DeliveredAt, d.CreatedAt = nullMicros(next), nullMicros(delivered), fromMicros(created)
	return nil
}

// CreateDelivery records a pending delivery.
func CreateDelivery(ctx context.Context, t *Tx, d *folio.WebhookDelivery) error {
	d.CreatedAt = t.Now
	_, err := t.exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, state, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, d.ID, d.WebhookID, d.EventID, d.EventType, d.State, micros(t.Now))
	return wrap(err, "create webhook delivery")
}

// GetDelivery returns a delivery of a webhook, or NotFound.
func GetDelivery(ctx context.Context, t *Tx, webhookID, id folio.ID) (*folio.WebhookDelivery, error) {
	d := new(folio.WebhookDelivery)
	err := t.one(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d WHERE d.webhook_id = ? AND d.id = ?`,
		[]any{webhookID, id}, func(rows *sql.Rows) error { return scanDelivery(rows, d) })
	if err != nil {
		return nil, notFound(err, "get webhook delivery", "delivery not found")
	}
	return d, nil
}

// GetDeliveryByID returns a delivery, or NotFound.
func GetDeliveryByID(ctx context.Context, t *Tx, id folio.ID) (*folio.WebhookDelivery, error) {
	d := new(folio.WebhookDelivery)
	err := t.one(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d WHERE d.id = ?`,
		[]any{id}, func(rows *sql.Rows) error { return scanDelivery(rows, d) })
	if err != nil {
		return nil, notFound(err, "get webhook delivery", "delivery not found")
	}
	return d, nil
}

// UpdateDelivery saves a delivery's state and last attempt.
func UpdateDelivery(ctx context.Context, t *Tx, d *folio.WebhookDelivery) error {
	var next, delivered any
	if d.NextAttempt != nil {
		next = micros(*d.NextAttempt)
	}
	if d.DeliveredAt != nil {
		delivered = micros(*d.DeliveredAt)
	}
	_, err := t.exec(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?, last_status = ?, last_error = ?, last_millis = ?,
		next_attempt = ?, delivered_at = ? WHERE id = ?`, d.State, d.Attempts, d.LastStatus, d.LastError, d.LastMillis,
		next, delivered, d.ID)
	return wrap(err, "update webhook delivery")
}

// ListDeliveries lists a webhook's deliveries, newest first.
func ListDeliveries(ctx context.Context, t *Tx, webhookID folio.ID, opts folio.ListOptions) (folio.List[folio.WebhookDelivery], error) {
	where := ` WHERE d.webhook_id = ?`
	args := []any{webhookID}
	opts.Desc = true
	q := listQuery{
		Query: `SELECT ` + deliveryColumns + ` FROM webhook_deliveries d` + where, Args: args,
		Keys: []string{"d.created_at", "d.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM webhook_deliveries d` + where, CountArgs: args,
	}
	return page(ctx, t, "list webhook deliveries", q, opts, func(r *sql.Rows) (folio.WebhookDelivery, []any, error) {
		var d folio.WebhookDelivery
		err := scanDelivery(r, &d)
		return d, []any{micros(d.CreatedAt), d.ID}, err
	})
}

// PruneDeliveries removes a webhook's deliveries beyond the newest keep.
func PruneDeliveries(ctx context.Context, t *Tx, webhookID folio.ID, keep int) error {
	_, err := t.exec(ctx, `DELETE FROM webhook_deliveries WHERE webhook_id = ? AND id NOT IN (
		SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
		webhookID, webhookID, keep)
	return wrap(err, "prune webhook deliveries")
}

// GetEvent returns an event by id, or NotFound.
func GetEvent(ctx context.Context, t *Tx, id folio.ID) (*folio.Event, error) {
	var (
		e       folio.Event
		payload string
		created int64
	)
	err := t.get(ctx, `SELECT id, organization_id, space_id, type, payload, created_at FROM events WHERE id = ?`, []any{id},
		&e.ID, &e.OrgID, &e.SpaceID, &e.Type, &payload, &created)
	if err != nil {
		return nil, notFound(err, "get event", "event not found")
	}
	e.Payload, e.CreatedAt = []byte(payload), fromMicros(created)
	return &e, nil
}

// GetWebhookByID returns a webhook by id, or NotFound.
func GetWebhookByID(ctx context.Context, t *Tx, id folio.ID) (*folio.Webhook, error) {
	w := new(folio.Webhook)
	err := t.one(ctx, `SELECT `+webhookColumns+` FROM webhooks w WHERE w.id = ?`,
		[]any{id}, func(rows *sql.Rows) error { return scanWebhook(rows, w) })
	if err != nil {
		return nil, notFound(err, "get webhook", "webhook not found")
	}
	return w, nil
}
