package app

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/webhook"
)

// Organization webhooks (docs/webhooks.md): subscriptions to event types,
// delivered signed to a URL. A delivery is written with the event, in the
// transaction of the change (emit), and sent by a durable job that retries
// with backoff; a webhook whose deliveries keep failing is disabled.

// WebhookInput is the body of creating or updating a webhook; omitted
// fields stay as they are on update.
type WebhookInput struct {
	URL    *string   `json:"url"`
	Events *[]string `json:"events"`
	Active *bool     `json:"active"`
}

// webhookJob is the payload of a JobDeliverWebhook job.
type webhookJob struct {
	Delivery folio.ID `json:"delivery"`
}

// DefaultWebhookTimeout bounds one delivery attempt, response included.
const DefaultWebhookTimeout = 10 * time.Second

func webhookSealContext(id folio.ID) string { return "webhook:" + id }

// webhookRights: organization admins manage webhooks; others get
// Forbidden, other organizations NotFound.
func webhookRights(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID) error {
	if caller.Site != nil {
		return folio.Errorf(folio.NotFound, "webhook not found")
	}
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return err
	}
	return require(acc.Role == folio.RoleAdmin, "only organization admins manage webhooks")
}

func (in *WebhookInput) apply(w *folio.Webhook, create bool) error {
	if create && in.URL == nil {
		return folio.FieldErrorf("url", "url is required")
	}
	if in.URL != nil {
		u, err := url.Parse(*in.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(*in.URL) > folio.MaxWebhookURL {
			return folio.FieldErrorf("url", "url must be an absolute http or https URL without credentials, at most %d characters", folio.MaxWebhookURL)
		}
		w.URL = *in.URL
	}
	if create && in.Events == nil {
		return folio.FieldErrorf("events", "events is required")
	}
	if in.Events != nil {
		events := *in.Events
		if len(events) == 0 || len(events) > folio.MaxWebhookEvents {
			return folio.FieldErrorf("events", "events lists 1 to %d event types", folio.MaxWebhookEvents)
		}
		for _, e := range events {
			if e != "*" && !slices.Contains(folio.WebhookEventTypes, e) {
				return folio.FieldErrorf("events", "%s is not an event type webhooks can subscribe to", e)
			}
		}
		w.Events = slices.Compact(slices.Sorted(slices.Values(events)))
	}
	if in.Active != nil {
		w.Active = *in.Active
		if w.Active {
			w.DisabledReason, w.Failures = "", 0
		}
	}
	return nil
}

// CreateWebhook creates a webhook and returns it with its secret, which is
// shown this once.
func (a *App) CreateWebhook(ctx context.Context, caller folio.Caller, orgID folio.ID, in WebhookInput) (w *folio.Webhook, secret string, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		w = &folio.Webhook{ID: folio.NewID(), OrganizationID: orgID, Active: true}
		if err := in.apply(w, true); err != nil {
			return err
		}
		n, err := store.CountWebhooks(ctx, tx, orgID)
		if err != nil {
			return err
		}
		if n >= folio.MaxWebhooks {
			return folio.Errorf(folio.Invalid, "an organization has at most %d webhooks", folio.MaxWebhooks)
		}
		if a.sealer == nil {
			return folio.Errorf(folio.Unavailable, "this server has no secret key to keep webhook secrets with (set FOLIO_SECRET_KEY)")
		}
		b := make([]byte, 32)
		crand.Read(b)
		secret = hex.EncodeToString(b)
		sealed, err := a.sealer.Seal([]byte(secret), webhookSealContext(w.ID))
		if err != nil {
			return err
		}
		if err := store.CreateWebhook(ctx, tx, w, sealed); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "webhook.created", "webhook", w.ID, webhookAuditFields(w))
	})
	return w, secret, err
}

// ListWebhooks lists an organization's webhooks.
func (a *App) ListWebhooks(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.Webhook], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		l, err = store.ListWebhooks(ctx, tx, orgID, opts)
		return err
	})
	return l, err
}

