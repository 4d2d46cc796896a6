package app

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/webhook"
)

// integrationAdmin loads an integration the caller administers.
func integrationAdmin(ctx context.Context, tx *store.Tx, caller folio.Caller, name string) (*folio.IntegrationView, error) {
	iv, err := integrationView(ctx, tx, caller, name)
	if err != nil {
		return nil, err
	}
	return iv, require(iv.Admin, "only admins of the organization that owns the integration see its events and change its dev mode")
}

// ListIntegrationEvents lists an integration's events, newest first
// (admins of the owning organization).
func (a *App) ListIntegrationEvents(ctx context.Context, caller folio.Caller, name string, opts folio.ListOptions) (l folio.List[folio.IntegrationEvent], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := integrationAdmin(ctx, tx, caller, name); err != nil {
			return err
		}
		l, err = store.ListIntegrationEvents(ctx, tx, name, opts)
		return err
	})
	return l, err
}

// GetIntegrationEvent returns one event with its trace.
func (a *App) GetIntegrationEvent(ctx context.Context, caller folio.Caller, name string, id folio.ID) (e *folio.IntegrationEvent, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := integrationAdmin(ctx, tx, caller, name); err != nil {
			return err
		}
		e, err = store.GetIntegrationEvent(ctx, tx, name, id)
		return err
	})
	return e, err
}

// SetIntegrationDev sends the integration's events to a development tunnel
// (empty tunnelURL: back to its script). all forwards the events of every
// organization, not only the owner's.
func (a *App) SetIntegrationDev(ctx context.Context, caller folio.Caller, name, tunnelURL string, all bool) error {
	if tunnelURL != "" {
		u, err := url.Parse(tunnelURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(tunnelURL) > 256 {
			return folio.FieldErrorf("tunnelUrl", "tunnelUrl must be an absolute http or https URL of at most 256 characters")
		}
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		iv, err := integrationAdmin(ctx, tx, caller, name)
		if err != nil {
			return err
		}
		if err := store.SetIntegrationDev(ctx, tx, name, tunnelURL, all); err != nil {
			return err
		}
		// The tunnel by its host only: its path may carry a token.
		action, fields := "integration.dev_disabled", map[string]any(nil)
		if tunnelURL != "" {
			u, _ := url.Parse(tunnelURL)
			action, fields = "integration.dev_enabled", map[string]any{"tunnelHost": u.Host, "allOrganizations": all}
		}
		return audit(ctx, tx, caller, iv.OrganizationID, action, "integration", name, fields)
	})
}

// ExpandTargets returns the spaces or sites of installations, by id, for
// lists that show whole objects: an installation lets the integration see
// what it is installed on.
func (a *App) ExpandTargets(ctx context.Context, items []folio.TargetInstallation) (spaces map[folio.ID]*folio.SpaceView, sites map[folio.ID]*folio.SiteView, err error) {
	spaces, sites = map[folio.ID]*folio.SpaceView{}, map[folio.ID]*folio.SiteView{}
	var spaceIDs []folio.ID
	for _, ti := range items {
		if ti.Kind == folio.InstallOnSpace {
			spaceIDs = append(spaceIDs, ti.TargetID)
		}
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		// Spaces in one query; sites are few per organization.
		found, err := store.GetSpaces(ctx, tx, spaceIDs)
		if err != nil {
			return err
		}
		for id, s := range found {
			spaces[id] = &folio.SpaceView{Space: *s}
		}
		for _, ti := range items {
			if ti.Kind != folio.InstallOnSite {
				continue
			}
			s, err := store.GetSite(ctx, tx, ti.OrganizationID, ti.TargetID)
			if folio.IsNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
			sites[s.ID] = &folio.SiteView{Site: *s}
		}
		return nil
	})
	return spaces, sites, err
}

// dispatch is what a dispatch job learned before delivering.
type dispatch struct {
	event       *folio.IntegrationEvent
	integration *folio.Integration
	inst        *folio.Installation // nil when uninstalled meanwhile
	secrets     map[string]string
}

