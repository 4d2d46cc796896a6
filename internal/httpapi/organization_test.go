package httpapi_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/google/go-cmp/cmp"
)

func TestGetOrganizationBody(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		got := s.Do(t, token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).Map(t)
		// Replace the values that differ between runs.
		// Times are ISO 8601 in UTC with milliseconds.
		if c, _ := got["createdAt"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(c) {
			t.Fatalf("createdAt = %v", got["createdAt"])
		}
		got["createdAt"], got["title"] = "TIME", "TITLE"
		want := map[string]any{
			"object": "organization", "id": org, "title": "TITLE", "createdAt": "TIME",
			"emailDomains": []any{}, "type": "business", "defaultRole": "read",
			"sso": false, "ai": false, "inviteLinks": true, "plan": "enterprise_2024",
			"mergeRules": map[string]any{"type": "none"},
			"urls": map[string]any{
				"location": "http://folio.test/v1/orgs/" + org,
				"app":      "http://folio.test/o/" + org,
			},
			"trial": map[string]any{"status": "notapplicable"},
			"billing": map[string]any{
				"interval": "yearly", "endDate": nil, "hasPaymentFailed": false, "isScheduledToCancel": false,
				"pricing": map[string]any{
					"members": map[string]any{"plus_2024": zeroPrice(), "pro_2024": zeroPrice()},
					"sites":   map[string]any{"premium": zeroPrice(), "ultimate": zeroPrice()},
				},
				"usageAddons": map[string]any{},
			},
			"permissions": map[string]any{
				"view": true, "admin": true, "ownTeam": false, "createContent": true, "createOpenAPISpec": true,
				"ingestConversations": true, "viewBilling": true, "listMembers": true, "listTeams": true,
				"listIntegrations": true, "listInstallations": true, "installIntegration": true,
			},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("organization body (-want +got):\n%s", d)
		}
	})
}

func zeroPrice() map[string]any { return map[string]any{"monthly": 0.0, "yearly": 0.0} }

func TestOrganizationPermissionsByRole(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		type perms = map[string]any
		all := func(v bool) perms {
			p := perms{}
			for _, k := range []string{"view", "admin", "ownTeam", "createContent", "createOpenAPISpec", "ingestConversations",
				"viewBilling", "listMembers", "listTeams", "listIntegrations", "listInstallations", "installIntegration"} {
				p[k] = v
			}
			return p
		}
		with := func(p perms, kv ...any) perms {
			for i := 0; i < len(kv); i += 2 {
				p[kv[i].(string)] = kv[i+1]
			}
			return p
		}
		member := with(all(false), "view", true, "listMembers", true, "listTeams", true, "listIntegrations", true)
		creator := with(member, "createContent", true, "createOpenAPISpec", true)
		cases := map[string]perms{
			apitest.Admin:   with(all(true), "ownTeam", false),
			apitest.Create:  creator,
			apitest.Review:  with(all(false), "view", true, "listMembers", true, "listTeams", true, "listIntegrations", true),
			apitest.Edit:    with(all(false), "view", true, "listMembers", true, "listTeams", true, "listIntegrations", true),
			apitest.Comment: with(all(false), "view", true, "listMembers", true, "listTeams", true, "listIntegrations", true),
			apitest.Read:    with(all(false), "view", true, "listMembers", true, "listTeams", true, "listIntegrations", true),
			apitest.Guest:   with(all(false), "view", true),
		}
		for actor, want := range cases {
			got := s.Do(t, a.Tokens[actor], "GET", "/v1/orgs/"+a.Org, nil).WantStatus(t, 200).Map(t)
			if d := cmp.Diff(want, got["permissions"]); d != "" {
				t.Errorf("%s permissions (-want +got):\n%s", actor, d)
			}
			_, hasBilling := got["billing"]
			if hasBilling != (actor == apitest.Admin) {
				t.Errorf("%s: billing shown = %v", actor, hasBilling)
			}
		}
	})
}

