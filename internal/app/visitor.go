package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/golang-jwt/jwt/v5"
)

// errNoServerKey answers what needs the server key when none is set
// (PostgreSQL without FOLIO_SECRET_KEY; see docs/decisions.md).
var errNoServerKey = folio.Errorf(folio.Unavailable,
	"this server has no secret key to protect visitor signing keys: its operator must set FOLIO_SECRET_KEY or --secret-key-file")

// VisitorAuthError answers a request for a visitor-auth site without a
// valid visitor token: Unauthenticated, with the site's fallback URL
// (empty when none is set) where the visitor may sign in.
type VisitorAuthError struct {
	FallbackURL string
}

var errVisitorAuth = folio.Errorf(folio.Unauthenticated, "this site is only open to authenticated visitors: a valid visitor token is required")

func (e *VisitorAuthError) Error() string { return errVisitorAuth.Error() }

// Unwrap gives the error its kind.
func (e *VisitorAuthError) Unwrap() error { return errVisitorAuth }

// Visitor is what a visitor of a published site brings: a JWT signed with
// the site's visitor key (empty when none) and unsigned claims (nil when
// none). docs/visitors.md says where each comes from.
type Visitor struct {
	Token    string
	Unsigned map[string]any
}

// visitorAccess is a visitor checked against a site: its claims (nil when
// it has none), and the id of the key that verified its token ("" when no
// token was verified).
type visitorAccess struct {
	claims map[string]any
	keyID  string
}

// checkVisitor verifies a visitor's token against a site's key and merges
// its claims. On a visitor-auth site a valid token is required: without
// one the answer is a *VisitorAuthError. On other sites a token that does
// not verify is ignored (the visitor has only unsigned claims).
func (a *App) checkVisitor(ctx context.Context, tx *store.Tx, s *folio.Site, v Visitor) (visitorAccess, error) {
	var (
		out    visitorAccess
		signed map[string]any
		auth   *folio.SitePublishingAuth
	)
	// Most requests bring no token to a site that needs none: no query.
	if v.Token != "" || s.Visibility == folio.VisibilityVisitorAuth {
		var err error
		auth, err = store.GetSitePublishingAuth(ctx, tx, s.ID)
		if err != nil && !folio.IsNotFound(err) {
			return out, err
		}
	}
	if v.Token != "" && auth != nil {
		key, err := a.openVisitorKey(auth)
		switch {
		case errors.Is(err, errKeyNotOpened):
			// Sealed with another server key: no token can verify until
			// the key is regenerated.
			a.logger.Error("visitor key", "site", s.ID, "error", err)
		case err != nil:
			return out, err
		default:
			if signed = a.verifyVisitorToken(key, v.Token); signed != nil {
				out.keyID = auth.KeyID
			}
		}
	}
	if s.Visibility == folio.VisibilityVisitorAuth && signed == nil {
		e := &VisitorAuthError{}
		if auth != nil {
			e.FallbackURL = auth.FallbackURL
		}
		return out, e
	}
	out.claims = mergeClaims(signed, v.Unsigned)
	return out, nil
}

