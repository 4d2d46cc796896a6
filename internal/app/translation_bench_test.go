package app_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"github.com/foliodocs/folio/internal/translate"
)

// echoTranslate is a LibreTranslate-compatible engine on loopback that
// answers at once with the text it was sent: what a run costs beyond the
// engine is Folio's own overhead.
func echoTranslate(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Q json.RawMessage `json:"q"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var many []string
		if json.Unmarshal(in.Q, &many) == nil {
			json.NewEncoder(w).Encode(map[string]any{"translatedText": many})
			return
		}
		var one string
		json.Unmarshal(in.Q, &one)
		json.NewEncoder(w).Encode(map[string]any{"translatedText": one})
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkTranslationRun translates a 100-page space (pages of about 300
// words with marks, a list, a code block and a link) with an engine on
// loopback that answers at once, on each store: each iteration is a first
// run of a new translation, so every page is translated and the target
// space created. ms/page is Folio's overhead per page.
func BenchmarkTranslationRun(b *testing.B) {
	engineSrv := echoTranslate(b)
	engine, err := translate.New(translate.Config{Engine: translate.EngineLibreTranslate, URL: engineSrv.URL, HTTP: http.DefaultClient})
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{}
	var summary strings.Builder
	summary.WriteString("# Summary\n\n")
	for i := range 100 {
		name := fmt.Sprintf("page-%03d.md", i)
		fmt.Fprintf(&summary, "* [Page %d](%s)\n", i, name)
		var body strings.Builder
		fmt.Fprintf(&body, "# Page %d\n\n", i)
		for p := range 5 {
			fmt.Fprintf(&body, "This is paragraph %d of page %d, with **bold words**, some `inline code` and a [link](https://example.com/%d). ", p, i, p)
			body.WriteString(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 5) + "\n\n")
			if p == 2 {
				body.WriteString("* first item\n* second item\n\n```go\nfmt.Println(\"untouched\")\n```\n\n")
			}
		}
		files[name] = body.String()
	}
	files["SUMMARY.md"] = summary.String()
	zipData := zipFiles(b, files)

	for _, kind := range storetest.Stores(b) {
		b.Run("store="+kind, func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, kind, store.Config{})
			a := app.New(app.Config{DB: db, Translator: engine})
			runner := jobs.NewRunner(db, nil, a.JobHandlers())
			boot, err := a.Init(ctx, app.InitInput{Email: "bench@example.com"})
			if err != nil {
				b.Fatal(err)
			}
			admin, _ := a.Authenticate(ctx, boot.Token)
			sp, err := a.CreateSpace(ctx, admin, boot.Organization.ID, folio.NewSpace{Title: "Source"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := a.ImportContent(ctx, admin, sp.ID, "", app.ImportInput{Source: "zip",
				URL: "data:application/zip;base64," + base64.StdEncoding.EncodeToString(zipData)}); err != nil {
				b.Fatal(err)
			}
			var total time.Duration
			for b.Loop() {
				b.StopTimer()
				tr, err := a.CreateTranslation(ctx, admin, boot.Organization.ID, app.TranslationInput{Language: "es",
					Source: &app.TranslationSourceInput{Space: sp.ID, Language: "en"}})
				if err != nil {
					b.Fatal(err)
				}
				if err := a.RunTranslation(ctx, admin, boot.Organization.ID, tr.ID); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if _, err := runner.RunDue(ctx); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
				b.StopTimer()
				got, err := a.GetTranslation(ctx, admin, boot.Organization.ID, tr.ID)
				if err != nil || got.LastError != "" || got.Stats.LatestPages != 100 {
					b.Fatalf("run: %+v %v", got, err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N)/100, "ms/page")
		})
	}
}
