package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// The Sites area of an organization: the list of its sites, and each
// site's page (structure, visibility, share links, visitor key,
// redirects, adaptive content, domain). Every change is a form that posts
// to /o/{org}/sites/{site}/{action} and calls the app method the API
// calls; what the caller may not do is not offered, and the app refuses it.

func (h *Handler) sitesRoutes() {
	h.handle("GET /o/{org}/sites", signedIn, h.sitesList)
	h.handle("POST /o/{org}/sites", signedIn, h.createSite)
	h.handle("GET /o/{org}/sites/{site}", signedIn, h.sitePage)
	h.handle("POST /o/{org}/sites/{site}/{action}", signedIn, h.siteAction)
}

// sitesView is the list of an organization's sites.
type sitesView struct {
	Frame  *orgFrame
	Sites  []siteRow
	Manage bool
	Spaces []folio.SpaceView // what a new site may publish
	Error  string
	Title  string // the title sent, when the form is shown again
	Notice string
}

type siteRow struct {
	folio.SiteView
	Href, URL string
}

func (h *Handler) sitesList(w http.ResponseWriter, r *http.Request, q *req) error {
	v, err := h.sitesData(r.Context(), q, r.PathValue("org"))
	if err != nil {
		return err
	}
	if r.URL.Query().Get("deleted") != "" {
		v.Notice = "The site was deleted: its URLs answer 404."
	}
	h.renderPage(w, http.StatusOK, "sites", q, "Sites · "+v.Frame.Org.Title, v, sitesAssets())
	return nil
}

func (h *Handler) sitesData(ctx context.Context, q *req, orgID string) (*sitesView, error) {
	f, err := h.orgFrame(ctx, q, orgID, "sites")
	if err != nil {
		return nil, err
	}
	l, err := h.app.ListSites(ctx, q.caller, f.Org.ID, folio.SiteFilter{}, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return nil, err
	}
	// Managing sites is the create role or higher, as the app decides.
	v := &sitesView{Frame: f, Manage: f.Org.CallerRole.AtLeast(folio.RoleCreate)}
	for _, s := range l.Items {
		v.Sites = append(v.Sites, siteRow{SiteView: s, Href: f.Href + "/sites/" + s.ID, URL: h.sitePublished(&s.Site)})
	}
	if v.Manage {
		sp, err := h.app.ListSpaces(ctx, q.caller, f.Org.ID, "", folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return nil, err
		}
		v.Spaces = sp.Items
	}
	return v, nil
}

// createSite creates a site publishing the spaces ticked, in the order
// listed, the first as the default.
func (h *Handler) createSite(w http.ResponseWriter, r *http.Request, q *req) error {
	orgID := r.PathValue("org")
	in := folio.NewSite{Title: strings.TrimSpace(r.PostFormValue("title")), Spaces: r.PostForm["space"]}
	s, err := h.app.CreateSite(r.Context(), q.caller, orgID, in)
	if err != nil {
		if !shownInForm(err) {
			return err
		}
		v, lerr := h.sitesData(r.Context(), q, orgID)
		if lerr != nil {
			return lerr
		}
		v.Error, v.Title = folio.MessageOf(err), strings.TrimSpace(r.PostFormValue("title"))
		h.renderPage(w, statusOf(folio.KindOf(err)), "sites", q, "Sites · "+v.Frame.Org.Title, v, sitesAssets())
		return nil
	}
	http.Redirect(w, r, "/o/"+s.OrganizationID+"/sites/"+s.ID, http.StatusSeeOther)
	return nil
}

// shownInForm says whether an error is about what was sent (shown on the
// page again, beside the form) rather than about the request.
func shownInForm(err error) bool {
	k := folio.KindOf(err)
	return k == folio.Invalid || k == folio.Conflict
}

func sitesAssets() pageAssets {
	return pageAssets{Scripts: []string{assetsByKey["copy.js"].url, assetsByKey["sites.js"].url}}
}

// sitePublished is the published URL of a site, as the API's
// urls.published says (wire.URLs.SitePublished).
func (h *Handler) sitePublished(s *folio.Site) string {
	switch {
	case s.ProxyOrigin != "":
		return "https://" + s.ProxyOrigin
	case s.Hostname != "" && s.Basename != "":
		return "https://" + s.Hostname + "/" + url.PathEscape(s.Basename)
	case s.Hostname != "":
		return "https://" + s.Hostname
	}
	return h.siteBase(s)
}

