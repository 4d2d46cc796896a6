package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// TestMarkdownConversion: the edit view's Markdown view converts a
// document to Markdown and back for writers of the space; readers, other
// organizations and requests without the CSRF token are refused, and
// nothing changes either way.
func TestMarkdownConversion(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w, _ := member(t, s, org, folio.RoleEdit)
		r, _ := member(t, s, org, folio.RoleRead)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello.\n")
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		before := pageDoc(t, s, w.ID, sp, pageID)
		conv := "/s/" + sp + "/~/markdown"

		writer := signIn(t, s, w.Email)
		writer.get(t, "/s/"+sp+"/~/pages/"+pageID+"/edit").want(t, 200, `data-markdown="`+conv+`"`, `id="editor-mode"`, "Restore your unsaved draft")
		p := writer.postJSON(t, conv, map[string]any{"document": docWith("Install", "Download it")}, writer.csrf).want(t, 200)
		var md struct{ Markdown string }
		if err := json.Unmarshal([]byte(p.Body), &md); err != nil || md.Markdown != "# Install\n\n* Download it\n" {
			t.Fatalf("document to Markdown: %q (%v)", md.Markdown, err)
		}
		p = writer.postJSON(t, conv, map[string]any{"markdown": "## Setup\n\n<details>\n<summary>Why?</summary>\n\nBecause.\n\n</details>\n"}, writer.csrf).want(t, 200)
		var doc struct {
			Document struct {
				Nodes []struct {
					Type      string
					Fragments []struct{ Fragment string }
				}
			}
		}
		if err := json.Unmarshal([]byte(p.Body), &doc); err != nil {
			t.Fatal(err)
		}
		if n := doc.Document.Nodes; len(n) != 2 || n[0].Type != "heading-2" || n[1].Type != "expandable" || len(n[1].Fragments) != 2 ||
			n[1].Fragments[0].Fragment != "expandable-title" {
			t.Fatalf("Markdown to document: %s", p.Body)
		}
		// Bad input: a clear message.
		writer.postJSON(t, conv, map[string]any{}, writer.csrf).want(t, 400, "send either a document or markdown")
		writer.postJSON(t, conv, map[string]any{"document": map[string]any{"object": "page"}}, writer.csrf).want(t, 400, "object must be")
		// Without the CSRF token; a reader; another organization's writer.
		writer.postJSON(t, conv, map[string]any{"markdown": "x"}, "").want(t, 403)
		reader := signIn(t, s, r.Email)
		reader.get(t, "/s/"+sp)
		reader.postJSON(t, conv, map[string]any{"markdown": "x"}, reader.csrf).want(t, 403)
		org2, _ := s.Org(t)
		o, _ := member(t, s, org2, folio.RoleAdmin)
		other := signIn(t, s, o.Email)
		other.get(t, "/")
		other.postJSON(t, conv, map[string]any{"markdown": "x"}, other.csrf).want(t, 404)
		if after := pageDoc(t, s, w.ID, sp, pageID); after != before || strings.Contains(after, "Setup") {
			t.Fatalf("a conversion changed the page: %s", after)
		}
	})
}
