package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// webhookListView is an organization's webhooks (admins) with the form
// that adds one.
type webhookListView struct {
	Frame  *orgFrame
	Hooks  []folio.Webhook
	Count  int
	Next   string
	Events []eventChoice
	All    bool
	Notice string
}

// eventChoice is one event type's checkbox.
type eventChoice struct {
	Name    string
	Checked bool
}

// webhookView is one webhook: its settings, its deliveries (newest first,
// a bounded page), and its secret on the page that created it.
type webhookView struct {
	Frame      *orgFrame
	Hook       folio.Webhook
	Href       string
	All        bool // subscribed to every event
	Secret     string
	Events     []eventChoice
	Deliveries []folio.WebhookDelivery
	Count      int
	Next       string
	Notice     string
}

func eventChoices(checked []string) []eventChoice {
	out := make([]eventChoice, 0, len(folio.WebhookEventTypes))
	for _, e := range folio.WebhookEventTypes {
		out = append(out, eventChoice{Name: e, Checked: slices.Contains(checked, e)})
	}
	return out
}

func (h *Handler) webhookList(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.orgFrame(r.Context(), q, r.PathValue("org"), "webhooks")
	if err != nil {
		return err
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListWebhooks(r.Context(), q.caller, f.Org.ID, opts)
	if err != nil {
		return err
	}
	v := webhookListView{Frame: f, Hooks: l.Items, Count: l.Count, Next: nextHref(r, l.Next), Events: eventChoices(nil), Notice: noticeOf(r)}
	h.render(w, http.StatusOK, "webhooks", q, "Webhooks · "+f.Org.Title, v)
	return nil
}

// webhookInput reads the form of a webhook: its URL and the events it
// takes (all of them, or those ticked).
func webhookInput(r *http.Request) app.WebhookInput {
	u := strings.TrimSpace(r.PostForm.Get("url"))
	events := r.PostForm["event"]
	if r.PostForm.Get("all") == "yes" {
		events = []string{"*"}
	}
	if events == nil {
		events = []string{}
	}
	return app.WebhookInput{URL: &u, Events: &events}
}

func (h *Handler) webhookCreate(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID := r.PathValue("org")
	hook, secret, err := h.app.CreateWebhook(ctx, q.caller, orgID, webhookInput(r))
	if err != nil {
		return err
	}
	f, err := h.orgFrame(ctx, q, orgID, "webhooks")
	if err != nil {
		return err
	}
	v := webhookView{Frame: f, Hook: *hook, Href: f.Href + "/webhooks/" + hook.ID, Secret: secret, Events: eventChoices(hook.Events),
		All: slices.Contains(hook.Events, "*"), Notice: "Created. Copy the secret now: it is not shown again."}
	// The secret is shown on this answer only: no redirect that would
	// need it in a URL.
	h.render(w, http.StatusCreated, "webhook", q, "Webhook · "+f.Org.Title, v)
	return nil
}

func (h *Handler) webhookPage(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "webhooks")
	if err != nil {
		return err
	}
	hook, err := h.app.GetWebhook(ctx, q.caller, f.Org.ID, r.PathValue("id"))
	if err != nil {
		return err
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListWebhookDeliveries(ctx, q.caller, f.Org.ID, hook.ID, opts)
	if err != nil {
		return err
	}
	v := webhookView{Frame: f, Hook: *hook, Href: f.Href + "/webhooks/" + hook.ID, Events: eventChoices(hook.Events),
		All: slices.Contains(hook.Events, "*"), Deliveries: l.Items, Count: l.Count, Next: nextHref(r, l.Next), Notice: noticeOf(r)}
	h.render(w, http.StatusOK, "webhook", q, "Webhook · "+f.Org.Title, v)
	return nil
}

// webhookAction runs a webhook's forms: test, update, delete.
func (h *Handler) webhookAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID, id := r.PathValue("org"), r.PathValue("id")
	back := "/o/" + orgID + "/webhooks/" + id
	switch r.PathValue("action") {
	case "test":
		if _, err := h.app.TestWebhook(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		seeOther(w, r, back, "tested")
	case "update":
		in := webhookInput(r)
		active := r.PostForm.Get("active") == "yes"
		in.Active = &active
		if _, err := h.app.UpdateWebhook(ctx, q.caller, orgID, id, in); err != nil {
			return err
		}
		seeOther(w, r, back, "updated")
	case "delete":
		// The webhook must be one the caller manages (404 or 403 otherwise),
		// even though deleting a missing one is no error.
		if _, err := h.app.GetWebhook(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		if r.PostForm.Get("confirm") != "yes" {
			return folio.FieldErrorf("confirm", "tick the box to confirm deleting the webhook")
		}
		if err := h.app.DeleteWebhook(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		seeOther(w, r, "/o/"+orgID+"/webhooks", "deleted")
	default:
		return folio.Errorf(folio.NotFound, "Not found")
	}
	return nil
}

func (h *Handler) webhookRedeliver(w http.ResponseWriter, r *http.Request, q *req) error {
	orgID, id := r.PathValue("org"), r.PathValue("id")
	if _, err := h.app.RedeliverWebhook(r.Context(), q.caller, orgID, id, r.PathValue("delivery")); err != nil {
		return err
	}
	seeOther(w, r, "/o/"+orgID+"/webhooks/"+id, "redelivered")
	return nil
}