// siteBase is where this server serves a site itself.
func (h *Handler) siteBase(s *folio.Site) string { return h.public + "/sites/" + s.ID }

// siteView is a site's page.
type siteView struct {
	Frame     *orgFrame
	Site      folio.SiteView
	Href      string // /o/{org}/sites/{site}
	URL       string // published URL
	Base      string // where this server serves it
	Manage    bool
	Sectioned bool
	Items     []*siteItem // sections and groups, or site spaces
	Sections  []*siteItem // every section, in order
	Groups    []*siteItem // every group, in order
	SiteSpace []*siteItem // every site space, in order
	Spaces    []folio.SpaceView
	Links     []shareLinkRow
	Redirects []redirectRow
	Schema    string
	Templates []folio.TemplateCondition
	// Host is the server's host name, the target of a hostname's CNAME.
	Host string
	// ProxyPath is the path of the proxy origin, under its host.
	ProxyPath string
	// Notice is what the last action did; Error why it failed (ErrorAt
	// names the form it belongs to: its action).
	Notice, Error, ErrorAt string
	// VisitorKey is the visitor-auth key, shown once after it was made.
	VisitorKey string
	// Form holds the values sent with a refused form, to show them again.
	Form url.Values
	CSRF string // for the forms of the structure's items
}

// Sent is the value of a field of the refused form when it was action.
func (v *siteView) Sent(action, field, current string) string {
	if v.ErrorAt == action && v.Form != nil {
		return v.Form.Get(field)
	}
	return current
}

// SentFor is Sent for a form about one item of the structure.
func (v *siteView) SentFor(action, id, field, current string) string {
	if v.ErrorAt == action && v.Form != nil && v.Form.Get("id") == id {
		return v.Form.Get(field)
	}
	return current
}

// ErrorFor is the error of the refused form when it was about item id.
func (v *siteView) ErrorFor(action, id string) string {
	if v.ErrorAt == action && v.Form != nil && v.Form.Get("id") == id {
		return v.Error
	}
	return ""
}

// siteItem is a site space, section or group of a site's structure, with
// what its controls need.
type siteItem struct {
	Kind, ID, Title, Path, Condition string
	SpaceHref, Emoji                 string
	Default, Hidden                  bool
	Group                            string // a section's group, "" at the root
	First, Last                      bool   // among its siblings
	Children                         []*siteItem
	V                                *siteView
}

type shareLinkRow struct {
	folio.ShareLink
	URL string
}

type redirectRow struct {
	folio.SiteRedirect
	To string // what the destination names, in words
}

func (h *Handler) sitePage(w http.ResponseWriter, r *http.Request, q *req) error {
	v, err := h.siteData(r.Context(), q, r.PathValue("org"), r.PathValue("site"))
	if err != nil {
		return err
	}
	v.Notice = siteNotices[r.URL.Query().Get("done")]
	h.renderSite(w, http.StatusOK, q, v)
	return nil
}

func (h *Handler) renderSite(w http.ResponseWriter, status int, q *req, v *siteView) {
	v.CSRF = q.csrf
	h.renderPage(w, status, "sites-site", q, v.Site.Title+" · Sites", v, sitesAssets())
}

// siteNotices are the confirmations shown after a form (?done=key).
var siteNotices = map[string]string{
	"published": "The site is published.", "unpublished": "The site is unpublished: readers get 404.",
	"visibility": "The visibility was changed.", "space": "The space was added.", "section": "The section was added.",
	"group": "The section group was added.", "moved": "Moved.", "removed": "Removed.", "default": "The default was changed.",
	"link": "The share link was created.", "revoked": "The share link was revoked: its URL no longer opens the site.",
	"redirect": "The redirect was added.", "adaptive": "Adaptive content was updated.", "schema": "The adaptive schema was saved.",
	"condition": "The condition was saved.", "domain": "The domain settings were saved.", "grouped": "The section was moved.",
	"title": "The site was renamed.",
}

