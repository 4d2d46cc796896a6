package translate

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// Engine translates plain text segments from one language to another.
// Implementations return exactly one output per input segment, in order, and
// errors that are *folio.Error values with messages safe to show.
type Engine interface {
	Name() string
	Translate(ctx context.Context, req Request) ([]string, error)
}

// Request is one translation call. Source and Target are codes of the
// reference's TranslationLanguage enum; an empty Source asks the engine to
// detect the language where it can.
type Request struct {
	Source, Target string
	Segments       []string
	// Glossary maps source terms to the target terms every run must use.
	// TranslateDocument and TranslateText enforce it themselves; engines
	// only pass it on where they can use it (the prompt of an LLM).
	Glossary map[string]string
	// Instructions is plain text for LLM engines; others ignore it.
	Instructions string
	// Format is FormatText (the default) or FormatMarkup: segments holding
	// the <g id="N">…</g> and <x id="N"/> tags and HTML escapes described
	// in doc.go, which the engine must keep.
	Format string
}

// Segment formats of a Request.
const (
	FormatText   = "text"
	FormatMarkup = "markup"
)

// Engine names accepted by Config.Engine.
const (
	EngineLibreTranslate = "libretranslate"
	EngineDeepL          = "deepl"
	EngineOpenAI         = "openai"
	EngineApertium       = "apertium"
)

// Config chooses and configures the server's engine.
type Config struct {
	Engine         string // EngineLibreTranslate, EngineDeepL, EngineOpenAI, EngineApertium or "" for none
	URL            string // base URL of the HTTP API (for Apertium, of an APy service instead of the command)
	APIKey         string
	Model          string        // chat model for EngineOpenAI
	ApertiumBinary string        // path of the apertium command; "apertium" when empty
	HTTP           *http.Client  // the operator configured the engine, so not the tenants' guarded client (netguard.OperatorClient); http.DefaultClient when nil
	Timeout        time.Duration // limit on one engine call; DefaultTimeout when zero
	MaxBatch       int           // segments per engine call; each engine's default when zero
}

// Defaults and bounds.
const (
	DefaultTimeout  = 60 * time.Second
	DefaultMaxBatch = 25
	// maxBatchBytes bounds the text of one engine call; a longer segment is
	// sent alone.
	maxBatchBytes = 24 << 10
	// MaxGlossaryEntries bounds the glossary of one request.
	MaxGlossaryEntries = 5000
	// maxResponseBytes bounds what is read from an engine's answer.
	maxResponseBytes = 16 << 20
)

// ErrNoEngine is returned by New when the server has no engine configured;
// its kind is Invalid so that a run fails for good and records the reason.
var ErrNoEngine = folio.Errorf(folio.Invalid, "no translation engine is configured on this server")

