package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

// getSitePublishingAuthByID answers GET .../publishing/auth.
func (s *Server) getSitePublishingAuthByID(w http.ResponseWriter, r *http.Request) error {
	a, err := s.app.GetSitePublishingAuth(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSitePublishingAuth(a))
	return nil
}

// updateSitePublishingAuthByID answers PATCH .../publishing/auth.
func (s *Server) updateSitePublishingAuthByID(w http.ResponseWriter, r *http.Request) error {
	var in folio.SitePublishingAuthUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	a, err := s.app.UpdateSitePublishingAuth(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSitePublishingAuth(a))
	return nil
}

// regenerateSitePublishingAuthByID answers POST .../publishing/auth/regenerate.
func (s *Server) regenerateSitePublishingAuthByID(w http.ResponseWriter, r *http.Request) error {
	a, err := s.app.RegenerateSitePublishingAuth(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSitePublishingAuth(a))
	return nil
}
