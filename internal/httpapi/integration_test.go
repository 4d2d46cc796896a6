package httpapi_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
)

type integrationBody struct {
	Object, Name, Title, Description, Visibility, Target string
	Version                                              int
	Scopes, Categories, PreviewImages                    []string
	Owner                                                struct{ ID string }
	URLs                                                 struct{ Location, Icon, App, Assets, PublicEndpoint string }
	Permissions                                          struct{ Admin bool }
	Secrets                                              any
}

// manifest is a publish body as GitBook's CLI sends it.
func manifest(org string, extra map[string]any) map[string]any {
	m := map[string]any{"runtime": "v2", "title": "Hello", "description": "Says hello", "scopes": []string{"space:content:read"},
		"organization": org, "previewImages": []string{}, "script": "export default {fetch: async () => new Response('hi')};"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func publish(t *testing.T, s *apitest.Server, token, name string, body map[string]any) integrationBody {
	t.Helper()
	var out integrationBody
	s.Do(t, token, "POST", "/v1/integrations/"+name, body).WantStatus(t, 200).JSON(t, &out)
	return out
}

func integrationNames(t *testing.T, s *apitest.Server, token, query string) []string {
	t.Helper()
	var l struct{ Items []integrationBody }
	s.Do(t, token, "GET", "/v1/integrations"+query, nil).WantStatus(t, 200).JSON(t, &l)
	names := []string{}
	for _, i := range l.Items {
		names = append(names, i.Name)
	}
	return names
}

func TestIntegrationPublish(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		icon := base64.StdEncoding.EncodeToString(tinyPNG())
		in := publish(t, s, admin, "folio-hello", manifest(org, map[string]any{"icon": icon, "previewImages": []string{icon},
			"secrets": map[string]string{"API_KEY": "s3cret-value"}, "visibility": "public", "target": "space",
			"categories": []string{"content"}, "externalLinks": []map[string]string{{"url": "https://example.com", "label": "Home"}}}))
		if in.Object != "integration" || in.Version != 1 || in.Owner.ID != org || !in.Permissions.Admin || in.Secrets != nil ||
			in.Target != "space" || in.Visibility != "public" || len(in.PreviewImages) != 1 || in.URLs.Icon == "" {
			t.Fatalf("published %+v", in)
		}
		// The icon is served from the blob store, as an image.
		u, _ := url.Parse(in.URLs.Icon)
		r := s.Do(t, "", "GET", u.Path, nil).WantStatus(t, 200)
		if r.Header.Get("Content-Type") != "image/png" || string(r.Body) != string(tinyPNG()) {
			t.Fatalf("icon answered %s, %d bytes", r.Header.Get("Content-Type"), len(r.Body))
		}
		s.Do(t, "", "GET", "/v1/integrations/folio-hello/assets/"+strings.Repeat("0", 64)+".png", nil).WantStatus(t, 404)

		// Secrets are sealed at rest and kept when a new version leaves
		// them out.
		sealed := func() string {
			var out string
			s.DB.Read(context.Background(), func(tx *store.Tx) (err error) {
				out, err = store.IntegrationSecrets(context.Background(), tx, "folio-hello")
				return err
			})
			return out
		}
		if got := sealed(); got == "" || strings.Contains(got, "s3cret-value") {
			t.Fatalf("secrets at rest: %q", got)
		}
		again := publish(t, s, admin, "folio-hello", manifest(org, map[string]any{"visibility": "public", "title": "Hello 2"}))
		if again.Version != 2 || again.Title != "Hello 2" || again.URLs.Icon != "" || sealed() == "" {
			t.Fatalf("republished %+v", again)
		}

		// By hostname (the organization's subdomain) too.
		s.Do(t, admin, "PATCH", "/v1/orgs/"+org, map[string]any{"hostname": "acme"}).WantStatus(t, 200)
		if v := publish(t, s, admin, "folio-hello", manifest("acme", nil)); v.Version != 3 || v.Visibility != "private" {
			t.Fatalf("by hostname %+v", v)
		}
		s.Do(t, admin, "POST", "/v1/integrations/other", manifest("nowhere", nil)).
			WantError(t, 404, "The organization cannot be found for the given hostname")

		// Only admins of the owning organization publish and unpublish.
		_, creator := s.Member(t, org, folio.RoleCreate)
		other, outsider := s.Org(t)
		s.Do(t, creator, "POST", "/v1/integrations/folio-hello", manifest(org, nil)).
			WantError(t, 403, "only admins of the organization publish its integrations")
		s.Do(t, outsider, "POST", "/v1/integrations/folio-hello", manifest(org, nil)).
			WantError(t, 404, "The organization cannot be found for the given hostname")
		s.Do(t, outsider, "POST", "/v1/integrations/folio-hello", manifest(other, nil)).
			WantError(t, 409, "the integration name folio-hello is taken by another organization")
		s.Do(t, creator, "DELETE", "/v1/integrations/folio-hello", nil).
			WantError(t, 403, "only admins of the organization that owns the integration unpublish it")
		// A private integration is invisible outside its organization.
		s.Do(t, outsider, "GET", "/v1/integrations/folio-hello", nil).WantError(t, 404, "No integration matches the name")
		s.Do(t, outsider, "DELETE", "/v1/integrations/folio-hello", nil).WantStatus(t, 204)
		var got integrationBody
		s.Do(t, creator, "GET", "/v1/integrations/folio-hello", nil).WantStatus(t, 200).JSON(t, &got)
		if got.Version != 3 || got.Permissions.Admin {
			t.Fatalf("as a creator %+v", got)
		}

		s.Do(t, admin, "DELETE", "/v1/integrations/folio-hello", nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/integrations/folio-hello", nil).WantError(t, 404, "No integration matches the name")
		s.Do(t, admin, "DELETE", "/v1/integrations/folio-hello", nil).WantStatus(t, 204)
	})
}

func TestIntegrationPublishValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		svg := base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
		png := base64.StdEncoding.EncodeToString(tinyPNG())
		links := []map[string]string{}
		for range 6 {
			links = append(links, map[string]string{"url": "https://example.com", "label": "x"})
		}
		without := func(key string) map[string]any {
			m := manifest(org, nil)
			delete(m, key)
			return m
		}
		for _, tc := range []struct {
			name, path string
			body       map[string]any
			msg        string
		}{
			{"no organization", "ok", without("organization"), "organization is required"},
			{"no title", "ok", without("title"), "title is required"},
			{"no description", "ok", without("description"), "description is required"},
			{"no script", "ok", without("script"), "script is required"},
			{"no scopes", "ok", without("scopes"), "scopes is required"},
			{"short title", "ok", manifest(org, map[string]any{"title": "H"}), "title must be 2 to 30 characters"},
			{"long title", "ok", manifest(org, map[string]any{"title": strings.Repeat("t", 31)}), "title must be 2 to 30 characters"},
			{"long description", "ok", manifest(org, map[string]any{"description": strings.Repeat("d", 101)}), "description must be at most 100 characters"},
			{"bad runtime", "ok", manifest(org, map[string]any{"runtime": "v3"}), "runtime must be one of v1, v2"},
			{"bad target", "ok", manifest(org, map[string]any{"target": "page"}), "target must be one of all, site, space, organization"},
			{"bad visibility", "ok", manifest(org, map[string]any{"visibility": "secret"}), "visibility must be one of public, private, unlisted"},
			{"bad scope", "ok", manifest(org, map[string]any{"scopes": []string{"space:everything"}}), "space:everything is not one of the scopes"},
			{"bad category", "ok", manifest(org, map[string]any{"categories": []string{"games"}}), "games is not one of the categories"},
			{"svg icon", "ok", manifest(org, map[string]any{"icon": svg}), "icon must be a PNG, JPEG, GIF or WebP image"},
			{"icon not base64", "ok", manifest(org, map[string]any{"icon": "%%%"}), "icon must be base64"},
			{"four previews", "ok", manifest(org, map[string]any{"previewImages": []string{png, png, png, png}}), "previewImages holds at most 3 images"},
			{"six links", "ok", manifest(org, map[string]any{"externalLinks": links}), "externalLinks lists at most 5 links"},
			{"block title", "ok", manifest(org, map[string]any{"blocks": []map[string]any{{"id": "b", "title": "x"}}}), "blocks b: title must be 2 to 40 characters"},
			{"source without configuration", "ok", manifest(org, map[string]any{"contentSources": []map[string]any{{"id": "c", "title": "Source"}}}), "content source c needs a configuration object"},
			{"bad configurations", "ok", manifest(org, map[string]any{"configurations": map[string]any{"page": map[string]any{}}}), "configurations has account, space and site only, not page"},
			{"bad name", "a%20b", manifest(org, nil), "the integration name must match ^[a-zA-Z0-9-_.]+$ and be at most 100 characters"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s.Do(t, admin, "POST", "/v1/integrations/"+tc.path, tc.body).WantError(t, 400, tc.msg)
			})
		}
		s.Do(t, admin, "GET", "/v1/integrations/ok", nil).WantStatus(t, 404)
		if names := integrationNames(t, s, admin, ""); len(names) != 0 {
			t.Fatalf("refused publishes created %v", names)
		}
	})
}