// DispatchIntegrationEventJob delivers an integration event: to the
// integration's development tunnel when one is set (and the installation
// is its owner's, or the tunnel takes all), otherwise by running its
// script. Each attempt goes into the event's trace; retryable failures are
// retried with backoff as new jobs.
func (a *App) DispatchIntegrationEventJob(ctx context.Context, payload string) error {
	var job integrationEventJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "integration event job payload: %v", err)
	}
	var d dispatch
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if d.event, err = store.GetIntegrationEvent(ctx, tx, job.Integration, job.Event); err != nil {
			return err
		}
		if d.integration, err = store.GetIntegration(ctx, tx, job.Integration); err != nil {
			return err
		}
		if d.inst, err = store.GetInstallation(ctx, tx, job.Integration, d.event.InstallationID); folio.IsNotFound(err) {
			d.inst, err = nil, nil
		}
		if err != nil {
			return err
		}
		d.secrets, err = a.integrationSecrets(ctx, tx, job.Integration)
		return err
	})
	if folio.IsNotFound(err) {
		return nil // unpublished meanwhile
	}
	if err != nil {
		return err
	}
	if d.event.State != folio.IntegrationEventPending {
		return nil
	}
	env, err := a.integrationEnvironment(ctx, &d)
	if err != nil {
		return err
	}
	event, _ := json.Marshal(json.RawMessage(d.event.Payload))
	i := d.integration
	useTunnel := i.DevTunnelURL != "" && (i.DevAll || d.inst == nil || d.inst.OrganizationID == i.OrganizationID)
	switch {
	case useTunnel:
		// Signed with the integration's signing secret, which the
		// environment gives the receiver to check it with.
		secret, _ := a.signingSecret("integration", i.Name)
		var key []byte
		if secret != "" {
			key = []byte(secret)
		}
		at := a.webhookClient().DeliverEvent(ctx, i.DevTunnelURL, key, d.event.ID, event, env, nil)
		return a.finishIntegrationEvent(ctx, d.event, attemptLogs(at, "the development tunnel"), at.OK(), at.Retry)
	case i.Script == "":
		return a.finishIntegrationEvent(ctx, d.event, []folio.IntegrationEventLog{{Level: "info",
			Message: "the integration has no script and no development tunnel: nothing to run", Timestamp: a.clock.Now()}}, true, false)
	default:
		return a.runIntegrationScript(ctx, &d, event, env)
	}
}

// attemptLogs describes a delivery attempt in trace lines.
func attemptLogs(at webhook.Attempt, to string) []folio.IntegrationEventLog {
	msg := fmt.Sprintf("delivered to %s: HTTP %d in %d ms", to, at.Status, at.Duration.Milliseconds())
	level := "info"
	if !at.OK() {
		level = "error"
		msg = fmt.Sprintf("delivery to %s failed after %d ms: %s", to, at.Duration.Milliseconds(), at.Error)
		if at.Error == "" {
			msg = fmt.Sprintf("delivery to %s failed: HTTP %d in %d ms", to, at.Status, at.Duration.Milliseconds())
		}
	}
	return []folio.IntegrationEventLog{{Level: level, Message: msg, Timestamp: at.At}}
}

// finishIntegrationEvent records an attempt's trace and outcome: success,
// a retry later (a new job, with backoff), or failed for good.
func (a *App) finishIntegrationEvent(ctx context.Context, e *folio.IntegrationEvent, logs []folio.IntegrationEventLog, ok, retry bool) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return a.db.Write(ctx, func(tx *store.Tx) error {
		cur, err := store.GetIntegrationEvent(ctx, tx, e.Integration, e.ID)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		cur.Attempts++
		cur.Logs = append(cur.Logs, logs...)
		if n := len(cur.Logs); n > folio.MaxEventLogs {
			cur.Logs = append(cur.Logs[:folio.MaxEventLogs-1], folio.IntegrationEventLog{Level: "warn",
				Message: fmt.Sprintf("%d more log lines were dropped", n-folio.MaxEventLogs+1), Timestamp: tx.Now})
		}
		switch {
		case ok:
			cur.State = folio.IntegrationEventSuccess
		case retry:
			wait, giveUp := webhook.Backoff(cur.Attempts, nil)
			if !giveUp {
				if err := store.UpdateIntegrationEvent(ctx, tx, cur); err != nil {
					return err
				}
				b, _ := json.Marshal(integrationEventJob{Integration: cur.Integration, Event: cur.ID})
				return store.EnqueueJob(ctx, tx, folio.JobDispatchIntegrationEvent, string(b), tx.Now.Add(wait))
			}
			cur.State = folio.IntegrationEventFailed
		default:
			cur.State = folio.IntegrationEventFailed
		}
		return store.UpdateIntegrationEvent(ctx, tx, cur)
	})
}

