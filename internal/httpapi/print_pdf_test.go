package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/browser"
	"github.com/foliodocs/folio/internal/browser/browsertest"
	"github.com/foliodocs/folio/internal/pdf"
	"github.com/foliodocs/folio/internal/store"
)

// pdfJobs counts the PDF jobs ever started.
func pdfJobs(t *testing.T, s *apitest.Server) int {
	t.Helper()
	var n int
	err := s.DB.Read(context.Background(), func(tx *store.Tx) (err error) {
		n, err = store.CountJobs(context.Background(), tx, folio.JobPrintPDF)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// awaitPDF asks for a PDF until it is ready and returns the last answer.
func awaitPDF(t *testing.T, s *apitest.Server, path string) *apitest.Response {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r := s.Do(t, "", "GET", path, nil)
		if r.Status != 202 || time.Now().After(deadline) {
			return r
		}
		if r.Header.Get("Retry-After") == "" {
			t.Fatalf("202 without Retry-After")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// TestPrintPDF prints a space of several pages with headless Chromium and
// reads the PDF back with poppler-utils: every page title and heading,
// the code, page numbers "n / total" on every sheet, embedded fonts and
// an outline. The PDF is made once per revision: asking again reuses it,
// and a new revision makes a new one.
func TestPrintPDF(t *testing.T) {
	browsertest.Need(t, "pdftotext", "pdfinfo", "pdffonts", "pdfimages") // Debian's poppler-utils
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space, _ := printSpace(t, s, admin, org, "Handbook")
		path := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf") + "&format=pdf"

		first := s.Do(t, "", "GET", path, nil).WantStatus(t, 202)
		if first.Header.Get("Retry-After") == "" || !strings.Contains(string(first.Body), "being generated") {
			t.Fatalf("202 answer: %v %s", first.Header, first.Body)
		}
		r := awaitPDF(t, s, path).WantStatus(t, 200)
		if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
			t.Fatalf("Content-Type %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); cd != `inline; filename=handbook.pdf` {
			t.Fatalf("Content-Disposition %q", cd)
		}
		file := filepath.Join(t.TempDir(), "handbook.pdf")
		if err := os.WriteFile(file, r.Body, 0o600); err != nil {
			t.Fatal(err)
		}

		info := run(t, "pdfinfo", file)
		pages := 0
		for _, line := range strings.Split(info, "\n") {
			if v, ok := strings.CutPrefix(line, "Pages:"); ok {
				pages, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		// A cover, the contents, and a sheet per page at least.
		if pages < 6 {
			t.Fatalf("%d pages:\n%s", pages, info)
		}
		text := run(t, "pdftotext", "-layout", file, "-")
		for _, want := range []string{"Getting started", "Installation steps", "Reference manual", "<script>alert(1)</script> Hostile",
			"First heading", "Options heading", "installation code sample", "verbose", "Contents"} {
			if !strings.Contains(text, want) {
				t.Errorf("PDF text lacks %q", want)
			}
		}
		// Every sheet has its number and the count in its footer
		// ("n / total", which pdftotext writes without the spaces).
		sheets := strings.Split(text, "\f")
		for i := 1; i <= pages; i++ {
			if want := fmt.Sprintf("%d/%d", i, pages); !strings.Contains(strings.ReplaceAll(sheets[i-1], " ", ""), want) {
				t.Errorf("sheet %d lacks its page number %q:\n%s", i, want, sheets[i-1])
			}
		}
		fonts := strings.Split(strings.TrimSpace(run(t, "pdffonts", file)), "\n")
		if len(fonts) < 3 {
			t.Fatalf("no fonts in the PDF:\n%s", strings.Join(fonts, "\n"))
		}
		for _, row := range fonts[2:] {
			f := strings.Fields(row)
			if len(f) < 6 || f[len(f)-5] != "yes" {
				t.Errorf("font not embedded: %s", row)
			}
		}
		// The image of the space is in the PDF: Chromium got it from the
		// blob store through the print tab's interception.
		if images := strings.Split(strings.TrimSpace(run(t, "pdfimages", "-list", file)), "\n"); len(images) < 3 {
			t.Errorf("no image in the PDF")
		}
		if _, err := exec.LookPath("pdftohtml"); err == nil {
			outline := run(t, "pdftohtml", "-xml", "-i", "-stdout", file)
			if !strings.Contains(outline, "<outline>") || !strings.Contains(outline, "Reference manual</item>") {
				t.Errorf("no outline with the page titles in the PDF")
			}
		}

		// Asking again serves the stored PDF, with no second job.
		if n := pdfJobs(t, s); n != 1 {
			t.Fatalf("%d PDF jobs, want 1", n)
		}
		again := s.Do(t, "", "GET", path, nil).WantStatus(t, 200)
		if string(again.Body) != string(r.Body) || pdfJobs(t, s) != 1 {
			t.Fatalf("second request did not reuse the PDF (%d jobs)", pdfJobs(t, s))
		}
		// A new print URL for the same revision finds the same PDF.
		same := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf") + "&format=pdf"
		s.Do(t, "", "GET", same, nil).WantStatus(t, 200)
		if n := pdfJobs(t, s); n != 1 {
			t.Fatalf("%d PDF jobs after a second URL for the same revision, want 1", n)
		}

		// A new revision makes a new PDF. Its image on another server is
		// not fetched: Chromium reaches nothing but the print.
		var hits atomic.Int32
		tracker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Content-Type", "image/png")
			w.Write(tinyPNG())
		}))
		defer tracker.Close()
		importInto(t, s, admin, space, "", "markdown", []byte("# Appendix added later\n\nMore.\n\n![remote]("+tracker.URL+"/tracker.png)\n"))
		next := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf") + "&format=pdf"
		if next == path {
			t.Fatal("same print URL after a new revision")
		}
		s.Do(t, "", "GET", next, nil).WantStatus(t, 202)
		r2 := awaitPDF(t, s, next).WantStatus(t, 200)
		if n := pdfJobs(t, s); n != 2 {
			t.Fatalf("%d PDF jobs after a new revision, want 2", n)
		}
		file2 := filepath.Join(t.TempDir(), "next.pdf")
		if err := os.WriteFile(file2, r2.Body, 0o600); err != nil {
			t.Fatal(err)
		}
		if text := run(t, "pdftotext", file2, "-"); !strings.Contains(text, "Appendix added later") {
			t.Errorf("the new revision's PDF lacks its new page")
		}
		if page := s.Do(t, "", "GET", strings.TrimSuffix(next, "&format=pdf"), nil).WantStatus(t, 200); !strings.Contains(string(page.Body), tracker.URL) {
			t.Fatalf("the print page does not show the remote image")
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("Chromium fetched a remote image %d times", n)
		}

		// A job whose server stopped before it finished is run by the
		// job runner: the PDF is there for the next request.
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		target := app.PrintTarget{SpaceID: space, RevisionID: rev.ID, PageID: pageID(t, rev.Pages, "Reference manual"), Only: true}
		payload, _ := json.Marshal(target)
		ctx := context.Background()
		err := s.DB.Write(ctx, func(tx *store.Tx) error {
			if err := store.StartPDFExport(ctx, tx, space, rev.ID, target.Variant()); err != nil {
				return err
			}
			return store.EnqueueJob(ctx, tx, folio.JobPrintPDF, string(payload), tx.Now)
		})
		if err != nil {
			t.Fatal(err)
		}
		only := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf?only=true&page="+target.PageID) + "&format=pdf"
		s.Do(t, "", "GET", only, nil).WantStatus(t, 202)
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 1 {
			t.Fatalf("RunDue ran %d jobs: %v", n, err)
		}
		r3 := s.Do(t, "", "GET", only, nil).WantStatus(t, 200)
		if cd := r3.Header.Get("Content-Disposition"); !strings.Contains(cd, "handbook-") {
			t.Errorf("Content-Disposition of a page's PDF: %q", cd)
		}
		file3 := filepath.Join(t.TempDir(), "only.pdf")
		if err := os.WriteFile(file3, r3.Body, 0o600); err != nil {
			t.Fatal(err)
		}
		if text := run(t, "pdftotext", file3, "-"); !strings.Contains(text, "Options heading") || strings.Contains(text, "Getting started") {
			t.Errorf("the one page's PDF:\n%s", text)
		}
		if n := pdfJobs(t, s); n != 3 {
			t.Fatalf("%d PDF jobs, want 3", n)
		}
	})
}

// TestPrintPDFUnavailable: without Chromium the PDF answer says why, and
// the print page still works.
func TestPrintPDFUnavailable(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		p, err := pdf.New(s.App, apitest.PublicURL, "letter")
		if err != nil {
			t.Fatal(err)
		}
		s.App.SetPrinter(p.WithBrowser(func() (string, error) { return "", browser.ErrNotInstalled }))
		org, admin := s.Org(t)
		space, _ := printSpace(t, s, admin, org, "Handbook")
		path := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf")
		s.Do(t, "", "GET", path, nil).WantStatus(t, 200)
		r := s.Do(t, "", "GET", path+"&format=pdf", nil)
		r.WantError(t, 503, "Chromium is not installed")
		if r.Header.Get("Retry-After") == "" {
			t.Error("503 without Retry-After")
		}
		if n := pdfJobs(t, s); n != 0 {
			t.Fatalf("%d PDF jobs without Chromium", n)
		}
	})
	if _, err := pdf.New(nil, "", "a3"); err == nil {
		t.Error("paper a3 accepted")
	}
}

