package wire

import "github.com/foliodocs/folio"

// Webhook is Folio's webhook object (the reference has none). Secret is
// set only in the answer that creates it.
type Webhook struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Active         bool     `json:"active"`
	DisabledReason string   `json:"disabledReason,omitempty"`
	Failures       int      `json:"failures"`
	Secret         string   `json:"secret,omitempty"`
	CreatedAt      string   `json:"createdAt"`
	UpdatedAt      string   `json:"updatedAt"`
	URLs           struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// NewWebhook converts a webhook.
func (u URLs) NewWebhook(w *folio.Webhook) Webhook {
	out := Webhook{Object: "webhook", ID: w.ID, URL: w.URL, Events: w.Events, Active: w.Active,
		DisabledReason: w.DisabledReason, Failures: w.Failures, CreatedAt: Time(w.CreatedAt), UpdatedAt: Time(w.UpdatedAt)}
	out.URLs.Location = u.API("/orgs/" + w.OrganizationID + "/webhooks/" + w.ID)
	return out
}

// WebhookDelivery is Folio's webhook delivery object.
type WebhookDelivery struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	Event  struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"event"`
	State        string  `json:"state"`
	Attempts     int     `json:"attempts"`
	LastStatus   int     `json:"lastStatus,omitempty"`
	LastError    string  `json:"lastError,omitempty"`
	LastDuration int64   `json:"lastDuration"` // milliseconds
	NextAttempt  *string `json:"nextAttempt,omitempty"`
	CreatedAt    string  `json:"createdAt"`
	DeliveredAt  *string `json:"deliveredAt,omitempty"`
}

// NewWebhookDelivery converts a delivery.
func NewWebhookDelivery(d *folio.WebhookDelivery) WebhookDelivery {
	out := WebhookDelivery{Object: "webhook-delivery", ID: d.ID, State: d.State, Attempts: d.Attempts, LastStatus: d.LastStatus,
		LastError: d.LastError, LastDuration: d.LastMillis, NextAttempt: TimePtr(d.NextAttempt), CreatedAt: Time(d.CreatedAt),
		DeliveredAt: TimePtr(d.DeliveredAt)}
	out.Event.ID, out.Event.Type = d.EventID, d.EventType
	return out
}