// verifyVisitorToken returns the claims of a visitor JWT signed with key
// (HS256 only, exp required and in the future), or nil when it does not
// verify: forged, expired, another algorithm (none included), another key.
func (a *App) verifyVisitorToken(key, tok string) map[string]any {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(tok, claims, func(*jwt.Token) (any, error) { return []byte(key), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithTimeFunc(a.clock.Now))
	if err != nil {
		return nil
	}
	return claims
}

// mergeClaims builds a visitor's claims as conditions see them: the
// unsigned claims under "unsigned", then every signed claim, so that a
// signed claim (even one named "unsigned") always wins. nil when there
// are none.
func mergeClaims(signed, unsigned map[string]any) map[string]any {
	if len(signed) == 0 && len(unsigned) == 0 {
		return nil
	}
	out := make(map[string]any, len(signed)+1)
	if len(unsigned) > 0 {
		out["unsigned"] = unsigned
	}
	for k, v := range signed {
		out[k] = v
	}
	return out
}

// conditionsAllow reports whether a visitor with claims sees content under
// the given conditions (those of a site space and of its section): each
// one empty or true for the claims.
func conditionsAllow(claims map[string]any, conditions ...string) bool {
	for _, c := range conditions {
		if c != "" && !EvaluateCondition(c, claims) {
			return false
		}
	}
	return true
}

// VisibleSiteSpace is a site space a visitor sees, with its section (nil
// at the root of a site without sections).
type VisibleSiteSpace struct {
	folio.SiteSpaceView
	Section *folio.SiteSectionView
}

// SiteVisibility is what one visitor sees of a site's structure.
type SiteVisibility struct {
	// SiteSpaces are the visible site spaces in structure order.
	SiteSpaces []VisibleSiteSpace
	// Sections are the visible sections that show at least one site space.
	Sections []*folio.SiteSectionView
	// Default is the site space shown at the site's root: the site's
	// default when visible, else the first visible site space of the
	// default section (or of the first visible section). nil when nothing
	// is visible.
	Default *VisibleSiteSpace
	// Structure is the structure reduced to what is visible: sections
	// without a visible site space and groups left empty are gone.
	Structure *folio.SiteStructure
}

// Has reports whether a site space is visible.
func (v *SiteVisibility) Has(siteSpaceID folio.ID) bool {
	for _, ss := range v.SiteSpaces {
		if ss.ID == siteSpaceID {
			return true
		}
	}
	return false
}

// HasSpace reports whether some visible site space publishes a space.
func (v *SiteVisibility) HasSpace(spaceID folio.ID) bool {
	for _, ss := range v.SiteSpaces {
		if ss.SpaceID == spaceID {
			return true
		}
	}
	return false
}

// VisibleSiteSpaces is the one place that decides which site spaces and
// sections of a structure a visitor with claims (nil: none) sees: those
// whose condition, and whose section's condition, evaluate to true
// (EvaluateCondition; no condition is true). The reader's navigation,
// sitemap and pages, site search, and the site content API all use it.
// defaultSection is the site's default section, used when the structure
// does not mark one.
func VisibleSiteSpaces(st *folio.SiteStructure, defaultSection folio.ID, claims map[string]any) *SiteVisibility {
	out := &SiteVisibility{Structure: &folio.SiteStructure{Site: st.Site, Sectioned: st.Sectioned, SiteSpaces: []folio.SiteSpaceView{}}}
	keep := func(sec *folio.SiteSectionView, list []folio.SiteSpaceView) []folio.SiteSpaceView {
		var kept []folio.SiteSpaceView
		for _, ss := range list {
			secCond := ""
			if sec != nil {
				secCond = sec.Condition
			}
			if conditionsAllow(claims, ss.Condition, secCond) {
				kept = append(kept, ss)
			}
		}
		return kept
	}
	var sections []*folio.SiteSectionView
	if !st.Sectioned {
		out.Structure.SiteSpaces = append(out.Structure.SiteSpaces, keep(nil, st.SiteSpaces)...)
		for _, ss := range out.Structure.SiteSpaces {
			out.SiteSpaces = append(out.SiteSpaces, VisibleSiteSpace{SiteSpaceView: ss})
		}
	}
	var walk func(nodes []folio.SiteStructureNode) []folio.SiteStructureNode
	walk = func(nodes []folio.SiteStructureNode) []folio.SiteStructureNode {
		var kept []folio.SiteStructureNode
		for _, n := range nodes {
			if s := n.Section; s != nil {
				spaces := keep(s, s.SiteSpaces)
				if len(spaces) == 0 {
					continue
				}
				sec := *s
				sec.SiteSpaces = spaces
				sections = append(sections, &sec)
				kept = append(kept, folio.SiteStructureNode{Section: &sec})
			}
			if g := n.Group; g != nil {
				children := walk(g.Children)
				if len(children) == 0 {
					continue
				}
				grp := *g
				grp.Children = children
				kept = append(kept, folio.SiteStructureNode{Group: &grp})
			}
		}
		return kept
	}
	out.Structure.Nodes = walk(st.Nodes)
	for _, sec := range sections {
		for _, ss := range sec.SiteSpaces {
			out.SiteSpaces = append(out.SiteSpaces, VisibleSiteSpace{SiteSpaceView: ss, Section: sec})
		}
	}
	out.Sections = sections
	// The default: in the default section (or the first visible one), the
	// default site space (or the first visible one).
	var home *folio.SiteSectionView
	for _, sec := range sections {
		if sec.Default || sec.ID == defaultSection {
			home = sec
			break
		}
	}
	if home == nil && len(sections) > 0 {
		home = sections[0]
	}
	for i := range out.SiteSpaces {
		ss := &out.SiteSpaces[i]
		if ss.Section != home {
			continue
		}
		if ss.Default {
			out.Default = ss
			break
		}
		if out.Default == nil {
			out.Default = ss
		}
	}
	return out
}

// Visible is VisibleSiteSpaces for the visitor a published site was
// loaded for (ReaderSiteFor sets Claims).
func (ps *PublishedSite) Visible() *SiteVisibility {
	return VisibleSiteSpaces(ps.Structure, ps.Site.DefaultSiteSection, ps.Claims)
}

// newVisitorKey returns a new private key: 32 random bytes in hex.
func newVisitorKey() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sealContext binds a sealed visitor key to its site and key id.
func sealContext(a *folio.SitePublishingAuth) string {
	return "site-visitor-key:" + a.SiteID + ":" + a.KeyID
}

// errKeyNotOpened answers a visitor key sealed with another server key
// (the operator changed FOLIO_SECRET_KEY): regenerating it is the way out.
var errKeyNotOpened = folio.Errorf(folio.Conflict,
	"the site's visitor key was sealed with another server key and cannot be read: regenerate it")

// openVisitorKey opens the sealed key of a site's visitor authentication.
func (a *App) openVisitorKey(auth *folio.SitePublishingAuth) (string, error) {
	b, err := a.sealer.Open(auth.SealedKey, sealContext(auth))
	if errors.Is(err, seal.ErrNoKey) {
		return "", errNoServerKey
	}
	if errors.Is(err, seal.ErrOpen) {
		return "", errKeyNotOpened
	}
	if err != nil {
		return "", fmt.Errorf("open the visitor key of site %s: %w", auth.SiteID, err)
	}
	return string(b), nil
}

// rekey gives a site's visitor authentication a new key, sealed.
func (a *App) rekey(auth *folio.SitePublishingAuth) error {
	if a.sealer == nil {
		return errNoServerKey
	}
	auth.KeyID = folio.NewID()
	auth.PrivateKey = newVisitorKey()
	sealed, err := a.sealer.Seal([]byte(auth.PrivateKey), sealContext(auth))
	if err != nil {
		return fmt.Errorf("seal the visitor key of site %s: %w", auth.SiteID, err)
	}
	auth.SealedKey = sealed
	return nil
}

// publishingAuth loads a site's visitor authentication for a caller who
// manages the site, with its key opened when open is set; the first call
// creates it (the custom backend and a new key).
func (a *App) publishingAuth(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID, siteID folio.ID, open bool) (*folio.SitePublishingAuth, error) {
	if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
		return nil, err
	}
	auth, err := store.GetSitePublishingAuth(ctx, tx, siteID)
	if folio.IsNotFound(err) {
		auth = &folio.SitePublishingAuth{SiteID: siteID, Backend: "custom", UpdatedAt: tx.Now}
		if err := a.rekey(auth); err != nil {
			return nil, err
		}
		return auth, store.SetSitePublishingAuth(ctx, tx, auth)
	}
	if err != nil || !open {
		return auth, err
	}
	auth.PrivateKey, err = a.openVisitorKey(auth)
	return auth, err
}

