package wire

import (
	"encoding/json"
	"net/url"

	"github.com/foliodocs/folio"
)

// Installation is the GitBook IntegrationInstallation object.
type Installation struct {
	ID             string          `json:"id"`
	Status         string          `json:"status"`
	SpaceSelection string          `json:"space_selection"`
	SiteSelection  string          `json:"site_selection"`
	Spaces         int             `json:"spaces"`
	Configuration  json.RawMessage `json:"configuration"`
	ExternalIDs    []string        `json:"externalIds"`
	Target         struct {
		Organization string `json:"organization"`
	} `json:"target"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	URLs      struct {
		Location       string `json:"location"`
		App            string `json:"app"`
		PublicEndpoint string `json:"publicEndpoint"`
	} `json:"urls"`
}

func installationPath(name string, id folio.ID) string {
	return "/integrations/" + url.PathEscape(name) + "/installations/" + id
}

// NewInstallation converts an installation.
func (u URLs) NewInstallation(in *folio.Installation) Installation {
	out := Installation{ID: in.ID, Status: in.Status, SpaceSelection: in.SpaceSelection, SiteSelection: in.SiteSelection,
		Spaces: in.Spaces, Configuration: in.Configuration, ExternalIDs: in.ExternalIDs,
		CreatedAt: Time(in.CreatedAt), UpdatedAt: Time(in.UpdatedAt)}
	out.Target.Organization = in.OrganizationID
	p := installationPath(in.Integration, in.ID)
	out.URLs.Location, out.URLs.App, out.URLs.PublicEndpoint = u.API(p), u.App("/o/"+in.OrganizationID), u.API(p+"/public")
	return out
}

// TargetInstallation is the GitBook IntegrationSpaceInstallation or
// IntegrationSiteInstallation object: Space or Site holds the id, or the
// whole object when expanded.
type TargetInstallation struct {
	Integration   string          `json:"integration"`
	Installation  string          `json:"installation"`
	Status        string          `json:"status"`
	Configuration json.RawMessage `json:"configuration"`
	ExternalIDs   []string        `json:"externalIds"`
	URLs          struct {
		Location       string `json:"location"`
		PublicEndpoint string `json:"publicEndpoint"`
	} `json:"urls"`
	Space any `json:"space,omitempty"`
	Site  any `json:"site,omitempty"`
}

// NewTargetInstallation converts a space or site installation; expanded,
// when not nil, is the space or site object to show instead of its id.
func (u URLs) NewTargetInstallation(ti *folio.TargetInstallation, expanded any) TargetInstallation {
	out := TargetInstallation{Integration: ti.Integration, Installation: ti.InstallationID, Status: ti.Status,
		Configuration: ti.Configuration, ExternalIDs: ti.ExternalIDs}
	p := installationPath(ti.Integration, ti.InstallationID) + "/" + ti.Kind + "s/" + ti.TargetID
	out.URLs.Location, out.URLs.PublicEndpoint = u.API(p), u.API(p+"/public")
	var target any = ti.TargetID
	if expanded != nil {
		target = expanded
	}
	if ti.Kind == folio.InstallOnSpace {
		out.Space = target
	} else {
		out.Site = target
	}
	return out
}

// IntegrationEvent is the GitBook IntegrationEvent object, plus Folio's
// state (pending before the first delivery attempt).
type IntegrationEvent struct {
	ID             string          `json:"id"`
	IntegrationID  string          `json:"integrationId"`
	InstallationID string          `json:"installationId,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	Payload        json.RawMessage `json:"payload"`
	Status         string          `json:"status"`
	State          string          `json:"state"`
	Attempts       int             `json:"attempts"`
}

// NewIntegrationEvent converts an integration event. The reference's
// status is success or failed: an event not yet delivered shows failed,
// with state pending.
func NewIntegrationEvent(e *folio.IntegrationEvent) IntegrationEvent {
	status := folio.IntegrationEventFailed
	if e.State == folio.IntegrationEventSuccess {
		status = folio.IntegrationEventSuccess
	}
	return IntegrationEvent{ID: e.ID, IntegrationID: e.Integration, InstallationID: e.InstallationID, CreatedAt: Time(e.CreatedAt),
		Payload: e.Payload, Status: status, State: e.State, Attempts: e.Attempts}
}

// IntegrationEventLog is one trace line.
type IntegrationEventLog struct {
	Message   string `json:"message"`
	Timestamp string `json:"timestamp"`
	Level     string `json:"level"`
}

// IntegrationEventWithTrace answers getIntegrationEvent.
type IntegrationEventWithTrace struct {
	Event IntegrationEvent `json:"event"`
	Trace struct {
		Logs []IntegrationEventLog `json:"logs"`
	} `json:"trace"`
}

// NewIntegrationEventWithTrace converts an event and its trace.
func NewIntegrationEventWithTrace(e *folio.IntegrationEvent) IntegrationEventWithTrace {
	out := IntegrationEventWithTrace{Event: NewIntegrationEvent(e)}
	out.Trace.Logs = make([]IntegrationEventLog, len(e.Logs))
	for i, l := range e.Logs {
		out.Trace.Logs[i] = IntegrationEventLog{Message: l.Message, Timestamp: Time(l.Timestamp), Level: l.Level}
	}
	return out
}
