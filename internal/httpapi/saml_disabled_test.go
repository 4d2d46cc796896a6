package httpapi_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
)

// A disabled member's SSO sign-in token stops working at once, and
// signing in again through the organization's SSO is refused until an
// admin enables the membership.
func TestSAMLDisabledMember(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin, idp, p, _ := samlSetup(t, s)
		idp.SetUser("ada@example.com", "Ada Lovelace")
		action, resp, state := startLogin(t, s, idp, p)
		code, body := postACS(t, s, action, resp, state, "application/json")
		if code != 200 {
			t.Fatalf("acs: %d %s", code, body)
		}
		var login struct {
			User  struct{ ID string }
			Token string
		}
		(&apitest.Response{Body: []byte(body)}).JSON(t, &login)
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200)

		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/members/"+login.User.ID, map[string]any{"disabled": true}).WantStatus(t, 200)
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 403)
		action, resp, state = startLogin(t, s, idp, p)
		if code, body := postACS(t, s, action, resp, state, "application/json"); code != 403 || !strings.Contains(body, "membership of this organization is disabled") {
			t.Fatalf("sign-in of a disabled member: %d %s", code, body)
		}

		s.Do(t, admin, "PATCH", "/v1/orgs/"+org+"/members/"+login.User.ID, map[string]any{"disabled": false}).WantStatus(t, 200)
		s.Do(t, login.Token, "GET", "/v1/orgs/"+org, nil).WantStatus(t, 200)
		action, resp, state = startLogin(t, s, idp, p)
		if code, body := postACS(t, s, action, resp, state, "application/json"); code != 200 {
			t.Fatalf("sign-in once enabled: %d %s", code, body)
		}
	})
}
