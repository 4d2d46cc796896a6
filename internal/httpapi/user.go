package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) getAuthenticatedUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.app.GetAuthenticatedUser(r.Context(), caller(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewUser(u))
	return nil
}

func (s *Server) getUserByID(w http.ResponseWriter, r *http.Request) error {
	u, err := s.app.GetUser(r.Context(), caller(r), r.PathValue("userId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewUser(u))
	return nil
}

func (s *Server) listAPITokens(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListTokens(r.Context(), caller(r), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(t *folio.Token) wire.Token { return s.urls.NewToken(t, "") }))
	return nil
}

func (s *Server) createAPIToken(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Label string `json:"label"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	t, secret, err := s.app.CreateToken(r.Context(), caller(r), in.Label)
	if err != nil {
		return err
	}
	out := s.urls.NewToken(t, secret)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) revokeAPIToken(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.RevokeToken(r.Context(), caller(r), r.PathValue("tokenId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
