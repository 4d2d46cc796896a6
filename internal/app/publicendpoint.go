package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/store"
)

// MaxEndpointBody bounds the body of a request to a public endpoint: it
// is handed whole to the script, inside the script's memory.
const MaxEndpointBody = 5 << 20

// EndpointRequest is a request to an integration's public endpoint
// (urls.publicEndpoint of an integration, an installation, or a space or
// site installation): the installation, when the endpoint is one's, and
// the request as it came.
type EndpointRequest struct {
	Integration  string
	Installation folio.ID // empty: the integration's own endpoint
	TargetKind   string   // folio.InstallOnSpace or InstallOnSite, or empty
	TargetID     folio.ID
	Method       string
	URL          string // absolute: this server's public URL, the path and the query
	Header       http.Header
	Body         []byte // at most MaxEndpointBody
}

// EndpointResponse is what the script answered, its headers filtered.
type EndpointResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// endpointResponseHeaders are the headers of a script's answer that reach
// the client. Everything else is dropped: cookies (the endpoint shares its
// origin with the API and the published sites, whose cookies hold share
// keys and visitor tokens), CORS, security policies, hop-by-hop headers.
var endpointResponseHeaders = []string{"Content-Type", "Content-Language", "Content-Disposition", "Location",
	"Cache-Control", "Expires", "ETag", "Last-Modified", "Vary", "Retry-After", "WWW-Authenticate", "Link"}

