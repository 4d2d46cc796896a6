package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/google/go-cmp/cmp"
)

// walk is an organization with one of nearly everything, so that a request
// to any route of the table reaches its handler's work rather than a 404
// for its path, and the tokens of every kind.
type walk struct {
	org    string
	admin  string            // a user's token: the organization's admin
	site   string            // the site's API token
	inst   string            // an installation token, space:content:read and :write
	meta   string            // an installation token with space:metadata:read only
	params map[string]string // path wildcard → value
}

// routes returns the API's route table.
func routes(t testing.TB, s *apitest.Server) []httpapi.Route {
	t.Helper()
	h, ok := s.Handler.(*httpapi.Server)
	if !ok {
		t.Fatalf("the test server's handler is a %T", s.Handler)
	}
	return h.Routes()
}

// newWalk makes the fixture of a route walk.
func newWalk(t *testing.T, s *apitest.Server) *walk {
	t.Helper()
	org, admin := s.Org(t)
	w := &walk{org: org, admin: admin}
	space, revision, page, file := importedRevision(t, s, admin, org, "Walk")
	var col, team, reply, hook struct{ ID string }
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Shelf"}).WantStatus(t, 201).JSON(t, &col)
	s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Crew"}).WantStatus(t, 201).JSON(t, &team)
	cr := newCR(t, s, admin, space, "Walk")
	comment := postComment(t, s, admin, space, md("Walk"))
	s.Do(t, admin, "POST", "/v1/spaces/"+space+"/comments/"+comment.ID+"/replies", md("On")).WantStatus(t, 200).JSON(t, &reply)
	var crComment, crReply struct{ ID string }
	crComments := "/v1/spaces/" + space + "/change-requests/" + cr.ID + "/comments"
	s.Do(t, admin, "POST", crComments, md("Walk")).WantStatus(t, 200).JSON(t, &crComment)
	s.Do(t, admin, "POST", crComments+"/"+crComment.ID+"/replies", md("On")).WantStatus(t, 200).JSON(t, &crReply)
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}).
		WantStatus(t, 201).JSON(t, &hook)
	s.Do(t, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{
		"text": "openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\npaths: {}\n"}}).WantStatus(t, 201)

	token := func(name string, scopes []string) (string, string) {
		publish(t, s, admin, name, manifest(org, map[string]any{"scopes": scopes}))
		var inst installationBody
		s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations", map[string]any{"organization": org}).
			WantStatus(t, 201).JSON(t, &inst)
		var tok struct{ Token string }
		s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+inst.ID+"/tokens", nil).WantStatus(t, 200).JSON(t, &tok)
		return inst.ID, tok.Token
	}
	instID, instToken := token("walker", []string{"space:content:read", "space:content:write"})
	_, w.meta = token("peeker", []string{"space:metadata:read"})
	w.inst = instToken

	st := newSite(t, s, admin, org, map[string]any{"title": "Walk", "spaces": []string{space}})
	base := "/v1/orgs/" + org + "/sites/" + st.ID
	s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
	var siteSpaces struct{ Items []struct{ ID string } }
	s.Do(t, admin, "GET", base+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &siteSpaces)
	if len(siteSpaces.Items) != 1 {
		t.Fatalf("site spaces %+v", siteSpaces)
	}
	w.site = lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken

	w.params = map[string]string{
		"organizationId": org, "spaceId": space, "revisionId": revision, "pageId": page, "fileId": file,
		"pagePath": "guide", "collectionId": col.ID, "teamId": team.ID, "changeRequestId": cr.ID,
		"commentId": comment.ID, "commentReplyId": reply.ID, "integrationName": "walker", "installationId": instID,
		"siteId": st.ID, "siteSpaceId": siteSpaces.Items[0].ID, "webhookId": hook.ID,
		"specSlug": "pets", "userId": whoami(t, s, admin), "file": "icon.png",
		// The comments of the change request (see path).
		"cr/commentId": crComment.ID, "cr/commentReplyId": crReply.ID,
	}
	return w
}

// path fills a route pattern's wildcards from the fixture; those it has
// nothing for get a well-formed id that names nothing.
func (w *walk) path(pattern string) (method, path string) {
	method, path, _ = strings.Cut(pattern, " ")
	inCR := strings.Contains(pattern, "/change-requests/{changeRequestId}/comments")
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			return method, path
		}
		j := strings.IndexByte(path[i:], '}') + i
		name := strings.TrimSuffix(path[i+1:j], "...")
		v, ok := w.params[name]
		if cv, crOK := w.params["cr/"+name]; inCR && crOK {
			v = cv
		}
		if !ok {
			v = "nothing0000000000000"
		}
		path = path[:i] + v + path[j+1:]
	}
}

// Refusals of the token-kind gates (siteapi.go, installationroutes.go).
const (
	refusedSite         = "a site API token only reads the published content of its site"
	refusedInstallation = "an installation token cannot call this operation"
	refusedScope        = "this operation needs one of the integration scopes "
)

// errorOf returns the status and error message of an answer.
func errorOf(r *apitest.Response) (int, string) {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return r.Status, e.Error.Message
}

