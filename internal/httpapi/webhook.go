package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// listWebhooks serves GET /orgs/{organizationId}/webhooks (folio).
func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListWebhooks(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewWebhook))
	return nil
}

// createWebhook serves POST /orgs/{organizationId}/webhooks (folio): 201
// with the secret, shown this once.
func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	var in app.WebhookInput
	if err := decode(r, &in); err != nil {
		return err
	}
	hook, secret, err := s.app.CreateWebhook(r.Context(), caller(r), r.PathValue("organizationId"), in)
	if err != nil {
		return err
	}
	out := s.urls.NewWebhook(hook)
	out.Secret = secret
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// getWebhook serves GET /orgs/{organizationId}/webhooks/{webhookId}.
func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request) error {
	hook, err := s.app.GetWebhook(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("webhookId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewWebhook(hook))
	return nil
}

// updateWebhook serves PATCH /orgs/{organizationId}/webhooks/{webhookId}.
func (s *Server) updateWebhook(w http.ResponseWriter, r *http.Request) error {
	var in app.WebhookInput
	if err := decode(r, &in); err != nil {
		return err
	}
	hook, err := s.app.UpdateWebhook(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("webhookId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewWebhook(hook))
	return nil
}

// deleteWebhook serves DELETE /orgs/{organizationId}/webhooks/{webhookId}
// (204, also when there was none).
func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteWebhook(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("webhookId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listWebhookDeliveries serves GET .../webhooks/{webhookId}/deliveries.
func (s *Server) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListWebhookDeliveries(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("webhookId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, wire.NewWebhookDelivery))
	return nil
}

// redeliverWebhook serves POST .../deliveries/{deliveryId}/redeliver (202):
// the delivery is queued again.
func (s *Server) redeliverWebhook(w http.ResponseWriter, r *http.Request) error {
	d, err := s.app.RedeliverWebhook(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("webhookId"), r.PathValue("deliveryId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, wire.NewWebhookDelivery(d))
	return nil
}
