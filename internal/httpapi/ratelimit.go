package httpapi

import (
	"cmp"
	"net/http"
	"strconv"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/ratelimit"
)

// RateLimits are the request rates the server allows, per minute; zero
// leaves a limit off. Limits are per server (docs/operations.md).
type RateLimits struct {
	// PerToken bounds each API token (a user's, a site's or an
	// installation's).
	PerToken int
	// PerAddress bounds each client address on routes without a token:
	// the published reader, file downloads, SAML, and failed
	// authentications.
	PerAddress int
	// Sensitive bounds each client address on the routes that sign in or
	// make credentials (creating tokens, SAML, joining by invite).
	Sensitive int
	// PerEndpoint bounds the requests to each installation's public
	// endpoints (and to each integration's own), which run its script;
	// zero takes the PerToken rate.
	PerEndpoint int
}

// Default rate limits of `folio serve`.
const (
	DefaultRateLimitPerToken   = 1200
	DefaultRateLimitPerAddress = 1200
	DefaultRateLimitSensitive  = 30
)

// maxRateKeys bounds the keys each limiter remembers.
const maxRateKeys = 100_000

type limiters struct {
	token, address, sensitive *ratelimit.Limiter
	endpoint                  *ratelimit.Limiter
	now                       func() time.Time
}

func newLimiters(l RateLimits) *limiters {
	return &limiters{token: ratelimit.New(l.PerToken, time.Minute, maxRateKeys),
		address:   ratelimit.New(l.PerAddress, time.Minute, maxRateKeys),
		sensitive: ratelimit.New(l.Sensitive, time.Minute, maxRateKeys),
		endpoint:  ratelimit.New(cmp.Or(l.PerEndpoint, l.PerToken), time.Minute, maxRateKeys), now: time.Now}
}

// sensitiveRoutes are limited per address with the Sensitive rate, on top
// of their other limit.
var sensitiveRoutes = map[string]bool{
	"POST /v1/user/tokens": true,
	"GET /v1/orgs/{organizationId}/saml/{samlProviderId}/start": true,
	"POST /v1/orgs/{organizationId}/saml/{samlProviderId}/acs":  true,
	"POST /v1/orgs/{organizationId}/invites/{inviteId}":         true,
}

// tokenKey names a caller's token for its limit.
func tokenKey(c folio.Caller) string {
	switch {
	case c.Site != nil:
		return "site:" + c.Site.Site
	case c.Installation != nil:
		return "installation:" + c.Installation.Installation
	case c.TokenID != "":
		return "token:" + c.TokenID
	}
	return "user:" + c.UserID
}

// check counts a request against l, sets the rate limit headers and
// answers 429 when it is over.
func (ls *limiters) check(w http.ResponseWriter, l *ratelimit.Limiter, key string) error {
	res := l.Allow(key, ls.now())
	if res.Limit == 0 {
		return nil
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(res.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(res.Remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(res.Reset.Unix(), 10))
	if res.Allowed {
		return nil
	}
	secs := int((res.RetryAfter + time.Second - 1) / time.Second)
	h.Set("Retry-After", strconv.Itoa(max(secs, 1)))
	return folio.Errorf(folio.TooManyRequests, "too many requests: at most %d a minute; retry in %d s", res.Limit, max(secs, 1))
}
