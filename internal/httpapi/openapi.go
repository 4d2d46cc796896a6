package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// listOpenAPISpecs serves GET /orgs/{organizationId}/openapi.
func (s *Server) listOpenAPISpecs(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListOpenAPISpecs(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewOpenAPISpec))
	return nil
}

// createOpenAPISpec serves POST /orgs/{organizationId}/openapi (201).
func (s *Server) createOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	var in app.OpenAPISpecInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateOpenAPISpec(r.Context(), caller(r), r.PathValue("organizationId"), in)
	if err != nil {
		return err
	}
	out := s.urls.NewOpenAPISpec(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// getOpenAPISpec serves GET /orgs/{organizationId}/openapi/{specSlug}.
func (s *Server) getOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetOpenAPISpec(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOpenAPISpec(v))
	return nil
}

// putOpenAPISpec serves PUT /orgs/{organizationId}/openapi/{specSlug}: 201
// when it created the specification, 200 when it updated it.
func (s *Server) putOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	var in app.OpenAPISpecInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, created, err := s.app.PutOpenAPISpec(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"), in)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, s.urls.NewOpenAPISpec(v))
	return nil
}

// patchOpenAPISpec serves PATCH /orgs/{organizationId}/openapi/{specSlug}.
func (s *Server) patchOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Visibility *string `json:"visibility"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	vis := ""
	if in.Visibility != nil {
		vis = *in.Visibility
	}
	v, err := s.app.UpdateOpenAPISpecVisibility(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"), vis)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOpenAPISpec(v))
	return nil
}

// deleteOpenAPISpec serves DELETE /orgs/{organizationId}/openapi/{specSlug}
// (204, also when there was none).
func (s *Server) deleteOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteOpenAPISpec(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listOpenAPIVersions serves GET .../openapi/{specSlug}/versions.
func (s *Server) listOpenAPIVersions(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	spec, l, err := s.app.ListOpenAPIVersions(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"), opts)
	if err != nil {
		return err
	}
	out := wire.List[wire.OpenAPIVersion]{Count: l.Count, Items: make([]wire.OpenAPIVersion, len(l.Items))}
	for i := range l.Items {
		out.Items[i] = s.urls.NewOpenAPIVersion(spec, &l.Items[i])
	}
	if l.Next != "" {
		out.Next = &wire.Next{Page: l.Next}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// getOpenAPIVersion serves GET .../versions/latest and .../versions/{versionId}.
func (s *Server) getOpenAPIVersion(w http.ResponseWriter, r *http.Request) error {
	spec, v, _, err := s.app.GetOpenAPIVersion(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"),
		versionRef(r), false)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOpenAPIVersion(spec, v))
	return nil
}

// getOpenAPIVersionContent serves GET .../versions/latest/content and
// .../versions/{versionId}/content; site API tokens read their
// organization's specifications through it (GitBook's renderer).
func (s *Server) getOpenAPIVersionContent(w http.ResponseWriter, r *http.Request) error {
	spec, v, c, err := s.app.GetOpenAPIVersion(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("specSlug"),
		versionRef(r), true)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOpenAPIContent(spec, v, c))
	return nil
}

func versionRef(r *http.Request) string {
	if id := r.PathValue("versionId"); id != "" {
		return id
	}
	return "latest"
}

// rawOpenAPIVersion serves GET /openapi/{specId}/versions/{versionId}/raw
// (folio): a version's entry document as fetched or given. Public
// specifications need no token; private ones need a member's.
func (s *Server) rawOpenAPIVersion(w http.ResponseWriter, r *http.Request) error {
	raw, err := s.app.RawOpenAPIVersion(r.Context(), caller(r), r.PathValue("specId"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	ct := "application/yaml; charset=utf-8"
	for _, b := range raw {
		if b == ' ' || b == '\n' || b == '\r' || b == '\t' {
			continue
		}
		if b == '{' {
			ct = "application/json"
		}
		break
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(raw)
	return err
}