// GetSitePublishingAuth returns a site's visitor authentication, its
// private key included, to a caller who manages the site (the create role
// or higher: the key opens the site to anyone who holds it).
func (a *App) GetSitePublishingAuth(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (auth *folio.SitePublishingAuth, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		auth, err = a.publishingAuth(ctx, tx, caller, orgID, siteID, true)
		return err
	})
	return auth, err
}

// UpdateSitePublishingAuth changes a site's visitor authentication
// backend and fallback URL. Folio installs no authentication
// integrations, so the integration backend is refused.
func (a *App) UpdateSitePublishingAuth(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, u *folio.SitePublishingAuthUpdate) (auth *folio.SitePublishingAuth, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := site(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Backend == "integration" {
			return folio.FieldErrorf("backend", "the integration backend needs an authentication integration installed on the site, and this server has none: use the custom backend")
		}
		if auth, err = a.publishingAuth(ctx, tx, caller, orgID, siteID, true); err != nil {
			return err
		}
		auth.Backend = u.Backend
		if u.FallbackURL.Set {
			auth.FallbackURL = u.FallbackURL.Value // "" for null
		}
		auth.UpdatedAt = tx.Now
		if err := store.SetSitePublishingAuth(ctx, tx, auth); err != nil {
			return err
		}
		// The fallback URL is public (visitors are sent there); the key
		// never goes in.
		return audit(ctx, tx, caller, orgID, "site.publishing_auth_updated", "site", siteID,
			map[string]any{"backend": auth.Backend, "fallbackURL": auth.FallbackURL})
	})
	return auth, err
}

// RegenerateSitePublishingAuth gives a site a new private key: tokens
// signed with the old one, and site API tokens issued for them, stop
// working at once.
func (a *App) RegenerateSitePublishingAuth(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (auth *folio.SitePublishingAuth, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		// The old key need not open: regenerating is how a key sealed
		// with a lost server key is replaced.
		if auth, err = a.publishingAuth(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		if err := a.rekey(auth); err != nil {
			return err
		}
		auth.UpdatedAt = tx.Now
		if err := store.SetSitePublishingAuth(ctx, tx, auth); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "site.publishing_auth_regenerated", "site", siteID, nil)
	})
	return auth, err
}

// FallbackRedirect is the URL a visitor without a valid token is sent to:
// the fallback URL with the path they asked for in its location parameter
// (as GitBook's renderer expects).
func FallbackRedirect(fallback, location string) string {
	u, err := url.Parse(fallback)
	if err != nil {
		return fallback
	}
	q := u.Query()
	q.Set("location", location)
	u.RawQuery = q.Encode()
	return u.String()
}