// gateRefusal reports whether an answer is one of the token-kind gates'.
func gateRefusal(r *apitest.Response) bool {
	code, msg := errorOf(r)
	return code == 403 && (msg == refusedSite || msg == refusedInstallation || strings.HasPrefix(msg, refusedScope))
}

// walkBody is the body a walk sends: an empty object to every write.
func walkBody(method string) any {
	if method == "GET" || method == "DELETE" {
		return nil
	}
	return map[string]any{}
}

// TestEveryRouteAnswersEachTokenKind walks the route table with a token of
// each kind: a user's, a site's, and two installations' (content scopes,
// metadata scope only). Where the kind's allowlist leaves a route out, the
// answer is 403 with the gate's message, before anything runs, and the
// refused requests change nothing that the organization's admin can read;
// where it lets the route in, the answer is the handler's own (never the
// gate's, never 401 and never 5xx). The user-only routes are refused to
// every token without a user.
func TestEveryRouteAnswersEachTokenKind(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		w := newWalk(t, s)
		table := routes(t, s)
		p := w.params
		state := func() string {
			var b strings.Builder
			for _, path := range []string{"/v1/user", "/v1/user/tokens", "/v1/orgs", "/v1/orgs/" + w.org,
				"/v1/orgs/" + w.org + "/members", "/v1/orgs/" + w.org + "/teams", "/v1/orgs/" + w.org + "/collections",
				"/v1/orgs/" + w.org + "/spaces", "/v1/spaces/" + p["spaceId"], "/v1/spaces/" + p["spaceId"] + "/content",
				"/v1/spaces/" + p["spaceId"] + "/change-requests", "/v1/spaces/" + p["spaceId"] + "/comments",
				"/v1/spaces/" + p["spaceId"] + "/permissions/users", "/v1/orgs/" + w.org + "/sites",
				"/v1/orgs/" + w.org + "/sites/" + p["siteId"], "/v1/orgs/" + w.org + "/sites/" + p["siteId"] + "/share-links",
				"/v1/orgs/" + w.org + "/sites/" + p["siteId"] + "/structure", "/v1/orgs/" + w.org + "/webhooks",
				"/v1/orgs/" + w.org + "/openapi", "/v1/orgs/" + w.org + "/installations",
				"/v1/integrations/walker/installations/" + p["installationId"], "/v1/integrations/walker",
				"/v1/orgs/" + w.org + "/audit-log"} {
				r := s.DoUnchecked(t, w.admin, "GET", path, nil)
				if r.Status != 200 {
					t.Fatalf("state %s: %d %s", path, r.Status, r.Body)
				}
				b.WriteString(path + " " + string(r.Body) + "\n")
			}
			return b.String()
		}
		scoped := func(have ...string) func(r httpapi.Route) string {
			return func(r httpapi.Route) string {
				switch {
				case r.Installation == nil:
					return refusedInstallation
				case len(r.Installation) == 0:
					return ""
				}
				for _, s := range have {
					if slices.Contains(r.Installation, s) {
						return ""
					}
				}
				return refusedScope + strings.Join(r.Installation, ", ")
			}
		}
		kinds := []struct {
			name, token string
			refused     func(r httpapi.Route) string // the gate's message, "" when let in
		}{
			{"site", w.site, func(r httpapi.Route) string {
				if !r.Site {
					return refusedSite
				}
				return ""
			}},
			{"installation", w.inst, scoped("space:content:read", "space:content:write")},
			{"installation with space:metadata:read", w.meta, scoped("space:metadata:read")},
			// Last, as a user's writes may delete what the walk reads.
			{"user", w.admin, func(httpapi.Route) string { return "" }},
		}
		counts := map[string][2]int{}
		for _, k := range kinds {
			before := state()
			var refused, let int
			for _, r := range table {
				msg := k.refused(r)
				if !r.Token || msg == "" {
					continue
				}
				refused++
				m, path := w.path(r.Pattern)
				if code, got := errorOf(s.DoUnchecked(t, k.token, m, path, walkBody(m))); code != 403 || got != msg {
					t.Errorf("%s as %s: %d %q, want 403 %q", r.Pattern, k.name, code, got, msg)
				}
			}
			if after := state(); after != before {
				t.Errorf("requests refused to the %s token changed the state (-before +after):\n%s", k.name, cmp.Diff(before, after))
			}
			for _, r := range table {
				if !r.Token || k.refused(r) != "" {
					continue
				}
				let++
				m, path := w.path(r.Pattern)
				res := s.DoUnchecked(t, k.token, m, path, walkBody(m))
				if res.Status >= 500 || res.Status == 401 || gateRefusal(res) {
					t.Errorf("%s as %s, which its allowlist lets in: %d %s", r.Pattern, k.name, res.Status, res.Body)
				}
			}
			counts[k.name] = [2]int{refused, let}
		}
		t.Logf("refused, let in: %v", counts)
		// The walk covered the table: every kind was refused somewhere and
		// let in somewhere, and the user's token went everywhere.
		for _, k := range kinds[:3] {
			if c := counts[k.name]; c[0] == 0 || c[1] == 0 {
				t.Errorf("%s: %d refused, %d let in", k.name, c[0], c[1])
			}
		}
		if c := counts["user"]; c[0] != 0 || c[1] < 250 {
			t.Errorf("user: %d refused, %d let in", c[0], c[1])
		}

		// The user-only routes refuse every token without a user, whatever
		// any allowlist says (the app checks, internal/app/access.go).
		for _, tok := range []string{w.site, w.inst} {
			for _, rt := range []string{"GET /v1/user", "GET /v1/user/tokens", "POST /v1/user/tokens", "POST /v1/orgs", "GET /v1/orgs"} {
				m, path := w.path(rt)
				if res := s.DoUnchecked(t, tok, m, path, walkBody(m)); res.Status != 403 {
					t.Errorf("%s without a user: %d %s", rt, res.Status, res.Body)
				}
			}
		}
	})
}

