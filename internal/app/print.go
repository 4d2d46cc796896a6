package app

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Printing: getSpacePDF and getChangeRequestPDF answer a signed URL to a
// print page of a revision (rendered by internal/reader); the same URL
// with format=pdf answers that page printed to PDF by headless Chromium
// (internal/pdf), made once per revision and variant by a durable job and
// kept in the blob store. See docs/pdf.md.

// Bounds of printing.
const (
	// PrintURLLifetime is how long a print URL works, as in the reference.
	PrintURLLifetime = time.Hour
	// MaxPrintPages bounds the pages of one print; the print page says how
	// many more there were.
	MaxPrintPages = 500
	// MaxPDFBytes bounds a printed PDF.
	MaxPDFBytes = 200 << 20
	// PrintTimeout bounds one attempt at printing a PDF.
	PrintTimeout = 3 * time.Minute
	// PrintRetryAfter is how long a failed PDF stays failed before a
	// request starts a new attempt.
	PrintRetryAfter = 30 * time.Second
	// printLease is how long a server holds a PDF job it started before
	// another server may take it over.
	printLease = PrintTimeout + 2*time.Minute
	// maxConcurrentPrints bounds the Chromium instances of one server.
	maxConcurrentPrints = 1
)

// Printer prints print pages to PDF. cmd/folio supplies internal/pdf's,
// which drives headless Chromium; app cannot import it, since it renders
// through the reader, which imports app.
type Printer interface {
	// Available reports why PDFs cannot be printed here, or nil.
	Available() error
	// Print returns the PDF of a print target.
	Print(ctx context.Context, t PrintTarget) ([]byte, error)
}

// SetPrinter sets the printer of PDFs; call it before serving requests.
// Without one, PDF requests answer that printing is unavailable.
func (a *App) SetPrinter(p Printer) { a.printer.Store(&printerRef{p}) }

type printerRef struct{ Printer }

// thePrinter returns the printer set, or nil.
func (a *App) thePrinter() Printer {
	if r := a.printer.Load(); r != nil {
		return r.Printer
	}
	return nil
}

// PrintTarget names what a print URL shows: a revision of a space, seen
// through a change request or not, whole or from one page.
type PrintTarget struct {
	SpaceID    folio.ID `json:"space"`
	RevisionID folio.ID `json:"revision"`
	// ChangeRequestID is the change request whose head is the revision,
	// "" for the space's own revision.
	ChangeRequestID folio.ID `json:"changeRequest,omitempty"`
	// PageID is the page printed with its subpages, or alone with Only;
	// "" prints the whole revision.
	PageID string `json:"page,omitempty"`
	Only   bool   `json:"only,omitempty"`
}

// Variant names the target within its revision, for the PDF's key.
func (t PrintTarget) Variant() string {
	v := "all"
	switch {
	case t.PageID != "" && t.Only:
		v = "only-" + t.PageID
	case t.PageID != "":
		v = "page-" + t.PageID
	}
	if t.ChangeRequestID != "" {
		v = "cr-" + t.ChangeRequestID + "-" + v
	}
	return v
}

// pdfKey is where the PDF of a target lives in the bucket.
func pdfKey(t PrintTarget) string {
	return pdfPrefix + t.SpaceID + "/" + t.RevisionID + "/" + t.Variant() + ".pdf"
}

var (
	errPrintLink   = folio.Errorf(folio.NotFound, "print link not found or expired")
	errOnlyNoPage  = folio.FieldErrorf("only", "only needs a page to print")
	errPrintNoPage = folio.Errorf(folio.NotFound, "page not found")
)

