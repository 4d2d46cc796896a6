package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) listMembersInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if opts.Desc, err = folio.ParseOrder(q.Get("order"), "desc"); err != nil {
		return err
	}
	var f folio.MemberFilter
	if f.Role, err = folio.ParseMemberRoleFilter(q.Get("role")); err != nil {
		return err
	}
	f.Search = q.Get("search")
	switch q.Get("sort") {
	case "", "joinedAt":
	case "lastSeenAt":
		f.ByLastSeen = true
	default:
		return folio.FieldErrorf("sort", "sort must be joinedAt or lastSeenAt")
	}
	l, err := s.app.ListMembers(r.Context(), caller(r), r.PathValue("organizationId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewMember))
	return nil
}

func (s *Server) getMemberInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	m, err := s.app.GetMember(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewMember(m))
	return nil
}

func (s *Server) updateMemberInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	var in folio.MemberUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	m, err := s.app.UpdateMember(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewMember(m))
	return nil
}

func (s *Server) removeMemberFromOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.RemoveMember(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) setUserAsSSOMemberForOrganization(w http.ResponseWriter, r *http.Request) error {
	m, err := s.app.SetMemberSSO(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewMember(m))
	return nil
}

func (s *Server) listSpacesForOrganizationMember(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	if opts.Desc, err = folio.ParseOrder(r.URL.Query().Get("order"), "desc"); err != nil {
		return err
	}
	l, err := s.app.ListMemberSpaces(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(m *app.MemberSpace) wire.MemberSpace {
		return s.urls.NewMemberSpace(m.Role, &m.Space)
	}))
	return nil
}

func (s *Server) listTeamsForOrganizationMember(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListMemberTeams(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("userId"), r.URL.Query().Get("title"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, wire.NewMemberTeam))
	return nil
}

func (s *Server) updateOrganizationMemberLastSeenAt(w http.ResponseWriter, r *http.Request) error {
	claims, err := s.app.Ping(r.Context(), caller(r), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	// The description names the field serviceVisitorClaims and the GitBook
	// reference gitbookVisitorClaims; both carry the same token.
	out := map[string]string{}
	if claims != "" {
		out["serviceVisitorClaims"], out["gitbookVisitorClaims"] = claims, claims
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) joinOrganization(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.JoinOrganization(r.Context(), caller(r), r.PathValue("organizationId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
