package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/store"
)

// runScript runs the integration's script on one event, as GitBook's
// runtime expects (a POST of the event, its environment and the fetch
// body to /v1), and records its console output and outcome in the event's
// trace. A script failure is final: running it again would fail again.
func (a *App) runScript(ctx context.Context, r *scripts.Runner, d *dispatch, event, env []byte) error {
	req, err := scripts.MultipartEventRequest(event, env, nil)
	if err != nil {
		return err
	}
	res, err := r.Run(ctx, d.integration.Script, req)
	if ctx.Err() != nil && err != nil {
		return ctx.Err() // the server is stopping: the job's lease runs it again
	}
	logs := scriptLogs(res)
	now := a.clock.Now()
	var se *scripts.ScriptError
	switch {
	case errors.As(err, &se):
		logs = append(logs, folio.IntegrationEventLog{Level: "error", Timestamp: now,
			Message: fmt.Sprintf("the script was stopped (%s): %s", se.Kind, folio.Clip(se.Message, 1000))})
		return a.finishIntegrationEvent(ctx, d.event, logs, false, false)
	case err != nil:
		logs = append(logs, folio.IntegrationEventLog{Level: "error", Timestamp: now,
			Message: "the script could not run: " + folio.Clip(err.Error(), 1000)})
		return a.finishIntegrationEvent(ctx, d.event, logs, false, false)
	}
	status := res.Response.Status
	ok := status >= 200 && status < 300
	msg := fmt.Sprintf("the script answered HTTP %d in %d ms", status, res.Duration.Milliseconds())
	if status == http.StatusNotAcceptable {
		// @gitbook/runtime's answer for an event the integration has no
		// handler for: nothing went wrong.
		ok, msg = true, fmt.Sprintf("the script does not handle %s events (HTTP 406)", d.event.Type)
	}
	level := "info"
	if !ok {
		level = "error"
		if body := strings.TrimSpace(string(res.Response.Body)); body != "" {
			msg += ": " + folio.Clip(body, 500)
		}
	}
	logs = append(logs, folio.IntegrationEventLog{Level: level, Message: msg, Timestamp: now})
	return a.finishIntegrationEvent(ctx, d.event, logs, ok, false)
}

// checkPublishedScript refuses, with the script's own error, a script that
// does not load or exports no handler: it would fail only later, at
// install or render. The caller's right to publish is checked first, so
// that only the organization's admins make the server run a script.
func (a *App) checkPublishedScript(ctx context.Context, caller folio.Caller, orgRef, script string) error {
	if a.scriptRunner == nil {
		return nil
	}
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		org, err := resolveOrganization(ctx, tx, orgRef)
		if err != nil {
			return err
		}
		acc, err := access(ctx, tx, caller, org.ID)
		if folio.IsNotFound(err) {
			return folio.Errorf(folio.NotFound, "The organization cannot be found for the given hostname")
		}
		if err != nil {
			return err
		}
		return require(acc.Permissions().Admin, "only admins of the organization publish its integrations")
	})
	if err != nil {
		return err
	}
	err = a.scriptRunner.Check(ctx, script)
	var se *scripts.ScriptError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &se):
		msg := "the script does not load: " + folio.Clip(se.Message, 1000)
		if se.Kind != scripts.KindException && se.Kind != scripts.KindInvalidScript {
			msg = fmt.Sprintf("the script does not load within the limits (%s): %s", se.Kind, folio.Clip(se.Message, 1000))
		}
		return folio.FieldErrorf("script", "%s", msg)
	default:
		return err
	}
}
