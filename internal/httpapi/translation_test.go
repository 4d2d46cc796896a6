package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/translate"
)

// fakeLibreTranslate is a LibreTranslate-compatible server on loopback: it
// "translates" by upper-casing every word outside markup, counts the
// segments it was asked for, and fails on demand.
type fakeLibreTranslate struct {
	*httptest.Server
	segments atomic.Int64
	fail     atomic.Bool
	mu       sync.Mutex
	seen     []string
}

var markupOrWord = regexp.MustCompile(`<[^>]*>|[\p{L}]+`)

func newFakeLibreTranslate(t *testing.T) *fakeLibreTranslate {
	f := &fakeLibreTranslate{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/translate" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if f.fail.Load() {
			http.Error(w, `{"error":"engine down"}`, http.StatusInternalServerError)
			return
		}
		var in struct {
			Q      json.RawMessage `json:"q"`
			Source string          `json:"source"`
			Target string          `json:"target"`
		}
		body := r.Body
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			if err := json.NewDecoder(body).Decode(&in); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
		} else {
			r.ParseForm()
			qs := r.PostForm["q"]
			if len(qs) == 1 {
				in.Q, _ = json.Marshal(qs[0])
			} else {
				in.Q, _ = json.Marshal(qs)
			}
		}
		up := func(s string) string {
			f.segments.Add(1)
			f.mu.Lock()
			f.seen = append(f.seen, s)
			f.mu.Unlock()
			return markupOrWord.ReplaceAllStringFunc(s, func(m string) string {
				if strings.HasPrefix(m, "<") {
					return m
				}
				return strings.ToUpper(m)
			})
		}
		var one string
		if json.Unmarshal(in.Q, &one) == nil {
			json.NewEncoder(w).Encode(map[string]any{"translatedText": up(one)})
			return
		}
		var many []string
		if err := json.Unmarshal(in.Q, &many); err != nil {
			http.Error(w, "bad q", 400)
			return
		}
		out := make([]string, len(many))
		for i, s := range many {
			out[i] = up(s)
		}
		json.NewEncoder(w).Encode(map[string]any{"translatedText": out})
	}))
	t.Cleanup(f.Close)
	return f
}

type translationBody struct {
	Object, ID, Status, Language, LastError string
	Source                                  struct{ Space, Language string }
	Result                                  *struct{ Space, Revision string }
	Stats                                   struct{ Runs, TotalWords, TotalPages, TotalDuration, LatestRunDuration, LatestPages, LatestWords int }
	Permissions                             struct{ View, Edit bool }
}

func getTranslation(t *testing.T, s *apitest.Server, token, org, id string) translationBody {
	t.Helper()
	var b translationBody
	s.Do(t, token, "GET", "/v1/orgs/"+org+"/translations/"+id, nil).WantStatus(t, 200).JSON(t, &b)
	return b
}