// TestPrintPDFFailure: a Chromium that fails is recorded and answered as
// such; a request after PrintRetryAfter tries again.
func TestPrintPDFFailure(t *testing.T) {
	falsePath, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false command")
	}
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		p, err := pdf.New(s.App, apitest.PublicURL, "a4")
		if err != nil {
			t.Fatal(err)
		}
		s.App.SetPrinter(p.WithBrowser(func() (string, error) { return falsePath, nil }))
		s.Clock.Set(time.Now())
		org, admin := s.Org(t)
		space, _ := printSpace(t, s, admin, org, "Handbook")
		path := printPath(t, s, admin, "/v1/spaces/"+space+"/pdf") + "&format=pdf"
		s.Do(t, "", "GET", path, nil).WantStatus(t, 202)
		r := awaitPDF(t, s, path)
		r.WantError(t, 503, "printing the PDF failed")
		if !strings.Contains(string(r.Body), "Chromium") {
			t.Errorf("failure does not say what failed: %s", r.Body)
		}
		s.Do(t, "", "GET", path, nil).WantError(t, 503, "printing the PDF failed")
		if n := pdfJobs(t, s); n != 1 {
			t.Fatalf("%d PDF jobs, want 1", n)
		}
		s.Clock.Advance(time.Minute)
		// A browser gets a page that names the last failure and reloads.
		page := s.DoRaw(t, "", "GET", path, http.Header{"Accept": {"text/html"}}, nil).WantStatus(t, 202)
		if b := string(page.Body); !strings.Contains(b, "The last attempt to generate the PDF failed") ||
			!strings.Contains(b, `http-equiv="refresh"`) || page.Header.Get("Retry-After") == "" {
			t.Errorf("202 page for a browser: %s", b)
		}
		if n := pdfJobs(t, s); n != 2 {
			t.Fatalf("%d PDF jobs after the retry, want 2", n)
		}
		awaitPDF(t, s, path).WantError(t, 503, "printing the PDF failed")
	})
}
