package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) listOrganizationsForAuthenticatedUser(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListOrganizations(r.Context(), caller(r), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewOrganization))
	return nil
}

func (s *Server) createOrganization(w http.ResponseWriter, r *http.Request) error {
	var in folio.NewOrganization
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateOrganization(r.Context(), caller(r), in)
	if err != nil {
		return err
	}
	out := s.urls.NewOrganization(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) getOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetOrganization(r.Context(), caller(r), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOrganization(v))
	return nil
}

func (s *Server) updateOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	var in folio.OrganizationUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateOrganization(r.Context(), caller(r), r.PathValue("organizationId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewOrganization(v))
	return nil
}
