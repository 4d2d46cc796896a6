package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// PDF export of a space or a change request (/s/{space}/~/pdf and
// /s/{space}/~/changes/{number}/pdf): the API's durable print jobs
// (app.PrintURL, RequestPDF), one PDF per revision. The page shows the
// state of the PDF of the current revision, so a reload keeps showing a
// job that runs; pdf.js polls the status as JSON and shows the download
// link when it is done.

// pdfState is the state of a PDF as the page and its JSON say it.
type pdfState struct {
	Status   string `json:"status"` // none, pending, done, failed
	Message  string `json:"message"`
	Download string `json:"download,omitempty"`
	Size     string `json:"size,omitempty"`
}

// pdfView is the export page's own part.
type pdfView struct {
	What      string // "this space" or "change request #3"
	Back      string
	Action    string
	StatusURL string
	State     pdfState
	Error     string
}

// pdfTarget makes the caller's print URL of the space (or of the change
// request of the path) and reads its target back: PrintURL checks that
// the caller may read it.
func (h *Handler) pdfTarget(r *http.Request, q *req) (app.PrintTarget, string, error) {
	u, err := h.app.PrintURL(r.Context(), q.caller, r.PathValue("space"), r.PathValue("number"), "", false)
	if err != nil {
		return app.PrintTarget{}, "", err
	}
	p, err := url.Parse(u)
	if err != nil {
		return app.PrintTarget{}, "", fmt.Errorf("print url %q: %w", u, err)
	}
	i := strings.Index(p.Path, "/v1/print/")
	if i < 0 {
		return app.PrintTarget{}, "", fmt.Errorf("print url %q: unexpected path", u)
	}
	parts := strings.Split(p.Path[i+len("/v1/print/"):], "/")
	if len(parts) != 4 || parts[0] != "spaces" || parts[2] != "revisions" {
		return app.PrintTarget{}, "", fmt.Errorf("print url %q: unexpected path", u)
	}
	t, err := h.app.OpenPrint(r.Context(), parts[1], parts[3], p.Query())
	if err != nil {
		return app.PrintTarget{}, "", err
	}
	return t, u, nil
}

// pdfDownload is the same-origin path of a print URL's PDF.
func pdfDownload(printURL string) string {
	if i := strings.Index(printURL, "/v1/print/"); i >= 0 {
		printURL = printURL[i:]
	}
	return printURL + "&format=pdf"
}

// state reads the target's PDF state.
func (h *Handler) pdfState(r *http.Request, t app.PrintTarget, printURL string) (pdfState, error) {
	e, err := h.app.PDFStatus(r.Context(), t)
	if err != nil {
		return pdfState{}, err
	}
	switch {
	case e == nil:
		return pdfState{Status: "none", Message: "No PDF of the current version yet."}, nil
	case e.Status == folio.PDFDone:
		return pdfState{Status: "done", Message: "The PDF is ready.", Download: pdfDownload(printURL), Size: pdfSize(e.Size)}, nil
	case e.Status == folio.PDFFailed:
		return pdfState{Status: "failed", Message: "Making the PDF failed: " + e.Error}, nil
	}
	return pdfState{Status: "pending", Message: "Making the PDF… this page shows it when it is ready."}, nil
}

func pdfSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (h *Handler) pdfPage(w http.ResponseWriter, r *http.Request, q *req) error {
	return h.showPDF(w, r, q, http.StatusOK, "")
}

func (h *Handler) showPDF(w http.ResponseWriter, r *http.Request, q *req, status int, msg string) error {
	tab := "pages"
	if r.PathValue("number") != "" {
		tab = "changes"
	}
	v, _, err := h.spaceFrame(r, q, tab)
	if err != nil {
		return err
	}
	t, u, err := h.pdfTarget(r, q)
	if err != nil {
		return err
	}
	st, err := h.pdfState(r, t, u)
	if err != nil {
		return err
	}
	pv := pdfView{What: "this space", Back: v.Href, Action: v.Href + "/~/pdf", State: st, Error: msg}
	if n := r.PathValue("number"); n != "" {
		pv.What, pv.Back = "change request #"+n, v.Href+"/~/changes/"+n
		pv.Action = pv.Back + "/pdf"
	}
	pv.StatusURL = pv.Action + "/status"
	v.Body = pv
	// The script asks for the status on this origin.
	w.Header().Set("Content-Security-Policy", h.csp()+"; connect-src 'self'")
	h.renderPage(w, status, "pdf", q, "PDF of "+v.Space.Title, v, pageAssets{Scripts: []string{assetsByKey["pdf.js"].url}})
	return nil
}

// startPDF starts making the PDF (or finds it made) and shows the page
// again. When it cannot be made (no printer here, or it failed a moment
// ago) the page says why.
func (h *Handler) startPDF(w http.ResponseWriter, r *http.Request, q *req) error {
	t, _, err := h.pdfTarget(r, q)
	if err != nil {
		return err
	}
	p, err := h.app.RequestPDF(r.Context(), t)
	if err != nil {
		if folio.KindOf(err) == folio.Unavailable {
			return h.showPDF(w, r, q, http.StatusServiceUnavailable, folio.MessageOf(err))
		}
		return err
	}
	if p.Reader != nil {
		p.Reader.Close()
	}
	http.Redirect(w, r, r.URL.Path, http.StatusSeeOther)
	return nil
}

// pdfStatus answers the state as JSON, for pdf.js.
func (h *Handler) pdfStatus(w http.ResponseWriter, r *http.Request, q *req) error {
	t, u, err := h.pdfTarget(r, q)
	if err != nil {
		return err
	}
	st, err := h.pdfState(r, t, u)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(st)
}
