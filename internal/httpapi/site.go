package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// deleted answers a DELETE: 204 with no content whether or not the
// target existed (the description's wire rule 5, which wins over the
// reference's 205 for a deletion; docs/decisions.md).
func deleted(w http.ResponseWriter) {
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) listSites(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := folio.SiteFilter{Space: q.Get("space"), Title: q.Get("title")}
	if q.Get("published") != "" {
		p, err := queryBool(r, "published", false)
		if err != nil {
			return err
		}
		f.Published = &p
	}
	l, err := s.app.ListSites(r.Context(), caller(r), r.PathValue("organizationId"), f, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.urls.NewSite))
	return nil
}

func (s *Server) createSite(w http.ResponseWriter, r *http.Request) error {
	var in folio.NewSite
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateSite(r.Context(), caller(r), r.PathValue("organizationId"), in)
	if err != nil {
		return err
	}
	out := s.urls.NewSite(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) getSiteByID(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSite(v))
	return nil
}

func (s *Server) updateSiteByID(w http.ResponseWriter, r *http.Request) error {
	var in folio.SiteUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSite(v))
	return nil
}

func (s *Server) deleteSiteByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) publishSite(publish bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, err := s.app.PublishSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), publish)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, s.urls.NewSite(v))
		return nil
	}
}

func (s *Server) listSiteShareLinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	v, l, err := s.app.ListShareLinks(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(sl *folio.ShareLink) wire.ShareLink { return s.urls.NewShareLink(&v.Site, sl) }))
	return nil
}

func (s *Server) createSiteShareLink(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name folio.Optional[string] `json:"name"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, l, err := s.app.CreateShareLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), in.Name)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+v.OrganizationID+"/sites/"+v.ID+"/share-links/"+l.ID))
	writeJSON(w, http.StatusCreated, s.urls.NewShareLink(&v.Site, l))
	return nil
}

func (s *Server) updateSiteShareLinkByID(w http.ResponseWriter, r *http.Request) error {
	var in app.ShareLinkUpdate
	if err := decode(r, &in); err != nil {
		return err
	}
	v, l, err := s.app.UpdateShareLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("shareLinkId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewShareLink(&v.Site, l))
	return nil
}

func (s *Server) deleteSiteShareLinkByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteShareLink(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("shareLinkId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) createSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	var in app.RedirectInput
	if err := decode(r, &in); err != nil {
		return err
	}
	red, err := s.app.CreateRedirect(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, wire.NewSiteRedirect(red))
	return nil
}

func (s *Server) listSiteRedirects(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListRedirects(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.URL.Query().Get("search"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, wire.NewSiteRedirect))
	return nil
}

func (s *Server) updateSiteRedirectByID(w http.ResponseWriter, r *http.Request) error {
	var in app.RedirectInput
	if err := decode(r, &in); err != nil {
		return err
	}
	red, err := s.app.UpdateRedirect(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteRedirectId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewSiteRedirect(red))
	return nil
}

func (s *Server) deleteSiteRedirectByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteRedirect(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteRedirectId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) getSiteRedirectBySource(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	out, err := s.app.RedirectBySource(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		q.Get("source"), q.Get("shareKey"))
	if err != nil {
		return err
	}
	// The target of a section is the site's URL until sections exist; a
	// page is named by id under its site space, for the reader to resolve.
	target := s.urls.SitePublished(&out.Site.Site)
	if out.SiteSpace != nil {
		target = s.urls.SiteSpacePublished(&out.Site.Site, out.SiteSpace)
	}
	if id := out.Redirect.Destination.PageID; id != "" {
		target += "/~/page/" + id
	}
	writeJSON(w, http.StatusOK, struct {
		Redirect wire.SiteRedirect `json:"redirect"`
		Target   string            `json:"target"`
	}{wire.NewSiteRedirect(out.Redirect), target})
	return nil
}

func (s *Server) getSiteCustomizationByID(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.app.GetSiteCustomization(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// decodeObject decodes a body that must be a JSON object.
func decodeObject(r *http.Request) (map[string]any, error) {
	var in map[string]any
	if err := decode(r, &in); err != nil {
		return nil, err
	}
	if in == nil {
		return nil, folio.Errorf(folio.Invalid, "request body must be a JSON object")
	}
	return in, nil
}

func (s *Server) updateSiteCustomizationByID(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeObject(r)
	if err != nil {
		return err
	}
	doc, err := s.app.UpdateSiteCustomization(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

func (s *Server) getSiteSpaceCustomizationByID(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.app.GetSiteSpaceCustomization(r.Context(), caller(r), r.PathValue("organizationId"),
		r.PathValue("siteId"), r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

func (s *Server) overrideSiteSpaceCustomizationByID(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeObject(r)
	if err != nil {
		return err
	}
	doc, err := s.app.OverrideSiteSpaceCustomization(r.Context(), caller(r), r.PathValue("organizationId"),
		r.PathValue("siteId"), r.PathValue("siteSpaceId"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

func (s *Server) deleteSiteSpaceCustomizationByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteSiteSpaceCustomization(r.Context(), caller(r), r.PathValue("organizationId"),
		r.PathValue("siteId"), r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) getPublishedContentSite(w http.ResponseWriter, r *http.Request) error {
	p, err := s.app.GetPublishedSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.URL.Query().Get("shareKey"))
	if err != nil {
		return err
	}
	over := make(map[string]map[string]any, len(p.Customizations))
	for id, doc := range p.Customizations {
		over[id] = doc
	}
	writeJSON(w, http.StatusOK, wire.PublishedSite{Object: "published-content-site", Site: s.urls.NewSite(p.Site),
		Structure:      s.urls.NewSiteStructure(p.Structure),
		Customizations: wire.PublishedCustomizations{Site: p.Customization, SiteSpaces: over}, Scripts: siteScripts(p.Scripts)})
	return nil
}