// GetWebhook returns a webhook.
func (a *App) GetWebhook(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (w *folio.Webhook, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		w, err = store.GetWebhook(ctx, tx, orgID, id)
		return err
	})
	return w, err
}

// UpdateWebhook changes a webhook's URL, events or activity (activating it
// again clears its failures).
func (a *App) UpdateWebhook(ctx context.Context, caller folio.Caller, orgID, id folio.ID, in WebhookInput) (w *folio.Webhook, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		if w, err = store.GetWebhook(ctx, tx, orgID, id); err != nil {
			return err
		}
		if err := in.apply(w, false); err != nil {
			return err
		}
		if err := store.UpdateWebhook(ctx, tx, w); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "webhook.updated", "webhook", w.ID, webhookAuditFields(w))
	})
	return w, err
}

// DeleteWebhook removes a webhook and its deliveries; no error when there
// is none.
func (a *App) DeleteWebhook(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		if _, err := store.GetWebhook(ctx, tx, orgID, id); folio.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		if err := store.DeleteWebhook(ctx, tx, id); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "webhook.deleted", "webhook", id, nil)
	})
}

// ListWebhookDeliveries lists a webhook's deliveries, newest first.
func (a *App) ListWebhookDeliveries(ctx context.Context, caller folio.Caller, orgID, id folio.ID, opts folio.ListOptions) (l folio.List[folio.WebhookDelivery], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		if _, err := store.GetWebhook(ctx, tx, orgID, id); err != nil {
			return err
		}
		l, err = store.ListDeliveries(ctx, tx, id, opts)
		return err
	})
	return l, err
}

// RedeliverWebhook sends a delivery again: it becomes pending and is
// queued at once.
func (a *App) RedeliverWebhook(ctx context.Context, caller folio.Caller, orgID, id, deliveryID folio.ID) (d *folio.WebhookDelivery, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := webhookRights(ctx, tx, caller, orgID); err != nil {
			return err
		}
		if _, err := store.GetWebhook(ctx, tx, orgID, id); err != nil {
			return err
		}
		if d, err = store.GetDelivery(ctx, tx, id, deliveryID); err != nil {
			return err
		}
		d.State, d.NextAttempt, d.LastError = folio.DeliveryPending, nil, ""
		if err := store.UpdateDelivery(ctx, tx, d); err != nil {
			return err
		}
		return queueDelivery(ctx, tx, d.ID, tx.Now)
	})
	return d, err
}

func queueDelivery(ctx context.Context, tx *store.Tx, id folio.ID, at time.Time) error {
	payload, _ := json.Marshal(webhookJob{Delivery: id})
	return store.EnqueueJob(ctx, tx, folio.JobDeliverWebhook, string(payload), at)
}

// fanOut writes a delivery of e for every active webhook of its
// organization subscribed to its type, in the event's transaction.
func fanOut(ctx context.Context, tx *store.Tx, e *folio.Event) error {
	hooks, err := store.ActiveWebhooks(ctx, tx, e.OrgID)
	if err != nil {
		return err
	}
	for i := range hooks {
		if !hooks[i].Subscribes(e.Type) {
			continue
		}
		d := &folio.WebhookDelivery{ID: folio.NewID(), WebhookID: hooks[i].ID, EventID: e.ID, EventType: e.Type, State: folio.DeliveryPending}
		if err := store.CreateDelivery(ctx, tx, d); err != nil {
			return err
		}
		if err := queueDelivery(ctx, tx, d.ID, tx.Now); err != nil {
			return err
		}
	}
	return nil
}

