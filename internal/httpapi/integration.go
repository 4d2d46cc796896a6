package httpapi

import (
	"net/http"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// integrationFilter reads the reference's integration list filters.
func integrationFilter(r *http.Request) (f folio.IntegrationFilter, err error) {
	q := r.URL.Query()
	f = folio.IntegrationFilter{Search: q.Get("search"), Category: q.Get("category"), BlockDomain: q.Get("blockDomain"),
		Owner: q.Get("owner"), Scope: q.Get("scope"), Target: q.Get("target")}
	for _, b := range []struct {
		name string
		dst  **bool
	}{{"blocks", &f.Blocks}, {"contentSources", &f.ContentSources}} {
		if q.Get(b.name) == "" {
			continue
		}
		v, err := queryBool(r, b.name, false)
		if err != nil {
			return f, err
		}
		*b.dst = &v
	}
	return f, nil
}

// listIntegrations serves GET /integrations: the public integrations and
// the caller's organizations' own.
func (s *Server) listIntegrations(w http.ResponseWriter, r *http.Request) error {
	return s.writeIntegrations(w, r, "")
}

// listOrganizationIntegrations serves GET /orgs/{organizationId}/integrations:
// the integrations installed in the organization.
func (s *Server) listOrganizationIntegrations(w http.ResponseWriter, r *http.Request) error {
	return s.writeIntegrations(w, r, r.PathValue("organizationId"))
}

// listSpaceIntegrations serves GET /spaces/{spaceId}/integrations: the
// integrations whose installation covers the space.
func (s *Server) listSpaceIntegrations(w http.ResponseWriter, r *http.Request) error {
	return s.writeIntegrations(w, r, "")
}

// listSiteIntegrations serves GET /orgs/{organizationId}/sites/{siteId}/integrations.
func (s *Server) listSiteIntegrations(w http.ResponseWriter, r *http.Request) error {
	return s.writeIntegrations(w, r, r.PathValue("organizationId"))
}

// listOrganizationIntegrationsStatus serves
// GET /orgs/{organizationId}/integrations/installations-status: the
// installed integrations with their installation's status (target
// filters by the integration's target).
func (s *Server) listOrganizationIntegrationsStatus(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListOrganizationInstallations(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	target := r.URL.Query().Get("target")
	if target != "" && !slices.Contains(folio.IntegrationTargets, target) {
		return folio.FieldErrorf("target", "target must be one of all, site, space or organization")
	}
	out := wire.NewList(l, func(ii *folio.InstalledIntegration) any {
		return map[string]any{"status": ii.Installation.Status, "integration": s.urls.NewIntegration(&ii.Integration)}
	})
	if target != "" {
		kept := out.Items[:0]
		for i, ii := range l.Items {
			if ii.Integration.Target == target {
				kept = append(kept, out.Items[i])
			}
		}
		out.Items = kept
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) writeIntegrations(w http.ResponseWriter, r *http.Request, org folio.ID) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	f, err := integrationFilter(r)
	if err != nil {
		return err
	}
	if id := r.PathValue("spaceId"); id != "" {
		f.InstalledKind, f.InstalledOn = folio.InstallOnSpace, id
	} else if id := r.PathValue("siteId"); id != "" {
		f.InstalledKind, f.InstalledOn = folio.InstallOnSite, id
	}
	l, err := s.app.ListIntegrations(r.Context(), caller(r), org, f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewIntegration))
	return nil
}

// getIntegration serves GET /integrations/{integrationName}.
func (s *Server) getIntegration(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetIntegration(r.Context(), caller(r), r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewIntegration(v))
	return nil
}

// publishIntegration serves POST /integrations/{integrationName} (200, as
// the reference answers, for a first version and later ones alike).
func (s *Server) publishIntegration(w http.ResponseWriter, r *http.Request) error {
	var in app.IntegrationInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.PublishIntegration(r.Context(), caller(r), r.PathValue("integrationName"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewIntegration(v))
	return nil
}

// unpublishIntegration serves DELETE /integrations/{integrationName} (204,
// also when there was none).
func (s *Server) unpublishIntegration(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.UnpublishIntegration(r.Context(), caller(r), r.PathValue("integrationName")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// integrationAsset serves GET /integrations/{integrationName}/assets/{file}:
// an icon or preview image, by its content hash (no authentication: the
// name is only known from the integration object).
func (s *Server) integrationAsset(w http.ResponseWriter, r *http.Request) error {
	file := r.PathValue("file")
	rd, err := s.app.IntegrationAsset(r.Context(), r.PathValue("integrationName"), file)
	if err != nil {
		return err
	}
	defer rd.Close()
	sendBlob(w, r, rd, app.AssetContentType(file), file, rd.Size(), "default-src 'none'")
	return nil
}