func TestIntegrationList(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		other, otherAdmin := s.Org(t)
		block := []map[string]any{{"id": "embed", "title": "Embed", "urlUnfurl": []string{"https://Videos.example.com/watch"}}}
		source := []map[string]any{{"id": "src", "title": "Source", "configuration": map[string]any{"componentId": "c"}}}
		publish(t, s, admin, "alpha", manifest(org, map[string]any{"visibility": "public", "title": "Alpha analytics",
			"categories": []string{"analytics"}, "target": "site", "scopes": []string{"site:views:read"}}))
		publish(t, s, admin, "beta", manifest(org, map[string]any{"visibility": "private", "blocks": block}))
		publish(t, s, otherAdmin, "gamma", manifest(other, map[string]any{"visibility": "public", "contentSources": source}))
		publish(t, s, otherAdmin, "delta", manifest(other, map[string]any{"visibility": "private"}))
		publish(t, s, otherAdmin, "epsilon", manifest(other, map[string]any{"visibility": "unlisted"}))

		for _, tc := range []struct {
			query string
			want  string
		}{
			{"", "alpha beta gamma"},
			{"?search=ANALYTICS", "alpha"},
			{"?search=%25", ""},
			{"?category=analytics", "alpha"},
			{"?scope=site:views:read", "alpha"},
			{"?target=site", "alpha"},
			{"?owner=" + other, "gamma"},
			{"?blocks=true", "beta"},
			{"?blocks=false", "alpha gamma"},
			{"?contentSources=true", "gamma"},
			{"?blockDomain=videos.example.com", "beta"},
			{"?blockDomain=example_com", ""},
			{"?limit=2", "alpha beta"},
		} {
			t.Run(tc.query, func(t *testing.T) {
				if got := strings.Join(integrationNames(t, s, admin, tc.query), " "); got != tc.want {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			})
		}
		// The other organization sees its own private and unlisted ones.
		if got := strings.Join(integrationNames(t, s, otherAdmin, ""), " "); got != "alpha delta epsilon gamma" {
			t.Errorf("other organization lists %q", got)
		}
		s.Do(t, admin, "GET", "/v1/integrations/epsilon", nil).WantStatus(t, 200)
		s.Do(t, admin, "GET", "/v1/integrations/delta", nil).WantStatus(t, 404)
		for _, q := range []string{"?category=games", "?scope=all", "?target=page", "?blocks=maybe", "?blockDomain=a/b"} {
			s.Do(t, admin, "GET", "/v1/integrations"+q, nil).WantStatus(t, 400)
		}
		// Installed in the organization: none yet.
		var l struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/integrations", nil).WantStatus(t, 200).JSON(t, &l)
		if l.Count != 0 {
			t.Errorf("organization integrations %d", l.Count)
		}
		s.Do(t, otherAdmin, "GET", "/v1/orgs/"+org+"/integrations", nil).WantStatus(t, 404)
	})
}