func TestTranslationRuns(t *testing.T) {
	engine := newFakeLibreTranslate(t)
	tr, err := translate.New(translate.Config{Engine: "libretranslate", URL: engine.URL, HTTP: http.DefaultClient})
	if err != nil {
		t.Fatal(err)
	}
	apitest.RunOptions(t, apitest.Options{Translator: tr}, func(t *testing.T, s *apitest.Server) {
		engine.fail.Store(false)
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Guide")
		importInto(t, s, admin, src, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md": "# Summary\n\n* [Hello](README.md)\n* [Setup](setup.md)\n",
			"README.md":  "# Hello\n\nHello **brave** world. Run `go build` first.\n\n```go\nfmt.Println(\"keep me\")\n```\n\nSee [the site](https://example.com/path).\n",
			"setup.md":   "# Setup\n\nInstall it.\n",
		}))

		var created translationBody
		r := s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "es",
			"source": map[string]any{"space": src, "language": "en"}}).WantStatus(t, 201)
		r.JSON(t, &created)
		if created.Object != "translation" || created.Status != "pending" || created.Result != nil || created.Source.Space != src ||
			created.Language != "es" || !created.Permissions.Edit || r.Header.Get("Location") == "" {
			t.Fatalf("created %+v", created)
		}
		run := func() translationBody {
			t.Helper()
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+created.ID+"/run", nil).WantStatus(t, 204)
			runJobs(t, s)
			return getTranslation(t, s, admin, org, created.ID)
		}
		first := run()
		if first.Status != "completed" || first.Result == nil || first.LastError != "" || first.Stats.Runs != 1 ||
			first.Stats.TotalPages != 2 || first.Stats.LatestPages != 2 || first.Stats.LatestWords == 0 ||
			first.Stats.TotalWords != first.Stats.LatestWords {
			t.Fatalf("first run %+v", first)
		}
		var source, target revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+src+"/content", nil).JSON(t, &source)
		s.Do(t, admin, "GET", "/v1/spaces/"+first.Result.Space+"/content", nil).JSON(t, &target)
		if target.ID != first.Result.Revision || len(target.Pages) != 2 || target.Pages[0].ID != source.Pages[0].ID ||
			target.Pages[0].Title != "HELLO" || target.Pages[1].Title != "SETUP" {
			t.Fatalf("target %+v", target.Pages)
		}
		md := pageMarkdown(t, s, admin, "/v1/spaces/"+first.Result.Space+"/content", target.Pages[0].ID)
		for _, want := range []string{"HELLO **BRAVE** WORLD", "`go build`", "fmt.Println(\"keep me\")", "(https://example.com/path)"} {
			if !strings.Contains(md, want) {
				t.Errorf("translated page lacks %q:\n%s", want, md)
			}
		}

		// Nothing changed: the second run translates nothing.
		before := engine.segments.Load()
		second := run()
		if second.Stats.Runs != 2 || second.Stats.LatestPages != 0 || second.Stats.LatestWords != 0 ||
			second.Stats.TotalWords != first.Stats.TotalWords || engine.segments.Load() != before {
			t.Fatalf("second run %+v (%d segments)", second, engine.segments.Load()-before)
		}

		// One page changes, with a glossary term: only it is translated.
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "insert", "translations": map[string]any{"en": "widget", "es": "artilugio"}}}}).WantStatus(t, 204)
		importInto(t, s, admin, src, source.Pages[1].ID, "markdown", []byte("# Setup\n\nInstall the widget.\n"))
		third := run()
		if third.Stats.LatestPages != 1 || third.Stats.TotalPages != 2 || third.Stats.Runs != 3 ||
			third.Stats.TotalWords <= second.Stats.TotalWords {
			t.Fatalf("third run %+v", third)
		}
		md = pageMarkdown(t, s, admin, "/v1/spaces/"+first.Result.Space+"/content", source.Pages[1].ID)
		if !strings.Contains(md, "artilugio") || strings.Contains(md, "WIDGET") {
			t.Fatalf("glossary not applied:\n%s", md)
		}

		// The engine fails mid-run: the target keeps its last good revision.
		importInto(t, s, admin, src, source.Pages[1].ID, "markdown", []byte("# Setup\n\nChanged again.\n"))
		engine.fail.Store(true)
		failed := run()
		if failed.Status != "completed" || failed.LastError == "" || failed.Result.Revision != third.Result.Revision ||
			failed.Stats.Runs != 4 || failed.Stats.LatestPages != 0 || failed.Stats.TotalWords != third.Stats.TotalWords {
			t.Fatalf("failed run %+v", failed)
		}
		var still revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+first.Result.Space+"/content", nil).JSON(t, &still)
		if still.ID != third.Result.Revision {
			t.Fatalf("a failed run changed the target: %s", still.ID)
		}
		engine.fail.Store(false)
		if again := run(); again.LastError != "" || again.Stats.Runs != 5 || again.Result.Space != first.Result.Space ||
			again.Stats.LatestPages != 1 || again.Stats.TotalPages != 2 {
			t.Fatalf("run after the failure %+v", again)
		}
	})
}

