package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

var (
	idRE      = regexp.MustCompile(`\sid="([^"]*)"`)
	diffRE    = regexp.MustCompile(`(?s)<div class="diff markdown">.*?</div>\s*</section>`)
	headingRE = regexp.MustCompile(`<h([1-6])[\s>]`)
)

// uniqueIDs fails when an id repeats on the page.
func uniqueIDs(t *testing.T, body string) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range idRE.FindAllStringSubmatch(body, -1) {
		if seen[m[1]] {
			t.Fatalf("id %q repeats on the page:\n%s", m[1], body)
		}
		seen[m[1]] = true
	}
}

// diffHeadings returns the heading levels inside the page's diffs.
func diffHeadings(body string) []string {
	var out []string
	for _, d := range diffRE.FindAllString(body, -1) {
		for _, m := range headingRE.FindAllStringSubmatch(d, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestDiffHeadings checks that a document's headings in a diff sit below
// the heading of the page they belong to, in the document's order, and
// that no id repeats although the same heading shows on both sides.
func TestDiffHeadings(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, tok := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\n## Setup\n\nOld line.\n\n### Details\n\nKeep this.\n\n## Setup\n\nTwice.\n")
		c, _ := s.App.GetContent(ctx, folio.Caller{UserID: u.ID}, sp, "")
		base := c.Revision.ID
		var cr struct{ Number int }
		s.Do(t, tok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Rewrite"}).WantStatus(t, 201).JSON(t, &cr)
		md := "# Guide\n\n## Setup now\n\nNew line.\n\n### Details\n\nKeep this.\n\n## Setup\n\nTwice.\n"
		s.Do(t, tok, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content/page/%s/import", sp, cr.Number, c.Tree.Pages[0].ID),
			map[string]any{"source": "markdown", "url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(md))}).WantStatus(t, 201)
		b := signIn(t, s, u.Email)

		// The change request page: pages are h3, so the document's
		// highest heading is h4.
		p := b.get(t, fmt.Sprintf("/s/%s/~/changes/%d", sp, cr.Number)).want(t, 200, "<h3>Guide",
			`<div class="blk blk-removed"><span class="sr">Removed: </span><h4>Setup</h4>`,
			`<div class="blk blk-added"><span class="sr">Added: </span><h4>Setup now</h4>`,
			`<div class="blk blk-same"><h5>Details</h5>`)
		uniqueIDs(t, p.Body)
		if got := strings.Join(diffHeadings(p.Body), ","); got != "4,4,5,4" {
			t.Fatalf("heading levels in the diff: %s", got)
		}

		// History compare: pages are h2, so the document starts at h3.
		if _, err := s.App.MergeChangeRequest(ctx, folio.Caller{UserID: u.ID}, sp, fmt.Sprint(cr.Number)); err != nil {
			t.Fatal(err)
		}
		c, _ = s.App.GetContent(ctx, folio.Caller{UserID: u.ID}, sp, "")
		p = b.get(t, "/s/"+sp+"/~/revisions/compare?from="+base+"&to="+c.Revision.ID).want(t, 200,
			`<div class="blk-old"><span class="sr">Before: </span><h3>Setup</h3>`,
			`<div class="blk-new"><span class="sr">After: </span><h3>Setup now</h3>`,
			`<div class="blk blk-same"><h4>Details</h4>`)
		uniqueIDs(t, p.Body)
	})
}

// TestDiffTooLarge: versions that differ in more blocks than a diff shows
// get a note with both versions' sizes and links to them, on the change
// request page and in history compare.
func TestDiffTooLarge(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		caller := folio.Caller{UserID: u.ID}
		sp := space(t, s, org, admin, "Handbook", "# Guide\n\nOne.\n")
		c, _ := s.App.GetContent(ctx, caller, sp, "")
		page := c.Tree.Pages[0].ID
		old, reworded := make([]string, 1100), make([]string, 1100)
		for i := range old {
			old[i], reworded[i] = fmt.Sprintf("Line %d.", i), fmt.Sprintf("Line %d, reworded.", i)
		}
		if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: page, Document: content.NewDocument(old...)}); err != nil {
			t.Fatal(err)
		}
		c, _ = s.App.GetContent(ctx, caller, sp, "")
		base := c.Revision.ID
		if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: "Reword all"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: page, Document: content.NewDocument(reworded...),
			ChangeRequest: "1"}); err != nil {
			t.Fatal(err)
		}
		cr, err := s.App.GetChangeRequest(ctx, caller, sp, "1")
		if err != nil {
			t.Fatal(err)
		}
		b := signIn(t, s, u.Email)
		revs := "/s/" + sp + "/~/revisions/"
		note := `<p class="notice diff-too-large">Too many blocks changed to compare the versions block by block (1100 blocks before, 1100 after).` +
			` <a href="` + revs + base + `/pages/` + page + `">The page before</a> · <a href="` + revs + cr.Revision + `/pages/` + page + `">the page after</a></p>`
		for _, path := range []string{"/s/" + sp + "/~/changes/1", revs + "compare?from=" + base + "&to=" + cr.Revision} {
			p := b.get(t, path).want(t, 200, "Content changed", note)
			if strings.Contains(p.Body, "Line 1.") || strings.Contains(p.Body, "blk-") {
				t.Fatalf("%s shows blocks of a diff too large:\n%s", path, p.Body)
			}
		}
		// Both links open the page as it was.
		b.get(t, revs+base+"/pages/"+page).want(t, 200, "<p>Line 1.</p>")
		b.get(t, revs+cr.Revision+"/pages/"+page).want(t, 200, "<p>Line 1, reworded.</p>")
	})
}

// TestChangeRequestShowsRemovedPages: a page the change request deletes is
// named on its page, with what goes away, as history compare shows it.
func TestChangeRequestShowsRemovedPages(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		caller := folio.Caller{UserID: u.ID}
		sp := space(t, s, org, admin, "Handbook", "")
		policy, err := s.App.CreatePage(ctx, caller, sp, app.NewPageInput{Type: content.PageDocument, Title: "Security policy"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.SavePageDocument(ctx, caller, sp, app.PageDocumentInput{Page: policy,
			Document: content.NewDocument("Rotate keys yearly.", "Report incidents.")}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.CreatePage(ctx, caller, sp, app.NewPageInput{Type: content.PageDocument, Title: "Incidents", Parent: policy}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.CreateChangeRequest(ctx, caller, sp, folio.NewChangeRequest{Subject: "Start over"}); err != nil {
			t.Fatal(err)
		}
		// The blank template replaces every page of the change request.
		if _, err := s.App.ApplyTemplate(ctx, caller, sp, app.TemplateInput{ID: "blank", ChangeRequestID: "1"}); err != nil {
			t.Fatal(err)
		}
		p := signIn(t, s, u.Email).get(t, "/s/"+sp+"/~/changes/1").want(t, 200,
			`<h3>Security policy <span class="muted">· Page removed</span></h3>`,
			`<h3>Incidents <span class="muted">· Page removed</span></h3>`,
			`<div class="blk blk-removed"><span class="sr">Removed: </span><p>Rotate keys yearly.</p>`,
			`<div class="blk blk-removed"><span class="sr">Removed: </span><p>Report incidents.</p>`)
		if strings.Contains(p.Body, `<h3> <span class="muted">`) {
			t.Fatalf("a change has no title:\n%s", p.Body)
		}
	})
}
