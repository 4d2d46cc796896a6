package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// The handlers below pass request bodies to the app as sent: it checks
// their values once it knows the caller may make the change, so that a
// caller who may not learns nothing from a bad body (403 or 404, not 400).

func (s *Server) inviteUsersToOrganization(w http.ResponseWriter, r *http.Request) error {
	var in app.InviteInput
	if err := decode(r, &in); err != nil {
		return err
	}
	res, err := s.app.InviteByEmail(r.Context(), caller(r), r.PathValue("organizationId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"users": res.Users, "invited": res.Invited})
	return nil
}

func (s *Server) joinOrganizationWithInvite(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.JoinWithInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("inviteId")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct{}{})
	return nil
}

func (s *Server) createOrganizationInvite(w http.ResponseWriter, r *http.Request) error {
	var in app.InviteLinkInput
	if err := decode(r, &in); err != nil {
		return err
	}
	inv, acc, err := s.app.CreateInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), &in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+inv.OrganizationID+"/link-invites/"+inv.ID))
	writeJSON(w, http.StatusCreated, wire.NewInviteLink(inv, acc.Role))
	return nil
}

func (s *Server) listOrganizationInviteLinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, acc, err := s.app.ListInviteLinks(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(inv *folio.InviteLink) wire.InviteLink { return wire.NewInviteLink(inv, acc.Role) }))
	return nil
}

func (s *Server) getOrganizationInviteLink(w http.ResponseWriter, r *http.Request) error {
	inv, acc, err := s.app.GetInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("inviteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewInviteLink(inv, acc.Role))
	return nil
}

func (s *Server) updateOrganizationInviteByID(w http.ResponseWriter, r *http.Request) error {
	var in app.InviteLinkInput
	if err := decode(r, &in); err != nil {
		return err
	}
	inv, acc, err := s.app.UpdateInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("inviteId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewInviteLink(inv, acc.Role))
	return nil
}

func (s *Server) deleteOrganizationInviteByID(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("inviteId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