func TestTranslationWithoutEngineFailsClearly(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Guide")
		var tr translationBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "fr",
			"source": map[string]any{"space": src, "language": "en"}}).WantStatus(t, 201).JSON(t, &tr)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 204)
		runJobs(t, s)
		got := getTranslation(t, s, admin, org, tr.ID)
		if got.Status != "pending" || got.Result != nil || !strings.Contains(got.LastError, "no translation engine is configured") || got.Stats.Runs != 1 ||
			got.Stats.TotalPages != 0 {
			t.Fatalf("run without engine %+v", got)
		}
	})
}

func TestTranslationValidationAndAccess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Guide")
		source := map[string]any{"space": src, "language": "en"}
		for _, tc := range []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"no language", map[string]any{"source": source}, "language is required"},
			{"bad language", map[string]any{"language": "xx", "source": source}, "language must be one of en, fr, de, es, it, pt, pt-br, ru, ja, zh, yue, ko, ar, hi, nl, pl, tr, sv, no, da, fi, el, cs, hu, ro, th, vi, id, ms, he, uk, sk, bg, hr, lt, lv, et, sl"},
			{"no source", map[string]any{"language": "es"}, "source.space is required"},
			{"no source language", map[string]any{"language": "es", "source": map[string]any{"space": src}}, "source.language is required"},
			{"same language", map[string]any{"language": "en", "source": source}, "language must differ from source.language"},
			{"unknown space", map[string]any{"language": "es", "source": map[string]any{"space": "nope", "language": "en"}}, "source space nope not found in the organization"},
			{"bad instructions", map[string]any{"language": "es", "source": source, "instructions": map[string]any{"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "nope"}}}}, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := s.DoUnchecked(t, admin, "POST", "/v1/orgs/"+org+"/translations", tc.body)
				if tc.msg == "" {
					r.WantStatus(t, 400)
					return
				}
				r.WantError(t, 400, tc.msg)
			})
		}
		var list struct{ Count int }
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/translations", nil).WantStatus(t, 200).JSON(t, &list)
		if list.Count != 0 {
			t.Fatalf("refused requests created %d translations", list.Count)
		}

		var tr translationBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "de", "source": source,
			"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "paragraph",
				"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Use a formal tone.", "marks": []any{}}}}}}}}}).
			WantStatus(t, 201).JSON(t, &tr)
		var updated map[string]any
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations/"+tr.ID, map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}}).
			WantStatus(t, 200).JSON(t, &updated)

		_, reader := s.Member(t, org, folio.RoleRead)
		_, outsider := s.Org(t)
		seen := getTranslation(t, s, reader, org, tr.ID)
		if seen.Permissions.Edit {
			t.Fatalf("reader may edit: %+v", seen.Permissions)
		}
		s.Do(t, reader, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "it", "source": source}).WantError(t, 403, "you cannot change this organization's translations")
		s.Do(t, reader, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 403)
		s.Do(t, reader, "DELETE", "/v1/orgs/"+org+"/translations/"+tr.ID, nil).WantStatus(t, 403)
		s.Do(t, outsider, "GET", "/v1/orgs/"+org+"/translations/"+tr.ID, nil).WantStatus(t, 404)
		s.Do(t, outsider, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 404)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/nope/run", nil).WantError(t, 404, "translation not found")

		// Glossary: all or nothing.
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "insert", "translations": map[string]any{"en": "space", "fr": "espace"}},
			map[string]any{"type": "update", "id": "nope", "translations": map[string]any{"en": "x"}},
		}}).WantError(t, 400, "glossary entry nope not found")
		var entries struct {
			Count int
			Items []struct {
				ID           string
				Translations map[string]string
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/translations-glossary", nil).WantStatus(t, 200).JSON(t, &entries)
		if entries.Count != 0 {
			t.Fatalf("a refused batch changed the glossary: %+v", entries)
		}
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "insert", "translations": map[string]any{"en": "space", "fr": "espace"}}}}).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/translations-glossary", nil).WantStatus(t, 200).JSON(t, &entries)
		if entries.Count != 1 || entries.Items[0].Translations["fr"] != "espace" {
			t.Fatalf("glossary %+v", entries)
		}
		id := entries.Items[0].ID
		s.Do(t, reader, "GET", "/v1/orgs/"+org+"/translations-glossary/"+id, nil).WantStatus(t, 200)
		s.Do(t, reader, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "delete", "id": id}}}).WantStatus(t, 403)
		s.DoUnchecked(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "update", "id": id, "translations": map[string]any{"klingon": "x"}}}}).WantError(t, 400, "klingon is not a language code of the reference")
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "update", "id": id, "translations": map[string]any{"en": "space", "fr": "espace", "de": "Bereich"}}}}).WantStatus(t, 204)
		s.Do(t, admin, "PUT", "/v1/orgs/"+org+"/translations-glossary", map[string]any{"operations": []any{
			map[string]any{"type": "delete", "id": id}}}).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/translations-glossary/"+id, nil).WantError(t, 404, "glossary entry not found")

		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/translations/"+tr.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/orgs/"+org+"/translations/"+tr.ID, nil).WantStatus(t, 204)
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/translations/"+tr.ID, nil).WantError(t, 404, "translation not found")
	})
}