// PrintURL returns the signed URL of the print page of a space's current
// revision (crRef "") or of a change request's head, for getSpacePDF and
// getChangeRequestPDF: whoever may read the space or change request may
// print it. pageID limits the print to a page and its subpages, or to the
// page alone with only.
func (a *App) PrintURL(ctx context.Context, caller folio.Caller, spaceID folio.ID, crRef, pageID string, only bool) (string, error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return "", err
	}
	t := PrintTarget{SpaceID: spaceID, PageID: pageID, Only: only}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		var sv *folio.SpaceView
		if crRef != "" {
			var cr *folio.ChangeRequest
			if sv, cr, err = changeRequest(ctx, tx, caller, spaceID, crRef); err != nil {
				return err
			}
			t.ChangeRequestID, t.RevisionID = cr.ID, cr.Revision
		} else {
			if sv, _, err = space(ctx, tx, caller, spaceID); err != nil {
				return err
			}
			t.RevisionID = sv.Revision
		}
		t.SpaceID = sv.ID
		if only && pageID == "" {
			return errOnlyNoPage
		}
		if pageID == "" {
			return nil
		}
		c, err := a.contentOf(ctx, tx, sv, t.RevisionID)
		if err != nil {
			return err
		}
		if n, ok := c.Node(pageID); !ok || n.Page.Type == content.PageLink {
			return errPrintNoPage
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	expires := a.clock.Now().Add(PrintURLLifetime).Unix()
	q := url.Values{}
	if t.ChangeRequestID != "" {
		q.Set("changeRequest", t.ChangeRequestID)
	}
	if t.PageID != "" {
		q.Set("page", t.PageID)
	}
	if t.Only {
		q.Set("only", "true")
	}
	q.Set("expires", strconv.FormatInt(expires, 10))
	q.Set("sig", urls.mac(printFields(t, expires)...))
	return urls.base + "/v1/print/spaces/" + url.PathEscape(t.SpaceID) + "/revisions/" + url.PathEscape(t.RevisionID) + "?" + q.Encode(), nil
}

// printFields are what a print URL signs.
func printFields(t PrintTarget, expires int64) []string {
	return []string{"print", t.SpaceID, t.RevisionID, t.ChangeRequestID, t.PageID, strconv.FormatBool(t.Only),
		strconv.FormatInt(expires, 10)}
}

// OpenPrint checks a print URL and returns what it prints. A bad or
// expired signature is NotFound, as for downloads.
func (a *App) OpenPrint(ctx context.Context, spaceID, revisionID folio.ID, q url.Values) (PrintTarget, error) {
	t := PrintTarget{SpaceID: spaceID, RevisionID: revisionID, ChangeRequestID: q.Get("changeRequest"),
		PageID: q.Get("page"), Only: q.Get("only") == "true"}
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil || a.clock.Now().Unix() > expires {
		return PrintTarget{}, errPrintLink
	}
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return PrintTarget{}, err
	}
	want := urls.mac(printFields(t, expires)...)
	if !hmac.Equal([]byte(want), []byte(q.Get("sig"))) {
		return PrintTarget{}, errPrintLink
	}
	return t, nil
}

// PrintBook is what a print page shows: the pages of a revision in tree
// order, with their documents.
type PrintBook struct {
	Target  PrintTarget
	Space   *folio.SpaceView
	Content *Content
	// ChangeRequest is the change request printed, if any.
	ChangeRequest *folio.ChangeRequest
	Pages         []PrintPage
	// Omitted counts the pages left out beyond MaxPrintPages.
	Omitted int
}

// PrintPage is one page of a print: Depth 0 at the top of what is printed.
type PrintPage struct {
	Page     *content.Page
	Depth    int
	Document *content.Document // nil for groups
}

// Title is the title of the printed thing: the space's, or the page's
// when one page is printed.
func (b *PrintBook) Title() string {
	if b.Target.PageID != "" && len(b.Pages) > 0 {
		return b.Pages[0].Page.Title
	}
	return b.Space.Title
}

