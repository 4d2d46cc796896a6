package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) getSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetAdaptiveSchema(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSiteAdaptiveSchema(v))
	return nil
}

func (s *Server) updateSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		JSONSchema json.RawMessage `json:"jsonSchema"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.SetAdaptiveSchema(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), in.JSONSchema)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSiteAdaptiveSchema(v))
	return nil
}

func (s *Server) listSiteAdaptiveTemplateConditions(w http.ResponseWriter, r *http.Request) error {
	l, err := s.app.ListTemplateConditions(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	items := make([]wire.TemplateCondition, len(l))
	for i := range l {
		items[i] = wire.NewTemplateCondition(&l[i])
	}
	writeJSON(w, http.StatusOK, struct {
		Items []wire.TemplateCondition `json:"items"`
	}{items})
	return nil
}
