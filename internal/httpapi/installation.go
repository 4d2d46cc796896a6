package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// installIntegration serves POST /integrations/{integrationName}/installations (201).
func (s *Server) installIntegration(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Organization string `json:"organization"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	inst, err := s.app.InstallIntegration(r.Context(), caller(r), r.PathValue("integrationName"), in.Organization)
	if err != nil {
		return err
	}
	out := s.urls.NewInstallation(inst)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// listInstallations serves GET /integrations/{integrationName}/installations.
func (s *Server) listInstallations(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListInstallations(r.Context(), caller(r), r.PathValue("integrationName"), r.URL.Query().Get("externalId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewInstallation))
	return nil
}

// getInstallation serves GET .../installations/{installationId}.
func (s *Server) getInstallation(w http.ResponseWriter, r *http.Request) error {
	inst, err := s.app.GetInstallation(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewInstallation(inst))
	return nil
}

// updateInstallation serves PATCH .../installations/{installationId}.
func (s *Server) updateInstallation(w http.ResponseWriter, r *http.Request) error {
	var u folio.InstallationUpdate
	if err := decode(r, &u); err != nil {
		return err
	}
	inst, err := s.app.UpdateInstallation(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), u)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewInstallation(inst))
	return nil
}

// uninstallIntegration serves DELETE .../installations/{installationId}
// (204, also when it is already gone).
func (s *Server) uninstallIntegration(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.Uninstall(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// createInstallationToken serves POST .../installations/{installationId}/tokens.
func (s *Server) createInstallationToken(w http.ResponseWriter, r *http.Request) error {
	tok, err := s.app.CreateInstallationToken(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"token": tok})
	return nil
}

// targetKind reads which kind of target a route serves.
func targetKind(r *http.Request) (kind string, id folio.ID) {
	if id := r.PathValue("siteId"); id != "" {
		return folio.InstallOnSite, id
	}
	if id := r.PathValue("spaceId"); id != "" {
		return folio.InstallOnSpace, id
	}
	return "", ""
}

// writeTargets answers a list of space or site installations, expanded to
// whole objects when ?extended=true.
func (s *Server) writeTargets(w http.ResponseWriter, r *http.Request, status int, items []folio.TargetInstallation, list *folio.List[folio.TargetInstallation]) error {
	extended, err := queryBool(r, "extended", false)
	if err != nil {
		return err
	}
	conv := func(ti *folio.TargetInstallation) wire.TargetInstallation {
		return s.urls.NewTargetInstallation(ti, nil)
	}
	if extended {
		spaces, sites, err := s.app.ExpandTargets(r.Context(), items)
		if err != nil {
			return err
		}
		conv = func(ti *folio.TargetInstallation) wire.TargetInstallation {
			var obj any
			if v := spaces[ti.TargetID]; v != nil && ti.Kind == folio.InstallOnSpace {
				obj = s.urls.NewSpace(v)
			} else if v := sites[ti.TargetID]; v != nil && ti.Kind == folio.InstallOnSite {
				obj = s.urls.NewSite(v)
			}
			return s.urls.NewTargetInstallation(ti, obj)
		}
	}
	if list != nil {
		writeJSON(w, status, wire.NewList(*list, conv))
	} else {
		writeJSON(w, status, conv(&items[0]))
	}
	return nil
}

// listTargetInstallations serves GET .../installations/{installationId}/spaces
// and /sites, and GET /integrations/{integrationName}/spaces and /sites.
func (s *Server) listTargetInstallations(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		opts, err := listOptions(r)
		if err != nil {
			return err
		}
		l, err := s.app.ListTargetInstallations(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), kind,
			r.URL.Query().Get("externalId"), opts)
		if err != nil {
			return err
		}
		return s.writeTargets(w, r, http.StatusOK, l.Items, &l)
	}
}

// installOnTarget serves POST .../installations/{installationId}/spaces and /sites (201).
func (s *Server) installOnTarget(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in struct {
			Space string `json:"space"`
			Site  string `json:"siteId"`
		}
		if err := decode(r, &in); err != nil {
			return err
		}
		target := in.Space
		if kind == folio.InstallOnSite {
			target = in.Site
		}
		ti, err := s.app.InstallOnTarget(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), kind, target)
		if err != nil {
			return err
		}
		w.Header().Set("Location", s.urls.NewTargetInstallation(ti, nil).URLs.Location)
		return s.writeTargets(w, r, http.StatusCreated, []folio.TargetInstallation{*ti}, nil)
	}
}

// getTargetInstallation serves GET .../spaces/{spaceId} and .../sites/{siteId}.
func (s *Server) getTargetInstallation(w http.ResponseWriter, r *http.Request) error {
	kind, target := targetKind(r)
	ti, err := s.app.GetTargetInstallation(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), kind, target)
	if err != nil {
		return err
	}
	return s.writeTargets(w, r, http.StatusOK, []folio.TargetInstallation{*ti}, nil)
}

// updateTargetInstallation serves PATCH .../spaces/{spaceId} and .../sites/{siteId}.
func (s *Server) updateTargetInstallation(w http.ResponseWriter, r *http.Request) error {
	var u folio.InstallationUpdate
	if err := decode(r, &u); err != nil {
		return err
	}
	kind, target := targetKind(r)
	ti, err := s.app.UpdateTargetInstallation(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), kind, target, u)
	if err != nil {
		return err
	}
	return s.writeTargets(w, r, http.StatusOK, []folio.TargetInstallation{*ti}, nil)
}

// uninstallFromTarget serves DELETE .../spaces/{spaceId} and .../sites/{siteId} (204).
func (s *Server) uninstallFromTarget(w http.ResponseWriter, r *http.Request) error {
	kind, target := targetKind(r)
	if err := s.app.UninstallFromTarget(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("installationId"), kind, target); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listIntegrationEvents serves GET /integrations/{integrationName}/events.
func (s *Server) listIntegrationEvents(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListIntegrationEvents(r.Context(), caller(r), r.PathValue("integrationName"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, wire.NewIntegrationEvent))
	return nil
}

// getIntegrationEvent serves GET /integrations/{integrationName}/events/{eventId}.
func (s *Server) getIntegrationEvent(w http.ResponseWriter, r *http.Request) error {
	e, err := s.app.GetIntegrationEvent(r.Context(), caller(r), r.PathValue("integrationName"), r.PathValue("eventId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewIntegrationEventWithTrace(e))
	return nil
}

// setIntegrationDev serves PUT /integrations/{integrationName}/dev (204).
func (s *Server) setIntegrationDev(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		TunnelURL *string `json:"tunnelUrl"`
		All       bool    `json:"all"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if in.TunnelURL == nil || *in.TunnelURL == "" {
		return folio.FieldErrorf("tunnelUrl", "tunnelUrl is required")
	}
	if err := s.app.SetIntegrationDev(r.Context(), caller(r), r.PathValue("integrationName"), *in.TunnelURL, in.All); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// disableIntegrationDev serves DELETE /integrations/{integrationName}/dev:
// 204 (wire rule 5; the reference declares only 205).
func (s *Server) disableIntegrationDev(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.SetIntegrationDev(r.Context(), caller(r), r.PathValue("integrationName"), "", false); err != nil {
		return err
	}
	deleted(w)
	return nil
}

// listOrganizationInstallations serves GET /orgs/{organizationId}/installations.
func (s *Server) listOrganizationInstallations(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListOrganizationInstallations(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(ii *folio.InstalledIntegration) any {
		return map[string]any{"installation": s.urls.NewInstallation(&ii.Installation), "integration": s.urls.NewIntegration(&ii.Integration)}
	}))
	return nil
}

