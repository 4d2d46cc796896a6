package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

// nullableRole reads a role that may be null (a guest).
func nullableRole(field string, o folio.Optional[string]) (folio.Role, error) {
	if !o.Set {
		return "", folio.FieldErrorf(field, "%s is required (null for a guest)", field)
	}
	if o.Null {
		return folio.RoleGuest, nil
	}
	return folio.ParseRole(field, o.Value)
}

func (s *Server) inviteUsersToOrganization(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Emails []json.RawMessage      `json:"emails"`
		Role   folio.Optional[string] `json:"role"`
		SSO    bool                   `json:"sso"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	role := folio.RoleRead
	if in.Role.Set {
		var err error
		if role, err = nullableRole("role", in.Role); err != nil {
			return err
		}
	}
	invites := make([]folio.EmailInvite, 0, len(in.Emails))
	for _, raw := range in.Emails {
		var inv folio.EmailInvite
		if err := json.Unmarshal(raw, &inv.Email); err != nil {
			var obj struct {
				Email string                 `json:"email"`
				Role  folio.Optional[string] `json:"role"`
			}
			if err := json.Unmarshal(raw, &obj); err != nil || obj.Email == "" {
				return folio.FieldErrorf("emails", "emails items must be addresses or {email, role} objects")
			}
			r, err := nullableRole("emails.role", obj.Role)
			if err != nil {
				return err
			}
			inv = folio.EmailInvite{Email: obj.Email, Role: r, HasRole: true}
		}
		invites = append(invites, inv)
	}
	res, err := s.app.InviteByEmail(r.Context(), caller(r), r.PathValue("organizationId"), invites, role, in.SSO)
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

// inviteRoleBody reads {role} (or {level}, the content-invite form).
func inviteRoleBody(r *http.Request) (folio.Role, error) {
	var in struct {
		Role       folio.Optional[string] `json:"role"`
		Level      folio.Optional[string] `json:"level"`
		Space      string                 `json:"space"`
		Collection string                 `json:"collection"`
	}
	if err := decode(r, &in); err != nil {
		return "", err
	}
	if in.Space != "" || in.Collection != "" {
		return "", folio.Errorf(folio.Invalid, "invite links to spaces and collections are not supported yet")
	}
	if !in.Role.Set && in.Level.Set {
		return nullableRole("level", in.Level)
	}
	return nullableRole("role", in.Role)
}

func (s *Server) createOrganizationInvite(w http.ResponseWriter, r *http.Request) error {
	role, err := inviteRoleBody(r)
	if err != nil {
		return err
	}
	inv, acc, err := s.app.CreateInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), role)
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
	role, err := inviteRoleBody(r)
	if err != nil {
		return err
	}
	inv, acc, err := s.app.UpdateInviteLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("inviteId"), role)
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
