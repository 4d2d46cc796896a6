package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// EventWebhookTest is the type of the event a webhook's test sends. It is
// delivered only to the webhook tested (no other webhook or integration
// receives it) and no webhook subscribes to it.
const EventWebhookTest = "webhook_test"

// TestWebhook sends a test event to a webhook (organization admins): a
// delivery like any other, queued at once, that its deliveries list shows.
func (a *App) TestWebhook(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (d *folio.WebhookDelivery, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		w, err := store.GetWebhook(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		e := &folio.Event{ID: folio.NewID(), OrgID: orgID, Type: EventWebhookTest}
		e.Payload, _ = json.Marshal(map[string]any{"eventId": e.ID, "type": EventWebhookTest,
			"organizationId": orgID, "webhookId": w.ID, "test": true})
		if err := store.CreateEvent(ctx, tx, e); err != nil {
			return err
		}
		d = &folio.WebhookDelivery{ID: folio.NewID(), WebhookID: w.ID, EventID: e.ID, EventType: e.Type, State: folio.DeliveryPending}
		if err := store.CreateDelivery(ctx, tx, d); err != nil {
			return err
		}
		// Not in the audit log, as redelivering is not: the webhook and
		// its target do not change.
		return queueDelivery(ctx, tx, d.ID, tx.Now)
	})
	return d, err
}
