package httpapi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// deleteCase makes the target of one DELETE route exist and returns the
// path that deletes it, the path of one that never existed under the same
// parent, and, where the API has one, a GET that reads the target (200
// before, 404 after).
type deleteCase func(t *testing.T, f *deleteFixture) (existing, missing, get string)

// deleteFixture is what every case builds on: an organization with its
// admin, a member, a space with a change request and a published site.
type deleteFixture struct {
	s                        *apitest.Server
	org, admin               string
	space, collection, other string
	member                   *folio.User
	cr                       crBody
	site                     siteBody
	siteBase                 string
}

// deleteCases holds one case per DELETE route of routes.go, keyed by its
// pattern. TestEveryDeleteAnswers204 fails when a DELETE route has none.
var deleteCases = map[string]deleteCase{
	"DELETE /v1/user/tokens/{tokenId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var tok struct{ ID string }
		f.s.Do(t, f.admin, "POST", "/v1/user/tokens", map[string]any{"label": "ci"}).WantStatus(t, 201).JSON(t, &tok)
		return "/v1/user/tokens/" + tok.ID, "/v1/user/tokens/nosuchtoken", ""
	},
	"DELETE /v1/orgs/{organizationId}/members/{userId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		u, _ := f.s.Member(t, f.org, folio.RoleRead)
		p := "/v1/orgs/" + f.org + "/members/"
		return p + u.ID, p + "nosuchuser", p + u.ID
	},
	"DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var inv struct{ ID string }
		p := "/v1/orgs/" + f.org + "/link-invites"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"role": "read"}).WantStatus(t, 201).JSON(t, &inv)
		return p + "/" + inv.ID, p + "/nosuchinvite", p + "/" + inv.ID
	},
	"DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		idp := ssotest.New(t)
		var prov struct{ ID string }
		p := "/v1/orgs/" + f.org + "/saml"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"label": "Okta", "entityID": idp.EntityID, "ssoURL": idp.SSOURL,
			"certificate": idp.CertPEM}).WantStatus(t, 201).JSON(t, &prov)
		return p + "/" + prov.ID, p + "/nosuchprovider", p + "/" + prov.ID
	},
	"DELETE /v1/spaces/{spaceId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		sp := newSpace(t, f.s, f.admin, f.org, "Doomed")
		return "/v1/spaces/" + sp, "/v1/spaces/nosuchspace", "/v1/spaces/" + sp
	},
	"DELETE /v1/collections/{collectionId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var c struct{ ID string }
		f.s.Do(t, f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Doomed"}).WantStatus(t, 201).JSON(t, &c)
		return "/v1/collections/" + c.ID, "/v1/collections/nosuchcollection", "/v1/collections/" + c.ID
	},
	"DELETE /v1/orgs/{organizationId}/openapi/{specSlug}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := "/v1/orgs/" + f.org + "/openapi"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"slug": "doomed", "source": map[string]any{
			"text": "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n"}}).WantStatus(t, 201)
		return p + "/doomed", p + "/nosuchspec", p + "/doomed"
	},
	"DELETE /v1/orgs/{organizationId}/translations/{translationId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var tr struct{ ID string }
		p := "/v1/orgs/" + f.org + "/translations"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"language": "es", "source": map[string]any{"space": f.space, "language": "en"}}).
			WantStatus(t, 201).JSON(t, &tr)
		return p + "/" + tr.ID, p + "/nosuchtranslation", p + "/" + tr.ID
	},
	"DELETE /v1/orgs/{organizationId}/webhooks/{webhookId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var h struct{ ID string }
		p := "/v1/orgs/" + f.org + "/webhooks"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"url": "https://hooks.example/in", "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &h)
		return p + "/" + h.ID, p + "/nosuchwebhook", p + "/" + h.ID
	},
	"DELETE /v1/integrations/{integrationName}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		publish(t, f.s, f.admin, "doomed-"+f.org, manifest(f.org, nil))
		p := "/v1/integrations/"
		return p + "doomed-" + f.org, p + "no-such-integration", p + "doomed-" + f.org
	},
	// The target is the development mode of an integration; "missing" is
	// an integration that has none.
	"DELETE /v1/integrations/{integrationName}/dev": func(t *testing.T, f *deleteFixture) (string, string, string) {
		publish(t, f.s, f.admin, "tunnelled-"+f.org, manifest(f.org, nil))
		publish(t, f.s, f.admin, "plain-"+f.org, manifest(f.org, nil))
		f.s.Do(t, f.admin, "PUT", "/v1/integrations/tunnelled-"+f.org+"/dev", map[string]any{"tunnelUrl": "https://tunnel.example/x"}).
			WantStatus(t, 204)
		return "/v1/integrations/tunnelled-" + f.org + "/dev", "/v1/integrations/plain-" + f.org + "/dev", ""
	},
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := installation(t, f)
		base := p[:strings.LastIndex(p, "/")]
		return p, base + "/nosuchinstallation", p
	},
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := installation(t, f) + "/spaces"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"space": f.space}).WantStatus(t, 201)
		return p + "/" + f.space, p + "/" + f.other, p + "/" + f.space
	},
	"DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := installation(t, f) + "/sites"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"siteId": f.site.ID}).WantStatus(t, 201)
		return p + "/" + f.site.ID, p + "/nosuchsite", p + "/" + f.site.ID
	},
	// The target is the space's git sync; "missing" is a space without.
	"DELETE /v1/spaces/{spaceId}/git/legacy-installation": func(t *testing.T, f *deleteFixture) (string, string, string) {
		sp := newSpace(t, f.s, f.admin, f.org, "Synced")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Hi\n"}, "init")
		gitSync(t, f.s, f.admin, sp, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
		return "/v1/spaces/" + sp + "/git/legacy-installation", "/v1/spaces/" + f.other + "/git/legacy-installation",
			"/v1/spaces/" + sp + "/git/info"
	},
	"DELETE /v1/spaces/{spaceId}/permissions/users/{userId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return permission(t, f, "/v1/spaces/"+f.space, "users", f.member.ID)
	},
	"DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return permission(t, f, "/v1/spaces/"+f.space, "teams", team(t, f))
	},
	"DELETE /v1/collections/{collectionId}/permissions/users/{userId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return permission(t, f, "/v1/collections/"+f.collection, "users", f.member.ID)
	},
	"DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return permission(t, f, "/v1/collections/"+f.collection, "teams", team(t, f))
	},
	"DELETE /v1/orgs/{organizationId}/teams/{teamId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := "/v1/orgs/" + f.org + "/teams/"
		id := team(t, f)
		return p + id, p + "nosuchteam", p + id
	},
	"DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var tm struct{ ID string }
		f.s.Do(t, f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Writers " + folio.NewID()[:6],
			"members": []string{f.member.ID}}).WantStatus(t, 201).JSON(t, &tm)
		p := "/v1/orgs/" + f.org + "/teams/" + tm.ID + "/members/"
		return p + f.member.ID, p + "nosuchuser", ""
	},
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := crPath(f.space, f.cr) + "/requested-reviewers"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"users": []string{f.member.ID}}).WantStatus(t, 200)
		return p + "/" + f.member.ID, p + "/nosuchuser", ""
	},
	"DELETE /v1/spaces/{spaceId}/comments/{commentId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return comment(t, f, "/v1/spaces/"+f.space+"/comments")
	},
	"DELETE /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return reply(t, f, "/v1/spaces/"+f.space+"/comments")
	},
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return comment(t, f, crPath(f.space, f.cr)+"/comments")
	},
	"DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		return reply(t, f, crPath(f.space, f.cr)+"/comments")
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		st := newSite(t, f.s, f.admin, f.org, map[string]any{"title": "Doomed", "spaces": []string{f.space}})
		p := "/v1/orgs/" + f.org + "/sites/"
		return p + st.ID, p + "nosuchsite", p + st.ID
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var l struct{ ID string }
		st := newSite(t, f.s, f.admin, f.org, map[string]any{"title": "Secret", "visibility": "share-link", "spaces": []string{f.space}})
		p := "/v1/orgs/" + f.org + "/sites/" + st.ID + "/share-links"
		f.s.Do(t, f.admin, "POST", p, map[string]any{"name": "x"}).WantStatus(t, 201).JSON(t, &l)
		return p + "/" + l.ID, p + "/nosuchlink", ""
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var res struct{ ID string }
		ss := siteSpaces(t, f)[0]
		src := "/old-" + strings.ToLower(folio.NewID()[:6])
		f.s.Do(t, f.admin, "POST", f.siteBase+"/redirects", map[string]any{"source": src,
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}).WantStatus(t, 201).JSON(t, &res)
		p := f.siteBase + "/redirects/"
		return p + res.ID, p + "nosuchredirect", f.siteBase + "/redirect?source=" + src
	},
	// The target is a site space's override; "missing" is a site space
	// without one.
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization": func(t *testing.T, f *deleteFixture) (string, string, string) {
		ss := siteSpaces(t, f)
		p := f.siteBase + "/site-spaces/"
		f.s.Do(t, f.admin, "PATCH", p+ss[0]+"/customization", `{"title":"Variant"}`).WantStatus(t, 200)
		return p + ss[0] + "/customization", p + ss[1] + "/customization", ""
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := f.siteBase + "/sections/"
		return p + section(t, f), p + "nosuchsection", ""
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		var ss struct{ ID string }
		f.s.Do(t, f.admin, "POST", f.siteBase+"/site-spaces", map[string]any{"spaceId": newSpace(t, f.s, f.admin, f.org, "Variant")}).
			WantStatus(t, 201).JSON(t, &ss)
		p := f.siteBase + "/site-spaces/"
		return p + ss.ID, p + "nosuchsitespace", ""
	},
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		p := f.siteBase + "/section-groups/"
		return p + group(t, f, nil), p + "nosuchgroup", ""
	},
	// "missing" is a section that is not in the group.
	"DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}": func(t *testing.T, f *deleteFixture) (string, string, string) {
		in, out := section(t, f), section(t, f)
		p := f.siteBase + "/section-groups/" + group(t, f, []string{in}) + "/sections/"
		return p + in, p + out, ""
	},
}

