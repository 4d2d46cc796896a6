package translate_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/translate"
	"github.com/google/go-cmp/cmp"
)

// recorder is a loopback server answering with fn and keeping the requests'
// headers and JSON bodies.
type recorder struct {
	URL     string
	mu      sync.Mutex
	headers []http.Header
	paths   []string
	bodies  []map[string]any
}

func newRecorder(t *testing.T, fn func(body map[string]any, n int) (int, any)) *recorder {
	t.Helper()
	r := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body map[string]any
		json.NewDecoder(req.Body).Decode(&body)
		r.mu.Lock()
		r.headers = append(r.headers, req.Header.Clone())
		r.paths = append(r.paths, req.Method+" "+req.URL.Path)
		r.bodies = append(r.bodies, body)
		n := len(r.bodies)
		r.mu.Unlock()
		status, resp := fn(body, n)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func strs(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

func TestDeepL(t *testing.T) {
	ctx := context.Background()
	rec := newRecorder(t, func(body map[string]any, _ int) (int, any) {
		var tr []map[string]string
		for _, s := range strs(body["text"]) {
			tr = append(tr, map[string]string{"detected_source_language": "EN", "text": upper(s, true)})
		}
		return 200, map[string]any{"translations": tr}
	})
	e, err := translate.New(translate.Config{Engine: "deepl", URL: rec.URL, APIKey: "k-123:fx", MaxBatch: 100})
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "deepl" {
		t.Errorf("Name() = %q", e.Name())
	}
	doc := content.NewDocument("Click here", "Save now")
	out, words, err := translate.TranslateDocument(ctx, e, doc, translate.Request{Source: "pt-br", Target: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.PlainText(); got != "CLICK HERE\nSAVE NOW" || words != 4 {
		t.Errorf("got %q, %d words", got, words)
	}
	b := rec.bodies[0]
	if rec.paths[0] != "POST /v2/translate" || rec.headers[0].Get("Authorization") != "DeepL-Auth-Key k-123:fx" ||
		b["source_lang"] != "PT" || b["target_lang"] != "EN-US" || b["tag_handling"] != "xml" {
		t.Errorf("request %s %v %v", rec.paths[0], rec.headers[0], b)
	}

	t.Run("targets", func(t *testing.T) {
		for code, want := range map[string]string{"pt-br": "PT-BR", "pt": "PT-PT", "de": "DE", "zh": "ZH-HANS", "no": "NB"} {
			n := len(rec.bodies)
			if _, _, err := translate.TranslateText(ctx, e, []string{"Hello"}, translate.Request{Source: "en", Target: code}); err != nil {
				t.Fatal(err)
			}
			if got := rec.bodies[n]["target_lang"]; got != want {
				t.Errorf("%s sent as %v, want %s", code, got, want)
			}
		}
	})
	t.Run("at most 50 texts a request", func(t *testing.T) {
		n := len(rec.bodies)
		texts := make([]string, 120)
		for i := range texts {
			texts[i] = "word"
		}
		got, words, err := translate.TranslateText(ctx, e, texts, translate.Request{Source: "en", Target: "de"})
		if err != nil || len(got) != 120 || got[119] != "WORD" || words != 120 {
			t.Fatalf("%v %d %v", err, words, got[119])
		}
		var sizes []int
		for _, b := range rec.bodies[n:] {
			sizes = append(sizes, len(strs(b["text"])))
		}
		if diff := cmp.Diff([]int{50, 50, 20}, sizes); diff != "" {
			t.Errorf("batches (-want +got):\n%s", diff)
		}
	})
	for _, tc := range []struct {
		status int
		kind   folio.Kind
	}{{403, folio.Invalid}, {456, folio.Unavailable}, {503, folio.Unavailable}} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			bad := newRecorder(t, func(map[string]any, int) (int, any) {
				return tc.status, map[string]string{"message": "Wrong key k-123:fx"}
			})
			e, _ := translate.New(translate.Config{Engine: "deepl", URL: bad.URL, APIKey: "k-123:fx"})
			_, _, err := translate.TranslateDocument(ctx, e, doc, translate.Request{Source: "en", Target: "de"})
			msg := folio.MessageOf(err)
			if folio.KindOf(err) != tc.kind || strings.Contains(msg, "k-123") || !strings.Contains(msg, "deepl") {
				t.Errorf("err = %v (%q)", err, msg)
			}
		})
	}
	t.Run("count mismatch", func(t *testing.T) {
		short := newRecorder(t, func(map[string]any, int) (int, any) {
			return 200, map[string]any{"translations": []map[string]string{{"text": "one"}}}
		})
		e, _ := translate.New(translate.Config{Engine: "deepl", URL: short.URL, APIKey: "k"})
		_, _, err := translate.TranslateDocument(ctx, e, doc, translate.Request{Source: "en", Target: "de"})
		if folio.KindOf(err) != folio.Unavailable || !strings.Contains(folio.MessageOf(err), "returned 1 translations for 2") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("needs a key", func(t *testing.T) {
		if _, err := translate.New(translate.Config{Engine: "deepl"}); folio.KindOf(err) != folio.Invalid {
			t.Errorf("err = %v", err)
		}
	})
}

// chatAnswer is an OpenAI chat completions answer holding content.
func chatAnswer(content string) map[string]any {
	return map[string]any{"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}}}}
}

func userSegments(body map[string]any) []string {
	msgs := body["messages"].([]any)
	var segs []string
	json.Unmarshal([]byte(msgs[1].(map[string]any)["content"].(string)), &segs)
	return segs
}

func TestOpenAI(t *testing.T) {
	ctx := context.Background()
	wrong := 0 // answers with the wrong count before behaving
	var mu sync.Mutex
	rec := newRecorder(t, func(body map[string]any, _ int) (int, any) {
		segs := userSegments(body)
		out := make([]string, len(segs))
		for i, s := range segs {
			out[i] = upper(s, true)
		}
		mu.Lock()
		defer mu.Unlock()
		if wrong > 0 {
			wrong--
			out = out[:len(out)-1]
		}
		b, _ := json.Marshal(out)
		return 200, chatAnswer("Here you go:\n```json\n" + string(b) + "\n```")
	})
	e, err := translate.New(translate.Config{Engine: "openai", URL: rec.URL + "/v1", APIKey: "sk-abc", Model: "llama3"})
	if err != nil {
		t.Fatal(err)
	}
	src := loadDoc(t, "testdata/source.json")
	req := translate.Request{Source: "en", Target: "es", Glossary: glossary, Instructions: "Use the informal tú."}
	out, words, err := translate.TranslateDocument(ctx, e, src, req)
	if err != nil {
		t.Fatal(err)
	}
	if words != 44 {
		t.Errorf("words = %d", words)
	}
	golden(t, "want-libretranslate.json", docJSON(t, out)) // same fake transformation, same result
	b := rec.bodies[0]
	if rec.paths[0] != "POST /v1/chat/completions" || rec.headers[0].Get("Authorization") != "Bearer sk-abc" || b["model"] != "llama3" {
		t.Errorf("request %s %v %v", rec.paths[0], rec.headers[0], b["model"])
	}
	system := b["messages"].([]any)[0].(map[string]any)["content"].(string)
	for _, want := range []string{"from English to Spanish", `"Save" → "Guardar"`, `"pull request" → "solicitud de cambios"`, "Use the informal tú.", `<x id="N"/>`} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, system)
		}
	}

	t.Run("a wrong count is retried segment by segment", func(t *testing.T) {
		mu.Lock()
		wrong = 1
		mu.Unlock()
		n := len(rec.bodies)
		got, _, err := translate.TranslateText(ctx, e, []string{"one", "two", "three"}, translate.Request{Source: "en", Target: "fr"})
		if err != nil || cmp.Diff([]string{"ONE", "TWO", "THREE"}, got) != "" {
			t.Fatalf("%v %v", err, got)
		}
		if len(rec.bodies)-n != 4 {
			t.Errorf("%d requests, want 1 batch and 3 retries", len(rec.bodies)-n)
		}
	})
	t.Run("a wrong count for one segment is an error", func(t *testing.T) {
		bad := newRecorder(t, func(map[string]any, int) (int, any) { return 200, chatAnswer(`["a", "b"]`) })
		e, _ := translate.New(translate.Config{Engine: "openai", URL: bad.URL, Model: "m"})
		_, _, err := translate.TranslateText(ctx, e, []string{"one"}, translate.Request{Source: "en", Target: "fr"})
		if folio.KindOf(err) != folio.Unavailable || !strings.Contains(folio.MessageOf(err), "returned 2 translations for 1 segments") {
			t.Errorf("err = %v", err)
		}
		if h := bad.headers[0].Get("Authorization"); h != "" {
			t.Errorf("Authorization %q sent without a key", h)
		}
	})
	t.Run("no array", func(t *testing.T) {
		bad := newRecorder(t, func(map[string]any, int) (int, any) { return 200, chatAnswer("Sorry, I cannot.") })
		e, _ := translate.New(translate.Config{Engine: "openai", URL: bad.URL, Model: "m"})
		_, _, err := translate.TranslateText(ctx, e, []string{"one"}, translate.Request{Source: "en", Target: "fr"})
		if folio.KindOf(err) != folio.Unavailable {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("engine error", func(t *testing.T) {
		bad := newRecorder(t, func(map[string]any, int) (int, any) {
			return 401, map[string]any{"error": map[string]string{"message": "Incorrect API key provided: sk-abc"}}
		})
		e, _ := translate.New(translate.Config{Engine: "openai", URL: bad.URL, Model: "m", APIKey: "sk-abc"})
		_, _, err := translate.TranslateText(ctx, e, []string{"one"}, translate.Request{Source: "en", Target: "fr"})
		msg := folio.MessageOf(err)
		if folio.KindOf(err) != folio.Invalid || strings.Contains(msg, "sk-abc") || !strings.Contains(msg, "Incorrect API key") {
			t.Errorf("err = %v (%q)", err, msg)
		}
	})
	t.Run("needs a model", func(t *testing.T) {
		if _, err := translate.New(translate.Config{Engine: "openai", URL: rec.URL}); folio.KindOf(err) != folio.Invalid {
			t.Errorf("err = %v", err)
		}
	})
}

func TestApertiumHTTP(t *testing.T) {
	var mu sync.Mutex
	var forms []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		forms = append(forms, r.URL.Path+" "+r.Form.Get("langpair"))
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"responseData": map[string]string{"translatedText": upper(r.Form.Get("q"), true)}, "responseStatus": 200})
	}))
	defer srv.Close()
	e, err := translate.New(translate.Config{Engine: "apertium", URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, words, err := translate.TranslateText(context.Background(), e, []string{"Hello world", "a <b> & c"}, translate.Request{Source: "en", Target: "es"})
	if err != nil || cmp.Diff([]string{"HELLO WORLD", "A <B> & C"}, got) != "" || words != 5 {
		t.Fatalf("%v %q %d", err, got, words)
	}
	if diff := cmp.Diff([]string{"/translate eng|spa"}, forms); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestApertiumCommand translates a small document with Debian's apertium
// and its English-Spanish pair. Without them the test is skipped, unless CI
// is set, where it must run.
func TestApertiumCommand(t *testing.T) {
	if _, err := exec.LookPath("apertium"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI needs apertium and apertium-eng-spa installed")
		}
		t.Skip("apertium is not installed")
	}
	ctx := context.Background()
	e, err := translate.New(translate.Config{Engine: "apertium"})
	if err != nil {
		t.Fatal(err)
	}
	doc := &content.Document{Object: content.ObjectDocument, Data: map[string]any{}, Nodes: []content.Node{
		content.NewBlock(content.BlockHeading1, content.NewText("The red house")),
		content.NewBlock(content.BlockParagraph, textNode(lf("The dog is "), lf("very big", "bold"), lf(". Run "), lf("make build", "code"), lf(" today."))),
		content.NewBlock(content.BlockParagraph, textNode(lf("Read ")),
			linkTo("https://example.com/the/house", "the book"), textNode(lf(" in the garden."))),
		content.NewBlock(content.BlockCode, content.NewBlock(content.BlockCodeLine, content.NewText("the house is red"))),
	}}
	doc.Normalize()
	out, words, err := translate.TranslateDocument(ctx, e, doc, translate.Request{Source: "en", Target: "es"})
	if err != nil {
		t.Fatal(err)
	}
	text := out.PlainText()
	t.Logf("apertium:\n%s", text)
	for _, want := range []string{"casa", "perro", "libro", "jardín", "make build", "the house is red"} {
		if !strings.Contains(text, want) {
			t.Errorf("translation lacks %q:\n%s", want, text)
		}
	}
	if words != 3+7+6 {
		t.Errorf("words = %d, want 16", words)
	}
	if diff := cmp.Diff(shape(t, doc), shape(t, out)); diff != "" {
		// Apertium may move a mark; the structure of blocks, inlines and
		// data must stay.
		t.Logf("leaf layout changed (-source +translation):\n%s", diff)
	}
	p := out.Nodes[2].Nodes
	if len(p) != 3 || p[1].Type != content.InlineLink || p[1].Data["ref"].(map[string]any)["url"] != "https://example.com/the/house" {
		t.Errorf("link changed: %+v", p)
	}
	if err := out.Validate("document"); err != nil {
		t.Error(err)
	}

	t.Run("a pair not installed", func(t *testing.T) {
		_, _, err := translate.TranslateText(ctx, e, []string{"Hello"}, translate.Request{Source: "en", Target: "fi"})
		if folio.KindOf(err) != folio.Invalid || !strings.Contains(folio.MessageOf(err), "en to fi") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("needs a source language", func(t *testing.T) {
		_, _, err := translate.TranslateText(ctx, e, []string{"Hello"}, translate.Request{Target: "es"})
		if folio.KindOf(err) != folio.Invalid {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a missing command", func(t *testing.T) {
		e, _ := translate.New(translate.Config{Engine: "apertium", ApertiumBinary: "/nonexistent/apertium"})
		_, _, err := translate.TranslateText(ctx, e, []string{"Hello"}, translate.Request{Source: "en", Target: "es"})
		if folio.KindOf(err) != folio.Invalid || !strings.Contains(folio.MessageOf(err), "not installed") {
			t.Errorf("err = %v", err)
		}
	})
}

func linkTo(url, text string) content.Node {
	n := content.NewInline(content.InlineLink, content.NewText(text))
	n.Data = map[string]any{"ref": map[string]any{"kind": "url", "url": url}}
	return n
}
