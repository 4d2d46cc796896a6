package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/golang-jwt/jwt/v5"
)

// siteTokenSecret names the server secret that signs site API tokens.
const siteTokenSecret = "site-api-token"

// SiteTokenTTL is how long a site API token lives. GitBook's renderer
// refuses tokens expiring within two minutes.
const SiteTokenTTL = time.Hour

var errURLNotFound = folio.Errorf(folio.NotFound, "no published content at this URL")

// siteTokenClaims is the payload of a site API token: the reference's
// SiteAPIToken fields and exp.
type siteTokenClaims struct {
	jwt.RegisteredClaims
	Kind         string         `json:"kind"`
	Organization string         `json:"organization"`
	Site         string         `json:"site"`
	SiteSection  string         `json:"siteSection,omitempty"`
	SiteSpace    string         `json:"siteSpace"`
	Space        string         `json:"space"`
	Spaces       []string       `json:"spaces"`
	Claims       map[string]any `json:"claims,omitempty"`
	// ShareKey is the share key the token was issued for (share-link
	// sites; the lookup answers it anyway): every call checks it is still
	// active, so revoking it closes the token at once.
	ShareKey string `json:"shareKey,omitempty"`
	// VisitorKey is the id of the site's visitor key that verified the
	// visitor's JWT: every call checks it is still the site's key, so
	// regenerating the key closes the token at once.
	VisitorKey string `json:"visitorKey,omitempty"`
}

// URLLookup answers resolvePublishedContentByUrl: the content at a URL,
// or a redirect (Redirect set).
type URLLookup struct {
	Site         *folio.Site
	SiteSection  folio.ID
	SiteSpace    folio.ID
	Space        folio.ID
	SiteBasePath string
	BasePath     string
	Pathname     string
	CanonicalURL string
	// SiteURL is the site's URL in the form the lookup was asked for
	// (scheme, host and port as given, then the site's path), set for
	// redirects too: links built from it stay on that form.
	SiteURL  string
	Complete bool
	ShareKey string
	APIToken string
	// Redirect is set for a site redirect; the rest is then empty.
	Redirect *ResolvedRedirect
	// External is set when a visitor without a valid token must sign in
	// first: the site's fallback URL; the rest is then empty.
	External string

	spaces     []folio.ID
	claims     map[string]any
	visitorKey string
}

// ResolvePublishedURL finds the published content at a URL for a visitor,
// matching the site by host and path (never by scheme):
// {publicURL}/sites/{siteId} or a site's custom hostname with its
// basename. A share-link site needs the key in the shareKey query
// parameter. A visitor-auth site needs the visitor's JWT signed with its
// key: without one the answer is External (the fallback URL) when the site
// has a fallback URL and either no token was given or redirectOnError is
// set, and a *VisitorAuthError otherwise. The visitor's claims decide
// which site spaces and sections exist for them (VisibleSiteSpaces), and
// go into the site API token with the spaces they see. Unpublished sites
// answer NotFound, as does a URL under no site. A path under a site that
// names no page (an unknown page, robots.txt, ~gitbook/icon) is found,
// with the rest of the path as the pathname, as GitBook's lookup answers:
// the renderer serves those paths itself. The canonical URL keeps the
// scheme, host and port of the URL asked for, so that a renderer asked
// for https://localhost/sites/… (it refuses hosts with a port) links to
// that form while Folio's public URL is http://localhost:8080.
func (a *App) ResolvePublishedURL(ctx context.Context, raw string, visitor Visitor, redirectOnError bool) (out *URLLookup, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, folio.FieldErrorf("url", "url must be an absolute URL")
	}
	host := strings.ToLower(u.Hostname())
	path := "/" + strings.Trim(u.EscapedPath(), "/")
	if path == "/" {
		path = ""
	}
	pub, _ := url.Parse(a.publicURL)
	secret, err := a.secret(ctx, siteTokenSecret)
	if err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		var (
			s        *folio.Site
			sitePath string
			err      error
			// the canonical URL's origin: the one asked for.
			origin = strings.ToLower(u.Scheme + "://" + u.Host)
		)
		prefix := ""
		if pub != nil {
			prefix = strings.TrimRight(pub.EscapedPath(), "/") + "/sites/"
		}
		if pub != nil && strings.EqualFold(pub.Hostname(), host) && strings.HasPrefix(path, prefix) {
			id, _, _ := strings.Cut(path[len(prefix):], "/")
			sitePath = prefix + id
			s, err = store.SiteByID(ctx, tx, id)
			if err == nil && (s.Hostname != "" || s.ProxyOrigin != "") {
				// Such a site is served at its own URL only.
				err = errURLNotFound
			}
		} else if s, sitePath, err = proxiedSite(ctx, tx, host, path); folio.IsNotFound(err) {
			sitePath = ""
			s, err = store.SiteByHostname(ctx, tx, host)
			if err == nil && s.Basename != "" {
				sitePath = "/" + url.PathEscape(s.Basename)
				if path != sitePath && !strings.HasPrefix(path, sitePath+"/") {
					err = errURLNotFound
				}
			}
		}
		if folio.IsNotFound(err) {
			return errURLNotFound
		}
		if err != nil {
			return err
		}
		if !s.Published {
			return errURLNotFound
		}
		rest := strings.TrimPrefix(path, sitePath)
		va, err := a.checkVisitor(ctx, tx, s, visitor)
		var vae *VisitorAuthError
		if errors.As(err, &vae) && vae.FallbackURL != "" && (visitor.Token == "" || redirectOnError) {
			out = &URLLookup{Site: s, External: FallbackRedirect(vae.FallbackURL, cmp.Or(rest, "/"))}
			return nil
		}
		if err != nil {
			return err
		}
		shareKey := u.Query().Get("shareKey")
		if ok, err := publishedTo(ctx, tx, s, shareKey, va.keyID); err != nil || !ok {
			return cmpErr(err, errURLNotFound)
		}
		out, err = a.lookup(ctx, tx, s, sitePath, rest, va.claims)
		if err != nil {
			return err
		}
		out.SiteURL = origin + sitePath
		if out.Redirect != nil {
			return nil
		}
		out.claims, out.visitorKey = va.claims, va.keyID
		if s.Visibility == folio.VisibilityShareLink {
			out.ShareKey = shareKey
		}
		out.CanonicalURL = origin + out.BasePath
		if out.Pathname != "" {
			out.CanonicalURL += "/" + out.Pathname
		}
		out.APIToken, err = a.signSiteToken(secret, out)
		return err
	})
	return out, err
}

