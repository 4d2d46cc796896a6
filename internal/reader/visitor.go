package reader

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio/internal/app"
)

// Visitor authentication and unsigned claims, as GitBook's renderer reads
// them (docs/visitors.md):
//   - the visitor's JWT in the jwt_token query parameter, kept afterwards
//     in the VisitorCookie (HttpOnly, scoped to the site's base path);
//   - unsigned claims in visitor.<claim>=<value> query parameters (kept
//     in the VisitorClaimsCookie) and in any cookie whose name starts with
//     UnsignedClaimsCookiePrefix holding a JSON object.
const (
	VisitorTokenParam          = "jwt_token"
	VisitorCookie              = "folio_visitor"
	UnsignedClaimsCookiePrefix = "gitbook-visitor-public"
	VisitorClaimsCookie        = UnsignedClaimsCookiePrefix + "-url"
	visitorParamPrefix         = "visitor."
)

// visitorInput is what a request brings about its visitor.
type visitorInput struct {
	app.Visitor
	tokenFromQuery  bool
	tokenFromCookie bool
	fromParams      map[string]any // unsigned claims of the query parameters
}

// readVisitor reads a request's visitor token and unsigned claims.
func readVisitor(r *http.Request) visitorInput {
	var in visitorInput
	query := r.URL.Query()
	if t := query.Get(VisitorTokenParam); t != "" {
		in.Token, in.tokenFromQuery = t, true
	} else if c, err := r.Cookie(VisitorCookie); err == nil && c.Value != "" {
		in.Token, in.tokenFromCookie = c.Value, true
	}
	claims := map[string]any{}
	for _, c := range r.Cookies() {
		if !strings.HasPrefix(c.Name, UnsignedClaimsCookiePrefix) {
			continue
		}
		raw, err := url.QueryUnescape(c.Value)
		if err != nil {
			raw = c.Value
		}
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) == nil {
			for k, v := range m {
				claims[k] = v
			}
		}
	}
	for key, values := range query {
		name, ok := strings.CutPrefix(key, visitorParamPrefix)
		if !ok || name == "" || len(values) == 0 {
			continue
		}
		if in.fromParams == nil {
			in.fromParams = map[string]any{}
		}
		v := paramClaim(values[0])
		setClaim(claims, name, v)
		setClaim(in.fromParams, name, v)
	}
	if len(claims) > 0 {
		in.Unsigned = claims
	}
	return in
}

// paramClaim reads a query parameter's value: true, false and null as
// such, anything else as a string.
func paramClaim(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	return v
}

// setClaim sets a claim by dotted path (a.b=1 sets {"a":{"b":1}}).
func setClaim(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = v
}

// keepVisitor sets the cookies that keep what the query brought: the token
// that opened the site, and the unsigned claims of visitor.* parameters.
// The token is checked again on every request, so a new key closes it.
func (h *Handler) keepVisitor(q *request, in visitorInput) {
	if in.tokenFromQuery && q.site.Authenticated {
		http.SetCookie(q.w, &http.Cookie{Name: VisitorCookie, Value: in.Token, Path: q.base + "/", HttpOnly: true,
			Secure: h.secure, SameSite: http.SameSiteLaxMode})
	}
	if len(in.fromParams) > 0 {
		if b, err := json.Marshal(in.fromParams); err == nil {
			http.SetCookie(q.w, &http.Cookie{Name: VisitorClaimsCookie, Value: url.QueryEscape(string(b)), Path: q.base + "/",
				Secure: h.secure, SameSite: http.SameSiteLaxMode})
		}
	}
}

// visitorFailed answers a request the app refused. A visitor-auth site
// without a valid token sends the visitor to its fallback URL when it has
// one (with the path they asked for in location), and answers 401
// otherwise; a token kept in a cookie that no longer verifies is dropped.
func (h *Handler) visitorFailed(w http.ResponseWriter, r *http.Request, id, path string, in visitorInput, err error) {
	var vae *app.VisitorAuthError
	if !errors.As(err, &vae) {
		h.fail(w, r, nil, err)
		return
	}
	if in.tokenFromCookie {
		base := ""
		if id != "" {
			base = "/sites/" + id
		}
		// The cookie's path is the site's base; with a basename it is
		// under the path, which the refused request has not resolved:
		// clear it at the request's own first segment too.
		for _, p := range cookiePaths(base, path) {
			http.SetCookie(w, &http.Cookie{Name: VisitorCookie, Value: "", Path: p, MaxAge: -1, HttpOnly: true,
				Secure: h.secure, SameSite: http.SameSiteLaxMode})
		}
	}
	if vae.FallbackURL != "" {
		http.Redirect(w, r, app.FallbackRedirect(vae.FallbackURL, "/"+strings.TrimPrefix(path, "/")), http.StatusFound)
		return
	}
	h.fail(w, r, nil, err)
}

// cookiePaths are the paths a site's visitor cookie may have been set at.
func cookiePaths(base, path string) []string {
	if base != "" {
		return []string{base + "/"}
	}
	out := []string{"/"}
	if first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/"); first != "" {
		out = append(out, "/"+first+"/")
	}
	return out
}
