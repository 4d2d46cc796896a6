package httpapi_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// TestSiteTokenShowsNoEmailAndNoConditionedSpace: a site token, handed to
// anonymous readers, reads members without their email, and cannot read a
// site space whose condition its visitor's claims (none here) do not meet,
// which its `spaces` leave out too.
func TestSiteTokenShowsNoEmailAndNoConditionedSpace(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		var me struct{ ID, Email string }
		s.Do(t, admin, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &me)
		guide := newSpace(t, s, admin, org, "Guide")
		beta := newSpace(t, s, admin, org, "Beta")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}})
		sites := "/v1/orgs/" + org + "/sites/"
		var ss struct{ ID string }
		s.Do(t, admin, "POST", sites+st.ID+"/site-spaces", map[string]any{"spaceId": beta}).WantStatus(t, 201).JSON(t, &ss)
		s.Do(t, admin, "PUT", sites+st.ID+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
			"type": "object", "additionalProperties": false,
			"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "In the beta"}},
		}}).WantStatus(t, 200)
		s.Do(t, admin, "PATCH", sites+st.ID+"/site-spaces/"+ss.ID, map[string]any{"condition": "visitor.claims.beta == true"}).
			WantStatus(t, 200)
		s.Do(t, admin, "POST", sites+st.ID+"/publish", nil).WantStatus(t, 200)
		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID, 200).APIToken

		user := s.Do(t, tok, "GET", "/v1/users/"+me.ID, nil).WantStatus(t, 200)
		if me.Email == "" || strings.Contains(string(user.Body), me.Email) {
			t.Fatalf("a site token read the user's email: %s", user.Body)
		}
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200)
		s.Do(t, tok, "GET", "/v1/spaces/"+beta, nil).WantStatus(t, 404)
		s.Do(t, tok, "GET", "/v1/spaces/"+beta+"/content", nil).WantStatus(t, 404)
		for _, sp := range tokenPayload(t, tok)["spaces"].([]any) {
			if sp == beta {
				t.Fatalf("the token's spaces name the conditioned space: %v", tokenPayload(t, tok))
			}
		}
	})
}

// TestSiteTokenClosesWithItsShareKey: a token issued through a share link
// stops reading the moment the link is deleted, or the site leaves
// share-link visibility, not when the token expires.
func TestSiteTokenClosesWithItsShareKey(t *testing.T) {
	t.Parallel()
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		guide := newSpace(t, s, admin, org, "Guide")
		st := newSite(t, s, admin, org, map[string]any{"title": "Docs", "spaces": []string{guide}, "visibility": "share-link"})
		base := "/v1/orgs/" + org + "/sites/" + st.ID
		s.Do(t, admin, "POST", base+"/publish", nil).WantStatus(t, 200)
		var link struct {
			ID   string
			URLs struct{ Published string }
		}
		s.Do(t, admin, "POST", base+"/share-links", map[string]any{"name": "x"}).WantStatus(t, 201).JSON(t, &link)
		key := link.URLs.Published[strings.Index(link.URLs.Published, "shareKey=")+len("shareKey="):]
		tok := lookupURL(t, s, "https://folio.test/sites/"+st.ID+"?shareKey="+key, 200).APIToken
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 200)
		s.Do(t, admin, "DELETE", base+"/share-links/"+link.ID, nil)
		s.Do(t, tok, "GET", "/v1/spaces/"+guide, nil).WantStatus(t, 404)
		s.Do(t, tok, "GET", base+"/published", nil).WantStatus(t, 404)
	})
}