func (h *Handler) siteData(ctx context.Context, q *req, orgID, siteID string) (*siteView, error) {
	f, err := h.orgFrame(ctx, q, orgID, "sites")
	if err != nil {
		return nil, err
	}
	st, err := h.app.GetSiteStructure(ctx, q.caller, f.Org.ID, siteID, "")
	if err != nil {
		return nil, err
	}
	s := st.Site
	v := &siteView{Frame: f, Site: *s, Href: f.Href + "/sites/" + s.ID, URL: h.sitePublished(&s.Site), Base: h.siteBase(&s.Site),
		Manage: s.Manage, Sectioned: st.Sectioned}
	if u, err := url.Parse(h.public); err == nil {
		v.Host = u.Hostname()
	}
	_, v.ProxyPath, _ = strings.Cut(s.ProxyOrigin, "/")
	v.buildStructure(st)
	if v.Manage {
		sp, err := h.app.ListSpaces(ctx, q.caller, f.Org.ID, "", folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return nil, err
		}
		v.Spaces = sp.Items
		if s.Visibility == folio.VisibilityShareLink {
			_, l, err := h.app.ListShareLinks(ctx, q.caller, f.Org.ID, s.ID, folio.ListOptions{Limit: folio.MaxLimit})
			if err != nil {
				return nil, err
			}
			for _, sl := range l.Items {
				v.Links = append(v.Links, shareLinkRow{ShareLink: sl, URL: v.URL + "?shareKey=" + url.QueryEscape(sl.Key)})
			}
		}
	}
	rl, err := h.app.ListRedirects(ctx, q.caller, f.Org.ID, s.ID, "", folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, it := range v.Sections {
		names[it.ID] = "section " + it.Title
	}
	for _, it := range v.SiteSpace {
		names[it.ID] = "space " + it.Title
	}
	for _, rd := range rl.Items {
		d := rd.Destination
		to := names[d.SiteSectionID+d.SiteSpaceID]
		if to == "" {
			to = "something no longer in the site"
		}
		if d.Kind == "site-page" {
			to = "a page of " + to
		}
		v.Redirects = append(v.Redirects, redirectRow{SiteRedirect: rd, To: to})
	}
	schema, err := h.app.GetAdaptiveSchema(ctx, q.caller, f.Org.ID, s.ID)
	switch {
	case err == nil:
		v.Schema = prettyJSON(schema.JSONSchema)
	case !folio.IsNotFound(err):
		return nil, err
	}
	if v.Templates, err = h.app.ListTemplateConditions(ctx, q.caller, f.Org.ID, s.ID); err != nil {
		return nil, err
	}
	return v, nil
}

func prettyJSON(raw json.RawMessage) string {
	var b strings.Builder
	var x any
	if json.Unmarshal(raw, &x) == nil {
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if enc.Encode(x) == nil {
			return strings.TrimSpace(b.String())
		}
	}
	return string(raw)
}

// buildStructure turns the site's structure into the items the page lists.
func (v *siteView) buildStructure(st *folio.SiteStructure) {
	spaceItem := func(ss folio.SiteSpaceView) *siteItem {
		it := &siteItem{Kind: folio.KindSiteSpace, ID: ss.ID, Title: ss.Space.Title, Emoji: ss.Space.Emoji, Path: ss.Path,
			Condition: ss.Condition, Default: ss.Default, Hidden: ss.Hidden, SpaceHref: "/s/" + ss.SpaceID, V: v}
		v.SiteSpace = append(v.SiteSpace, it)
		return it
	}
	var nodes func(ns []folio.SiteStructureNode, group string) []*siteItem
	nodes = func(ns []folio.SiteStructureNode, group string) []*siteItem {
		var out []*siteItem
		for _, n := range ns {
			switch {
			case n.Section != nil:
				sec := n.Section
				it := &siteItem{Kind: folio.KindSiteSection, ID: sec.ID, Title: sec.Title, Path: sec.Path, Condition: sec.Condition,
					Default: sec.Default, Group: group, V: v}
				v.Sections = append(v.Sections, it)
				for _, ss := range sec.SiteSpaces {
					it.Children = append(it.Children, spaceItem(ss))
				}
				marks(it.Children)
				out = append(out, it)
			case n.Group != nil:
				it := &siteItem{Kind: folio.KindSiteSectionGroup, ID: n.Group.ID, Title: n.Group.Title, Group: group, V: v}
				v.Groups = append(v.Groups, it)
				it.Children = nodes(n.Group.Children, n.Group.ID)
				out = append(out, it)
			}
		}
		marks(out)
		return out
	}
	if st.Sectioned {
		v.Items = nodes(st.Nodes, "")
		return
	}
	for _, ss := range st.SiteSpaces {
		v.Items = append(v.Items, spaceItem(ss))
	}
	marks(v.Items)
}

func marks(items []*siteItem) {
	for i, it := range items {
		it.First, it.Last = i == 0, i == len(items)-1
	}
}

// find returns an item of the structure and its siblings.
func (v *siteView) find(kind, id string) (*siteItem, []*siteItem) {
	var walk func([]*siteItem) (*siteItem, []*siteItem)
	walk = func(items []*siteItem) (*siteItem, []*siteItem) {
		for _, it := range items {
			if it.Kind == kind && it.ID == id {
				return it, items
			}
			if f, sib := walk(it.Children); f != nil {
				return f, sib
			}
		}
		return nil, nil
	}
	return walk(v.Items)
}

var errSiteGone = folio.Errorf(folio.NotFound, "site not found")

// errNoItem answers a form naming nothing of the site.
var errNoItem = folio.Errorf(folio.NotFound, "that is not part of the site")

// siteAction runs one form of a site's page. A refusal of what was sent
// (Invalid, Conflict) shows the page again with the reason beside the
// form and the values sent; anything else is an error page.
func (h *Handler) siteAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx, orgID, siteID, action := r.Context(), r.PathValue("org"), r.PathValue("site"), r.PathValue("action")
	f := r.PostForm
	form := func(k string) string { return strings.TrimSpace(f.Get(k)) }
	back := "/o/" + orgID + "/sites/" + siteID
	done := action
	var key string // a visitor key to show once
	var err error
	switch action {
	case "publish", "unpublish":
		done += "ed"
		_, err = h.app.PublishSite(ctx, q.caller, orgID, siteID, action == "publish")
	case "title":
		_, err = h.app.UpdateSite(ctx, q.caller, orgID, siteID, &folio.SiteUpdate{Title: folio.Some(form("title"))})
	case "visibility":
		var before, s *folio.SiteView
		if before, err = h.app.GetSite(ctx, q.caller, orgID, siteID); err != nil {
			break
		}
		if s, err = h.app.UpdateSite(ctx, q.caller, orgID, siteID, &folio.SiteUpdate{Visibility: folio.Some(form("visibility"))}); err == nil &&
			s.Visibility == folio.VisibilityVisitorAuth && before.Visibility != s.Visibility {
			// The key is made on first use: show it as the site turns to
			// visitor authentication, once.
			var auth *folio.SitePublishingAuth
			if auth, err = h.app.GetSitePublishingAuth(ctx, q.caller, orgID, siteID); err == nil {
				key = auth.PrivateKey
			}
		}
	case "visitor-key":
		var auth *folio.SitePublishingAuth
		if auth, err = h.app.RegenerateSitePublishingAuth(ctx, q.caller, orgID, siteID); err == nil {
			key = auth.PrivateKey
		}
	case "space":
		_, _, err = h.app.AddSiteSpace(ctx, q.caller, orgID, siteID, form("space"), form("section"))
	case "section":
		in := folio.NewSiteSection{SpaceID: form("space")}
		if t := form("title"); t != "" {
			in.Title = folio.Some(t)
		}
		_, _, err = h.app.AddSiteSection(ctx, q.caller, orgID, siteID, in)
	case "group":
		_, _, err = h.app.AddSiteSectionGroup(ctx, q.caller, orgID, siteID, folio.NewSiteSectionGroup{Title: form("title")})
	case "move":
		done = "moved"
		err = h.moveSiteItem(ctx, q, orgID, siteID, f)
	case "remove":
		done = "removed"
		err = h.removeSiteItem(ctx, q, orgID, siteID, form("kind"), form("id"))
	case "default":
		u := &folio.SiteUpdate{}
		switch form("kind") {
		case folio.KindSiteSection:
			u.DefaultSiteSection = folio.Some(form("id"))
		case folio.KindSiteSpace:
			u.DefaultSiteSpace = folio.Some(form("id"))
		default:
			err = errNoItem
		}
		if err == nil {
			_, err = h.app.UpdateSite(ctx, q.caller, orgID, siteID, u)
		}
	case "grouping":
		done = "grouped"
		err = h.groupSection(ctx, q, orgID, siteID, form("id"), form("group"))
	case "condition":
		c := folio.Some(form("condition"))
		if c.Value == "" {
			c = folio.Null[string]()
		}
		switch form("kind") {
		case folio.KindSiteSection:
			_, _, err = h.app.UpdateSiteSection(ctx, q.caller, orgID, siteID, form("id"), folio.SiteSectionUpdate{Condition: c})
		case folio.KindSiteSpace:
			_, _, err = h.app.UpdateSiteSpace(ctx, q.caller, orgID, siteID, form("id"), folio.SiteSpaceUpdate{Condition: c})
		default:
			err = errNoItem
		}
	case "link":
		_, _, err = h.app.CreateShareLink(ctx, q.caller, orgID, siteID, folio.Some(form("name")))
	case "revoke":
		done = "revoked"
		_, _, err = h.app.UpdateShareLink(ctx, q.caller, orgID, siteID, form("id"), app.ShareLinkUpdate{Active: folio.Some(false)})
	case "redirect":
		err = h.addRedirect(ctx, q, orgID, siteID, form("source"), form("destination"))
	case "unredirect":
		done = "removed"
		var existed bool
		if existed, err = h.app.DeleteRedirect(ctx, q.caller, orgID, siteID, form("id")); err == nil && !existed {
			err = folio.Errorf(folio.NotFound, "redirect not found")
		}
	case "adaptive":
		on := f.Get("enabled") == "on"
		_, err = h.app.UpdateSite(ctx, q.caller, orgID, siteID, &folio.SiteUpdate{AdaptiveContent: folio.Some(folio.AdaptiveContent{Enabled: &on})})
	case "schema":
		_, err = h.app.SetAdaptiveSchema(ctx, q.caller, orgID, siteID, json.RawMessage(f.Get("schema")))
	case "domain":
		err = h.setDomain(ctx, q, orgID, siteID, form("hostname"), form("basename"), form("proxy"))
	case "delete":
		if f.Get("confirm") != "yes" {
			err = folio.FieldErrorf("confirm", "tick the box to confirm that the site goes")
			break
		}
		var existed bool
		if existed, err = h.app.DeleteSite(ctx, q.caller, orgID, siteID); err == nil && !existed {
			err = errSiteGone
		}
		if err == nil {
			http.Redirect(w, r, "/o/"+orgID+"/sites?deleted=1", http.StatusSeeOther)
			return nil
		}
	default:
		return folio.Errorf(folio.NotFound, "page not found")
	}
	if err != nil {
		if !shownInForm(err) {
			return err
		}
		v, lerr := h.siteData(ctx, q, orgID, siteID)
		if lerr != nil {
			return lerr
		}
		v.Error, v.ErrorAt, v.Form = folio.MessageOf(err), action, f
		h.renderSite(w, statusOf(folio.KindOf(err)), q, v)
		return nil
	}
	if key != "" {
		// Shown in this answer only: a reload does not show it again.
		v, err := h.siteData(ctx, q, orgID, siteID)
		if err != nil {
			return err
		}
		v.VisitorKey, v.Notice = key, siteNotices[done]
		h.renderSite(w, http.StatusOK, q, v)
		return nil
	}
	anchor := "#structure"
	switch action {
	case "publish", "unpublish", "title":
		anchor = ""
	case "visibility", "link", "revoke":
		anchor = "#visibility"
	case "redirect", "unredirect":
		anchor = "#redirects"
	case "adaptive", "schema":
		anchor = "#adaptive"
	case "domain":
		anchor = "#domain"
	}
	http.Redirect(w, r, back+"?done="+done+anchor, http.StatusSeeOther)
	return nil
}