// TestEveryDeleteAnswers204 walks the route table: every DELETE route
// answers 204 with no body for an existing target, again once it is gone,
// and for a target that never existed (wire rule 5); where the target can
// be read, it is there before and gone after.
func TestEveryDeleteAnswers204(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		var routes []string
		for _, r := range s.Handler.(*httpapi.Server).Routes() {
			if p := r.Pattern; strings.HasPrefix(p, "DELETE ") && !slices.Contains(routes, p) {
				routes = append(routes, p)
			}
		}
		for p := range deleteCases {
			if !slices.Contains(routes, p) {
				t.Errorf("case for %q, which is not a route", p)
			}
		}
		f := newDeleteFixture(t, s)
		for _, route := range routes {
			c := deleteCases[route]
			if c == nil {
				t.Errorf("%s: no case in deleteCases", route)
				continue
			}
			existing, missing, get := c(t, f)
			if get != "" {
				s.Do(t, f.admin, "GET", get, nil).WantStatus(t, 200)
			}
			for _, p := range []string{existing, existing, missing} {
				r := s.Do(t, f.admin, "DELETE", p, nil)
				if r.Status != 204 || len(r.Body) != 0 {
					t.Errorf("%s: DELETE %s answered %d %q, want 204 and no body", route, p, r.Status, r.Body)
				}
			}
			if get != "" {
				s.Do(t, f.admin, "GET", get, nil).WantStatus(t, 404)
			}
		}
	})
}

