package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

// integrationListView is an organization's installed integrations and
// the integrations one may install (public ones and the caller's own),
// searchable and paginated.
type integrationListView struct {
	Frame      *orgFrame
	Installed  []folio.InstalledIntegration
	Browse     []integrationRow
	Count      int
	Next       string
	Search     string
	CanInstall bool
	Notice     string
}

type integrationRow struct {
	I         folio.IntegrationView
	Href      string
	Installed bool
}

// integrationPage is one integration in an organization: what it is,
// and to its admins its installation there: configuration, the spaces
// and sites it is installed on, uninstalling.
type integrationPage struct {
	Frame      *orgFrame
	I          folio.IntegrationView
	Href       string
	Status     string // the installation's status, "" when not installed
	Inst       *folio.Installation
	Config     string // indented JSON
	CanInstall bool
	OnSpaces   bool // the integration installs on spaces
	OnSites    bool
	Targets    []targetRow
	Spaces     []choice // where it may still be installed
	Sites      []choice
	Notice     string
}

type targetRow struct {
	Kind, ID, Label, Href string
}

func (h *Handler) integrationList(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "integrations")
	if err != nil {
		return err
	}
	v := integrationListView{Frame: f, Search: strings.TrimSpace(r.URL.Query().Get("q")), Notice: noticeOf(r),
		CanInstall: f.Org.Permissions().InstallIntegration}
	installed := map[string]bool{}
	if f.Org.Permissions().ListInstallations {
		is, err := h.app.ListOrganizationInstallations(ctx, q.caller, f.Org.ID, folio.ListOptions{Limit: 100})
		if err != nil {
			return err
		}
		v.Installed = is.Items
		for _, i := range is.Items {
			installed[i.Installation.Integration] = true
		}
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListIntegrations(ctx, q.caller, "", folio.IntegrationFilter{Search: v.Search}, opts)
	if err != nil {
		return err
	}
	v.Count, v.Next = l.Count, nextHref(r, l.Next)
	for _, i := range l.Items {
		v.Browse = append(v.Browse, integrationRow{I: i, Href: f.Href + "/integrations/" + url.PathEscape(i.Name), Installed: installed[i.Name]})
	}
	h.render(w, http.StatusOK, "integrations", q, "Integrations · "+f.Org.Title, v)
	return nil
}

// installationIn finds the integration's installation in the
// organization among those the caller manages (nil when none).
func (h *Handler) installationIn(ctx context.Context, q *req, name string, orgID folio.ID) (*folio.Installation, error) {
	l, err := h.app.ListInstallations(ctx, q.caller, name, "", folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return nil, err
	}
	for i := range l.Items {
		if l.Items[i].OrganizationID == orgID {
			return &l.Items[i], nil
		}
	}
	return nil, nil
}

func (h *Handler) integrationPage(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "integrations")
	if err != nil {
		return err
	}
	iv, err := h.app.GetIntegration(ctx, q.caller, r.PathValue("name"))
	if err != nil {
		return err
	}
	v := integrationPage{Frame: f, I: *iv, Href: f.Href + "/integrations/" + url.PathEscape(iv.Name), Notice: noticeOf(r),
		CanInstall: f.Org.Permissions().InstallIntegration, OnSpaces: iv.Target == "all" || iv.Target == folio.InstallOnSpace,
		OnSites: iv.Target == "all" || iv.Target == folio.InstallOnSite}
	if status, err := h.app.OrganizationInstallationStatus(ctx, q.caller, f.Org.ID, iv.Name); err == nil {
		v.Status = status
	} else if folio.KindOf(err) != folio.NotFound {
		return err
	}
	if v.CanInstall && v.Status != "" {
		if v.Inst, err = h.installationIn(ctx, q, iv.Name, f.Org.ID); err != nil {
			return err
		}
	}
	if v.Inst != nil {
		var buf bytes.Buffer
		if json.Indent(&buf, v.Inst.Configuration, "", "  ") == nil {
			v.Config = buf.String()
		} else {
			v.Config = string(v.Inst.Configuration)
		}
		if err := h.loadTargets(ctx, q, &v); err != nil {
			return err
		}
	}
	h.render(w, http.StatusOK, "integration", q, iv.Title+" · Integrations · "+f.Org.Title, v)
	return nil
}

