package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// The permission endpoints of spaces and collections share these handlers;
// kind says which, and the path value name follows it.
func targetOf(kind string, r *http.Request) folio.ID {
	if kind == folio.TargetSpace {
		return r.PathValue("spaceId")
	}
	return r.PathValue("collectionId")
}

func (s *Server) inviteToContent(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in app.GrantInput
		if err := decode(r, &in); err != nil {
			return err
		}
		if err := s.app.Grant(r.Context(), caller(r), kind, targetOf(kind, r), &in); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

func (s *Server) listUserPermissions(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		opts, err := listOptions(r)
		if err != nil {
			return err
		}
		l, err := s.app.ListUserGrants(r.Context(), caller(r), kind, targetOf(kind, r), opts)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, wire.NewList(l, func(g *folio.UserGrant) wire.UserPermission {
			return wire.UserPermission{Permission: string(g.Role), User: s.urls.NewUser(&g.User)}
		}))
		return nil
	}
}

func (s *Server) listTeamPermissions(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		opts, err := listOptions(r)
		if err != nil {
			return err
		}
		l, err := s.app.ListTeamGrants(r.Context(), caller(r), kind, targetOf(kind, r), opts)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, wire.NewList(l, func(g *folio.TeamGrant) wire.TeamPermission {
			return wire.TeamPermission{Permission: string(g.Role), Team: wire.NewTeam(&g.Team)}
		}))
		return nil
	}
}

func (s *Server) updatePermission(kind, principalKind, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in struct {
			Role folio.Optional[string] `json:"role"`
		}
		if err := decode(r, &in); err != nil {
			return err
		}
		if err := s.app.SetGrant(r.Context(), caller(r), kind, targetOf(kind, r), principalKind, r.PathValue(param), in.Role); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

func (s *Server) removePermission(kind, principalKind, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := s.app.RemoveGrant(r.Context(), caller(r), kind, targetOf(kind, r), principalKind, r.PathValue(param)); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}