// PrintBook loads what a checked print URL shows. Hidden pages are left
// out, as the reader leaves them out, unless the print names one as its
// page; link pages are left out (they have no content).
func (a *App) PrintBook(ctx context.Context, t PrintTarget) (b *PrintBook, err error) {
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		sp, err := store.GetSpace(ctx, tx, t.SpaceID)
		if err != nil {
			return err
		}
		b = &PrintBook{Target: t, Space: &folio.SpaceView{Space: *sp, CallerRole: folio.RoleRead}}
		if t.ChangeRequestID != "" {
			if b.ChangeRequest, err = store.GetChangeRequest(ctx, tx, sp.ID, t.ChangeRequestID); err != nil {
				return err
			}
		}
		c, err := a.contentOf(ctx, tx, b.Space, t.RevisionID)
		if err != nil {
			return err
		}
		c.urls = urls
		b.Content = c
		top := c.Tree.Pages
		if t.PageID != "" {
			n, ok := c.Node(t.PageID)
			if !ok || n.Page.Type == content.PageLink {
				return errPrintNoPage
			}
			b.add(n.Page, 0)
			if t.Only {
				top = nil
			} else {
				top = n.Page.Pages
			}
		}
		b.walk(top, len(b.Pages))
		for i := range b.Pages {
			p := &b.Pages[i]
			if p.Page.Type != content.PageDocument || p.Page.Document.IsZero() {
				continue
			}
			if p.Document, err = a.loadDocument(ctx, tx, p.Page.Document); err != nil {
				return err
			}
		}
		return nil
	})
	return b, err
}

func (b *PrintBook) walk(pages []*content.Page, depth int) {
	for _, p := range pages {
		if p.Hidden || p.Type == content.PageLink {
			continue
		}
		b.add(p, depth)
		b.walk(p.Pages, depth+1)
	}
}

func (b *PrintBook) add(p *content.Page, depth int) {
	if len(b.Pages) >= MaxPrintPages {
		b.Omitted++
		return
	}
	b.Pages = append(b.Pages, PrintPage{Page: p, Depth: depth})
}

// PDF is the state of a target's PDF for a request: Reader is set when it
// is ready (the caller closes it); otherwise it is being printed, and
// LastError says why the previous attempt failed, if one did.
type PDF struct {
	Reader    *blob.Reader
	Size      int64
	Name      string // file name for downloads
	LastError string
}

// RequestPDF returns the PDF of a checked print target when it is stored.
// Otherwise it starts printing it, once for all the requests that ask for
// it, and answers a PDF without Reader. A PDF whose printing failed
// answers Unavailable with why, and a request made PrintRetryAfter later
// tries again. Without Chromium it answers Unavailable and says so.
func (a *App) RequestPDF(ctx context.Context, t PrintTarget) (*PDF, error) {
	out := &PDF{}
	var e *folio.PDFExport
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		sp, err := store.GetSpace(ctx, tx, t.SpaceID)
		if err != nil {
			return err
		}
		out.Name = pdfName(sp.Title, t)
		e, err = store.GetPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant())
		if folio.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if e != nil && e.Status == folio.PDFDone {
		r, err := a.blobs.NewReader(ctx, pdfKey(t), nil)
		if err == nil {
			out.Reader, out.Size = r, r.Size()
			return out, nil
		}
		if gcerrors.Code(err) != gcerrors.NotFound {
			return nil, fmt.Errorf("open pdf %s: %w", pdfKey(t), err)
		}
		// The bucket lost it: print it again.
	}
	if err := a.printerAvailable(); err != nil {
		return nil, err
	}
	if e != nil && e.Status == folio.PDFPending {
		return out, nil
	}
	if e != nil && e.Status == folio.PDFFailed && a.clock.Now().Sub(e.UpdatedAt) < PrintRetryAfter {
		return nil, folio.Errorf(folio.Unavailable, "printing the PDF failed: %s; a request after %s tries again",
			e.Error, e.UpdatedAt.Add(PrintRetryAfter).UTC().Format(time.RFC3339))
	}
	if e != nil {
		out.LastError = e.Error
	}
	return out, a.startPDF(ctx, t)
}

// printerAvailable is nil when this server can print PDFs, else an
// Unavailable error that says why.
func (a *App) printerAvailable() error {
	p := a.thePrinter()
	if p == nil {
		return folio.Errorf(folio.Unavailable, "PDF export is not available: this server has no PDF printer")
	}
	if err := p.Available(); err != nil {
		return folio.Errorf(folio.Unavailable, "PDF export is not available: %v; the print page (the same URL without format=pdf) still works", err)
	}
	return nil
}