// maxProxyDepth bounds the path segments tried as a proxy origin's path.
const maxProxyDepth = 8

// proxiedSite finds the site behind a proxy whose origin (host and path
// prefix, see folio.SiteUpdate's proxy) the URL is under, the longest
// origin first, with the origin's path as the site's path.
func proxiedSite(ctx context.Context, tx *store.Tx, host, path string) (*folio.Site, string, error) {
	var origins []string
	prefix := ""
	for i, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if seg == "" || i == maxProxyDepth {
			break
		}
		prefix += "/" + seg
		origins = append(origins, host+prefix)
	}
	s, err := store.SiteByProxyOrigin(ctx, tx, origins)
	if err != nil {
		return nil, "", err
	}
	return s, s.ProxyOrigin[len(host):], nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// publishedTo reports whether a site is open to a reader with shareKey and
// a visitor token verified by the visitor key visitorKey (its id; "" for
// none): published, and public, unlisted, share-link with an active key,
// or visitor-auth with the site's current visitor key.
func publishedTo(ctx context.Context, tx *store.Tx, s *folio.Site, shareKey, visitorKey string) (bool, error) {
	if !s.Published {
		return false, nil
	}
	switch s.Visibility {
	case "public", "unlisted":
		return true, nil
	case folio.VisibilityShareLink:
		if shareKey == "" {
			return false, nil
		}
		return store.ActiveShareLink(ctx, tx, s.ID, shareKey)
	case folio.VisibilityVisitorAuth:
		return currentVisitorKey(ctx, tx, s.ID, visitorKey)
	}
	return false, nil
}

// currentVisitorKey reports whether keyID names a site's current visitor
// key.
func currentVisitorKey(ctx context.Context, tx *store.Tx, siteID folio.ID, keyID string) (bool, error) {
	if keyID == "" {
		return false, nil
	}
	auth, err := store.GetSitePublishingAuth(ctx, tx, siteID)
	if folio.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return auth.KeyID == keyID, nil
}

