package httpapi

import (
	"net/http"
	"strconv"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/wire"
)

// pointerBody is a pointer of a move position. The deprecated moves name
// the item in siteSection or siteSpace; sortSiteStructure and the group
// move in id.
type pointerBody struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSection string `json:"siteSection"`
	SiteSpace   string `json:"siteSpace"`
}

func (p *pointerBody) pointer() *folio.StructurePointer {
	if p == nil {
		return nil
	}
	id := p.ID
	if id == "" {
		id = p.SiteSection
	}
	if id == "" {
		id = p.SiteSpace
	}
	return &folio.StructurePointer{Type: p.Type, ID: id}
}

type positionBody struct {
	Before *pointerBody `json:"before"`
	After  *pointerBody `json:"after"`
}

func (p *positionBody) position() folio.StructurePosition {
	if p == nil {
		return folio.StructurePosition{}
	}
	return folio.StructurePosition{Before: p.Before.pointer(), After: p.After.pointer()}
}

// decodeMove reads the body of a move: a position, which may be absent.
func decodeMove(r *http.Request, kind string) (folio.StructurePosition, error) {
	var in struct {
		Position *positionBody `json:"position"`
	}
	if err := decode(r, &in); err != nil {
		return folio.StructurePosition{}, err
	}
	p := in.Position.position()
	// The deprecated moves fix the pointer's type; a pointer of another
	// type is an invalid position, which the application reports.
	for _, q := range []*folio.StructurePointer{p.Before, p.After} {
		if q != nil && q.Type == "" {
			q.Type = kind
		}
	}
	return p, nil
}

func (s *Server) siteSection(v *folio.SiteView, sec *folio.SiteSectionView) wire.SiteSection {
	return s.urls.NewSiteSection(&v.Site, sec)
}

func (s *Server) listSiteSections(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	v, l, err := s.app.ListSiteSections(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.URL.Query().Get("shareKey"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(sec *folio.SiteSectionView) wire.SiteSection {
		return s.siteSection(v, sec)
	}))
	return nil
}

func (s *Server) addSectionToSite(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		SpaceID string                 `json:"spaceId"`
		Title   folio.Optional[string] `json:"title"`
		Icon    folio.Optional[string] `json:"icon"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, sec, err := s.app.AddSiteSection(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		folio.NewSiteSection{SpaceID: in.SpaceID, Title: in.Title, Icon: in.Icon})
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+v.OrganizationID+"/sites/"+v.ID+"/sections/"+sec.ID))
	writeJSON(w, http.StatusCreated, s.siteSection(v, sec))
	return nil
}

func (s *Server) updateSiteSectionByID(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title            folio.Optional[string] `json:"title"`
		Path             folio.Optional[string] `json:"path"`
		DefaultSiteSpace folio.Optional[string] `json:"defaultSiteSpace"`
		Condition        folio.Optional[string] `json:"condition"`
		Icon             folio.Optional[string] `json:"icon"`
		Description      folio.Optional[string] `json:"description"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, sec, err := s.app.UpdateSiteSection(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionId"), folio.SiteSectionUpdate{Title: in.Title, Path: in.Path,
			DefaultSiteSpace: in.DefaultSiteSpace, Condition: in.Condition, Icon: in.Icon, Description: in.Description})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.siteSection(v, sec))
	return nil
}

func (s *Server) deleteSiteSectionByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteSiteSection(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) moveSiteSection(w http.ResponseWriter, r *http.Request) error {
	p, err := decodeMove(r, folio.KindSiteSection)
	if err != nil {
		return err
	}
	v, sec, err := s.app.MoveSiteSection(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionId"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.siteSection(v, sec))
	return nil
}

func (s *Server) listSiteSpacesOfSite(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	var def *bool
	if d := r.URL.Query().Get("default"); d != "" {
		b, err := strconv.ParseBool(d)
		if err != nil || (d != "true" && d != "false") {
			return folio.FieldErrorf("default", "default must be true or false")
		}
		def = &b
	}
	v, l, err := s.app.ListSiteSpacesOf(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.URL.Query().Get("shareKey"), def, opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(ss *folio.PlacedSiteSpace) wire.SiteSpace {
		return s.urls.NewPlacedSiteSpace(&v.Site, ss)
	}))
	return nil
}

