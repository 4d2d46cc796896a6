package httpapi

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/reader"
)

// getSpacePDF serves GET /v1/spaces/{spaceId}/pdf.
func (s *Server) getSpacePDF(w http.ResponseWriter, r *http.Request) error {
	return s.printURL(w, r, "")
}

// getChangeRequestPDF serves GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf.
func (s *Server) getChangeRequestPDF(w http.ResponseWriter, r *http.Request) error {
	return s.printURL(w, r, r.PathValue("changeRequestId"))
}

// printURL answers {url}: the signed print URL of a space or change
// request. A malformed only is reported after the caller is known to
// may read the space, as every validation error is.
func (s *Server) printURL(w http.ResponseWriter, r *http.Request, crRef string) error {
	only, badOnly := queryBool(r, "only", false)
	page := r.URL.Query().Get("page")
	if badOnly != nil {
		page, only = "", false
	}
	u, err := s.app.PrintURL(r.Context(), caller(r), r.PathValue("spaceId"), crRef, page, only)
	if err == nil {
		err = badOnly
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": u})
	return nil
}

// printRetryAfter is the Retry-After, in seconds, of a PDF being printed.
const printRetryAfter = "5"

// printPage serves the signed print URL: the print page of a revision, or
// with format=pdf its PDF. No bearer token: the signature is the grant.
func (s *Server) printPage(w http.ResponseWriter, r *http.Request) error {
	t, err := s.app.OpenPrint(r.Context(), r.PathValue("spaceId"), r.PathValue("revisionId"), r.URL.Query())
	if err != nil {
		return err
	}
	switch r.URL.Query().Get("format") {
	case "", "html":
	case "pdf":
		return s.printPDF(w, r, t)
	default:
		return folio.FieldErrorf("format", "format must be html or pdf")
	}
	b, err := s.app.PrintBook(r.Context(), t)
	if err != nil {
		return err
	}
	page, err := reader.RenderPrint(b)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", reader.PrintCSP)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "private, max-age=3600")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page)
	}
	return nil
}

// printPDF answers the PDF of a print target: the file when it is stored,
// 202 with Retry-After while it is being printed (a small page that
// reloads itself for a browser), 503 with why when it cannot be printed.
func (s *Server) printPDF(w http.ResponseWriter, r *http.Request, t app.PrintTarget) error {
	p, err := s.app.RequestPDF(r.Context(), t)
	if err != nil {
		if folio.KindOf(err) == folio.Unavailable {
			w.Header().Set("Retry-After", "30")
		}
		return err
	}
	h := w.Header()
	if p.Reader == nil {
		msg := "The PDF is being generated; ask again in a few seconds."
		if p.LastError != "" {
			msg = "The last attempt to generate the PDF failed (" + p.LastError + "); trying again. Ask again in a few seconds."
		}
		h.Set("Retry-After", printRetryAfter)
		h.Set("Cache-Control", "no-store")
		if wantsHTML(r) {
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Content-Security-Policy", reader.PrintCSP)
			w.WriteHeader(http.StatusAccepted)
			_ = generatingPage.Execute(w, msg)
			return nil
		}
		writeJSON(w, http.StatusAccepted, map[string]string{"status": folio.PDFPending, "message": msg})
		return nil
	}
	defer p.Reader.Close()
	// No CSP: a sandboxed PDF is not shown by Chromium's viewer, and
	// Chromium's own output has no script.
	sendBlob(w, r, p.Reader, "application/pdf", p.Name, p.Size, "")
	return nil
}

// wantsHTML reports whether a request comes from a browser that prefers
// HTML to JSON.
func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

var generatingPage = template.Must(template.New("").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="` + printRetryAfter + `">
<title>Generating the PDF</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem;"><p>{{.}}</p><p>This page reloads itself.</p></body></html>
`))
