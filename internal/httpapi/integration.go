package httpapi

import (
	"net/http"

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

func (s *Server) writeIntegrations(w http.ResponseWriter, r *http.Request, org folio.ID) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	f, err := integrationFilter(r)
	if err != nil {
		return err
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