// moveSiteItem moves an item up or down among its siblings (dir), or
// before or after another item (place and target, as drag and drop sends).
func (h *Handler) moveSiteItem(ctx context.Context, q *req, orgID, siteID string, f url.Values) error {
	item := folio.StructurePointer{Type: f.Get("kind"), ID: f.Get("id")}
	var p folio.StructurePosition
	target := &folio.StructurePointer{Type: f.Get("target-kind"), ID: f.Get("target")}
	switch f.Get("place") {
	case "before":
		p.Before = target
	case "after":
		p.After = target
	default:
		v, err := h.siteData(ctx, q, orgID, siteID)
		if err != nil {
			return err
		}
		it, sib := v.find(item.Type, item.ID)
		if it == nil {
			return errNoItem
		}
		i := slices.Index(sib, it)
		switch f.Get("dir") {
		case "up":
			if i == 0 {
				return folio.Errorf(folio.Invalid, "%s is first already: it cannot move further up", it.Title)
			}
			p.Before = &folio.StructurePointer{Type: sib[i-1].Kind, ID: sib[i-1].ID}
		case "down":
			if i == len(sib)-1 {
				return folio.Errorf(folio.Invalid, "%s is last already: it cannot move further down", it.Title)
			}
			p.After = &folio.StructurePointer{Type: sib[i+1].Kind, ID: sib[i+1].ID}
		default:
			return folio.Errorf(folio.Invalid, "choose up or down")
		}
	}
	_, _, err := h.app.SortSiteStructure(ctx, q.caller, orgID, siteID, item, p)
	return err
}