// TestTranslationWithApertium translates a small space from English to
// Spanish with a real engine, Debian's apertium and its eng-spa pair
// (installed by .ci/run): the text is Spanish, code and links untouched.
func TestTranslationWithApertium(t *testing.T) {
	if _, err := exec.LookPath("apertium"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("apertium is not installed (apt-get install apertium apertium-en-es)")
		}
		t.Skip("apertium is not installed")
	}
	engine, err := translate.New(translate.Config{Engine: translate.EngineApertium})
	if err != nil {
		t.Fatal(err)
	}
	apitest.RunOptions(t, apitest.Options{Translator: engine}, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Garden")
		importInto(t, s, admin, src, "", "markdown", []byte("# The garden\n\nThe house has a big garden and the dog sleeps in the garden.\n\n"+
			"Read [the book](https://example.com/book) today.\n\n```sh\nmake build\n```\n"))
		var tr translationBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "es",
			"source": map[string]any{"space": src, "language": "en"}}).WantStatus(t, 201).JSON(t, &tr)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 204)
		runJobs(t, s)
		got := getTranslation(t, s, admin, org, tr.ID)
		if got.Status != "completed" || got.LastError != "" || got.Result == nil || got.Stats.LatestPages != 1 {
			t.Fatalf("run %+v", got)
		}
		var target revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+got.Result.Space+"/content", nil).JSON(t, &target)
		md := pageMarkdown(t, s, admin, "/v1/spaces/"+got.Result.Space+"/content", target.Pages[0].ID)
		for _, want := range []string{"casa", "jardín", "perro", "(https://example.com/book)", "make build"} {
			if !strings.Contains(md, want) {
				t.Errorf("translated page lacks %q:\n%s", want, md)
			}
		}
		if !strings.Contains(strings.ToLower(target.Pages[0].Title), "jardín") {
			t.Errorf("title %q", target.Pages[0].Title)
		}
	})
}

// Asking for runs while one waits queues no more: the waiting run
// translates the latest content.
func TestTranslationRunsDoNotPileUp(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Guide")
		var tr translationBody
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations", map[string]any{"language": "fr",
			"source": map[string]any{"space": src, "language": "en"}}).WantStatus(t, 201).JSON(t, &tr)
		for range 3 {
			s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 204)
		}
		ctx := context.Background()
		var n int
		s.DB.Read(ctx, func(tx *store.Tx) (err error) { n, err = store.CountJobs(ctx, tx, folio.JobTranslate); return err })
		if n != 1 {
			t.Fatalf("%d translation jobs queued, want 1", n)
		}
		runJobs(t, s)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/translations/"+tr.ID+"/run", nil).WantStatus(t, 204)
		s.DB.Read(ctx, func(tx *store.Tx) (err error) { n, err = store.CountJobs(ctx, tx, folio.JobTranslate); return err })
		if n != 2 {
			t.Fatalf("%d translation jobs after the first ran, want 2", n)
		}
	})
}