// lookup walks the rest of a URL's path inside a site: a redirect source,
// then the section path, the site-space path and the page path.
func (a *App) lookup(ctx context.Context, tx *store.Tx, s *folio.Site, sitePath, rest string, claims map[string]any) (*URLLookup, error) {
	if rest != "" {
		r, err := store.RedirectBySource(ctx, tx, s.ID, rest)
		if err == nil {
			rr := &ResolvedRedirect{Redirect: r, Site: &folio.SiteView{Site: *s}}
			if r.Destination.SiteSpaceID != "" {
				if rr.SiteSpace, err = store.GetSiteSpace(ctx, tx, s.ID, r.Destination.SiteSpaceID); err != nil {
					return nil, err
				}
			}
			return &URLLookup{Site: s, Redirect: rr}, nil
		}
		if !folio.IsNotFound(err) {
			return nil, err
		}
	}
	t, err := loadTree(ctx, tx, s)
	if err != nil {
		return nil, err
	}
	st, err := t.structure(ctx, tx, folio.Caller{}, &folio.SiteView{Site: *s})
	if err != nil {
		return nil, err
	}
	vis := VisibleSiteSpaces(st, s.DefaultSiteSection, claims)
	if vis.Default == nil {
		return nil, errURLNotFound
	}
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if segs[0] == "" {
		segs = nil
	}
	out := &URLLookup{Site: s, SiteBasePath: sitePath, BasePath: sitePath}
	// The section: one named by the first segment, else the one at the
	// site's root (the default section, or its stand-in when hidden).
	home := vis.Default.Section
	section := home
	var byPath *VisibleSiteSpace // a site space named by its path alone
	named := false               // a segment named the section or site space
	if len(segs) > 0 {
		for _, sec := range vis.Sections {
			if sec != home && sec.Path == segs[0] {
				section, named = sec, true
				segs = segs[1:]
				out.BasePath += "/" + url.PathEscape(sec.Path)
				break
			}
		}
		if !named && len(vis.Sections) > 0 {
			// {siteSpacePath} without its section's path, as the reader
			// serves it: the section holding that site space.
			if byPath = siteSpaceByPath(*vis, home, segs[0]); byPath != nil {
				section = byPath.Section
			}
		}
	}
	if section != nil {
		out.SiteSection = section.ID
	}
	// The site space: one named by the next segment, else the section's
	// default (or its first visible one when the default is hidden).
	var def, ss *VisibleSiteSpace
	for i := range vis.SiteSpaces {
		x := &vis.SiteSpaces[i]
		if x.Section != section {
			continue
		}
		if def == nil || (x.Default && !def.Default) {
			def = x
		}
		if ss == nil && len(segs) > 0 && !x.Default && x.Path == segs[0] {
			ss = x
		}
	}
	if ss == nil {
		ss = byPath
	}
	named = named || ss != nil
	if ss != nil {
		segs = segs[1:]
		out.BasePath += "/" + url.PathEscape(ss.Path)
	} else if ss = def; ss != nil && !ss.Default {
		// A stand-in for a hidden default lives under its own path.
		out.BasePath += "/" + url.PathEscape(ss.Path)
	}
	if ss == nil {
		return nil, errURLNotFound
	}
	out.SiteSpace, out.Space = ss.ID, ss.SpaceID
	for _, x := range vis.SiteSpaces {
		if !slices.Contains(out.spaces, x.SpaceID) {
			out.spaces = append(out.spaces, x.SpaceID)
		}
	}
	// Complete (the reference): no further segment can name a section or
	// a site space. GitBook's renderer looks up shorter prefixes of a URL
	// too and takes a complete answer for one as the answer for the whole.
	out.Complete = len(segs) > 0 || named || !ambiguous(*vis, section, home)
	// What is left is the page path, or a path the renderer serves itself
	// (robots.txt, llms.txt, ~gitbook/icon, PAGE.md) or answers with its
	// own 404 page: none of them is looked up here.
	out.Pathname = strings.Join(segs, "/")
	return out, nil
}

// ambiguous reports whether a further path segment could still name
// another section of a site (section is its home section), or another
// site space of section.
func ambiguous(vis SiteVisibility, section, home *folio.SiteSectionView) bool {
	if section == home && len(vis.Sections) > 1 {
		return true
	}
	n := 0
	for _, x := range vis.SiteSpaces {
		if x.Section == section {
			n++
		}
	}
	return n > 1
}

// siteSpaceByPath finds a visible site space of a sectioned site whose
// path is seg, for URLs without the section's path (the reader's form):
// in the home section first, then in the others in order.
func siteSpaceByPath(vis SiteVisibility, home *folio.SiteSectionView, seg string) *VisibleSiteSpace {
	var other *VisibleSiteSpace
	for i := range vis.SiteSpaces {
		x := &vis.SiteSpaces[i]
		if x.Path != seg {
			continue
		}
		if x.Section == home {
			return x
		}
		if other == nil {
			other = x
		}
	}
	return other
}

// signSiteToken issues the site API token of a lookup.
func (a *App) signSiteToken(secret string, l *URLLookup) (string, error) {
	now := a.clock.Now()
	c := siteTokenClaims{Kind: "site", Organization: l.Site.OrganizationID, Site: l.Site.ID, SiteSection: l.SiteSection,
		SiteSpace: l.SiteSpace, Space: l.Space, Spaces: l.spaces, ShareKey: l.ShareKey, Claims: l.claims, VisitorKey: l.visitorKey,
		RegisteredClaims: jwt.RegisteredClaims{IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(SiteTokenTTL))}}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(secret))
	if err != nil {
		return "", fmt.Errorf("sign site token: %w", err)
	}
	return s, nil
}

