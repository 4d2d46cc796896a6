// Package pdf prints the print pages of spaces to PDF with headless
// Chromium: the app's Printer (app.SetPrinter). Chromium gets the page from
// memory and the space's images from the blob store through request
// interception; it reaches no network at all and runs no script, since the
// page shows what users wrote.
//
// Allowed imports: folio, internal/app, internal/reader, internal/browser.
package pdf

import (
	"context"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/browser"
	"github.com/foliodocs/folio/internal/reader"
)

// Paper sizes, in inches.
var papers = map[string][2]float64{
	"a4":     {8.27, 11.69},
	"letter": {8.5, 11},
}

// maxImageBytes bounds one image handed to Chromium.
const maxImageBytes = 32 << 20

// Printer prints with the Chromium that browser.Path finds.
type Printer struct {
	app    *app.App
	public string // the server's public URL, no trailing slash
	paper  [2]float64
	// path finds the Chromium binary (browser.Path, or a test's).
	path func() (string, error)
}

// CheckPaper refuses a paper size New does not know, so that a command
// can check its configuration before it starts anything.
func CheckPaper(paper string) error {
	if _, ok := papers[strings.ToLower(paper)]; !ok {
		return fmt.Errorf("unknown paper size %q: a4 or letter", paper)
	}
	return nil
}

// New returns a printer of a's print pages, on paper "a4" or "letter".
func New(a *app.App, publicURL, paper string) (*Printer, error) {
	if err := CheckPaper(paper); err != nil {
		return nil, err
	}
	p := papers[strings.ToLower(paper)]
	return &Printer{app: a, public: strings.TrimRight(publicURL, "/"), paper: p, path: browser.Path}, nil
}

// WithBrowser returns the printer with another way to find Chromium, for
// tests of a server without it.
func (p *Printer) WithBrowser(path func() (string, error)) *Printer {
	q := *p
	q.path = path
	return &q
}

// Available reports why Chromium cannot be started, or nil.
func (p *Printer) Available() error {
	_, err := p.path()
	return err
}

// Print renders the print page of t and prints it with a new headless
// Chromium: A4 or Letter, page numbers in the footer, an outline from the
// headings, a tagged PDF, backgrounds printed. Chromium embeds the fonts
// it uses.
func (p *Printer) Print(ctx context.Context, t app.PrintTarget) ([]byte, error) {
	path, err := p.path()
	if err != nil {
		return nil, err
	}
	b, err := p.app.PrintBook(ctx, t)
	if err != nil {
		return nil, err
	}
	doc, err := reader.RenderPrint(b)
	if err != nil {
		return nil, err
	}
	pageURL := p.public + "/v1/print/spaces/" + url.PathEscape(t.SpaceID) + "/revisions/" + url.PathEscape(t.RevisionID)

	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browser.Options(path)...)
	defer cancelAlloc()
	tctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	if err := chromedp.Run(tctx); err != nil {
		return nil, fmt.Errorf("start Chromium: %w", err)
	}
	chromedp.ListenTarget(tctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			go p.answer(tctx, e, pageURL, doc)
		}
	})
	footer := `<div style="font-family: 'DejaVu Sans', sans-serif; font-size: 8pt; color: #555; width: 100%; margin: 0 16mm; display: flex; justify-content: space-between;">` +
		`<span>` + html.EscapeString(b.Title()) + `</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
	var out []byte
	err = chromedp.Run(tctx,
		emulation.SetScriptExecutionDisabled(true),
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*"}}),
		chromedp.Navigate(pageURL),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			out, _, err = page.PrintToPDF().
				WithPaperWidth(p.paper[0]).WithPaperHeight(p.paper[1]).
				WithMarginTop(0.7).WithMarginBottom(0.8).WithMarginLeft(0.63).WithMarginRight(0.63).
				WithPrintBackground(true).
				WithDisplayHeaderFooter(true).
				WithHeaderTemplate("<span></span>").
				WithFooterTemplate(footer).
				WithGenerateDocumentOutline(true).
				WithGenerateTaggedPDF(true).
				Do(ctx)
			return err
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("print with Chromium: %w", err)
	}
	return out, nil
}

// answer serves one request of the print tab: the print page from memory,
// the space's files from the blob store, and nothing else.
func (p *Printer) answer(ctx context.Context, e *fetch.EventRequestPaused, pageURL string, doc []byte) {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Target == nil {
		return
	}
	ectx := cdp.WithExecutor(ctx, c.Target)
	u := e.Request.URL
	var (
		body []byte
		ct   string
	)
	switch {
	case u == pageURL:
		body, ct = doc, "text/html; charset=utf-8"
	case strings.HasPrefix(u, p.public+"/v1/files/"):
		body, ct = p.file(ctx, u)
	}
	if body == nil {
		_ = fetch.FailRequest(e.RequestID, network.ErrorReasonBlockedByClient).Do(ectx)
		return
	}
	_ = fetch.FulfillRequest(e.RequestID, 200).
		WithResponseHeaders([]*fetch.HeaderEntry{
			{Name: "Content-Type", Value: ct},
			{Name: "Content-Security-Policy", Value: reader.PrintCSP},
		}).
		WithBody(base64.StdEncoding.EncodeToString(body)).
		Do(ectx)
}

// file reads a file of a signed download URL, checked as the download
// route checks it; nil when it is not one or is too large.
func (p *Printer) file(ctx context.Context, raw string) ([]byte, string) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, ""
	}
	hash := raw[len(p.public+"/v1/files/"):]
	hash, _, _ = strings.Cut(hash, "?")
	d, err := p.app.OpenFile(ctx, hash, u.Query())
	if err != nil {
		return nil, ""
	}
	defer d.Reader.Close()
	// Only images are shown in a print; anything else stays out.
	if d.Size > maxImageBytes || !strings.HasPrefix(d.ContentType, "image/") {
		return nil, ""
	}
	b, err := io.ReadAll(io.LimitReader(d.Reader, maxImageBytes))
	if err != nil {
		return nil, ""
	}
	return b, d.ContentType
}

var _ app.Printer = (*Printer)(nil)
