package translate

import (
	"context"
	"encoding/json"
	"net/http"
)

// libreTranslate calls a LibreTranslate-compatible API: POST {url}/translate
// with q as an array, source, target, format and api_key; the answer's
// translatedText is an array in the same order.
type libreTranslate struct{ cfg Config }

func (e *libreTranslate) Name() string { return EngineLibreTranslate }

// libreCodes maps reference codes that a self-hosted LibreTranslate spells
// differently (its /languages list): Brazilian Portuguese is pb, Norwegian
// nb, and Traditional Chinese zt, the nearest it has for Cantonese.
var libreCodes = map[string]string{"pt-br": "pb", "no": "nb", "yue": "zt"}

func libreCode(c string) string {
	if c == "" {
		return "auto"
	}
	if v, ok := libreCodes[c]; ok {
		return v
	}
	return c
}

func (e *libreTranslate) Translate(ctx context.Context, req Request) ([]string, error) {
	return batches(ctx, e.Name(), req.Segments, e.cfg.MaxBatch, func(ctx context.Context, segs []string) ([]string, error) {
		body := map[string]any{"q": segs, "source": libreCode(req.Source), "target": libreCode(req.Target), "format": "text"}
		if req.Format == FormatMarkup {
			body["format"] = "html"
		}
		if e.cfg.APIKey != "" {
			body["api_key"] = e.cfg.APIKey
		}
		var resp struct {
			TranslatedText json.RawMessage `json:"translatedText"`
		}
		if err := call(ctx, e.cfg, e.Name(), http.MethodPost, e.cfg.URL+"/translate", nil, body, &resp); err != nil {
			return nil, err
		}
		var out []string
		if err := json.Unmarshal(resp.TranslatedText, &out); err != nil {
			// Older servers answer a single string for a one-element q.
			var one string
			if json.Unmarshal(resp.TranslatedText, &one) != nil {
				return nil, errAnswer(e.Name())
			}
			out = []string{one}
		}
		return out, nil
	})
}