// startPDF records that a target is being printed, as a job this server
// runs at once; if it stops first, another server's job runner runs the
// job when the lease expires. Of two requests racing, both may start a
// job: printing is idempotent, and the second finds the first's PDF.
func (a *App) startPDF(ctx context.Context, t PrintTarget) error {
	payload, _ := json.Marshal(t)
	var jobID folio.ID
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		e, err := store.GetPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant())
		if err == nil && e.Status == folio.PDFPending {
			return nil // another request started it meanwhile
		}
		if err != nil && !folio.IsNotFound(err) {
			return err
		}
		if err := store.StartPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant()); err != nil {
			return err
		}
		jobID, err = store.StartJob(ctx, tx, folio.JobPrintPDF, string(payload), printLease)
		return err
	})
	if err != nil || jobID == "" {
		return err
	}
	go func() {
		bg := context.WithoutCancel(ctx)
		a.recordJob(bg, jobID, a.printPDF(bg, t))
	}()
	return nil
}

// PrintPDFJob runs a PDF job again, after the server that started it
// stopped before it finished.
func (a *App) PrintPDFJob(ctx context.Context, payload string) error {
	var t PrintTarget
	if err := json.Unmarshal([]byte(payload), &t); err != nil {
		return folio.Errorf(folio.Invalid, "print job payload: %v", err)
	}
	return a.printPDF(ctx, t)
}

// printPDF prints a target and stores its PDF, recording the outcome on
// the export. It is idempotent: a PDF already stored is kept.
func (a *App) printPDF(ctx context.Context, t PrintTarget) error {
	var e *folio.PDFExport
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		e, err = store.GetPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant())
		return err
	})
	if err != nil {
		return err
	}
	if e.Status == folio.PDFDone {
		if ok, _ := a.blobs.Exists(ctx, pdfKey(t)); ok {
			return nil
		}
	}
	size, err := a.printAndStore(ctx, t)
	failure := ""
	if err != nil {
		failure = err.Error()
		if folio.KindOf(err) == folio.Internal {
			failure = "the PDF printer failed: " + failure
		}
	}
	if werr := a.db.Write(ctx, func(tx *store.Tx) error {
		return store.FinishPDFExport(ctx, tx, t.SpaceID, t.RevisionID, t.Variant(), size, failure)
	}); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// printAndStore prints a target under this server's bound on printers at
// once and PrintTimeout, and stores the PDF.
func (a *App) printAndStore(ctx context.Context, t PrintTarget) (int64, error) {
	if err := a.printerAvailable(); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, PrintTimeout)
	defer cancel()
	select {
	case a.printing <- struct{}{}:
		defer func() { <-a.printing }()
	case <-ctx.Done():
		return 0, folio.Errorf(folio.Unavailable, "timed out waiting for the PDF printer")
	}
	b, err := a.thePrinter().Print(ctx, t)
	if err != nil {
		if ctx.Err() != nil {
			return 0, folio.Errorf(folio.Unavailable, "printing took longer than %s", PrintTimeout)
		}
		return 0, err
	}
	if len(b) > MaxPDFBytes {
		return 0, folio.Errorf(folio.Invalid, "the PDF is larger than %d MB", MaxPDFBytes>>20)
	}
	if err := a.blobs.WriteAll(ctx, pdfKey(t), b, &blob.WriterOptions{ContentType: "application/pdf"}); err != nil {
		return 0, fmt.Errorf("store pdf %s: %w", pdfKey(t), err)
	}
	return int64(len(b)), nil
}

// pdfName is the file name of a target's PDF: the space's title as a
// slug, and the page's id when one page is printed.
func pdfName(title string, t PrintTarget) string {
	name := content.Slugify(title)
	if name == "" {
		name = "space"
	}
	if t.PageID != "" {
		name += "-" + strings.ToLower(t.PageID)
	}
	return name + ".pdf"
}
