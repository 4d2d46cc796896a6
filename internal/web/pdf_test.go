package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// fakePrinter stands in for headless Chromium: it prints when gate
// closes, or fails with err.
type fakePrinter struct {
	gate      chan struct{}
	err       error
	available error
}

func (p *fakePrinter) Available() error { return p.available }

func (p *fakePrinter) Print(ctx context.Context, t app.PrintTarget) ([]byte, error) {
	select {
	case <-p.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.err != nil {
		return nil, p.err
	}
	return []byte("%PDF-1.4 " + t.Variant()), nil
}

// pdfState is the export page's JSON.
func pdfStatus(t *testing.T, b *browser, path string) map[string]string {
	t.Helper()
	p := b.get(t, path+"/status").want(t, 200)
	if ct := p.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("status content type %q", ct)
	}
	var st map[string]string
	if err := json.Unmarshal([]byte(p.Body), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// awaitStatus polls the status until it leaves pending.
func awaitStatus(t *testing.T, b *browser, path string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := pdfStatus(t, b, path)
		if st["status"] != "pending" || time.Now().After(deadline) {
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPDFExport exports a space and a change request as a reader of the
// space: the page offers the export, shows the running job (again after
// a reload), its JSON status says pending then done with the download
// link, and the link answers the PDF.
func TestPDFExport(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		p := &fakePrinter{gate: make(chan struct{})}
		s.App.SetPrinter(p)
		u, _ := member(t, s, org, folio.RoleRead)
		b := signIn(t, s, u.Email)
		b.get(t, "/s/"+sp).want(t, 200, `<a href="/s/`+sp+`/~/pdf">Export the space as PDF</a>`)
		path := "/s/" + sp + "/~/pdf"
		b.get(t, path).want(t, 200, "<h1>PDF of this space</h1>", `data-status="none"`, "No PDF of the current version yet.",
			`<form method="post" action="`+path+`" id="pdf-start">`, "Export as PDF", `data-status-url="`+path+`/status"`)
		if st := pdfStatus(t, b, path); st["status"] != "none" {
			t.Fatalf("status before export %v", st)
		}
		b.post(t, path, nil).redirect(t, path)
		for range 2 { // a reload keeps showing the running job
			b.get(t, path).want(t, 200, `data-status="pending"`, "Making the PDF", `<progress id="pdf-progress" aria-labelledby="pdf-message">`,
				`id="pdf-start" hidden`)
		}
		if st := pdfStatus(t, b, path); st["status"] != "pending" || st["download"] != "" {
			t.Fatalf("status while printing %v", st)
		}
		close(p.gate)
		st := awaitStatus(t, b, path)
		if st["status"] != "done" || !strings.HasPrefix(st["download"], "/v1/print/spaces/"+sp+"/revisions/") ||
			!strings.HasSuffix(st["download"], "&format=pdf") || st["size"] != "12 bytes" {
			t.Fatalf("status when done %v", st)
		}
		b.get(t, path).want(t, 200, `data-status="done"`, "The PDF is ready.", "Download the PDF", "12 bytes")
		// The link is signed: it works without the session too.
		pdf := newBrowser(s).get(t, customUnescape(st["download"])).want(t, 200)
		if pdf.Body != "%PDF-1.4 all" || pdf.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("PDF %q %v", pdf.Body, pdf.Header)
		}

		// A change request: its head, its own PDF.
		var cr struct{ Number int }
		s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Roles"}).WantStatus(t, 201).JSON(t, &cr)
		crPath := fmt.Sprintf("/s/%s/~/changes/%d/pdf", sp, cr.Number)
		b.get(t, fmt.Sprintf("/s/%s/~/changes/%d", sp, cr.Number)).want(t, 200, `<a href="`+crPath+`">Export as PDF</a>`)
		b.get(t, crPath).want(t, 200, fmt.Sprintf("<h1>PDF of change request #%d</h1>", cr.Number), `data-status="none"`)
		b.post(t, crPath, nil).redirect(t, crPath)
		st = awaitStatus(t, b, crPath)
		if st["status"] != "done" {
			t.Fatalf("change request status %v", st)
		}
		if pdf := newBrowser(s).get(t, st["download"]).want(t, 200); !strings.HasPrefix(pdf.Body, "%PDF-1.4 cr-") {
			t.Fatalf("change request PDF %q", pdf.Body)
		}
	})
}

// TestPDFExportFailures: a print that fails says why and offers to try
// again; without a printer the page says export is unavailable; someone
// outside the organization finds nothing, and starts nothing.
func TestPDFExportFailures(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		gate := make(chan struct{})
		close(gate)
		s.App.SetPrinter(&fakePrinter{gate: gate, err: errors.New("chromium crashed")})
		u, _ := member(t, s, org, folio.RoleEdit)
		b := signIn(t, s, u.Email)
		path := "/s/" + sp + "/~/pdf"

		other, _ := s.Org(t)
		ou, _ := member(t, s, other, folio.RoleAdmin)
		ob := signIn(t, s, ou.Email)
		ob.get(t, path).want(t, 404)
		ob.post(t, path, nil).want(t, 404)
		ob.get(t, path+"/status").want(t, 404)
		if st := pdfStatus(t, b, path); st["status"] != "none" {
			t.Fatalf("an outsider started a PDF: %v", st)
		}

		b.post(t, path, nil).redirect(t, path)
		st := awaitStatus(t, b, path)
		if st["status"] != "failed" || !strings.Contains(st["message"], "chromium crashed") {
			t.Fatalf("failed status %v", st)
		}
		b.get(t, path).want(t, 200, `data-status="failed"`, "Making the PDF failed: the PDF printer failed: chromium crashed", "Try again")
		// Straight after a failure, trying again says when it may.
		b.post(t, path, nil).want(t, 503, "printing the PDF failed")

		s.App.SetPrinter(&fakePrinter{gate: gate, available: errors.New("Chromium is not installed")})
		s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/content/import", map[string]any{"source": "markdown",
			"url": "data:text/markdown,%23%20Other%0A%0ANew%20revision.%0A"}).WantStatus(t, 201)
		b.post(t, path, nil).want(t, 503, "PDF export is not available: Chromium is not installed")
		if st := pdfStatus(t, b, path); st["status"] != "none" {
			t.Fatalf("status of the new revision without a printer %v", st)
		}
	})
}