func TestOrganizationAuthorization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		a := s.Actors(t)
		org := func(a *apitest.Actors) string { return "/v1/orgs/" + a.Org }
		apitest.Matrix(t, s, a, []apitest.Case{
			{Name: "getOrganizationById", Method: "GET", Path: org,
				Want: map[string]int{apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 200}},
			{Name: "updateOrganizationById", Method: "PATCH", Path: org, Body: map[string]any{"ai": true},
				Want: map[string]int{apitest.Admin: 200, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403},
				Reset: func(a *apitest.Actors) {
					s.Do(t, a.Tokens[apitest.Admin], "PATCH", "/v1/orgs/"+a.Org, `{"ai":false}`).WantStatus(t, 200)
				},
				State: apitest.Self},
			// A non-member learns nothing from a bad body either.
			{Name: "updateOrganizationById invalid", Method: "PATCH", Path: org, Body: map[string]any{"title": "x"},
				Want:  map[string]int{apitest.Admin: 400, apitest.Outsider: 404, apitest.OtherOrg: 404, apitest.AnyActor: 403},
				State: apitest.Self},
			{Name: "getOrganizationById unknown", Method: "GET", Path: func(*apitest.Actors) string { return "/v1/orgs/nope" },
				Want: map[string]int{apitest.AnyActor: 404}},
			{Name: "listOrganizationsForAuthenticatedUser", Method: "GET", Path: func(*apitest.Actors) string { return "/v1/orgs" },
				Want: map[string]int{apitest.AnyActor: 200}},
		})
		// Another organization's admin does not see it in their list.
		var l struct{ Items []struct{ ID string } }
		s.Do(t, a.Tokens[apitest.OtherOrg], "GET", "/v1/orgs", nil).WantStatus(t, 200).JSON(t, &l)
		if len(l.Items) != 1 || l.Items[0].ID != a.OtherOrg {
			t.Fatalf("other admin lists %+v", l.Items)
		}
	})
}

func TestUpdateOrganizationValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		member, _ := s.Member(t, org, folio.RoleRead)
		path := "/v1/orgs/" + org
		long := func(n int) string { return strings.Repeat("a", n) }
		cases := []struct {
			name string
			body string
			code int    // 200 or the error status
			msg  string // part of the error message
		}{
			{"title/too short", `{"title":"a"}`, 400, "title must be 2 to 255"},
			{"title/shortest", `{"title":"ab"}`, 200, ""},
			{"title/longest", `{"title":"` + long(255) + `"}`, 200, ""},
			{"title/too long", `{"title":"` + long(256) + `"}`, 400, "title must be 2 to 255"},
			{"title/characters not bytes", `{"title":"` + strings.Repeat("é", 255) + `"}`, 200, ""},
			{"title/blank", `{"title":"   "}`, 400, "blank"},
			{"title/null", `{"title":null}`, 400, "title cannot be null"},
			{"hostname/too short", `{"hostname":"ab"}`, 400, "hostname must be 3 to 32"},
			{"hostname/shortest", `{"hostname":"abc"}`, 200, ""},
			{"hostname/longest", `{"hostname":"` + long(32) + `"}`, 200, ""},
			{"hostname/too long", `{"hostname":"` + long(33) + `"}`, 400, "hostname must be 3 to 32"},
			{"hostname/uppercase", `{"hostname":"Docs"}`, 400, "hostname"},
			{"hostname/leading hyphen", `{"hostname":"-docs"}`, 400, "hostname"},
			{"hostname/trailing hyphen", `{"hostname":"docs-"}`, 400, "hostname"},
			{"hostname/dot", `{"hostname":"my.docs"}`, 400, "hostname"},
			{"hostname/inner hyphen", `{"hostname":"my-docs"}`, 200, ""},
			{"hostname/null", `{"hostname":null}`, 400, "hostname cannot be null"},
			{"emailDomains/valid", `{"emailDomains":["Example.com","sub.example.org"]}`, 200, ""},
			{"emailDomains/empty", `{"emailDomains":[]}`, 200, ""},
			{"emailDomains/not a domain", `{"emailDomains":["localhost"]}`, 400, "not a domain"},
			{"emailDomains/with at", `{"emailDomains":["a@b.com"]}`, 400, "not a domain"},
			{"emailDomains/null", `{"emailDomains":null}`, 400, "emailDomains cannot be null"},
			{"emailDomains/too many", `{"emailDomains":[` + domains(101) + `]}`, 400, "at most 100"},
			{"emailDomains/most", `{"emailDomains":[` + domains(100) + `]}`, 200, ""},
			{"defaultRole/each role", `{"defaultRole":"comment"}`, 200, ""},
			{"defaultRole/null makes guests", `{"defaultRole":null}`, 200, ""},
			{"defaultRole/unknown", `{"defaultRole":"owner"}`, 400, "defaultRole must be one of"},
			{"defaultContent/null", `{"defaultContent":null}`, 200, ""},
			{"defaultContent/bad shape", `{"defaultContent":{"type":"space","site":"x"}}`, 400, "defaultContent"},
			{"defaultContent/unknown site", `{"defaultContent":{"type":"site","site":"nope"}}`, 400, "site nope not found"},
			{"logo/url", `{"logo":"https://example.com/logo.png"}`, 200, ""},
			{"logo/longest", `{"logo":"https://example.com/` + long(2048-20) + `"}`, 200, ""},
			{"logo/too long", `{"logo":"https://example.com/` + long(2048-19) + `"}`, 400, "at most 2048"},
			{"logo/not a URL", `{"logo":"logo.png"}`, 400, "absolute http"},
			{"logo/null removes", `{"logo":null}`, 200, ""},
			{"sso/true", `{"sso":true}`, 200, ""},
			{"sso/null", `{"sso":null}`, 400, "sso must be a boolean"},
			{"ai/false", `{"ai":false}`, 200, ""},
			{"inviteLinks/false", `{"inviteLinks":false}`, 200, ""},
			{"mergeRules/none", `{"mergeRules":{"type":"none"}}`, 200, ""},
			{"mergeRules/rules", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}}`, 200, ""},
			{"mergeRules/reviewers", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["` + member.ID + `"]}]}}`, 200, ""},
			{"mergeRules/reviewer not a member", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["nobody"]}]}}`, 400, "nobody is not a member"},
			{"mergeRules/reviewers missing", `{"mergeRules":{"type":"rules","rules":[{"rule":"allow_bypass"}]}}`, 400, "needs a users list"},
			{"mergeRules/custom", `{"mergeRules":{"type":"rules","rules":[{"rule":"custom","expression":"true"}]}}`, 200, ""},
			{"mergeRules/custom too long", `{"mergeRules":{"type":"rules","rules":[{"rule":"custom","expression":"` + long(1025) + `"}]}}`, 400, "1024"},
			{"mergeRules/unknown rule", `{"mergeRules":{"type":"rules","rules":[{"rule":"be_nice"}]}}`, 400, "not a known rule"},
			{"mergeRules/inherit", `{"mergeRules":{"type":"inherit"}}`, 400, `"none" or "rules"`},
			{"mergeRules/null", `{"mergeRules":null}`, 400, "mergeRules cannot be null"},
			{"empty body changes nothing", `{}`, 200, ""},
			{"unknown fields are ignored", `{"colour":"red"}`, 200, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := s.Do(t, token, "PATCH", path, c.body)
				if c.code != 200 {
					r.WantError(t, c.code, c.msg)
					return
				}
				r.WantStatus(t, 200)
			})
		}
	})
}

func domains(n int) string {
	d := make([]string, n)
	for i := range d {
		d[i] = fmt.Sprintf(`"d%d.example.com"`, i)
	}
	return strings.Join(d, ",")
}

func TestUpdateOrganizationAppliesEveryField(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		body := map[string]any{
			"title": "Acme Docs", "emailDomains": []string{"ACME.com"}, "hostname": "acme", "defaultRole": nil,
			"defaultContent": nil, "logo": "https://acme.example/logo.svg", "sso": true, "ai": true, "inviteLinks": false,
			"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_all_reviews_approved"}}},
		}
		got := s.Do(t, token, "PATCH", "/v1/orgs/"+org, body).WantStatus(t, 200).Map(t)
		again := s.Do(t, token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200).Map(t)
		if d := cmp.Diff(got, again); d != "" {
			t.Fatalf("GET after PATCH differs (-patch +get):\n%s", d)
		}
		want := map[string]any{
			"title": "Acme Docs", "emailDomains": []any{"acme.com"}, "hostname": "acme", "defaultRole": nil,
			"sso": true, "ai": true, "inviteLinks": false,
			"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_all_reviews_approved"}}},
		}
		for k, v := range want {
			if d := cmp.Diff(v, got[k]); d != "" {
				t.Errorf("%s (-want +got):\n%s", k, d)
			}
		}
		if logo := got["urls"].(map[string]any)["logo"]; logo != "https://acme.example/logo.svg" {
			t.Errorf("urls.logo = %v", logo)
		}
		// Removing the logo.
		got = s.Do(t, token, "PATCH", "/v1/orgs/"+org, `{"logo":null}`).WantStatus(t, 200).Map(t)
		if _, ok := got["urls"].(map[string]any)["logo"]; ok {
			t.Errorf("logo still set")
		}
	})
}

func TestHostnameIsUnique(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org1, token1 := s.Org(t)
		org2, token2 := s.Org(t)
		s.Do(t, token1, "PATCH", "/v1/orgs/"+org1, `{"hostname":"taken"}`).WantStatus(t, 200)
		s.Do(t, token2, "PATCH", "/v1/orgs/"+org2, `{"hostname":"taken","title":"Changed"}`).WantError(t, 409, "hostname is already used")
		// The failed update wrote nothing, not even the title.
		var o struct{ Title string }
		s.Do(t, token2, "GET", "/v1/orgs/"+org2, nil).JSON(t, &o)
		if o.Title == "Changed" {
			t.Fatal("a rejected PATCH changed the title")
		}
		s.Do(t, token1, "POST", "/v1/orgs", `{"title":"Third","hostname":"taken"}`).WantError(t, 409, "hostname")
	})
}

func TestConcurrentUpdatesKeepEveryField(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, token := s.Org(t)
		bodies := []string{`{"title":"Concurrent"}`, `{"sso":true}`, `{"ai":true}`, `{"inviteLinks":false}`,
			`{"hostname":"concurrent"}`, `{"emailDomains":["c.example"]}`, `{"defaultRole":"edit"}`,
			`{"logo":"https://c.example/l.png"}`}
		var wg sync.WaitGroup
		for round := 0; round < 3; round++ {
			for _, b := range bodies {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s.Do(t, token, "PATCH", "/v1/orgs/"+org, b).WantStatus(t, 200)
				}()
			}
		}
		wg.Wait()
		var o struct {
			Title, Hostname, DefaultRole string
			SSO, AI, InviteLinks         bool
			EmailDomains                 []string
		}
		s.Do(t, token, "GET", "/v1/orgs/"+org, nil).JSON(t, &o)
		if o.Title != "Concurrent" || !o.SSO || !o.AI || o.InviteLinks || o.Hostname != "concurrent" ||
			len(o.EmailDomains) != 1 || o.DefaultRole != "edit" {
			t.Fatalf("after concurrent PATCHes: %+v", o)
		}
	})
}

func TestCreateOrganization(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		_, token := s.User(t)
		r := s.Do(t, token, "POST", "/v1/orgs", `{"title":"New org","type":"community","communityType":"openSource","useCase":"openSourceDocs"}`)
		r.WantStatus(t, http.StatusCreated)
		o := r.Map(t)
		if r.Header.Get("Location") != o["urls"].(map[string]any)["location"] {
			t.Errorf("Location %q differs from urls.location", r.Header.Get("Location"))
		}
		if o["type"] != "community" || o["communityType"] != "openSource" || o["useCase"] != "openSourceDocs" {
			t.Errorf("created %v", o)
		}
		if !o["permissions"].(map[string]any)["admin"].(bool) {
			t.Error("the creator is not admin")
		}
		id := o["id"].(string)
		s.Do(t, token, "GET", "/v1/orgs/"+id, nil).WantStatus(t, 200)

		for _, c := range []struct{ body, msg string }{
			{`{}`, "title must be 2 to 255"},
			{`{"title":"x"}`, "title must be 2 to 255"},
			{`{"title":"Ok","type":"nonprofit"}`, "type must be one of"},
			{`{"title":"Ok","useCase":"fun"}`, "useCase must be one of"},
			{`{"title":"Ok","communityType":"club"}`, "communityType must be one of"},
			{`{"title":"Ok","hostname":"A"}`, "hostname"},
		} {
			s.Do(t, token, "POST", "/v1/orgs", c.body).WantError(t, 400, c.msg)
		}
		var l struct{ Count int }
		s.Do(t, token, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("count = %d after one valid creation", l.Count)
		}
	})
}
