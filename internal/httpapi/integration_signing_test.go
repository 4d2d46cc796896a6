package httpapi_test

import (
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/webhook"
)

// Integration events carry the signing secrets of the integration, the
// installation and the site or space installation (as GitBook's
// environment shapes them), and the dispatch to a development tunnel is
// signed with the integration's secret.
func TestIntegrationSigningSecrets(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		type got struct {
			sig  string
			body []byte
			env  struct {
				SigningSecrets map[string]string
				Installation   struct{ ID string }
			}
			typ string
		}
		var (
			mu   sync.Mutex
			seen []got
		)
		tn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			g := got{sig: r.Header.Get(webhook.SignatureHeader), body: b}
			_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			mr := multipart.NewReader(strings.NewReader(string(b)), params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				data, _ := io.ReadAll(p)
				switch p.FormName() {
				case "environment":
					json.Unmarshal(data, &g.env)
				case "event":
					var e struct{ Type string }
					json.Unmarshal(data, &e)
					g.typ = e.Type
				}
			}
			mu.Lock()
			seen = append(seen, g)
			mu.Unlock()
		}))
		t.Cleanup(tn.Close)
		for _, name := range []string{"signed-a", "signed-b"} {
			publish(t, s, admin, name, manifest(org, nil))
			s.Do(t, admin, "PUT", "/v1/integrations/"+name+"/dev", map[string]any{"tunnelUrl": tn.URL}).WantStatus(t, 204)
			var inst struct{ ID string }
			s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations", map[string]any{"organization": org}).
				WantStatus(t, 201).JSON(t, &inst)
			if name == "signed-a" {
				space := newSpace(t, s, admin, org, "Docs")
				s.Do(t, admin, "POST", "/v1/integrations/"+name+"/installations/"+inst.ID+"/spaces", map[string]any{"space": space}).
					WantStatus(t, 201)
				importInto(t, s, admin, space, "", "markdown", []byte("# Hello\n"))
			}
			runJobs(t, s)
		}
		mu.Lock()
		defer mu.Unlock()
		var content *got
		integrationSecrets := map[string]bool{}
		for i := range seen {
			g := &seen[i]
			ss := g.env.SigningSecrets
			if len(ss["integration"]) != 64 || len(ss["installation"]) != 64 || ss["integration"] == ss["installation"] {
				t.Fatalf("%s: signing secrets %v", g.typ, ss)
			}
			integrationSecrets[ss["integration"]] = true
			if err := webhook.Verify([]byte(ss["integration"]), g.sig, g.body, time.Now(), time.Hour); err != nil {
				t.Fatalf("%s: the dispatch does not verify with the integration's signing secret: %v", g.typ, err)
			}
			if g.typ == "space_content_updated" {
				content = g
			}
		}
		if len(integrationSecrets) != 2 {
			t.Fatalf("two integrations share a signing secret: %d distinct in %d events", len(integrationSecrets), len(seen))
		}
		if content == nil || len(content.env.SigningSecrets["spaceInstallation"]) != 64 {
			t.Fatalf("the space event's signing secrets: %+v", content)
		}
	})
}