// TestHostileListQueriesAnswer400 walks the route table for the lists (the
// routes that read a page identifier) and sends each, on a fixture where
// the list's query runs, page identifiers that decode to what no list
// makes, and filters far beyond their bound: every one answers 400, never
// 500 (PostgreSQL refuses NUL in text; SQLite refuses LIKE patterns over
// 50,000 bytes), and naming the parameter.
func TestHostileListQueriesAnswer400(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		w := newWalk(t, s)
		b64 := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
		cursors := map[string]string{
			"NUL (from the issue)":    "WyJcdTAwMDAiXQ",
			"integer and NUL":         b64(`[1,"\u0000"]`),
			"NUL and NUL":             b64(`["\u0000","\u0000"]`),
			"integer, NUL and NUL":    b64(`[1,"\u0000","a\u0000"]`),
			"invalid UTF-8":           b64("[1,\"\xff\xfe\"]"),
			"a string of 2000 bytes":  b64(`[1,"` + strings.Repeat("é", 1000) + `"]`),
			"too many keys":           b64(`[1,"a","b","c","d"]`),
			"a float":                 b64(`[1.5,"a"]`),
			"an identifier of 5000":   strings.Repeat("A", 5000),
			"a nested list":           b64(`[[1],"a"]`),
			"an integer beyond int64": b64(`[1e30,"a"]`),
		}
		long := strings.Repeat("x", 100_000)
		var lists []string
		for _, r := range routes(t, s) {
			m, path := w.path(r.Pattern)
			if m != "GET" || !r.Token {
				continue
			}
			// A list reads page: a malformed one is its 400.
			if code, msg := errorOf(s.DoUnchecked(t, w.admin, m, path+"?page=!", nil)); code != 400 || msg != "page is not a valid page identifier" {
				continue
			}
			lists = append(lists, r.Pattern)
			if strings.HasSuffix(path, "/search") {
				path += "?query=walk&"
			} else {
				path += "?"
			}
			if res := s.DoUnchecked(t, w.admin, m, path, nil); res.Status != 200 {
				t.Errorf("%s: the walk's fixture does not reach the list: %d %s", r.Pattern, res.Status, res.Body)
				continue
			}
			for name, c := range cursors {
				if code, msg := errorOf(s.DoUnchecked(t, w.admin, m, path+"page="+c, nil)); code != 400 ||
					!strings.Contains(msg, "page") {
					t.Errorf("%s with a cursor of %s: %d %q, want 400 naming page", r.Pattern, name, code, msg)
				}
			}
			for _, param := range []string{"title", "search", "externalId", "query", "owner", "target"} {
				want := `query parameter "` + param + `" must be at most 1024 characters`
				if code, msg := errorOf(s.DoUnchecked(t, w.admin, m, path+param+"="+long, nil)); code != 400 || msg != want {
					t.Errorf("%s with a %s of 100,000 characters: %d %q, want 400 %q", r.Pattern, param, code, msg, want)
				}
			}
		}
		// The issue counted 44 lists that PostgreSQL failed on; the walk
		// must find at least those.
		t.Logf("%d lists", len(lists))
		if len(lists) < 44 {
			t.Fatalf("the walk found %d lists:\n%s", len(lists), strings.Join(lists, "\n"))
		}
		// Bounds on both sides: at the bound is let through.
		ok := s.DoUnchecked(t, w.admin, "GET", "/v1/orgs/"+w.org+"/teams?title="+strings.Repeat("x", 1024), nil)
		if ok.Status != 200 {
			t.Fatalf("a title of 1024 characters: %d %s", ok.Status, ok.Body)
		}
		many := strings.Repeat("a=1&", 200)
		if code, msg := errorOf(s.DoUnchecked(t, w.admin, "GET", "/v1/orgs/"+w.org+"/teams?"+many+"b=1", nil)); code != 400 ||
			msg != "a query string may hold at most 200 parameters" {
			t.Fatalf("201 parameters: %d %q", code, msg)
		}
		if res := s.DoUnchecked(t, w.admin, "GET", "/v1/orgs/"+w.org+"/teams?"+strings.TrimSuffix(many, "&"), nil); res.Status != 200 {
			t.Fatalf("200 parameters: %d %s", res.Status, res.Body)
		}
	})
}