// New returns the engine that cfg names. It returns ErrNoEngine for an empty
// name and an Invalid error for an unknown one or missing settings.
func New(cfg Config) (Engine, error) {
	if cfg.HTTP == nil {
		cfg.HTTP = http.DefaultClient
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	switch strings.ToLower(strings.TrimSpace(cfg.Engine)) {
	case "":
		return nil, ErrNoEngine
	case EngineLibreTranslate:
		if cfg.URL == "" {
			return nil, folio.Errorf(folio.Invalid, "the libretranslate engine needs a URL")
		}
		return &libreTranslate{cfg: cfg}, nil
	case EngineDeepL:
		if cfg.APIKey == "" {
			return nil, folio.Errorf(folio.Invalid, "the deepl engine needs an API key")
		}
		if cfg.URL == "" {
			cfg.URL = "https://api.deepl.com"
			if strings.HasSuffix(cfg.APIKey, ":fx") {
				cfg.URL = "https://api-free.deepl.com"
			}
		}
		return &deepL{cfg: cfg}, nil
	case EngineOpenAI:
		if cfg.URL == "" {
			return nil, folio.Errorf(folio.Invalid, "the openai engine needs a URL")
		}
		if cfg.Model == "" {
			return nil, folio.Errorf(folio.Invalid, "the openai engine needs a model")
		}
		return &openAI{cfg: cfg}, nil
	case EngineApertium:
		if cfg.ApertiumBinary == "" {
			cfg.ApertiumBinary = "apertium"
		}
		return &apertium{cfg: cfg}, nil
	}
	return nil, folio.Errorf(folio.Invalid, "unknown translation engine %q", cfg.Engine)
}

// languages is the reference's TranslationLanguage enum.
var languages = map[string]bool{}

func init() {
	for _, c := range strings.Fields("en fr de es it pt pt-br ru ja zh yue ko ar hi nl pl tr sv no da fi el cs hu ro th vi id ms he uk sk bg hr lt lv et sl") {
		languages[c] = true
	}
}

// IsLanguage reports whether code is one of the reference's translation
// languages.
func IsLanguage(code string) bool { return languages[code] }

// check validates the languages and glossary of req.
func (req *Request) check() error {
	if req.Source != "" && !languages[req.Source] {
		return folio.Errorf(folio.Invalid, "unknown source language %q", req.Source)
	}
	if !languages[req.Target] {
		return folio.Errorf(folio.Invalid, "unknown target language %q", req.Target)
	}
	if req.Source == req.Target {
		return folio.Errorf(folio.Invalid, "the source and target languages are the same")
	}
	if len(req.Glossary) > MaxGlossaryEntries {
		return folio.Errorf(folio.Invalid, "a glossary holds at most %d entries", MaxGlossaryEntries)
	}
	return nil
}

// batches calls fn on consecutive runs of segs holding at most maxN segments
// and about maxBatchBytes of text, and gathers the outputs, checking that
// each call answers one output per segment.
func batches(ctx context.Context, name string, segs []string, maxN int, fn func(context.Context, []string) ([]string, error)) ([]string, error) {
	out := make([]string, 0, len(segs))
	for start := 0; start < len(segs); {
		if err := ctx.Err(); err != nil {
			return nil, engineFailed(name, err)
		}
		end, size := start, 0
		for end < len(segs) && end-start < maxN && (end == start || size+len(segs[end]) <= maxBatchBytes) {
			size += len(segs[end])
			end++
		}
		got, err := fn(ctx, segs[start:end])
		if err != nil {
			return nil, err
		}
		if len(got) != end-start {
			return nil, folio.Errorf(folio.Unavailable, "translation engine %s returned %d translations for %d segments", name, len(got), end-start)
		}
		out = append(out, got...)
		start = end
	}
	return out, nil
}

// engineFailed wraps a transport or context error as Unavailable with a
// message that names neither URLs nor keys.
func engineFailed(name string, err error) error {
	msg := "translation engine " + name + " could not be reached"
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "translation engine " + name + " timed out"
	} else if errors.Is(err, context.Canceled) {
		msg = "translation with engine " + name + " was cancelled"
	}
	return &folio.Error{Kind: folio.Unavailable, Message: msg, Err: err}
}

// engineRefused turns an engine's error answer into an error: 429 and 5xx
// are Unavailable (worth a retry), other statuses Invalid. detail is the
// engine's own message, trimmed, with the key removed.
func engineRefused(name string, status int, detail, key string) error {
	kind := folio.Invalid
	if status == http.StatusTooManyRequests || status >= 500 || status == 456 {
		kind = folio.Unavailable
	}
	detail = strings.TrimSpace(detail)
	if key != "" {
		detail = strings.ReplaceAll(detail, key, "[key]")
	}
	if r := []rune(detail); len(r) > 200 {
		detail = string(r[:200]) + "…"
	}
	msg := "translation engine " + name + " answered " + http.StatusText(status)
	if http.StatusText(status) == "" {
		msg = "translation engine " + name + " answered status " + strconv.Itoa(status)
	}
	if detail != "" {
		msg += ": " + detail
	}
	return folio.Errorf(kind, "%s", msg)
}