// DeliverWebhookJob sends one delivery: the event's JSON, signed with the
// webhook's secret. A retryable failure schedules the next attempt with
// backoff (its own job); a final one marks the delivery failed and counts
// against the webhook, which is disabled after
// webhook.DisableAfterFailures failed deliveries in a row.
func (a *App) DeliverWebhookJob(ctx context.Context, payload string) error {
	var job webhookJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "webhook job payload: %v", err)
	}
	var (
		d      *folio.WebhookDelivery
		w      *folio.Webhook
		event  *folio.Event
		sealed string
	)
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if d, err = store.GetDeliveryByID(ctx, tx, job.Delivery); err != nil {
			return err
		}
		var orgID folio.ID
		if event, err = store.GetEvent(ctx, tx, d.EventID); err != nil {
			return err
		}
		orgID = event.OrgID
		if w, err = store.GetWebhook(ctx, tx, orgID, d.WebhookID); err != nil {
			return err
		}
		sealed, err = store.WebhookSecret(ctx, tx, w.ID)
		return err
	})
	if folio.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return err
	}
	if d.State != folio.DeliveryPending {
		return nil
	}
	if !w.Active {
		return a.finishDelivery(ctx, d, nil, "the webhook is disabled")
	}
	if a.sealer == nil {
		return a.finishDelivery(ctx, d, nil, "this server has no secret key to sign deliveries with")
	}
	secret, err := a.sealer.Open(sealed, webhookSealContext(w.ID))
	if err != nil {
		return a.finishDelivery(ctx, d, nil, "the webhook's secret can no longer be read (was the server key changed?)")
	}
	attempt := a.webhookClient().DeliverJSON(ctx, w.URL, secret, d.ID, event.Payload)
	return a.finishDelivery(ctx, d, &attempt, "")
}

func (a *App) webhookClient() *webhook.Client {
	c := webhook.New(a.http, a.webhookTimeout)
	c.Clock = a.clock
	return c
}

// finishDelivery records an attempt (nil when none could be made, with
// why) and what follows: delivered, retried later, or failed.
//
// The record is written even when ctx ends (the server stopping while the
// request was out): an attempt the receiver may have acknowledged is never
// left to be sent again by the job's lease.
func (a *App) finishDelivery(ctx context.Context, d *folio.WebhookDelivery, at *webhook.Attempt, reason string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return a.db.Write(ctx, func(tx *store.Tx) error {
		w, err := store.GetWebhookByID(ctx, tx, d.WebhookID)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		d.NextAttempt = nil
		if at != nil {
			d.Attempts++
			d.LastStatus, d.LastError, d.LastMillis = at.Status, at.Error, at.Duration.Milliseconds()
		} else {
			d.LastError = reason
		}
		now := tx.Now
		switch {
		case at != nil && at.OK():
			d.State, d.DeliveredAt = folio.DeliveryDelivered, &now
			w.Failures = 0
		case at != nil && at.Retry:
			wait, giveUp := webhook.Backoff(d.Attempts, rand.Float64)
			if !giveUp {
				wait = max(wait, at.RetryAfter)
				next := now.Add(wait)
				d.NextAttempt = &next
				if err := store.UpdateDelivery(ctx, tx, d); err != nil {
					return err
				}
				return queueDelivery(ctx, tx, d.ID, next)
			}
			fallthrough
		default:
			d.State = folio.DeliveryFailed
			w.Failures++
			if w.Failures >= webhook.DisableAfterFailures && w.Active {
				w.Active = false
				w.DisabledReason = "disabled after " + strconv.Itoa(w.Failures) + " failed deliveries in a row; the last: " + folio.Clip(d.LastError, 200)
			}
		}
		if err := store.UpdateDelivery(ctx, tx, d); err != nil {
			return err
		}
		if err := store.UpdateWebhook(ctx, tx, w); err != nil {
			return err
		}
		return store.PruneDeliveries(ctx, tx, w.ID, folio.WebhookDeliveryKept)
	})
}

// webhookAuditFields are a webhook's settings for the audit log: the URL's
// host only (its path or query may hold a token), never the secret.
func webhookAuditFields(w *folio.Webhook) map[string]any {
	host := ""
	if u, err := url.Parse(w.URL); err == nil {
		host = u.Host
	}
	return map[string]any{"host": host, "events": w.Events, "active": w.Active}
}