// getOrganizationIntegrationStatus serves
// GET /orgs/{organizationId}/integrations/{integrationName}/installation_status.
func (s *Server) getOrganizationIntegrationStatus(w http.ResponseWriter, r *http.Request) error {
	status, err := s.app.OrganizationInstallationStatus(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": status})
	return nil
}

// listSiteIntegrationScripts serves
// GET /orgs/{organizationId}/sites/{siteId}/integration-scripts.
func (s *Server) listSiteIntegrationScripts(w http.ResponseWriter, r *http.Request) error {
	l, err := s.app.SiteIntegrationScripts(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, siteScripts(l))
	return nil
}

// integrationSiteScript serves GET .../installations/{installationId}/sites/{siteId}/script.js
// (folio: the answer of the integration's fetch_published_script event,
// with its contentSecurityPolicy; no authentication, as browsers load it).
func (s *Server) integrationSiteScript(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.app.IntegrationSiteScript(r.Context(), r.PathValue("integrationName"), r.PathValue("installationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", ps.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=60")
	if ps.CSP != "" {
		h.Set("Content-Security-Policy", ps.CSP)
	}
	w.WriteHeader(http.StatusOK)
	w.Write(ps.Body)
	return nil
}

// renderIntegrationUI serves POST /integrations/{integrationName}/render.
func (s *Server) renderIntegrationUI(w http.ResponseWriter, r *http.Request) error {
	var in app.RenderInput
	if err := decode(r, &in); err != nil {
		return err
	}
	out, err := s.app.RenderIntegrationUI(r.Context(), caller(r), r.PathValue("integrationName"), in)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if out.CacheControl != "" {
		h.Set("Cache-Control", out.CacheControl)
	}
	if out.CSP != "" {
		h.Set("Content-Security-Policy", out.CSP)
	}
	w.WriteHeader(http.StatusOK)
	w.Write(out.Body)
	return nil
}

// siteScripts converts a site's integration scripts to the reference's
// SiteIntegrationScript list.
func siteScripts(l []app.SiteScript) []wire.SiteIntegrationScript {
	out := make([]wire.SiteIntegrationScript, len(l))
	for i, sc := range l {
		out[i] = wire.SiteIntegrationScript{Script: sc.URL, ContentSecurityPolicy: sc.CSP, Cookies: sc.Cookies}
	}
	return out
}
