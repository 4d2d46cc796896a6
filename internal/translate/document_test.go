package translate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/translate"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/want*.json")

var glossary = map[string]string{"Save": "Guardar", "Folio server": "servidor Folio", "pull request": "solicitud de cambios"}

func loadDoc(t *testing.T, path string) *content.Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d content.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &d
}

func docJSON(t *testing.T, d *content.Document) []byte {
	t.Helper()
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := "testdata/" + name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func libre(t *testing.T, f *fakeLibre, cfg translate.Config) translate.Engine {
	t.Helper()
	cfg.Engine, cfg.URL = translate.EngineLibreTranslate, f.URL
	e, err := translate.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// shape returns the document's JSON with every leaf text and every alt,
// caption and title string blanked, so two documents with the same structure, marks and
// data compare equal.
func shape(t *testing.T, d *content.Document) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(docJSON(t, d), &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["object"] == "leaf" {
				x["text"] = ""
			}
			for _, k := range []string{"alt", "caption", "title"} {
				if _, ok := x[k].(string); ok {
					x[k] = ""
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

func TestTranslateDocumentLibreTranslate(t *testing.T) {
	f := newFakeLibre(t)
	e := libre(t, f, translate.Config{APIKey: "s3cret"})
	src := loadDoc(t, "testdata/source.json")
	before := docJSON(t, src)

	out, words, err := translate.TranslateDocument(context.Background(), e, src, translate.Request{Source: "en", Target: "es", Glossary: glossary})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "want-libretranslate.json", docJSON(t, out))
	if words != 44 {
		t.Errorf("words = %d, want 44", words)
	}
	if !bytes.Equal(before, docJSON(t, src)) {
		t.Error("TranslateDocument changed its input")
	}
	if diff := cmp.Diff(shape(t, src), shape(t, out)); diff != "" {
		t.Errorf("structure changed (-source +translation):\n%s", diff)
	}
	if err := out.Validate("document"); err != nil {
		t.Errorf("translated document does not validate: %v", err)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 batch", len(reqs))
	}
	r := reqs[0]
	if r.Source != "en" || r.Target != "es" || r.Format != "html" || r.APIKey != "s3cret" || len(r.Q) != 10 {
		t.Errorf("request = %+v", r)
	}
	for _, q := range r.Q {
		for _, never := range []string{"store", "example.com", "1f389", "space.vars", "Ctrl+S", "save the file", "x = save"} {
			if strings.Contains(q, never) {
				t.Errorf("segment %q carries untouchable %q", q, never)
			}
		}
	}
}

func TestSegmentMarkup(t *testing.T) {
	f := newFakeLibre(t)
	e := libre(t, f, translate.Config{})
	src := loadDoc(t, "testdata/source.json")
	if _, _, err := translate.TranslateDocument(context.Background(), e, src, translate.Request{Source: "en", Target: "fr"}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`Getting started`,
		`Click <g id="0">Save</g> to <x id="1"/> it &amp; &lt;quit&gt;.`,
		`Read <g id="0">the <g id="1">guide</g></g> or <x id="2"/> ask <x id="3"/>.`,
		`<g id="0">Always <g id="1">back up</g> your data</g> daily, <g id="2">in red</g> press <x id="3"/>`,
		`Use the folio server every day`,
		`Pull requests welcome; a pull request needs review.`,
		`Screenshot of the editor`,
		`A screenshot`,
		`Name`,
		`Value here`,
	}
	if diff := cmp.Diff(want, f.requests()[0].Q); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
}

func TestMangledTagsFallBackToLeaves(t *testing.T) {
	f := newFakeLibre(t)
	f.set(func(f *fakeLibre) { f.mangle = true })
	e := libre(t, f, translate.Config{})
	src := loadDoc(t, "testdata/source.json")
	out, words, err := translate.TranslateDocument(context.Background(), e, src, translate.Request{Source: "en", Target: "de", Glossary: glossary})
	if err != nil {
		t.Fatal(err)
	}
	if words != 44 {
		t.Errorf("words = %d, want 44", words)
	}
	if diff := cmp.Diff(shape(t, src), shape(t, out)); diff != "" {
		t.Errorf("structure changed (-source +translation):\n%s", diff)
	}
	golden(t, "want-fallback.json", docJSON(t, out))
	reqs := f.requests()
	if len(reqs) != 2 || reqs[1].Format != "text" {
		t.Fatalf("want a markup request then a text one, got %+v", reqs)
	}
}

func TestStructureOfFullDocument(t *testing.T) {
	f := newFakeLibre(t)
	e := libre(t, f, translate.Config{MaxBatch: 3})
	src := loadDoc(t, "../content/testdata/full.json")
	out, words, err := translate.TranslateDocument(context.Background(), e, src, translate.Request{Target: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	if words == 0 {
		t.Error("no words counted")
	}
	golden(t, "want-full.txt", []byte(out.PlainText()+"\n"))
	if diff := cmp.Diff(shape(t, src), shape(t, out)); diff != "" {
		t.Errorf("structure changed (-source +translation):\n%s", diff)
	}
	if err := out.Validate("document"); err != nil {
		t.Errorf("translated document does not validate: %v", err)
	}
	for _, r := range f.requests() {
		if len(r.Q) > 3 || r.Source != "auto" || r.Target != "ja" {
			t.Errorf("request %+v breaks MaxBatch 3 or the codes", r)
		}
	}
}

func TestTranslateText(t *testing.T) {
	f := newFakeLibre(t)
	e := libre(t, f, translate.Config{})
	got, words, err := translate.TranslateText(context.Background(), e,
		[]string{"Save your work", "", "  ", "How a pull request works", "v2 & <beta>", " Save "}, translate.Request{Source: "en", Target: "pt-br", Glossary: glossary})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Guardar YOUR WORK", "", "  ", "HOW A solicitud de cambios WORKS", "V2 & <BETA>", " Guardar "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if words != 3+5+2+1 {
		t.Errorf("words = %d, want 11", words)
	}
	if r := f.requests()[0]; r.Target != "pb" || len(r.Q) != 3 {
		t.Errorf("pt-br sent as %q, want LibreTranslate's pb", r.Target)
	}
}

func TestCountWords(t *testing.T) {
	for s, want := range map[string]int{
		"":                        0,
		"  → ✓ ":                  0,
		"Hello, world!":           2,
		"don't stop e-mail":       3,
		"v2.0 is 100% done":       5,
		"日本語のテキスト":                8,
		"Привет мир":              2,
		"trailing- 'quoted' word": 3,
	} {
		if got := translate.CountWords(s); got != want {
			t.Errorf("CountWords(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	doc := content.NewDocument("Hello world")
	req := translate.Request{Source: "en", Target: "es"}

	t.Run("ErrNoEngine", func(t *testing.T) {
		if _, err := translate.New(translate.Config{}); !errors.Is(err, translate.ErrNoEngine) || folio.KindOf(err) != folio.Invalid {
			t.Errorf("New({}) = %v, want ErrNoEngine", err)
		}
		if _, _, err := translate.TranslateDocument(ctx, nil, doc, req); !errors.Is(err, translate.ErrNoEngine) {
			t.Errorf("TranslateDocument(nil engine) = %v, want ErrNoEngine", err)
		}
	})
	t.Run("unknown engine", func(t *testing.T) {
		if _, err := translate.New(translate.Config{Engine: "babelfish"}); folio.KindOf(err) != folio.Invalid {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	f := newFakeLibre(t)
	e := libre(t, f, translate.Config{APIKey: "s3cret", Timeout: 200 * time.Millisecond})
	t.Run("unknown language", func(t *testing.T) {
		_, _, err := translate.TranslateDocument(ctx, e, doc, translate.Request{Source: "en", Target: "klingon"})
		if folio.KindOf(err) != folio.Invalid {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	for _, tc := range []struct {
		name   string
		status int
		kind   folio.Kind
	}{{"engine 500", 500, folio.Unavailable}, {"engine 400", 400, folio.Invalid}, {"engine 429", 429, folio.Unavailable}} {
		t.Run(tc.name, func(t *testing.T) {
			f.set(func(f *fakeLibre) { f.status = tc.status })
			defer f.set(func(f *fakeLibre) { f.status = 0 })
			_, _, err := translate.TranslateDocument(ctx, e, doc, req)
			if folio.KindOf(err) != tc.kind {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
			msg := folio.MessageOf(err)
			if !strings.Contains(msg, "libretranslate") || !strings.Contains(msg, "target language not supported") ||
				strings.Contains(msg, f.URL) || strings.Contains(msg, "s3cret") {
				t.Errorf("message %q", msg)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		f.set(func(f *fakeLibre) { f.delay = 5 * time.Second })
		defer f.set(func(f *fakeLibre) { f.delay = 0 })
		start := time.Now()
		_, _, err := translate.TranslateDocument(ctx, e, doc, req)
		if folio.KindOf(err) != folio.Unavailable || !strings.Contains(folio.MessageOf(err), "timed out") {
			t.Errorf("err = %v, want Unavailable timed out", err)
		}
		if time.Since(start) > 2*time.Second {
			t.Errorf("took %v despite a 200ms timeout", time.Since(start))
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := translate.TranslateDocument(c, e, doc, req); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled in the chain", err)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		e, _ := translate.New(translate.Config{Engine: "libretranslate", URL: "http://127.0.0.1:1", APIKey: "s3cret"})
		_, _, err := translate.TranslateDocument(ctx, e, doc, req)
		if folio.KindOf(err) != folio.Unavailable || strings.Contains(folio.MessageOf(err), "127.0.0.1") {
			t.Errorf("err = %v", err)
		}
	})
}