func (h *Handler) removeSiteItem(ctx context.Context, q *req, orgID, siteID, kind, id string) error {
	var existed bool
	var err error
	switch kind {
	case folio.KindSiteSpace:
		existed, err = h.app.DeleteSiteSpace(ctx, q.caller, orgID, siteID, id)
	case folio.KindSiteSection:
		existed, err = h.app.DeleteSiteSection(ctx, q.caller, orgID, siteID, id)
	case folio.KindSiteSectionGroup:
		existed, err = h.app.DeleteSiteSectionGroup(ctx, q.caller, orgID, siteID, id)
	default:
		return errNoItem
	}
	if err == nil && !existed {
		return errNoItem
	}
	return err
}

// groupSection puts a section in a group, or takes it out of its group
// (group empty).
func (h *Handler) groupSection(ctx context.Context, q *req, orgID, siteID, sectionID, groupID string) error {
	if groupID != "" {
		_, _, err := h.app.AddSectionToGroup(ctx, q.caller, orgID, siteID, groupID, sectionID)
		return err
	}
	v, err := h.siteData(ctx, q, orgID, siteID)
	if err != nil {
		return err
	}
	it, _ := v.find(folio.KindSiteSection, sectionID)
	if it == nil {
		return errNoItem
	}
	if it.Group == "" {
		return nil
	}
	_, err = h.app.RemoveSectionFromGroup(ctx, q.caller, orgID, siteID, it.Group, sectionID)
	return err
}