// LooksLikeSiteToken reports whether a bearer token is a JWT rather than
// a Folio API token.
func LooksLikeSiteToken(s string) bool {
	return strings.Count(s, ".") == 2 && strings.HasPrefix(s, "eyJ")
}

// AuthenticateSiteToken verifies a site API token (signature, HS256 only,
// exp, kind) and returns its caller: no user, only the site grant.
func (a *App) AuthenticateSiteToken(ctx context.Context, tok string) (folio.Caller, error) {
	secret, err := a.secret(ctx, siteTokenSecret)
	if err != nil {
		return folio.Caller{}, err
	}
	if c, ok := a.authenticateInstallationToken(tok, secret); ok {
		return c, nil
	}
	var c siteTokenClaims
	_, err = jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return []byte(secret), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(a.clock.Now))
	if err != nil || c.Kind != "site" || c.Site == "" || c.Organization == "" {
		return folio.Caller{}, errUnauthenticated
	}
	return folio.Caller{Site: &folio.SiteGrant{Org: c.Organization, Site: c.Site, SiteSection: c.SiteSection,
		SiteSpace: c.SiteSpace, Space: c.Space, Spaces: c.Spaces, Claims: c.Claims, ShareKey: c.ShareKey,
		VisitorKey: c.VisitorKey}}, nil
}

// grantedSite loads the site of a site caller's grant, still open to
// anonymous readers (it was published when the token was issued; it may
// not be any more). Any other site is NotFound.
func grantedSite(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, siteID folio.ID) (*folio.Site, error) {
	g := caller.Site
	if g.Org != orgID || g.Site != siteID {
		return nil, errSiteNotFound
	}
	s, err := store.GetSite(ctx, tx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	// Open now as when the token was issued: still published, same
	// visibility rules, its share key still active, the visitor key that
	// verified its claims still the site's.
	if ok, err := publishedTo(ctx, tx, s, g.ShareKey, g.VisitorKey); err != nil || !ok {
		return nil, cmpErr(err, errSiteNotFound)
	}
	if g.VisitorKey != "" {
		if ok, err := currentVisitorKey(ctx, tx, s.ID, g.VisitorKey); err != nil || !ok {
			return nil, cmpErr(err, errSiteNotFound)
		}
	}
	return s, nil
}

// grantedSpace loads a space for a site caller: one of the grant's spaces
// that the site still publishes, shown with the read role; NotFound
// otherwise.
func grantedSpace(ctx context.Context, tx *store.Tx, caller folio.Caller, id folio.ID) (*folio.SpaceView, *contentAccess, error) {
	if !caller.Site.MaySpace(id) {
		return nil, nil, errSpaceNotFound
	}
	s, err := grantedSite(ctx, tx, caller, caller.Site.Org, caller.Site.Site)
	if folio.IsNotFound(err) {
		return nil, nil, errSpaceNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	sss, err := store.ListSiteSpaces(ctx, tx, s.ID)
	if err != nil {
		return nil, nil, err
	}
	secs, err := store.ListSiteSections(ctx, tx, s.ID)
	if err != nil {
		return nil, nil, err
	}
	sections := make(map[folio.ID]*folio.SiteSection, len(secs))
	for i := range secs {
		sections[secs[i].ID] = &secs[i]
	}
	for _, ss := range sss {
		secCond := ""
		if sec := sections[ss.SectionID]; sec != nil {
			secCond = sec.Condition
		}
		// The conditions as they are now, for the token's visitor.
		if ss.SpaceID == id && conditionsAllow(caller.Site.Claims, ss.Condition, secCond) {
			sp, err := store.GetSpace(ctx, tx, id)
			if err != nil {
				return nil, nil, err
			}
			if sp.OrganizationID != s.OrganizationID {
				return nil, nil, errSpaceNotFound
			}
			return &folio.SpaceView{Space: *sp, CallerRole: folio.RoleRead}, &contentAccess{}, nil
		}
	}
	return nil, nil, errSpaceNotFound
}

// siteUser loads a user for a site caller: a member of the grant's
// organization, or NotFound. The email is not part of what a site shows.
func siteUser(ctx context.Context, tx *store.Tx, caller folio.Caller, id folio.ID, out **folio.User) error {
	m, err := store.GetMember(ctx, tx, caller.Site.Org, id)
	if folio.IsNotFound(err) {
		return folio.Errorf(folio.NotFound, "user not found")
	}
	if err != nil {
		return err
	}
	u := m.User
	u.Email = "" // site tokens are handed to anonymous readers
	*out = &u
	return nil
}
