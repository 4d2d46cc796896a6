package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) listTeamsInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := folio.TeamFilter{Owner: q.Get("owner"), Title: q.Get("title")}
	l, err := s.app.ListTeams(r.Context(), caller(r), r.PathValue("organizationId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, wire.NewTeam))
	return nil
}

func (s *Server) createOrganizationTeam(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title   string   `json:"title"`
		Members []string `json:"members"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	t, err := s.app.CreateTeam(r.Context(), caller(r), r.PathValue("organizationId"), in.Title, in.Members)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+t.OrganizationID+"/teams/"+t.ID))
	writeJSON(w, http.StatusCreated, wire.NewTeam(t))
	return nil
}

func (s *Server) getTeamInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	t, err := s.app.GetTeam(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewTeam(t))
	return nil
}

func (s *Server) updateTeamInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title string `json:"title"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	t, err := s.app.RenameTeam(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"), in.Title)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewTeam(t))
	return nil
}

func (s *Server) removeTeamFromOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteTeam(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) listTeamMembersInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListTeamMembers(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewTeamMember))
	return nil
}

func (s *Server) updateMembersInOrganizationTeam(w http.ResponseWriter, r *http.Request) error {
	var in folio.TeamMembersUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	if err := s.app.UpdateTeamMembers(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"), &in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) addMemberToOrganizationTeamByID(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Role string `json:"role"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if in.Role == "" {
		in.Role = string(folio.TeamMember)
	}
	if err := s.app.SetTeamMember(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"), r.PathValue("userId"), in.Role); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) deleteMemberFromOrganizationTeamByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.RemoveTeamMember(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("teamId"), r.PathValue("userId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
