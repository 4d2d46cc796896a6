package folio

import "time"

// Webhook delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// Limits of webhooks.
const (
	MaxWebhooks         = 50 // per organization
	MaxWebhookURL       = 2048
	MaxWebhookEvents    = 50
	WebhookDeliveryKept = 1000 // per webhook; older deliveries are pruned
)

// WebhookEventTypes are the event types a webhook may subscribe to ("*"
// subscribes to all).
var WebhookEventTypes = EventTypes

// Webhook is an organization's subscription to events, delivered signed to
// a URL. Its secret is sealed at rest and shown once, at creation.
type Webhook struct {
	ID             ID
	OrganizationID ID
	URL            string
	Events         []string
	Active         bool
	DisabledReason string
	Failures       int // deliveries failed in a row
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Subscribes reports whether the webhook takes events of type typ.
func (w *Webhook) Subscribes(typ string) bool {
	for _, e := range w.Events {
		if e == "*" || e == typ {
			return true
		}
	}
	return false
}

// WebhookDelivery is one event sent (or to be sent) to one webhook.
type WebhookDelivery struct {
	ID          ID
	WebhookID   ID
	EventID     ID
	EventType   string
	State       string
	Attempts    int
	LastStatus  int
	LastError   string
	LastMillis  int64
	NextAttempt *time.Time
	CreatedAt   time.Time
	DeliveredAt *time.Time
}