// integrationEnvironment builds the environment GitBook's runtime reads:
// the API endpoint, the integration, the installation with its
// configuration, the secrets, and the API tokens.
func (a *App) integrationEnvironment(ctx context.Context, d *dispatch) ([]byte, error) {
	i := d.integration
	env := map[string]any{
		"apiEndpoint": a.publicURL,
		"integration": map[string]any{"name": i.Name, "version": i.Version, "scopes": i.Scopes, "target": i.Target,
			"urls": map[string]any{"publicEndpoint": a.publicURL + "/v1" + endpointPath(i.Name, "", "", "")}},
		"secrets":   d.secrets,
		"apiTokens": map[string]any{},
	}
	signing := map[string]string{}
	env["signingSecrets"] = signing
	if s, ok := a.signingSecret("integration", i.Name); ok {
		signing["integration"] = s
	}
	if d.secrets == nil {
		env["secrets"] = map[string]string{}
	}
	if d.inst != nil {
		env["installation"] = map[string]any{"id": d.inst.ID, "status": d.inst.Status, "configuration": d.inst.Configuration,
			"externalIds": d.inst.ExternalIDs, "target": map[string]any{"organization": d.inst.OrganizationID},
			"urls": map[string]any{"publicEndpoint": a.publicURL + "/v1" + endpointPath(i.Name, d.inst.ID, "", "")}}
		tok, err := a.installationToken(ctx, d.inst, i)
		if err != nil {
			return nil, err
		}
		if tok != "" {
			env["apiTokens"] = map[string]any{"installation": tok}
		}
		if s, ok := a.signingSecret("installation", d.inst.ID); ok {
			signing["installation"] = s
		}
	}
	// A space or site event carries its link's configuration too.
	var p struct {
		SpaceID folio.ID `json:"spaceId"`
		SiteID  folio.ID `json:"siteId"`
	}
	json.Unmarshal(d.event.Payload, &p)
	if d.inst != nil && (p.SpaceID != "" || p.SiteID != "") {
		kind, id := folio.InstallOnSpace, p.SpaceID
		if p.SiteID != "" {
			kind, id = folio.InstallOnSite, p.SiteID
		}
		var ti *folio.TargetInstallation
		a.db.Read(ctx, func(tx *store.Tx) (err error) {
			ti, err = store.GetTargetInstallation(ctx, tx, d.inst.ID, kind, id)
			return err
		})
		if ti != nil {
			env[kind+"Installation"] = map[string]any{kind: id, "status": ti.Status, "configuration": ti.Configuration,
				"externalIds": ti.ExternalIDs,
				"urls":        map[string]any{"publicEndpoint": a.publicURL + "/v1" + endpointPath(i.Name, d.inst.ID, kind, id)}}
			if s, ok := a.signingSecret(kind+"Installation", d.inst.ID+"/"+id); ok {
				signing[kind+"Installation"] = s
			}
		}
	}
	return json.Marshal(env)
}

// runIntegrationScript runs the integration's script on the event (set
// when the script runtime is configured).
func (a *App) runIntegrationScript(ctx context.Context, d *dispatch, event, env []byte) error {
	if a.scriptRunner == nil {
		return a.finishIntegrationEvent(ctx, d.event, []folio.IntegrationEventLog{{Level: "error",
			Message: "this server does not run integration scripts", Timestamp: a.clock.Now()}}, false, false)
	}
	return a.runScript(ctx, a.scriptRunner, d, event, env)
}

// signingSecret is the signing secret of an integration, an installation
// or a space or site installation (kind, as the environment names it, and
// its id): derived from the server key, so every server agrees on it
// without storing it, and it changes only with the key. Without a server
// key there is none (false), and events carry no signing secrets.
func (a *App) signingSecret(kind, id string) (string, bool) {
	b, err := a.sealer.Derive("signing-secret:" + kind + ":" + id)
	if err != nil {
		return "", false
	}
	return hex.EncodeToString(b), true
}
