package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/netguard"
	"github.com/foliodocs/folio/internal/translate"
)

// With --import-allow-private off, the translation engine the operator
// configured on loopback works, while the URLs tenants give (an import, a
// webhook, an OpenAPI spec) are refused on loopback.
func TestOperatorEndpointsVersusTenantURLs(t *testing.T) {
	engine := newFakeLibreTranslate(t)
	tr, err := translate.New(translate.Config{Engine: "libretranslate", URL: engine.URL, HTTP: netguard.OperatorClient(0)})
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("# Hello\n"))
	}))
	t.Cleanup(local.Close)
	apitest.RunOptions(t, apitest.Options{Translator: tr, GuardPrivate: true}, func(t *testing.T, s *apitest.Server) {
		engine.fail.Store(false)
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, src, "", "markdown", []byte("# Hello\n\nHello world.\n"))

		// The operator's engine on loopback.
		var created translationBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "es",
			"source": map[string]any{"space": src, "language": "en"}}).WantStatus(t, 201).JSON(t, &created)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+created.ID+"/run", nil).WantStatus(t, 204)
		runJobs(t, s)
		if got := getTranslation(t, s, admin, org, created.ID); got.Status != "completed" || got.LastError != "" {
			t.Fatalf("translation through the operator's loopback engine: %+v", got)
		}

		// A tenant's import from loopback.
		var before revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+src+"/content", nil).WantStatus(t, 200).JSON(t, &before)
		s.Do(t, admin, "POST", "/v1/spaces/"+src+"/content/import", map[string]any{"source": "markdown", "url": local.URL + "/page.md"}).
			WantError(t, 400, "url points to a private network address, which imports may not fetch")
		var after revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+src+"/content", nil).WantStatus(t, 200).JSON(t, &after)
		if after.ID != before.ID {
			t.Fatal("a refused import made a revision")
		}

		// A tenant's webhook to loopback.
		var hook webhookBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": local.URL + "/hook", "events": []string{"*"}}).
			WantStatus(t, 201).JSON(t, &hook)
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n"}, "init")
		gitSync(t, s, admin, newSpace(t, s, admin, org, "Synced"), "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
		runJobs(t, s)
		ds := listDeliveries(t, s, admin, org, hook.ID)
		if len(ds) == 0 {
			t.Fatal("no delivery was attempted")
		}
		for _, d := range ds {
			if d.State == "delivered" || !strings.Contains(d.LastError, "not public") {
				t.Fatalf("delivery to loopback %+v", d)
			}
		}
		if n := hits.Load(); n != 0 {
			t.Fatalf("the loopback server was reached %d times", n)
		}
	})
}