// addRedirect adds a redirect to a site space or a section, named in the
// form as "site-space:{id}" or "site-section:{id}".
func (h *Handler) addRedirect(ctx context.Context, q *req, orgID, siteID, source, dest string) error {
	kind, id, _ := strings.Cut(dest, ":")
	d := folio.RedirectDestination{Kind: kind}
	switch kind {
	case folio.KindSiteSpace:
		d.SiteSpaceID = id
	case folio.KindSiteSection:
		d.SiteSectionID = id
	default:
		return folio.FieldErrorf("destination", "choose where the redirect leads")
	}
	_, err := h.app.CreateRedirect(ctx, q.caller, orgID, siteID, app.RedirectInput{Source: folio.Some(source), Destination: folio.Some(d)})
	return err
}

// setDomain sets a site's hostname, basename and proxy in one update:
// an empty hostname or proxy removes it; the basename cannot be removed
// (the API has no null for it), so an empty one leaves it as it is.
func (h *Handler) setDomain(ctx context.Context, q *req, orgID, siteID, hostname, basename, proxy string) error {
	u := &folio.SiteUpdate{Hostname: folio.Null[string](), Proxy: folio.Null[string]()}
	if hostname != "" {
		u.Hostname = folio.Some(strings.ToLower(hostname))
	}
	if proxy != "" {
		proxy = strings.TrimPrefix(strings.TrimPrefix(proxy, "https://"), "http://")
		u.Proxy = folio.Some(strings.TrimRight(proxy, "/"))
	}
	if basename != "" {
		u.Basename = folio.Some(strings.Trim(basename, "/"))
	}
	_, err := h.app.UpdateSite(ctx, q.caller, orgID, siteID, u)
	return err
}