// loadTargets lists the spaces and sites the installation covers and
// those it may still be installed on.
func (h *Handler) loadTargets(ctx context.Context, q *req, v *integrationPage) error {
	on := map[string]bool{}
	for _, kind := range []string{folio.InstallOnSpace, folio.InstallOnSite} {
		if kind == folio.InstallOnSpace && !v.OnSpaces || kind == folio.InstallOnSite && !v.OnSites {
			continue
		}
		l, err := h.app.ListTargetInstallations(ctx, q.caller, v.I.Name, v.Inst.ID, kind, "", folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		for _, t := range l.Items {
			on[kind+":"+t.TargetID] = true
			row := targetRow{Kind: kind, ID: t.TargetID, Label: t.TargetID}
			if kind == folio.InstallOnSpace {
				row.Label, row.Href = h.spaceTitle(ctx, q, t.TargetID), "/s/"+t.TargetID
			}
			v.Targets = append(v.Targets, row)
		}
	}
	if v.OnSpaces {
		spaces, err := h.app.ListSpaces(ctx, q.caller, v.Frame.Org.ID, "", folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		for _, s := range spaces.Items {
			if !on[folio.InstallOnSpace+":"+s.ID] {
				v.Spaces = append(v.Spaces, choice{Label: s.Title, Href: s.ID})
			}
		}
	}
	if v.OnSites {
		sites, err := h.app.ListSites(ctx, q.caller, v.Frame.Org.ID, folio.SiteFilter{}, folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		titles := map[string]string{}
		for _, s := range sites.Items {
			titles[s.ID] = s.Title
			if !on[folio.InstallOnSite+":"+s.ID] {
				v.Sites = append(v.Sites, choice{Label: s.Title, Href: s.ID})
			}
		}
		for i := range v.Targets {
			if t := &v.Targets[i]; t.Kind == folio.InstallOnSite && titles[t.ID] != "" {
				t.Label = titles[t.ID]
			}
		}
	}
	return nil
}

// integrationAction runs an integration's forms in an organization:
// install, configure, add or remove a space or site, uninstall.
func (h *Handler) integrationAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID, name := r.PathValue("org"), r.PathValue("name")
	back := "/o/" + orgID + "/integrations/" + url.PathEscape(name)
	action := r.PathValue("action")
	if action == "install" {
		if _, err := h.app.InstallIntegration(ctx, q.caller, name, orgID); err != nil {
			return err
		}
		seeOther(w, r, back, "installed")
		return nil
	}
	// Every other form acts on the organization's installation, which
	// only its admins manage.
	if _, err := h.app.GetIntegration(ctx, q.caller, name); err != nil {
		return err
	}
	inst, err := h.installationIn(ctx, q, name, orgID)
	if err != nil {
		return err
	}
	if inst == nil {
		if _, err := h.app.GetOrganization(ctx, q.caller, orgID); err != nil {
			return err
		}
		if _, err := h.app.OrganizationInstallationStatus(ctx, q.caller, orgID, name); err == nil {
			return folio.Errorf(folio.Forbidden, "only organization admins manage installations")
		}
		return folio.Errorf(folio.NotFound, "the integration is not installed in this organization")
	}
	f := r.PostForm
	switch action {
	case "configure":
		raw := strings.TrimSpace(f.Get("configuration"))
		if raw == "" {
			raw = "{}"
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
			return folio.FieldErrorf("configuration", "the configuration must be a JSON object, such as {\"key\": \"value\"}")
		}
		if _, err := h.app.UpdateInstallation(ctx, q.caller, name, inst.ID, folio.InstallationUpdate{Configuration: json.RawMessage(raw)}); err != nil {
			return err
		}
		seeOther(w, r, back, "updated")
	case "targets":
		if _, err := h.app.InstallOnTarget(ctx, q.caller, name, inst.ID, f.Get("kind"), f.Get("target")); err != nil {
			return err
		}
		seeOther(w, r, back, "target-added")
	case "untarget":
		kind := f.Get("kind")
		if kind != folio.InstallOnSpace && kind != folio.InstallOnSite {
			return folio.FieldErrorf("kind", "kind must be space or site")
		}
		if err := h.app.UninstallFromTarget(ctx, q.caller, name, inst.ID, kind, f.Get("target")); err != nil {
			return err
		}
		seeOther(w, r, back, "target-remove")
	case "uninstall":
		if f.Get("confirm") != "yes" {
			return folio.FieldErrorf("confirm", "tick the box to confirm uninstalling the integration")
		}
		if err := h.app.Uninstall(ctx, q.caller, name, inst.ID); err != nil {
			return err
		}
		seeOther(w, r, "/o/"+orgID+"/integrations", "uninstalled")
	default:
		return folio.Errorf(folio.NotFound, "Not found")
	}
	return nil
}

// integrationLink lands an integration's urls.app (/integrations/{name}):
// on its page in the caller's organization where it is installed, else
// in the caller's only organization, else on a choice of them.
func (h *Handler) integrationLink(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	iv, err := h.app.GetIntegration(ctx, q.caller, r.PathValue("name"))
	if err != nil {
		return err
	}
	orgs, err := h.app.ListOrganizations(ctx, q.caller, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	var installed, all []choice
	for _, o := range orgs.Items {
		c := choice{Label: o.Title, Href: "/o/" + o.ID + "/integrations/" + url.PathEscape(iv.Name)}
		all = append(all, c)
		if _, err := h.app.OrganizationInstallationStatus(ctx, q.caller, o.ID, iv.Name); err == nil {
			installed = append(installed, c)
		}
	}
	switch {
	case len(installed) == 1:
		http.Redirect(w, r, installed[0].Href, http.StatusFound)
		return nil
	case len(installed) == 0 && len(all) == 1:
		http.Redirect(w, r, all[0].Href, http.StatusFound)
		return nil
	case len(all) == 0:
		return folio.Errorf(folio.NotFound, "Not found")
	}
	v := chooseView{Heading: iv.Title, Intro: "Open the integration in one of your organizations:", Choices: all}
	if len(installed) > 1 {
		v.Intro, v.Choices = "The integration is installed in several of your organizations:", installed
	}
	h.render(w, http.StatusOK, "choose", q, iv.Title, v)
	return nil
}
