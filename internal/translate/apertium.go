package translate

import (
	"bytes"
	"context"
	"errors"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/foliodocs/folio"
)

// apertium runs Apertium: Debian's apertium command (apertium -u -f html
// eng-spa, reading stdin) or, when Config.URL is set, an APy service
// (POST {url}/translate with q and langpair=eng|spa). Both read HTML, so a
// batch is sent as one text of <div id="fseg-N"> blocks and split again; an
// answer that loses a block is retried one segment at a time.
type apertium struct {
	cfg Config

	mu    sync.Mutex
	modes map[string]bool // installed directions, from apertium -l; nil until listed
}

func (e *apertium) Name() string { return EngineApertium }

// apertiumCodes maps reference codes to the ISO 639-3 codes that Apertium's
// pairs use (apertium-eng-spa installs eng-spa and spa-eng).
var apertiumCodes = map[string]string{
	"en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "pt": "por", "pt-br": "por_BR",
	"ru": "rus", "ja": "jpn", "zh": "zho", "yue": "yue", "ko": "kor", "ar": "ara", "hi": "hin",
	"nl": "nld", "pl": "pol", "tr": "tur", "sv": "swe", "no": "nob", "da": "dan", "fi": "fin",
	"el": "ell", "cs": "ces", "hu": "hun", "ro": "ron", "th": "tha", "vi": "vie", "id": "ind",
	"ms": "msa", "he": "heb", "uk": "ukr", "sk": "slk", "bg": "bul", "hr": "hrv", "lt": "lit",
	"lv": "lav", "et": "est", "sl": "slv",
}

// candidates lists the direction names that may translate src to tgt, best
// first: ISO 639-3 pairs, then the two-letter names of older packages. A
// variant target such as por_BR falls back to the plain language.
func candidates(src, tgt string) []string {
	s3, t3 := apertiumCodes[src], apertiumCodes[tgt]
	out := []string{s3 + "-" + t3, src + "-" + strings.ReplaceAll(tgt, "-br", "_BR")}
	if plain, _, ok := strings.Cut(t3, "_"); ok {
		out = append(out, s3+"-"+plain, src+"-"+strings.TrimSuffix(tgt, "-br"))
	}
	return out
}

// direction picks the installed direction for a request, or an Invalid
// error naming the missing pair.
func (e *apertium) direction(ctx context.Context, req Request) (string, error) {
	if req.Source == "" {
		return "", folio.Errorf(folio.Invalid, "the apertium engine needs the source language")
	}
	cands := candidates(req.Source, req.Target)
	if e.cfg.URL != "" {
		// APy checks the pair itself and answers 400 when it lacks it.
		return cands[0], nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.modes == nil {
		// Only a successful listing is kept, so a slow first call is retried.
		modes, err := e.listModes(ctx)
		if err != nil {
			return "", err
		}
		e.modes = modes
	}
	for _, c := range cands {
		if e.modes[c] {
			return c, nil
		}
	}
	// A regional variant such as spa-eng_US also serves the plain language.
	var variants []string
	for m := range e.modes {
		variants = append(variants, m)
	}
	slices.Sort(variants)
	for _, m := range variants {
		if strings.HasPrefix(m, cands[0]+"_") {
			return m, nil
		}
	}
	return "", folio.Errorf(folio.Invalid, "apertium has no language pair installed for %s to %s (package apertium-%s)",
		req.Source, req.Target, strings.ReplaceAll(cands[0], "_BR", ""))
}

func (e *apertium) listModes(ctx context.Context) (map[string]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, e.cfg.ApertiumBinary, "-l").Output()
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) || errors.Is(err, fs.ErrNotExist) {
			return nil, &folio.Error{Kind: folio.Invalid, Message: "the apertium command is not installed", Err: err}
		}
		return nil, engineFailed(e.Name(), err)
	}
	modes := map[string]bool{}
	for _, f := range strings.Fields(string(out)) {
		modes[f] = true
	}
	return modes, nil
}

func (e *apertium) Translate(ctx context.Context, req Request) ([]string, error) {
	dir, err := e.direction(ctx, req)
	if err != nil {
		return nil, err
	}
	segs := req.Segments
	if req.Format != FormatMarkup {
		segs = make([]string, len(req.Segments))
		for i, s := range req.Segments {
			segs[i] = escapeText(s)
		}
	}
	out, err := batches(ctx, e.Name(), segs, e.cfg.MaxBatch, func(ctx context.Context, batch []string) ([]string, error) {
		got, err := e.run(ctx, dir, joinDivs(batch))
		if err != nil {
			return nil, err
		}
		if parts, ok := splitDivs(got, len(batch)); ok {
			return parts, nil
		}
		parts := make([]string, len(batch))
		for i, s := range batch {
			got, err := e.run(ctx, dir, joinDivs([]string{s}))
			if err != nil {
				return nil, err
			}
			one, ok := splitDivs(got, 1)
			if !ok {
				return nil, folio.Errorf(folio.Unavailable, "translation engine apertium lost a segment's boundaries")
			}
			parts[i] = one[0]
		}
		return parts, nil
	})
	if err != nil {
		return nil, err
	}
	if req.Format != FormatMarkup {
		for i := range out {
			out[i] = html.UnescapeString(out[i])
		}
	}
	return out, nil
}

// run translates one HTML text through the command or APy.
func (e *apertium) run(ctx context.Context, dir, text string) (string, error) {
	if e.cfg.URL != "" {
		form := url.Values{"q": {text}, "langpair": {strings.Replace(dir, "-", "|", 1)}, "markUnknown": {"no"}, "format": {"html"}}
		var resp struct {
			ResponseData struct {
				TranslatedText string `json:"translatedText"`
			} `json:"responseData"`
		}
		if err := call(ctx, e.cfg, e.Name(), http.MethodPost, e.cfg.URL+"/translate", nil, form, &resp); err != nil {
			return "", err
		}
		return resp.ResponseData.TranslatedText, nil
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.cfg.ApertiumBinary, "-u", "-f", "html", dir)
	cmd.Stdin = strings.NewReader(text)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxResponseBytes, 4<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", engineFailed(e.Name(), ctx.Err())
		}
		return "", &folio.Error{Kind: folio.Unavailable, Message: "the apertium command failed",
			Err: errors.New(err.Error() + ": " + strings.TrimSpace(stderr.String()))}
	}
	if stdout.over {
		return "", folio.Errorf(folio.Unavailable, "translation engine apertium answered more than %d MB", maxResponseBytes>>20)
	}
	return stdout.String(), nil
}

// joinDivs wraps each segment in a numbered block.
func joinDivs(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		b.WriteString(`<div id="fseg-`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`">`)
		b.WriteString(s)
		b.WriteString("</div>\n")
	}
	return b.String()
}

// splitDivs reads back n numbered blocks, in order.
func splitDivs(s string, n int) ([]string, bool) {
	out := make([]string, 0, n)
	for i := range n {
		open := `<div id="fseg-` + strconv.Itoa(i) + `">`
		j := strings.Index(s, open)
		if j < 0 {
			return nil, false
		}
		s = s[j+len(open):]
		k := strings.Index(s, "</div>")
		if k < 0 {
			return nil, false
		}
		out = append(out, strings.TrimSpace(s[:k]))
		s = s[k+len("</div>"):]
	}
	return out, true
}

// limitedBuffer keeps at most max bytes and notes whether more came.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