// endpointDroppedRequestHeaders are not handed to the script: the
// browser's cookies for this origin (share keys, visitor tokens) and the
// hop-by-hop headers.
var endpointDroppedRequestHeaders = map[string]bool{"Cookie": true, "Connection": true, "Keep-Alive": true,
	"Proxy-Authorization": true, "Proxy-Connection": true, "Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true}

// endpointPath is the path below /v1 of a public endpoint.
func endpointPath(name string, inst folio.ID, kind string, target folio.ID) string {
	p := "/integrations/" + url.PathEscape(name)
	if inst != "" {
		p += "/installations/" + inst
		if kind != "" {
			p += "/" + kind + "s/" + target
		}
	}
	return p + "/public"
}

// ServePublicEndpoint runs the integration's script on a request to one
// of its public endpoints, as GitBook does: a `fetch` event whose request
// is the one received (method, URL, headers, and its body as the event's
// fetch-body), with the environment of the installation. Anyone may call
// (webhooks, OAuth callbacks); NotFound for an unknown integration,
// installation, or space or site installation. Every run is recorded as an
// event of the integration, with its trace.
func (a *App) ServePublicEndpoint(ctx context.Context, in EndpointRequest) (*EndpointResponse, error) {
	d := dispatch{}
	var target *folio.TargetInstallation
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if d.integration, err = store.GetIntegration(ctx, tx, in.Integration); folio.IsNotFound(err) {
			return folio.Errorf(folio.NotFound, "No integration matches the name")
		} else if err != nil {
			return err
		}
		if in.Installation != "" {
			if d.inst, err = store.GetInstallation(ctx, tx, in.Integration, in.Installation); folio.IsNotFound(err) {
				return folio.Errorf(folio.NotFound, "No installation matches the id")
			} else if err != nil {
				return err
			}
		}
		if in.TargetKind != "" {
			if target, err = store.GetTargetInstallation(ctx, tx, in.Installation, in.TargetKind, in.TargetID); folio.IsNotFound(err) {
				return folio.Errorf(folio.NotFound, "No %s installation matches the id", in.TargetKind)
			} else if err != nil {
				return err
			}
		}
		d.secrets, err = a.integrationSecrets(ctx, tx, in.Integration)
		return err
	})
	if err != nil {
		return nil, err
	}
	if a.scriptRunner == nil || d.integration.Script == "" {
		return nil, folio.Errorf(folio.Unavailable, "this server does not run integration scripts")
	}
	headers := map[string]string{}
	for k, vs := range in.Header {
		if !endpointDroppedRequestHeaders[http.CanonicalHeaderKey(k)] {
			headers[strings.ToLower(k)] = strings.Join(vs, ", ")
		}
	}
	e := &folio.IntegrationEvent{ID: folio.NewID(), Integration: in.Integration, InstallationID: in.Installation, Type: "fetch",
		State: folio.IntegrationEventPending, Attempts: 1}
	// GitBook's FetchRequest names methods in lower case; the Fetch
	// standard upper-cases these when the runtime rebuilds the request.
	method := in.Method
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions:
		method = strings.ToLower(method)
	}
	fields := map[string]any{"eventId": e.ID, "type": "fetch",
		"request": map[string]any{"method": method, "url": in.URL, "headers": headers}}
	if in.Installation != "" {
		fields["installationId"] = in.Installation
	}
	if target != nil {
		fields[in.TargetKind+"Id"] = in.TargetID
	}
	e.Payload, _ = json.Marshal(fields)
	d.event = e
	env, err := a.integrationEnvironment(ctx, &d)
	if err != nil {
		return nil, err
	}
	var body []byte
	if in.Method != http.MethodGet && in.Method != http.MethodHead && len(in.Body) > 0 {
		body = in.Body
	}
	req, err := scripts.MultipartEventRequest(e.Payload, env, body)
	if err != nil {
		return nil, err
	}
	res, runErr := a.scriptRunner.Run(ctx, d.integration.Script, req)
	logs := scriptLogs(res)
	now := a.clock.Now()
	var (
		out *EndpointResponse
		se  *scripts.ScriptError
	)
	switch {
	case errors.As(runErr, &se):
		logs = append(logs, folio.IntegrationEventLog{Level: "error", Timestamp: now,
			Message: fmt.Sprintf("the script was stopped (%s): %s", se.Kind, folio.Clip(se.Message, 1000))})
	case runErr != nil:
		logs = append(logs, folio.IntegrationEventLog{Level: "error", Timestamp: now,
			Message: "the script could not run: " + folio.Clip(runErr.Error(), 1000)})
	default:
		r := res.Response
		out = &EndpointResponse{Status: r.Status, Header: http.Header{}, Body: r.Body}
		for _, k := range endpointResponseHeaders {
			if vs := r.Header.Values(k); len(vs) > 0 {
				out.Header[k] = vs
			}
		}
		level := "info"
		if r.Status >= 500 {
			level = "error"
		}
		logs = append(logs, folio.IntegrationEventLog{Level: level, Timestamp: now,
			Message: fmt.Sprintf("the script answered %s %s with HTTP %d in %d ms", in.Method, in.URL, r.Status, res.Duration.Milliseconds())})
	}
	e.State = folio.IntegrationEventFailed
	if out != nil && out.Status < 500 {
		e.State = folio.IntegrationEventSuccess
	}
	if n := len(logs); n > folio.MaxEventLogs {
		logs = append(logs[:folio.MaxEventLogs-1], folio.IntegrationEventLog{Level: "warn",
			Message: fmt.Sprintf("%d more log lines were dropped", n-folio.MaxEventLogs+1), Timestamp: now})
	}
	e.Logs = logs
	// The event is recorded even when the client went away meanwhile.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	err = a.db.Write(wctx, func(tx *store.Tx) error { return store.CreateIntegrationEvent(wctx, tx, e) })
	if err != nil && folio.KindOf(err) != folio.Invalid { // Invalid: unpublished meanwhile, the event goes with it
		return nil, err
	}
	if out == nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, folio.Errorf(folio.Unavailable, "the integration's script failed: see the event %s in its trace", e.ID)
	}
	return out, nil
}

// scriptLogs turns a run's console lines into trace lines.
func scriptLogs(res *scripts.Result) []folio.IntegrationEventLog {
	var logs []folio.IntegrationEventLog
	if res == nil {
		return logs
	}
	for _, l := range res.Logs {
		level := l.Level
		if level == "log" {
			level = "info"
		}
		logs = append(logs, folio.IntegrationEventLog{Level: level, Message: l.Message, Timestamp: l.At})
	}
	return logs
}

// integrationSecrets opens an integration's secrets (nil when it has none).
func (a *App) integrationSecrets(ctx context.Context, tx *store.Tx, name string) (map[string]string, error) {
	sealed, err := store.IntegrationSecrets(ctx, tx, name)
	if err != nil || sealed == "" || a.sealer == nil {
		return nil, err
	}
	plain, err := a.sealer.Open(sealed, integrationSealContext(name))
	if err != nil {
		return nil, fmt.Errorf("open the secrets of integration %s: %w", name, err)
	}
	var out map[string]string
	return out, json.Unmarshal(plain, &out)
}