func (s *Server) addSpaceToSite(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		SpaceID   string `json:"spaceId"`
		SectionID string `json:"sectionId"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, ss, err := s.app.AddSiteSpace(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		in.SpaceID, in.SectionID)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+v.OrganizationID+"/sites/"+v.ID+"/site-spaces/"+ss.ID))
	writeJSON(w, http.StatusCreated, s.urls.NewPlacedSiteSpace(&v.Site, ss))
	return nil
}

func (s *Server) updateSiteSpaceByID(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Path      folio.Optional[string] `json:"path"`
		Condition folio.Optional[string] `json:"condition"`
		SpaceID   folio.Optional[string] `json:"spaceId"`
		Hidden    folio.Optional[bool]   `json:"hidden"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, ss, err := s.app.UpdateSiteSpace(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSpaceId"), folio.SiteSpaceUpdate{Path: in.Path, Condition: in.Condition, SpaceID: in.SpaceID,
			Hidden: in.Hidden})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewPlacedSiteSpace(&v.Site, ss))
	return nil
}

func (s *Server) deleteSiteSpaceByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteSiteSpace(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) moveSiteSpace(w http.ResponseWriter, r *http.Request) error {
	p, err := decodeMove(r, folio.KindSiteSpace)
	if err != nil {
		return err
	}
	v, ss, err := s.app.MoveSiteSpace(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSpaceId"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewPlacedSiteSpace(&v.Site, ss))
	return nil
}

func (s *Server) getSiteStructure(w http.ResponseWriter, r *http.Request) error {
	st, err := s.app.GetSiteStructure(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.URL.Query().Get("shareKey"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSiteStructure(st))
	return nil
}

func (s *Server) sortSiteStructure(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Item     *pointerBody  `json:"item"`
		Position *positionBody `json:"position"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	if in.Item == nil {
		return folio.FieldErrorf("item", "item is required")
	}
	v, item, err := s.app.SortSiteStructure(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		*in.Item.pointer(), in.Position.position())
	if err != nil {
		return err
	}
	switch {
	case item.SiteSpace != nil:
		writeJSON(w, http.StatusOK, s.urls.NewPlacedSiteSpace(&v.Site, item.SiteSpace))
	case item.Section != nil:
		writeJSON(w, http.StatusOK, s.siteSection(v, item.Section))
	default:
		writeJSON(w, http.StatusOK, s.urls.NewSiteSectionGroup(&v.Site, item.Group))
	}
	return nil
}

func (s *Server) listSiteSectionGroups(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	v, l, err := s.app.ListSiteSectionGroups(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, func(g *folio.SiteSectionGroupView) wire.SiteSectionGroup {
		return s.urls.NewSiteSectionGroup(&v.Site, g)
	}))
	return nil
}

func (s *Server) addSectionGroupToSite(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title    string                 `json:"title"`
		Icon     folio.Optional[string] `json:"icon"`
		Sections []string               `json:"sections"`
		Parent   string                 `json:"parent"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, g, err := s.app.AddSiteSectionGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		folio.NewSiteSectionGroup{Title: in.Title, Icon: in.Icon, Sections: in.Sections, Parent: in.Parent})
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+v.OrganizationID+"/sites/"+v.ID+"/section-groups/"+g.ID))
	writeJSON(w, http.StatusCreated, s.urls.NewSiteSectionGroup(&v.Site, g))
	return nil
}

func (s *Server) updateSiteSectionGroupByID(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Title folio.Optional[string] `json:"title"`
		Icon  folio.Optional[string] `json:"icon"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, g, err := s.app.UpdateSiteSectionGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"), folio.SiteSectionGroupUpdate{Title: in.Title, Icon: in.Icon})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSiteSectionGroup(&v.Site, g))
	return nil
}

func (s *Server) deleteSiteSectionGroupByID(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.DeleteSiteSectionGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		SectionID string `json:"sectionId"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	v, g, err := s.app.AddSectionToGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"), in.SectionID)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/orgs/"+v.OrganizationID+"/sites/"+v.ID+"/section-groups/"+g.ID))
	writeJSON(w, http.StatusCreated, s.urls.NewSiteSectionGroup(&v.Site, g))
	return nil
}

func (s *Server) removeSectionFromGroup(w http.ResponseWriter, r *http.Request) error {
	_, err := s.app.RemoveSectionFromGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"), r.PathValue("siteSectionId"))
	if err != nil {
		return err
	}
	deleted(w)
	return nil
}

func (s *Server) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	p, err := decodeMove(r, folio.KindSiteSection)
	if err != nil {
		return err
	}
	v, g, err := s.app.MoveSiteSectionGroup(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("siteId"),
		r.PathValue("siteSectionGroupId"), p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewSiteSectionGroup(&v.Site, g))
	return nil
}
