package httpapi

import (
	"net/http"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) searchPage(h *app.SearchPageHit) wire.SearchPage {
	sections := make([]wire.SearchSection, len(h.Sections))
	for i, sec := range h.Sections {
		sections[i] = wire.SearchSection{ID: sec.ID, Title: sec.Title, Body: sec.Body}
	}
	return s.urls.NewSearchPage(h.SpaceID, h.PageID, h.Title, h.Path, h.Ancestors, sections)
}

func (s *Server) searchSpaceContent(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	_, l, err := s.app.SearchSpace(r.Context(), caller(r), r.PathValue("spaceId"), r.URL.Query().Get("query"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.searchPage))
	return nil
}

func (s *Server) searchOrganizationContent(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.SearchOrganization(r.Context(), caller(r), r.PathValue("organizationId"), r.URL.Query().Get("query"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.searchSpace))
	return nil
}

func (s *Server) searchSpace(g *app.SearchSpaceHits) wire.SearchSpace {
	out := wire.SearchSpace{ID: g.SpaceID, Title: g.Title, Pages: make([]wire.SearchPage, len(g.Pages))}
	for i := range g.Pages {
		out.Pages[i] = s.searchPage(&g.Pages[i])
	}
	return out
}

// searchSiteContent serves POST /orgs/{organizationId}/sites/{siteId}/search:
// the scope is the reference's SiteSearchScope, or one of the deprecated
// forms (siteSpaceIds; mode "current" with siteSpaceId; mode "all").
func (s *Server) searchSiteContent(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	var in struct {
		Query string `json:"query"`
		Scope *struct {
			Mode               string   `json:"mode"`
			CurrentSiteSpace   string   `json:"currentSiteSpace"`
			IncludedSiteSpaces []string `json:"includedSiteSpaces"`
			SiteSpaceIDs       []string `json:"siteSpaceIds"`
		} `json:"scope"`
		Mode         string   `json:"mode"`
		SiteSpaceIDs []string `json:"siteSpaceIds"`
		SiteSpaceID  string   `json:"siteSpaceId"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	var scope app.SiteSearch
	switch {
	case in.Scope != nil:
		scope.Mode, scope.CurrentSiteSpace = in.Scope.Mode, in.Scope.CurrentSiteSpace
		scope.SiteSpaceIDs = in.Scope.IncludedSiteSpaces
		if scope.Mode == app.SiteSearchSpecific {
			scope.SiteSpaceIDs = in.Scope.SiteSpaceIDs
		}
	case in.Mode == app.SiteSearchCurrent:
		scope.Mode, scope.CurrentSiteSpace, scope.Legacy = in.Mode, in.SiteSpaceID, true
	case in.SiteSpaceIDs != nil && (in.Mode == "" || in.Mode == app.SiteSearchSpecific):
		scope.Mode, scope.SiteSpaceIDs = app.SiteSearchSpecific, in.SiteSpaceIDs
	case in.Mode == app.SiteSearchAll:
		scope.Mode = in.Mode
	}
	l, err := s.app.SearchSite(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), in.Query, scope, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.searchSpace))
	return nil
}

// location converts a content location.
func (s *Server) location(l *app.Location) wire.ContentLocation {
	out := wire.ContentLocation{Kind: l.Kind, URL: l.URL}
	if l.Content != nil {
		org := s.urls.NewOrganization(l.Organization)
		sp := s.urls.NewSpace(l.Content.Space)
		out.Organization, out.Space = &org, &sp
		cv := s.contentView(l.Content, true)
		if l.Page != nil {
			out.Page = cv.NewPage(l.Page, false)
		}
		if l.File != nil {
			f := cv.NewFile(l.File)
			out.File = &f
		}
	}
	return out
}

// listLinks serves GET /spaces/{spaceId}/links and
// .../content/page/{pageId}/links.
func (s *Server) listLinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, stats, err := s.app.SpaceLinks(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("pageId"), r.URL.Query().Get("status"), opts)
	if err != nil {
		return err
	}
	list := wire.NewList(l, s.linkUsage)
	var ws wire.LinkStats
	ws.Total, ws.Broken.Total = stats.Total, stats.Broken
	writeJSON(w, http.StatusOK, struct {
		wire.List[wire.LinkUsage]
		Stats wire.LinkStats `json:"stats"`
	}{list, ws})
	return nil
}

// listBacklinks serves the backlinks of a page or a file.
func (s *Server) listBacklinks(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.Backlinks(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("pageId"), r.PathValue("fileId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.location))
	return nil
}

// linkUsage is the wire form of a link target and where it is used.
func (s *Server) linkUsage(u *app.LinkUsage) wire.LinkUsage {
	out := wire.LinkUsage{Status: u.Status, Relation: u.Relation, Ref: u.Ref,
		LocationReferences: make([]wire.ContentLocation, len(u.Locations))}
	if u.Target != nil {
		t := s.location(u.Target)
		out.TargetReference = &t
	}
	for i := range u.Locations {
		out.LocationReferences[i] = s.location(&u.Locations[i])
	}
	return out
}
