package translate

import (
	"context"
	"net/http"
	"strings"
)

// deepL calls DeepL's API: POST {url}/v2/translate with text[],
// source_lang and target_lang, authorized by "DeepL-Auth-Key". Markup
// segments are sent with tag_handling "xml", which keeps the g and x tags.
// The glossary is applied by TranslateDocument, not through DeepL's glossary
// API, so every engine treats it alike.
type deepL struct{ cfg Config }

func (e *deepL) Name() string { return EngineDeepL }

// deepLBatch is DeepL's limit on texts per request.
const deepLBatch = 50

// deepLTarget maps reference codes to DeepL's target codes, which name the
// variant for English and Portuguese.
var deepLTarget = map[string]string{"en": "EN-US", "pt": "PT-PT", "pt-br": "PT-BR", "zh": "ZH-HANS", "no": "NB"}

// deepLSource maps reference codes to DeepL's source codes, which have no
// variants.
var deepLSource = map[string]string{"pt-br": "PT", "no": "NB"}

func deepLCode(c string, table map[string]string) string {
	if v, ok := table[c]; ok {
		return v
	}
	return strings.ToUpper(c)
}

func (e *deepL) Translate(ctx context.Context, req Request) ([]string, error) {
	n := min(e.cfg.MaxBatch, deepLBatch)
	return batches(ctx, e.Name(), req.Segments, n, func(ctx context.Context, segs []string) ([]string, error) {
		body := map[string]any{"text": segs, "target_lang": deepLCode(req.Target, deepLTarget)}
		if req.Source != "" {
			body["source_lang"] = deepLCode(req.Source, deepLSource)
		}
		if req.Format == FormatMarkup {
			body["tag_handling"] = "xml"
			body["ignore_tags"] = []string{"x"}
		}
		header := http.Header{"Authorization": {"DeepL-Auth-Key " + e.cfg.APIKey}}
		var resp struct {
			Translations []struct {
				Text string `json:"text"`
			} `json:"translations"`
		}
		if err := call(ctx, e.cfg, e.Name(), http.MethodPost, e.cfg.URL+"/v2/translate", header, body, &resp); err != nil {
			return nil, err
		}
		out := make([]string, len(resp.Translations))
		for i, t := range resp.Translations {
			out[i] = t.Text
		}
		return out, nil
	})
}
