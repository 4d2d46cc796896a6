package web

import (
	"context"

	"github.com/foliodocs/folio"
)

// orgFrame is what every organization page (spaces, sites, people,
// settings...) shows around its own content: the organization and the
// navigation between its areas, with the areas the caller may not use
// left out.
type orgFrame struct {
	Org   folio.OrganizationView
	Href  string // /o/{id}
	Tab   string // the current area, one of the orgAreas keys
	Admin bool
	// Areas are the navigation's links, in order.
	Areas []orgArea
}

// orgArea is one link of the organization's navigation.
type orgArea struct {
	Key, Label, Href string
	Current          bool
}

// orgAreas lists the organization's areas: key, label, path under
// /o/{id}, and whether only administrators see it.
var orgAreas = []struct {
	key, label, path string
	admin            bool
}{
	{"spaces", "Spaces", "", false},
	{"sites", "Sites", "/sites", false},
	{"members", "Members", "/members", false},
	{"teams", "Teams", "/teams", false},
	{"trash", "Trash", "/trash", false},
	{"openapi", "OpenAPI", "/openapi", false},
	{"translations", "Translations", "/translations", false},
	{"integrations", "Integrations", "/integrations", false},
	{"webhooks", "Webhooks", "/webhooks", true},
	{"sso", "Single sign-on", "/sso", true},
	{"audit", "Audit log", "/audit", true},
	{"settings", "Settings", "/settings", true},
}

// orgFrame loads the organization (404 to a non-member) and builds the
// frame of its page for the area tab.
func (h *Handler) orgFrame(ctx context.Context, q *req, orgID, tab string) (*orgFrame, error) {
	o, err := h.app.GetOrganization(ctx, q.caller, orgID)
	if err != nil {
		return nil, err
	}
	f := &orgFrame{Org: *o, Href: "/o/" + o.ID, Tab: tab, Admin: o.Permissions().Admin}
	for _, a := range orgAreas {
		if a.admin && !f.Admin {
			continue
		}
		f.Areas = append(f.Areas, orgArea{Key: a.key, Label: a.label, Href: f.Href + a.path, Current: a.key == tab})
	}
	return f, nil
}
