package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/scripts"
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
	var logs []folio.IntegrationEventLog
	if res != nil {
		for _, l := range res.Logs {
			level := l.Level
			if level == "log" {
				level = "info"
			}
			logs = append(logs, folio.IntegrationEventLog{Level: level, Message: l.Message, Timestamp: l.At})
		}
	}
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
