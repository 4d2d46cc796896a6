package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// listTranslations serves GET /orgs/{organizationId}/translations.
func (s *Server) listTranslations(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListTranslations(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewTranslation))
	return nil
}

// createTranslation serves POST /orgs/{organizationId}/translations (201).
func (s *Server) createTranslation(w http.ResponseWriter, r *http.Request) error {
	var in app.TranslationInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateTranslation(r.Context(), caller(r), r.PathValue("organizationId"), in)
	if err != nil {
		return err
	}
	out := s.urls.NewTranslation(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// getTranslation serves GET /orgs/{organizationId}/translations/{translationId}.
func (s *Server) getTranslation(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetTranslation(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("translationId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewTranslation(v))
	return nil
}

// updateTranslation serves PUT .../translations/{translationId}: new
// instructions.
func (s *Server) updateTranslation(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Instructions json.RawMessage `json:"instructions"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateTranslationInstructions(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("translationId"),
		in.Instructions, in.Instructions != nil)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewTranslation(v))
	return nil
}

// deleteTranslation serves DELETE .../translations/{translationId} (204,
// also when there was none).
func (s *Server) deleteTranslation(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteTranslation(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("translationId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// runTranslation serves POST .../translations/{translationId}/run (204):
// the run is queued.
func (s *Server) runTranslation(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.RunTranslation(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("translationId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listGlossaryEntries serves GET /orgs/{organizationId}/translations-glossary.
func (s *Server) listGlossaryEntries(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListGlossaryEntries(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewGlossaryEntry))
	return nil
}

// updateGlossaryEntries serves PUT /orgs/{organizationId}/translations-glossary
// (204): a batch of inserts, updates and deletes, all or nothing.
func (s *Server) updateGlossaryEntries(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Operations *[]app.GlossaryOperation `json:"operations"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if in.Operations == nil {
		return folio.FieldErrorf("operations", "operations is required")
	}
	if err := s.app.UpdateGlossary(r.Context(), caller(r), r.PathValue("organizationId"), *in.Operations); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getGlossaryEntry serves GET .../translations-glossary/{glossaryEntryId}.
func (s *Server) getGlossaryEntry(w http.ResponseWriter, r *http.Request) error {
	e, err := s.app.GetGlossaryEntry(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("glossaryEntryId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewGlossaryEntry(e))
	return nil
}
