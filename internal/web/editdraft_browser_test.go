package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
)

// TestEditorBlocksDraftsMarkdownInBrowser writes an expandable and tabs
// from the slash menu (keyboard only), reloads without saving (the page
// asks before leaving) and restores the draft, saves, finds both blocks
// on the page and the same document with its keys when editing again;
// then uses the Markdown view (toggle, edit, back to the editor, save).
// The edit view is checked with the slash menu open, with the draft
// offered and in the Markdown view (views.check).
func TestEditorBlocksDraftsMarkdownInBrowser(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := startBrowser(t)
		org, admin := s.Org(t)
		u, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nHello, writers.\n\n## Install\n\nDownload it.\n")
		run := func(actions ...chromedp.Action) {
			t.Helper()
			if err := chromedp.Run(ctx, actions...); err != nil {
				t.Fatal(err)
			}
		}
		key := func(k string) {
			t.Helper()
			run(chromedp.KeyEvent(k))
		}
		enter := func() {
			t.Helper()
			run(input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithText("\r"),
				input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13))
		}
		waitFor := func(cond string) {
			t.Helper()
			// Polls across navigations (saving leaves the page).
			deadline := time.Now().Add(15 * time.Second)
			var err error
			for {
				var ok bool
				err = chromedp.Run(ctx, chromedp.Evaluate("!!("+cond+")", &ok))
				if err == nil && ok {
					return
				}
				if time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			{
				var html string
				chromedp.Run(ctx, chromedp.Evaluate(`location.href + " " + !!document.querySelector(".markdown") + (document.querySelector(".fe-content") || document.body).innerHTML.slice(0, 300) + " | " + (document.getElementById("editor-status") || {}).textContent`, &html))
				t.Fatalf("waiting for %s: %v; page holds:\n%s", cond, err, html)
			}
		}
		// Leaving with unsaved changes asks first: the dialog is recorded and accepted.
		dialogs := make(chan string, 4)
		chromedp.ListenTarget(ctx, func(ev any) {
			if e, ok := ev.(*cdppage.EventJavascriptDialogOpening); ok {
				dialogs <- string(e.Type)
				go chromedp.Run(ctx, cdppage.HandleJavaScriptDialog(true))
			}
		})
		pageDoc := func() (string, map[string]any) {
			t.Helper()
			c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: u.ID}, sp, "")
			if err != nil {
				t.Fatal(err)
			}
			id := c.Tree.Pages[0].ID
			raw, err := s.App.GetPageDocument(context.Background(), folio.Caller{UserID: u.ID}, sp, c.Revision.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			return id, doc
		}
		pageID, before := pageDoc()
		editURL := s.URL + "/s/" + sp + "/~/pages/" + pageID + "/edit"
		v := newViews(t, ctx, s.Store)

		run(chromedp.EmulateViewport(1280, 800), browserSignIn(s.URL, u.Email))
		run(chromedp.Navigate(editURL), chromedp.WaitVisible(`.fe-content`, chromedp.ByQuery))
		waitFor(`document.getElementById("editor").dataset.ready === "true" && document.getElementById("editor-draft").hidden`)

		// After the last paragraph, two empty paragraphs, the cursor in the first.
		run(chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		waitFor(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Download it." && $f.parentOffset === 12 })()`)
		enter()
		enter()
		key(kb.ArrowUp)
		// "/" opens the slash menu; "/exp" filters it to Expandable.
		key("/")
		waitFor(`!document.querySelector(".fe-slash").hidden && document.querySelector(".fe-content").getAttribute("aria-activedescendant")`)
		v.check("edit-slash-menu")
		run(chromedp.Focus(`.fe-content`, chromedp.ByQuery))
		key("exp")
		waitFor(`document.querySelectorAll(".fe-slash [role=option]").length === 1 && !document.querySelector(".fe-slash").hidden`)
		enter()
		waitFor(`folioEditor.view.state.selection.$from.parent.type.name === "expandable_title"`)
		key("Why Folio?")
		key(kb.ArrowDown)
		key("Because it is one binary.")
		// "/tab" offers Table and Tabs: ArrowDown, Enter.
		run(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		key("/tab")
		waitFor(`document.querySelectorAll(".fe-slash [role=option]").length === 2`)
		key(kb.ArrowDown)
		enter()
		waitFor(`folioEditor.view.state.selection.$from.node(2) && folioEditor.view.state.selection.$from.node(2).type.name === "tabs_item"`)
		key("apt install folio")

		// The draft is written a second after typing; reloading without
		// saving asks first, then offers it.
		waitFor(`Object.keys(localStorage).some(k => k.startsWith("folio-draft:") && localStorage.getItem(k).includes("apt install folio"))`)
		// Meanwhile another writer changes the first paragraph and saves.
		theirs := strings.Replace(mustJSON(before), "Hello, writers.", "Hello, all writers.", 1)
		var theirDoc content.Document
		if err := json.Unmarshal([]byte(theirs), &theirDoc); err != nil {
			t.Fatal(err)
		}
		other, _ := member(t, s, org, folio.RoleEdit)
		if _, err := s.App.SavePageDocument(context.Background(), folio.Caller{UserID: other.ID}, sp, app.PageDocumentInput{Page: pageID, Document: &theirDoc}); err != nil {
			t.Fatal(err)
		}
		_, before = pageDoc()
		run(chromedp.Navigate(editURL))
		select {
		case d := <-dialogs:
			if d != "beforeunload" {
				t.Fatalf("leaving with unsaved changes opened a %q dialog", d)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("leaving with unsaved changes did not ask")
		}
		waitFor(`document.getElementById("editor").dataset.ready === "true" && !document.getElementById("editor-draft").hidden`)
		var offer string
		run(chromedp.Text(`#editor-draft`, &offer, chromedp.ByQuery))
		if !strings.Contains(offer, "You have an unsaved draft of this page from") || !strings.Contains(offer, "started before the page was last saved") ||
			!strings.Contains(offer, "Restore your unsaved draft") || !strings.Contains(offer, "Discard") {
			t.Fatalf("draft offer: %q", offer)
		}
		if strings.Contains(offer, "apt install") {
			t.Fatal("the draft went into the editor before the writer chose")
		}
		v.check("edit-draft")
		run(chromedp.Focus(`#editor-draft-restore`, chromedp.ByQuery))
		enter()
		waitFor(`document.getElementById("editor-draft").hidden && document.querySelector(".fe-content").textContent.includes("apt install folio") && document.querySelector(".fe-content").textContent.includes("Because it is one binary.")`)

		// Save: merged with the other writer's change (the draft's revision
		// is the base); the page shows the expandable and the tabs; the
		// draft is gone.
		run(chromedp.Click(`#editor-save`, chromedp.ByQuery))
		waitFor(`location.pathname.startsWith("/s/` + sp + `/") && !location.pathname.endsWith("/edit") && document.querySelector(".markdown")`)
		var shown []string
		run(chromedp.Evaluate(`[document.querySelector(".markdown p").textContent.trim(), document.querySelector(".markdown details summary").textContent.trim(), document.querySelector(".markdown details").textContent.includes("Because it is one binary.") ? "body" : "no body",
			...[...document.querySelectorAll(".markdown .tabs [role=tab]")].map(t => t.textContent.trim()), document.querySelector(".markdown .tabs [role=tabpanel]").textContent.includes("apt install folio") ? "panel" : "no panel",
			String(Object.keys(localStorage).filter(k => k.startsWith("folio-draft:")).length)]`, &shown))
		if diff := cmp.Diff([]string{"Hello, all writers.", "Why Folio?", "body", "Tab 1", "Tab 2", "panel", "0"}, shown); diff != "" {
			t.Fatalf("saved page (-want +got):\n%s", diff)
		}
		_, saved := pageDoc()
		blocks := saved["nodes"].([]any)
		types := []string{}
		for _, b := range blocks {
			bm := b.(map[string]any)
			types = append(types, bm["type"].(string))
			if k, _ := bm["key"].(string); k == "" {
				t.Errorf("saved %s block without a key", bm["type"])
			}
		}
		if diff := cmp.Diff([]string{"paragraph", "heading-2", "paragraph", "expandable", "tabs"}, types); diff != "" {
			t.Fatalf("saved blocks (-want +got):\n%s", diff)
		}
		// Editing again: the editor writes back exactly what was saved, keys included.
		run(chromedp.Navigate(editURL))
		waitFor(`document.getElementById("editor").dataset.ready === "true"`)
		var again string
		run(chromedp.Evaluate(`JSON.stringify(folioEditor.getDocument())`, &again))
		var againDoc map[string]any
		json.Unmarshal([]byte(again), &againDoc)
		if diff := cmp.Diff(saved, againDoc); diff != "" {
			t.Fatalf("the saved document reloaded in the editor (-saved +editor):\n%s", diff)
		}

		// The Markdown view: toggle, edit, back to the editor, save.
		run(chromedp.Click(`#editor-mode`, chromedp.ByQuery))
		waitFor(`!document.getElementById("editor-md").hidden && document.getElementById("editor").hidden && document.getElementById("editor-md-text").value.includes("{% tabs %}") && document.getElementById("editor-md-text").value.includes("<summary>Why Folio?</summary>")`)
		var mode string
		run(chromedp.Text(`#editor-mode`, &mode, chromedp.ByQuery))
		if mode != "Back to the editor" {
			t.Fatalf("the toggle in the Markdown view reads %q", mode)
		}
		v.check("edit-markdown")
		run(chromedp.Focus(`#editor-md-text`, chromedp.ByQuery), chromedp.Evaluate(`(() => { const a = document.getElementById("editor-md-text"); a.setSelectionRange(0, 0) })()`, nil))
		key("Written in **Markdown**.")
		enter()
		enter()
		run(chromedp.Click(`#editor-mode`, chromedp.ByQuery))
		waitFor(`!document.getElementById("editor").hidden && document.getElementById("editor-md").hidden && document.querySelector(".fe-content strong") && document.querySelector(".fe-content").textContent.includes("Written in Markdown.")`)
		run(chromedp.Click(`#editor-save`, chromedp.ByQuery))
		waitFor(`location.pathname.startsWith("/s/` + sp + `/") && !location.pathname.endsWith("/edit") && document.querySelector(".markdown")`)
		_, final := pageDoc()
		fb := final["nodes"].([]any)
		first := fb[0].(map[string]any)
		if first["type"] != "paragraph" || !strings.Contains(mustJSON(first), "Markdown") {
			t.Fatalf("first block after the Markdown view: %s", mustJSON(first))
		}
		// Blocks the Markdown view left alone keep their keys.
		keysOf := func(nodes []any) map[string]string {
			m := map[string]string{}
			for _, b := range nodes {
				bm := b.(map[string]any)
				if k, _ := bm["key"].(string); k != "" {
					m[mustJSON(bm["nodes"])+bm["type"].(string)] = k
				}
			}
			return m
		}
		old, now := keysOf(before["nodes"].([]any)), keysOf(fb)
		for body, k := range old {
			if now[body] != k {
				t.Errorf("block %s had key %s, now %q", body, k, now[body])
			}
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