func newDeleteFixture(t *testing.T, s *apitest.Server) *deleteFixture {
	t.Helper()
	f := &deleteFixture{s: s}
	f.org, f.admin = s.Org(t)
	f.member, _ = s.Member(t, f.org, folio.RoleRead)
	f.space = newSpace(t, s, f.admin, f.org, "Guide")
	f.other = newSpace(t, s, f.admin, f.org, "Other")
	importInto(t, s, f.admin, f.space, "", "markdown", []byte("# Intro\n\nHello.\n"))
	var c struct{ ID string }
	s.Do(t, f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Shelf"}).WantStatus(t, 201).JSON(t, &c)
	f.collection = c.ID
	f.cr = newCR(t, s, f.admin, f.space, "Draft")
	f.site = newSite(t, s, f.admin, f.org, map[string]any{"title": "Docs", "spaces": []string{f.space, f.other}})
	f.siteBase = "/v1/orgs/" + f.org + "/sites/" + f.site.ID
	s.Do(t, f.admin, "POST", f.siteBase+"/publish", nil).WantStatus(t, 200)
	return f
}

// installation publishes an integration, installs it in the fixture's
// organization and returns the installation's path.
func installation(t *testing.T, f *deleteFixture) string {
	t.Helper()
	name := "inst-" + strings.ToLower(folio.NewID()[:8])
	publish(t, f.s, f.admin, name, manifest(f.org, nil))
	var inst struct{ ID string }
	p := "/v1/integrations/" + name + "/installations"
	f.s.Do(t, f.admin, "POST", p, map[string]any{"organization": f.org}).WantStatus(t, 201).JSON(t, &inst)
	return p + "/" + inst.ID
}

func team(t *testing.T, f *deleteFixture) string {
	t.Helper()
	var tm struct{ ID string }
	f.s.Do(t, f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Team " + folio.NewID()[:6]}).
		WantStatus(t, 201).JSON(t, &tm)
	return tm.ID
}

// permission grants a user or team read access to a space or collection;
// "missing" is a principal without a grant.
func permission(t *testing.T, f *deleteFixture, target, kind, id string) (string, string, string) {
	t.Helper()
	f.s.Do(t, f.admin, "POST", target+"/permissions", map[string]any{"role": "read", kind: []string{id}}).WantStatus(t, 204)
	return target + "/permissions/" + kind + "/" + id, target + "/permissions/" + kind + "/nosuch" + kind, ""
}

func comment(t *testing.T, f *deleteFixture, base string) (string, string, string) {
	t.Helper()
	var c struct{ ID string }
	f.s.Do(t, f.admin, "POST", base, md("Hello.")).WantStatus(t, 200).JSON(t, &c)
	return base + "/" + c.ID, base + "/nosuchcomment", base + "/" + c.ID
}

func reply(t *testing.T, f *deleteFixture, base string) (string, string, string) {
	t.Helper()
	var c, r struct{ ID string }
	f.s.Do(t, f.admin, "POST", base, md("Question?")).WantStatus(t, 200).JSON(t, &c)
	f.s.Do(t, f.admin, "POST", base+"/"+c.ID+"/replies", md("Answer.")).WantStatus(t, 200).JSON(t, &r)
	p := base + "/" + c.ID + "/replies/"
	return p + r.ID, p + "nosuchreply", p + r.ID
}

func siteSpaces(t *testing.T, f *deleteFixture) []string {
	t.Helper()
	var l struct{ Items []struct{ ID string } }
	f.s.Do(t, f.admin, "GET", f.siteBase+"/site-spaces", nil).WantStatus(t, 200).JSON(t, &l)
	var ids []string
	for _, x := range l.Items {
		ids = append(ids, x.ID)
	}
	if len(ids) < 2 {
		t.Fatalf("site spaces %v", ids)
	}
	return ids
}

func section(t *testing.T, f *deleteFixture) string {
	t.Helper()
	var sec struct{ ID string }
	f.s.Do(t, f.admin, "POST", f.siteBase+"/sections", map[string]any{"spaceId": newSpace(t, f.s, f.admin, f.org, "Part"),
		"title": "Part " + folio.NewID()[:6]}).WantStatus(t, 201).JSON(t, &sec)
	return sec.ID
}

func group(t *testing.T, f *deleteFixture, sections []string) string {
	t.Helper()
	var g struct{ ID string }
	body := map[string]any{"title": "Group " + folio.NewID()[:6]}
	if sections != nil {
		body["sections"] = sections
	}
	f.s.Do(t, f.admin, "POST", f.siteBase+"/section-groups", body).WantStatus(t, 201).JSON(t, &g)
	return g.ID
}
