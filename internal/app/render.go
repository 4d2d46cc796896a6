package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/store"
)

// RenderInput is the body of renderIntegrationUIWithPost.
type RenderInput struct {
	ComponentID string          `json:"componentId"`
	Props       json.RawMessage `json:"props"`
	State       json.RawMessage `json:"state"`
	Context     json.RawMessage `json:"context"`
	Action      json.RawMessage `json:"action"`
}

// RenderOutput is what the integration's script answered.
type RenderOutput struct {
	Body         []byte
	CacheControl string
	CSP          string
}

// RenderIntegrationUI runs a ui_render event (a block or configuration
// component of an integration) through the script of the integration's
// installation that covers the context's organization, space or site, and
// answers its ContentKit output with the integration's content security
// policy. The caller must see the space or site, or belong to the
// organization, of the context.
func (a *App) RenderIntegrationUI(ctx context.Context, caller folio.Caller, name string, in RenderInput) (*RenderOutput, error) {
	if in.ComponentID == "" || len(in.ComponentID) > 200 {
		return nil, folio.FieldErrorf("componentId", "componentId is required (at most 200 characters)")
	}
	if len(in.Props)+len(in.State)+len(in.Context)+len(in.Action) > 256<<10 {
		return nil, folio.Errorf(folio.Invalid, "props, state, context and action must be at most 256 KB together")
	}
	// The reference requires props and makes both objects (neither
	// nullable); state may be left out. A script handed "a" or [] would
	// read its fields as undefined.
	if !jsonObject(in.Props) {
		return nil, folio.FieldErrorf("props", "props is required and must be an object")
	}
	if len(in.State) > 0 && !jsonObject(in.State) {
		return nil, folio.FieldErrorf("state", "state must be an object")
	}
	var c struct {
		Type           string   `json:"type"`
		OrganizationID folio.ID `json:"organizationId"`
		SpaceID        folio.ID `json:"spaceId"`
		SiteID         folio.ID `json:"siteId"`
	}
	if err := json.Unmarshal(in.Context, &c); err != nil || c.Type == "" {
		return nil, folio.FieldErrorf("context", "context must be a ContentKit context with a type")
	}
	var (
		i    *folio.Integration
		inst *folio.Installation
	)
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		iv, err := integrationView(ctx, tx, caller, name)
		if err != nil {
			return err
		}
		i = &iv.Integration
		org, kind, target := c.OrganizationID, "", folio.ID("")
		switch {
		case c.SpaceID != "":
			sv, _, err := space(ctx, tx, caller, c.SpaceID)
			if err != nil {
				return err
			}
			org, kind, target = sv.OrganizationID, folio.InstallOnSpace, c.SpaceID
		case c.SiteID != "":
			if org == "" {
				return folio.FieldErrorf("context", "a site context needs organizationId")
			}
			if _, err := site(ctx, tx, caller, org, c.SiteID, false); err != nil {
				return err
			}
			kind, target = folio.InstallOnSite, c.SiteID
		case org != "":
			if _, err := access(ctx, tx, caller, org); err != nil {
				return err
			}
		default:
			return folio.FieldErrorf("context", "context must name an organization, a space or a site")
		}
		if inst, err = store.GetInstallationIn(ctx, tx, name, org); err != nil {
			return err
		}
		if kind != "" && ((kind == folio.InstallOnSpace && inst.SpaceSelection != "all") || (kind == folio.InstallOnSite && inst.SiteSelection != "all")) {
			if _, err := store.GetTargetInstallation(ctx, tx, inst.ID, kind, target); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.scriptRunner == nil || i.Script == "" {
		return nil, folio.Errorf(folio.Unavailable, "this integration has no script to render with")
	}
	ev := map[string]any{"eventId": folio.NewID(), "type": "ui_render", "installationId": inst.ID, "componentId": in.ComponentID,
		"props": rawOr(in.Props, "{}"), "state": rawOr(in.State, "{}"), "context": in.Context, "auth": map[string]any{"userId": caller.UserID}}
	if len(in.Action) > 0 {
		ev["action"] = in.Action
	}
	if c.SpaceID != "" {
		ev["spaceId"] = c.SpaceID
	}
	if c.SiteID != "" {
		ev["siteId"] = c.SiteID
	}
	event, _ := json.Marshal(ev)
	payload, _ := json.Marshal(map[string]any{"spaceId": c.SpaceID, "siteId": c.SiteID})
	env, err := a.integrationEnvironment(ctx, &dispatch{integration: i, inst: inst, event: &folio.IntegrationEvent{Payload: payload}})
	if err != nil {
		return nil, err
	}
	req, err := scripts.MultipartEventRequest(event, env, nil)
	if err != nil {
		return nil, err
	}
	res, err := a.scriptRunner.Run(ctx, i.Script, req)
	if err != nil {
		return nil, folio.Errorf(folio.Unavailable, "the integration's script failed to render: %v", err)
	}
	if res.Response.Status == http.StatusNotFound {
		return nil, folio.Errorf(folio.NotFound, "the integration has no component %s", in.ComponentID)
	}
	if res.Response.Status < 200 || res.Response.Status > 299 || !json.Valid(res.Response.Body) {
		return nil, folio.Errorf(folio.Unavailable, "the integration's script answered HTTP %d without a ContentKit output", res.Response.Status)
	}
	return &RenderOutput{Body: res.Response.Body, CacheControl: res.Response.Header.Get("Cache-Control"), CSP: cspHeader(i.CSP)}, nil
}

// jsonObject reports whether r is a JSON object (the body was decoded, so
// it is valid JSON, which begins with '{' only when it is an object).
func jsonObject(r json.RawMessage) bool {
	r = bytes.TrimLeft(r, " \t\r\n")
	return len(r) > 0 && r[0] == '{'
}

func rawOr(r json.RawMessage, def string) json.RawMessage {
	if len(r) == 0 || string(r) == "null" {
		return json.RawMessage(def)
	}
	return r
}
