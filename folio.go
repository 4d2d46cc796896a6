// Package folio holds the domain vocabulary of the Folio docs platform: the
// entities (users, organizations, members, tokens, ...), their update and
// filter types with pure validation, the role and permission tables, the list
// cursor and the error kinds every other package speaks.
//
// It performs no I/O and imports only the standard library. The layers around
// it are: internal/store (SQL), internal/app (one method per API operation,
// authorization and transactions), internal/wire (GitBook JSON shapes) and
// internal/httpapi (routing and HTTP concerns), put together by cmd/folio.
package folio

import (
	"crypto/rand"
	"time"
)

// ID is an opaque, unguessable identifier of a resource.
type ID = string

// idAlphabet holds the characters of generated ids: letters and digits, as
// GitBook ids look, so ids stay URL-safe and selectable by double click.
const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idLength gives 20 characters of 62 symbols, about 119 bits of randomness.
const idLength = 20

// NewID returns a new random identifier.
func NewID() ID { return randomString(idLength) }

// randomString draws n characters uniformly from idAlphabet using crypto/rand.
func randomString(n int) string {
	out := make([]byte, 0, n)
	var buf [64]byte
	for len(out) < n {
		rand.Read(buf[:]) // never fails (crypto/rand panics rather than return an error)
		for _, b := range buf {
			// 248 = 4*62: rejecting larger bytes keeps the draw uniform.
			if b >= 248 {
				continue
			}
			out = append(out, idAlphabet[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
}

// Caller is the authenticated principal of a request.
type Caller struct {
	UserID  ID
	TokenID ID
	// Org, when set, confines the caller to one organization: the token
	// came from that organization's single sign-on.
	Org ID
	// Site, when set, makes the caller a site API token (issue 13): no
	// user, allowed only to read what one published site publishes.
	// Everything that does not check it denies, as for a stranger.
	Site *SiteGrant
	// Installation, when set, makes the caller an integration
	// installation's token (issue 16): no user, allowed only what the
	// installation's scopes grant on what it is installed on.
	Installation *InstallationGrant
}

// InstallationGrant is what an installation token allows.
type InstallationGrant struct {
	Org, Installation ID
	Integration       string
	Scopes            []string
}

// Allows reports whether the grant holds one of the scopes.
func (g *InstallationGrant) Allows(scopes ...string) bool {
	for _, s := range scopes {
		for _, have := range g.Scopes {
			if s == have {
				return true
			}
		}
	}
	return false
}

// SiteGrant is what a site API token allows: reading the published content
// of one site of one organization, in these spaces.
type SiteGrant struct {
	Org, Site, SiteSection, SiteSpace, Space ID
	Spaces                                   []ID
	Claims                                   map[string]any
	ShareKey                                 string // the share key it was issued with, re-checked on every call
	VisitorKey                               string // id of the site's visitor key that verified the visitor's token, re-checked on every call
}

// MaySpace reports whether the grant covers a space.
func (g *SiteGrant) MaySpace(id ID) bool {
	for _, s := range g.Spaces {
		if s == id {
			return true
		}
	}
	return false
}

// InScope reports whether the caller may act in an organization.
func (c Caller) InScope(orgID ID) bool { return c.Org == "" || c.Org == orgID }

// Clock tells the current time; tests inject a fixed or movable clock.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns the current time in UTC, truncated to microseconds, which is
// what both stores keep.
func (SystemClock) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
