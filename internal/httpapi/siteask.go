package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/foliodocs/folio"
)

// emptyEventStream answers a streamed AI route with a stream that ends at
// once: no answer, no recommended question. GitBook's renderer reads it
// as "nothing to show" where a 404 would throw in the browser.
func emptyEventStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// streamRecommendedQuestionsInSite serves GET .../sites/{siteId}/ask/questions:
// Folio has no AI, so there is no question to recommend.
func (s *Server) streamRecommendedQuestionsInSite(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.CheckSiteAsk(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), false, ""); err != nil {
		return err
	}
	emptyEventStream(w)
	return nil
}

// streamAskInSite serves POST .../sites/{siteId}/ask: the body is checked
// as the reference describes it, and the answer is an empty stream.
func (s *Server) streamAskInSite(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Question string          `json:"question"`
		Scope    json.RawMessage `json:"scope"`
		Context  *struct {
			SiteSpaceID string `json:"siteSpaceId"`
		} `json:"context"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if len(in.Scope) == 0 || string(in.Scope) == "null" {
		return folio.FieldErrorf("scope", "scope is required")
	}
	if err := s.app.CheckSiteAsk(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), true, in.Question); err != nil {
		return err
	}
	emptyEventStream(w)
	return nil
}
