package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/foliodocs/folio"
)

// openAI calls any OpenAI-compatible chat completions API: POST
// {url}/chat/completions with the model and two messages. The system message
// holds the task, the glossary and the run's instructions; the user message
// is the batch as a JSON array, and the answer must be a JSON array of as
// many strings. A batch answered with the wrong count is retried one segment
// at a time, so a model that merges or splits lines costs calls, not text.
type openAI struct{ cfg Config }

func (e *openAI) Name() string { return EngineOpenAI }

// maxPromptGlossary bounds the glossary entries listed in a prompt.
const maxPromptGlossary = 500

// languageNames names the reference's languages in a prompt.
var languageNames = map[string]string{
	"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian",
	"pt": "European Portuguese", "pt-br": "Brazilian Portuguese", "ru": "Russian", "ja": "Japanese",
	"zh": "Simplified Chinese", "yue": "Cantonese", "ko": "Korean", "ar": "Arabic", "hi": "Hindi",
	"nl": "Dutch", "pl": "Polish", "tr": "Turkish", "sv": "Swedish", "no": "Norwegian (Bokmål)",
	"da": "Danish", "fi": "Finnish", "el": "Greek", "cs": "Czech", "hu": "Hungarian", "ro": "Romanian",
	"th": "Thai", "vi": "Vietnamese", "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian",
	"sk": "Slovak", "bg": "Bulgarian", "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian",
	"et": "Estonian", "sl": "Slovenian",
}

// systemPrompt writes the task for one request.
func systemPrompt(req Request) string {
	var b strings.Builder
	from := languageNames[req.Source]
	if from == "" {
		from = "its language"
	}
	fmt.Fprintf(&b, "You are a professional translator of technical documentation. Translate every string of the JSON array that the user sends from %s to %s.\n", from, languageNames[req.Target])
	b.WriteString("Answer with only a JSON array of strings: exactly one translation per input string, in the same order, with nothing before or after the array.\n")
	if req.Format == FormatMarkup {
		b.WriteString("The strings contain tags <g id=\"N\">…</g> around formatted text and <x id=\"N\"/> for content that must not change. Keep every tag exactly once, unchanged, translating the text inside and around <g> tags; keep HTML escapes such as &lt; &gt; &amp;.\n")
	}
	if len(req.Glossary) > 0 {
		terms := make([]string, 0, len(req.Glossary))
		for k := range req.Glossary {
			terms = append(terms, k)
		}
		slices.Sort(terms)
		b.WriteString("Always translate these glossary terms as given:\n")
		for i, k := range terms {
			if i == maxPromptGlossary {
				break
			}
			src, _ := json.Marshal(k)
			dst, _ := json.Marshal(req.Glossary[k])
			fmt.Fprintf(&b, "- %s → %s\n", src, dst)
		}
	}
	if s := strings.TrimSpace(req.Instructions); s != "" {
		b.WriteString("Follow these instructions from the documentation's owners:\n")
		b.WriteString(s)
		b.WriteString("\n")
	}
	return b.String()
}

func (e *openAI) Translate(ctx context.Context, req Request) ([]string, error) {
	system := systemPrompt(req)
	return batches(ctx, e.Name(), req.Segments, e.cfg.MaxBatch, func(ctx context.Context, segs []string) ([]string, error) {
		out, err := e.complete(ctx, system, segs)
		if err == nil || len(segs) == 1 || folio.KindOf(err) != folio.Unavailable || ctx.Err() != nil {
			return out, err
		}
		var bad *badAnswer
		if !errors.As(err, &bad) {
			return nil, err
		}
		out = make([]string, 0, len(segs))
		for _, s := range segs {
			one, err := e.complete(ctx, system, []string{s})
			if err != nil {
				return nil, err
			}
			out = append(out, one...)
		}
		return out, nil
	})
}

// badAnswer marks an answer that parsed as a chat reply but not as the
// array asked for.
type badAnswer struct{ error }

func (e *openAI) complete(ctx context.Context, system string, segs []string) ([]string, error) {
	user, err := json.Marshal(segs)
	if err != nil {
		return nil, fmt.Errorf("translate: encode segments: %w", err)
	}
	body := map[string]any{
		"model":       e.cfg.Model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": string(user)},
		},
	}
	header := http.Header{}
	if e.cfg.APIKey != "" {
		header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := call(ctx, e.cfg, e.Name(), http.MethodPost, e.cfg.URL+"/chat/completions", header, body, &resp); err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, errAnswer(e.Name())
	}
	out, ok := parseArray(resp.Choices[0].Message.Content)
	if !ok {
		return nil, &folio.Error{Kind: folio.Unavailable, Err: &badAnswer{fmt.Errorf("no JSON array")},
			Message: "translation engine openai did not answer a JSON array of strings"}
	}
	if len(out) != len(segs) {
		return nil, &folio.Error{Kind: folio.Unavailable, Err: &badAnswer{fmt.Errorf("count %d", len(out))},
			Message: fmt.Sprintf("translation engine openai returned %d translations for %d segments", len(out), len(segs))}
	}
	return out, nil
}

// parseArray reads the JSON array of strings in a model's reply, which may
// wrap it in a code fence or a sentence.
func parseArray(s string) ([]string, bool) {
	i, j := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if i < 0 || j < i {
		return nil, false
	}
	var out []string
	if json.Unmarshal([]byte(s[i:j+1]), &out) != nil {
		return nil, false
	}
	return out, true
}
