package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// The end-to-end scenarios of issues 27 and 28 ("The Folio app", parts 1
// and 2), each one test through the app's pages in Chromium. Every step
// waits by polling a condition (a generous minute or more: the machine
// running them may be busy), never by sleeping.

// e2eTab drives one browser tab of an end-to-end test.
type e2eTab struct {
	t   *testing.T
	s   *apitest.Server
	ctx context.Context
}

// e2eStep is how long one step may take before the test fails.
const e2eStep = 2 * time.Minute

func (b *e2eTab) run(actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, e2eStep)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var loc string
		chromedp.Run(b.ctx, chromedp.Location(&loc))
		b.t.Fatalf("at %s: %v", loc, err)
	}
}

// waitJS polls a JavaScript condition (across page loads); on time-out it
// shows what the expression show gives (the page's state).
func (b *e2eTab) waitJS(cond, show string) {
	b.t.Helper()
	deadline := time.Now().Add(e2eStep)
	var err error
	for time.Now().Before(deadline) {
		var ok bool
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err = chromedp.Run(ctx, chromedp.Evaluate("!!("+cond+")", &ok))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	var state string
	chromedp.Run(b.ctx, chromedp.Evaluate(`(() => { try { return String(`+show+`) } catch (e) { return "(" + e + ")" } })()`, &state))
	b.t.Fatalf("waiting for %s (last error %v); %s", cond, err, state)
}

func (b *e2eTab) text(sel string) string {
	b.t.Helper()
	var s string
	b.run(chromedp.Text(sel, &s, chromedp.ByQuery))
	return s
}

func (b *e2eTab) eval(js string, out any) {
	b.t.Helper()
	b.run(chromedp.Evaluate(js, out))
}

func (b *e2eTab) location() string {
	b.t.Helper()
	var loc string
	b.run(chromedp.Location(&loc))
	return strings.TrimPrefix(loc, b.s.URL)
}

// signIn signs in with a password on the sign-in page and lands home.
func (b *e2eTab) signIn(email string) {
	b.t.Helper()
	b.run(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(b.s.URL+"/signin"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
		chromedp.SendKeys(`#email`, email, chromedp.ByQuery), chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
		chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery), chromedp.WaitVisible(`#orgs-heading`, chromedp.ByQuery))
}

// enter presses Enter as a browser does (one keyDown carrying the text).
func (b *e2eTab) enter() {
	b.t.Helper()
	b.run(input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithText("\r"),
		input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13))
}

// tool presses a button of the editor's toolbar.
func (b *e2eTab) tool(command string) {
	b.t.Helper()
	b.run(chromedp.Click(`.fe-toolbar button[data-command="`+command+`"]`, chromedp.ByQuery))
}

// editorState describes the editor's document and selection, for failures.
const editorState = `"selection in " + folioEditor.view.state.selection.$from.parent.type.name + " at depth " + folioEditor.view.state.selection.$from.depth + "; editor holds: " + document.querySelector(".fe-content").innerHTML`

// inTopParagraph: the cursor is in an empty top-level paragraph.
const inTopParagraph = `(() => { const $f = folioEditor.view.state.selection.$from; return $f.depth === 1 && $f.parent.type.name === "paragraph" && $f.parent.content.size === 0 })()`

// save presses Save in the edit view and waits for the page it lands on
// to show want.
func (b *e2eTab) save(want string) {
	b.t.Helper()
	b.run(chromedp.Click(`#editor-save`, chromedp.ByQuery))
	b.waitJS(`!document.getElementById("editor-save") && (document.querySelector("main") || document.body).textContent.includes(`+jsString(want)+`)`,
		`location.href + " " + ((document.getElementById("editor-status") || {}).textContent || "")`)
}

// published asks the reader for a published URL over HTTP.
func published(t *testing.T, s *apitest.Server, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.URL + strings.TrimPrefix(url, apitest.PublicURL))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestFolioAppScenarioPart1 is issue 27's scenario, all through the app in
// Chromium: a writer signs in with a password, creates a space with "New
// space", writes a page with a heading, a list, a table, a hint and a
// code block from the editor's toolbar and a pasted image, and saves. The
// space is locked (an administrator, through the API); the writer opens
// a change request with "Edit in a change request", edits and saves in
// it. A reviewer, in a second browser, comments on a block of its diff
// and approves; the writer merges, and the page shows the change. The
// writer publishes the space on a site from the Sites pages and the
// published page (the reader, over HTTP) shows the change. Then a reader
// member sees no edit controls and their forged edits are refused,
// changing nothing; removed from the organization, their next request
// goes to sign-in. The key views are checked as views.check does.
func TestFolioAppScenarioPart1(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		writer, _ := member(t, s, org, folio.RoleCreate)
		reviewer, _ := member(t, s, org, folio.RoleReview)
		reader, _ := member(t, s, org, folio.RoleRead)
		w := &e2eTab{t: t, s: s, ctx: startBrowser(t)}
		v := newViews(t, w.ctx, s.Store)

		// The writer signs in and creates a space.
		w.signIn(writer.Email)
		w.run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.WaitVisible(`.new-space > summary`, chromedp.ByQuery),
			chromedp.Click(`.new-space > summary`, chromedp.ByQuery), chromedp.WaitVisible(`#space-title`, chromedp.ByQuery),
			chromedp.SendKeys(`#space-title`, "Operations", chromedp.ByQuery),
			chromedp.Click(`.new-space button[type=submit]`, chromedp.ByQuery), chromedp.WaitVisible(`#new-title`, chromedp.ByQuery))
		loc := w.location()
		if !strings.HasPrefix(loc, "/s/") {
			t.Fatalf("New space landed on %s", loc)
		}
		sp := strings.Split(strings.TrimPrefix(loc, "/s/"), "/")[0]
		if h := w.text("main h1"); h != "Operations" {
			t.Fatalf("the new space shows %q", h)
		}

		// Its first page, written in the editor.
		w.run(chromedp.SendKeys(`#new-title`, "Runbook", chromedp.ByQuery), chromedp.Click(`form.new-page button`, chromedp.ByQuery),
			chromedp.WaitVisible(`//article[contains(@class,"doc")]/h1[contains(., "Runbook")]`),
			chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`#editor[data-ready]`, chromedp.ByQuery),
			chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		w.waitJS(`document.activeElement.classList.contains("fe-content") && `+inTopParagraph, editorState)
		w.run(chromedp.KeyEvent("Start here."))
		// A heading (H2 on the toolbar).
		w.enter()
		w.waitJS(inTopParagraph, editorState)
		w.tool("heading2")
		w.run(chromedp.KeyEvent("Setup"))
		w.waitJS(`[...document.querySelectorAll(".fe-content > h2, .fe-content > h3")].some(h => h.textContent === "Setup")`, editorState)
		// A bulleted list of two items; Enter on an empty item leaves it.
		w.enter()
		w.waitJS(inTopParagraph, editorState)
		w.tool("bulletList")
		w.run(chromedp.KeyEvent("Install Folio"))
		w.enter()
		w.run(chromedp.KeyEvent("Run it"))
		w.enter()
		w.enter()
		w.waitJS(`document.querySelectorAll(".fe-content > ul li").length === 2 && `+inTopParagraph, editorState)
		// A code block; Ctrl+Enter leaves it.
		w.tool("codeBlock")
		w.run(chromedp.KeyEvent("folio serve"))
		w.waitJS(`document.querySelector(".fe-content > .fe-codeblock") && document.querySelector(".fe-content > .fe-codeblock").textContent.includes("folio serve")`, editorState)
		w.run(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(input.ModifierCtrl)))
		w.waitJS(inTopParagraph, editorState)
		// A closing line, then a table above it: its cells are typed in
		// with Tab between them. (The table goes above a paragraph: a table
		// inserted into the document's last, empty paragraph became its last
		// block, and Ctrl+End then the down arrow stayed in its last cell.)
		w.enter()
		w.run(chromedp.KeyEvent("That is all."), chromedp.KeyEvent(kb.ArrowUp))
		w.waitJS(inTopParagraph, editorState)
		w.tool("table")
		w.waitJS(`document.querySelector(".fe-content > table")`, editorState)
		w.run(chromedp.Click(`.fe-content table th`, chromedp.ByQuery))
		w.waitJS(`folioEditor.view.state.selection.$from.parent.type.name === "table_header"`, editorState)
		for i, cell := range []string{"Role", "May", "Since", "edit", "write pages", "1.0"} {
			if i > 0 {
				w.run(chromedp.KeyEvent(kb.Tab))
			}
			w.run(chromedp.KeyEvent(cell))
		}
		w.waitJS(`[...document.querySelectorAll(".fe-content table td")].some(c => c.textContent === "write pages")`, editorState)
		// A hint at the end.
		w.run(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
		w.waitJS(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.depth === 1 && $f.parent.textContent === "That is all." && $f.parentOffset === 12 })()`, editorState)
		w.enter()
		w.waitJS(inTopParagraph, editorState)
		w.tool("hint")
		w.run(chromedp.KeyEvent("Back up the database first."))
		w.waitJS(`folioEditor.view.state.selection.$from.node(1).type.name === "hint" && document.querySelector(".fe-content").textContent.includes("Back up the database first.")`, editorState)
		// A pasted image, which asks for its alt text.
		w.eval(`(() => {
			const c = document.createElement("canvas"); c.width = 40; c.height = 20;
			const g = c.getContext("2d"); g.fillStyle = "#36c"; g.fillRect(0, 0, 40, 20);
			const bin = atob(c.toDataURL("image/png").split(",")[1]);
			const bytes = new Uint8Array(bin.length); for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
			const dt = new DataTransfer(); dt.items.add(new File([bytes], "panel.png", {type: "image/png"}));
			document.querySelector(".fe-content").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
			return true })()`, nil)
		w.waitJS(`[...document.querySelectorAll(".fe-content img")].some(i => i.getAttribute("src").startsWith("/v1/files/") && i.complete && i.naturalWidth === 40) && document.activeElement.id.startsWith("fe-image-alt-")`, editorState)
		w.run(chromedp.KeyEvent("The control panel"))
		w.enter()
		w.waitJS(`document.activeElement.classList.contains("fe-content") && document.querySelector(".fe-content img").alt === "The control panel"`, editorState)
		v.check("e2e-edit")

		w.save("Back up the database first.")
		page := w.location()
		md := w.text(".markdown")
		for _, want := range []string{"Start here.", "Setup", "Install Folio", "Run it", "folio serve", "Role", "write pages", "That is all.", "Back up the database first."} {
			if !strings.Contains(md, want) {
				t.Fatalf("the saved page lacks %q: %q", want, md)
			}
		}
		var shape string
		w.eval(`(() => { const m = document.querySelector(".markdown"), q = s => m.querySelectorAll(s).length;
			return [q("h2, h3"), q("ul > li"), q("table th"), q(".hint"), q("pre code"), [...m.querySelectorAll("img")].map(i => i.alt).join("|")].join(",") })()`, &shape)
		if shape != "1,2,3,1,1,The control panel" {
			t.Fatalf("the saved page's headings, items, table headers, hints, code blocks and image alts: %s", shape)
		}
		if got := w.text(".markdown table"); !strings.Contains(got, "write pages") {
			t.Fatalf("table %q", got)
		}
		// The image loads (from this server, whatever its public URL).
		w.waitJS(`[...document.querySelectorAll(".markdown img")].every(i => i.complete && i.naturalWidth === 40)`,
			`[...document.querySelectorAll(".markdown img")].map(i => i.src).join(" ")`)
		v.check("e2e-page")
		c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: writer.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		pageID := c.Tree.Pages[0].ID
		if len(c.Tree.Files) != 1 || c.Tree.Files[0].Name != "panel.png" {
			t.Fatalf("space files after the paste: %+v", c.Tree.Files)
		}

		// Locked (by an administrator): the writer edits in a change request.
		s.Do(t, adminTok, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		w.run(chromedp.Navigate(s.URL+page), chromedp.WaitVisible(`#cr-subject`, chromedp.ByQuery))
		var edits int
		w.eval(`[...document.querySelectorAll("a")].filter(a => a.textContent === "Edit").length + document.querySelectorAll("#new-title, #rename-title").length`, &edits)
		if edits != 0 {
			t.Fatalf("the locked space offers %d direct edit controls", edits)
		}
		w.run(chromedp.SendKeys(`#cr-subject`, "Explain the first step", chromedp.ByQuery),
			chromedp.Click(`//button[.="Create and edit"]`), chromedp.WaitVisible(`#editor[data-ready]`, chromedp.ByQuery),
			chromedp.Click(`//div[contains(@class,"fe-content")]/p[.="Start here."]`), chromedp.KeyEvent(kb.End))
		w.waitJS(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Start here." && $f.parentOffset === 11 })()`, editorState)
		w.run(chromedp.KeyEvent(" Read the whole runbook before an upgrade."))
		w.save("Read the whole runbook before an upgrade.")
		crPath := w.location()
		if crPath != "/s/"+sp+"/~/changes/1" {
			t.Fatalf("saving in the change request landed on %s", crPath)
		}
		if d := w.text(".diff"); !strings.Contains(d, "Read the whole runbook before an upgrade.") {
			t.Fatalf("the change request's diff %q", d)
		}
		live, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: writer.ID}, sp, "")
		if live.Revision.ID != c.Revision.ID {
			t.Fatal("the edit in the change request changed the live content")
		}

		// A reviewer, in a second browser, comments on the changed block
		// and approves.
		r := &e2eTab{t: t, s: s, ctx: startBrowser(t)}
		rv := newViews(t, r.ctx, s.Store)
		r.signIn(reviewer.Email)
		r.run(chromedp.Navigate(s.URL+crPath), chromedp.WaitVisible(`.blk-added a.block-comment`, chromedp.ByQuery))
		var name string
		r.run(chromedp.AttributeValue(`.blk-added a.block-comment`, "aria-label", &name, nil, chromedp.ByQuery))
		if name != "Comment on this block" {
			t.Fatalf("the block's comment control is named %q", name)
		}
		r.run(chromedp.Click(`.blk-added a.block-comment`, chromedp.ByQuery), chromedp.WaitVisible(`#c-form-body`, chromedp.ByQuery),
			chromedp.SendKeys(`#c-form-body`, "Link the upgrade guide here?", chromedp.ByQuery),
			chromedp.Click(`#c-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.blk-added article.thread`, chromedp.ByQuery))
		if got := r.text(`.blk-added article.thread .comment-body`); !strings.Contains(got, "Link the upgrade guide here?") {
			t.Fatalf("the block's thread: %q", got)
		}
		r.run(chromedp.SendKeys(`#review-comment`, "Good change.", chromedp.ByQuery),
			chromedp.Click(`button[name="status"][value="approved"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.review-approved`, chromedp.ByQuery))
		if got := r.text(`.reviews`); !strings.Contains(got, reviewer.DisplayName) || !strings.Contains(got, "Good change.") {
			t.Fatalf("reviews %q", got)
		}
		r.waitJS(`[...document.querySelectorAll(".diff img")].every(i => i.complete && i.naturalWidth === 40)`,
			`[...document.querySelectorAll(".diff img")].map(i => i.src).join(" ")`)
		rv.check("e2e-cr-approved")

		// The writer merges; the page shows the change.
		w.run(chromedp.Navigate(s.URL+crPath), chromedp.WaitVisible(`form.merge button`, chromedp.ByQuery))
		if got := w.text(".blk-added article.thread"); !strings.Contains(got, "Link the upgrade guide here?") {
			t.Fatalf("the writer sees the thread %q", got)
		}
		w.run(chromedp.Click(`form.merge button`, chromedp.ByQuery), chromedp.WaitVisible(`.badge-merged`, chromedp.ByQuery))
		w.run(chromedp.Navigate(s.URL+page), chromedp.WaitVisible(`.markdown`, chromedp.ByQuery))
		if got := w.text(".markdown"); !strings.Contains(got, "Start here. Read the whole runbook before an upgrade.") || !strings.Contains(got, "write pages") {
			t.Fatalf("the page after the merge: %q", got)
		}

		// Published on a site from the Sites pages: the reader shows the change.
		w.run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.Click(`//nav[@id="org-nav"]//a[.="Sites"]`), chromedp.WaitVisible(`#site-title`, chromedp.ByQuery),
			chromedp.SendKeys(`#site-title`, "Operations docs", chromedp.ByQuery),
			chromedp.Click(`input[name="space"][value="`+sp+`"]`, chromedp.ByQuery),
			chromedp.Click(`//button[.="Create site"]`), chromedp.WaitVisible(`//h1[.="Operations docs"]`),
			chromedp.Click(`//button[.="Publish"]`), chromedp.WaitVisible(`//p[@role="status"][contains(., "The site is published.")]`))
		siteURL := w.text(".url a")
		st, body := published(t, s, siteURL)
		if st != 200 || !strings.Contains(body, "Read the whole runbook before an upgrade.") || !strings.Contains(body, "write pages") {
			t.Fatalf("the published site (%s) answers %d:\n%s", siteURL, st, body)
		}

		// A reader member, in the second browser: no edit controls.
		r.run(chromedp.Click(`.account button`, chromedp.ByQuery), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
		r.signIn(reader.Email)
		r.run(chromedp.Navigate(s.URL+page), chromedp.WaitVisible(`.markdown`, chromedp.ByQuery))
		if got := r.text(".markdown"); !strings.Contains(got, "Read the whole runbook before an upgrade.") {
			t.Fatalf("the reader sees %q", got)
		}
		var offered []string
		r.eval(`[...document.querySelectorAll("a, button, summary, input, textarea, select")].map(e => e.textContent.trim() || e.id || e.name).
			filter(s => ["Edit", "Page actions", "Edit in a change request", "Create and edit", "New page", "Create page", "Rename", "Delete page", "new-title", "cr-subject"].includes(s))`, &offered)
		if len(offered) != 0 {
			t.Fatalf("a reader is offered %q", offered)
		}
		rv.check("e2e-reader")
		// Forged edits with the reader's own session and CSRF token are
		// refused, and nothing changes.
		before, err := s.App.GetContent(context.Background(), folio.Caller{UserID: writer.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		crsBefore := changeRequestCount(t, s, adminTok, sp)
		// A form the page does not offer, submitted in the browser.
		r.eval(fmt.Sprintf(`(() => {
			const f = document.createElement("form"); f.method = "post"; f.action = "/s/%s/~/changes";
			for (const [k, v] of [["csrf", document.querySelector('input[name="csrf"]').value], ["subject", "Forged"], ["page", %q]]) {
				const i = document.createElement("input"); i.type = "hidden"; i.name = k; i.value = v; f.append(i) }
			document.body.append(f); f.submit(); return true })()`, sp, pageID), nil)
		r.waitJS(`location.pathname.endsWith("/~/changes") && document.querySelector("h1") && document.querySelector("main").textContent.includes("you cannot")`,
			`location.href + " " + document.body.textContent.slice(0, 500)`)
		// The editor's save and the New page form, sent with the reader's
		// session cookie and CSRF token.
		forger := newBrowser(s)
		var cookies []*network.Cookie
		r.run(chromedp.ActionFunc(func(ctx context.Context) (err error) {
			cookies, err = network.GetCookies().WithURLs([]string{s.URL}).Do(ctx)
			return err
		}))
		for _, c := range cookies {
			forger.c.Jar.SetCookies(mustURL(s.URL), []*http.Cookie{{Name: c.Name, Value: c.Value, Path: c.Path}})
		}
		r.run(chromedp.Navigate(s.URL+page), chromedp.WaitVisible(`.markdown`, chromedp.ByQuery))
		var csrf string
		r.run(chromedp.Value(`input[name="csrf"]`, &csrf, chromedp.ByQuery))
		forger.csrf = csrf
		forged := `{"since": "` + before.Revision.ID + `", "document": {"object": "document", "data": {}, "nodes": [{"object": "block", "type": "paragraph", "data": {}, "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "Forged.", "marks": []}]}]}]}}`
		req, _ := http.NewRequest("POST", s.URL+"/s/"+sp+"/~/pages/"+pageID+"/document", strings.NewReader(forged))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		req.Header.Set("Origin", s.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		forger.do(t, req).want(t, 403)
		forger.post(t, "/s/"+sp+"/~/pages", url.Values{"title": {"Forged"}}).want(t, 403)
		after, err := s.App.GetContent(context.Background(), folio.Caller{UserID: writer.ID}, sp, "")
		if err != nil {
			t.Fatal(err)
		}
		if after.Revision.ID != before.Revision.ID || changeRequestCount(t, s, adminTok, sp) != crsBefore {
			t.Fatal("a reader's forged edit changed the space")
		}

		// Removed from the organization, the reader's next request goes to
		// sign-in: their session ended at once.
		s.Do(t, adminTok, "DELETE", "/v1/orgs/"+org+"/members/"+reader.ID, nil).WantStatus(t, 204)
		r.run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
		if got := r.location(); got != "/signin?next=%2Fo%2F"+org {
			t.Fatalf("a removed member's next request lands on %s", got)
		}
		// Signed out, a link to a page of a space on a public site leads to
		// the published page.
		forger.get(t, page).redirect(t, strings.TrimSuffix(siteURL, "/")+"/runbook")
	})
}

// changeRequestCount is how many change requests a space has.
func changeRequestCount(t *testing.T, s *apitest.Server, tok, sp string) int {
	t.Helper()
	var l struct{ Items []any }
	s.Do(t, tok, "GET", "/v1/spaces/"+sp+"/change-requests?limit=100", nil).WantStatus(t, 200).JSON(t, &l)
	return len(l.Items)
}

// TestFolioAppScenarioPart2 is issue 28's scenario, through the app in
// Chromium: an administrator publishes a site with two sections, shares
// it by link (the reader answers the share URL) and revokes the link (the
// reader refuses it at once); creates an invite link, which a person of
// another organization uses, in a second browser, to join, and then edits
// a page; connects a space to a git repository served on loopback and
// imports it, watching the progress element change without a reload;
// then finds each of those actions in the audit log page.
func TestFolioAppScenarioPart2(t *testing.T) {
	repo := gitRepo(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin, _ := member(t, s, org, folio.RoleAdmin)
		newcomer := outsider(t, s)
		guide := space(t, s, org, adminTok, "Guide", "# Getting started\n\nWelcome, partners.\n")
		faq := space(t, s, org, adminTok, "FAQ", "# Questions\n\nAnswers.\n")
		fromGit := space(t, s, org, adminTok, "From git", "# Placeholder\n\nReplaced by the import.\n")
		a := &e2eTab{t: t, s: s, ctx: startBrowser(t)}
		v := newViews(t, a.ctx, s.Store)
		a.signIn(admin.Email)

		// A site of two sections, published.
		a.run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.Click(`//nav[@id="org-nav"]//a[.="Sites"]`), chromedp.WaitVisible(`#site-title`, chromedp.ByQuery),
			chromedp.SendKeys(`#site-title`, "Partner docs", chromedp.ByQuery),
			chromedp.Click(`input[name="space"][value="`+guide+`"]`, chromedp.ByQuery),
			chromedp.Click(`//button[.="Create site"]`), chromedp.WaitVisible(`//h1[.="Partner docs"]`),
			chromedp.SetValue(`#add-section-space`, faq, chromedp.ByQuery),
			chromedp.SendKeys(`#add-section-title`, "Help", chromedp.ByQuery),
			chromedp.Click(`//button[.="Add section"]`),
			chromedp.WaitVisible(`//p[@role="status"][contains(., "The section was added.")]`))
		siteID := siteIDOf(t, s, admin.ID, org)
		if got := structureOf(t, s, admin.ID, org, siteID); got != "Guide*[Guide*] Help[FAQ*]" {
			t.Fatalf("the site's structure: %s", got)
		}
		a.run(chromedp.Click(`//button[.="Publish"]`), chromedp.WaitVisible(`//p[@role="status"][contains(., "The site is published.")]`))
		siteURL := a.text(".url a")
		if st, body := published(t, s, siteURL); st != 200 || !strings.Contains(body, "Welcome, partners.") {
			t.Fatalf("the published site answers %d:\n%s", st, body)
		}

		// Shared by link, then the link revoked.
		a.run(chromedp.Click(`input[name="visibility"][value="share-link"]`, chromedp.ByQuery), chromedp.Click(`//button[.="Save visibility"]`),
			chromedp.WaitVisible(`#link-name`, chromedp.ByQuery),
			chromedp.SendKeys(`#link-name`, "Partners", chromedp.ByQuery), chromedp.Click(`//button[.="Create share link"]`),
			chromedp.WaitVisible(`.share-links code`, chromedp.ByQuery))
		shared := a.text(".share-links code")
		if !strings.HasPrefix(shared, siteURL) || !strings.Contains(shared, "?shareKey=") {
			t.Fatalf("share link URL %q (site %s)", shared, siteURL)
		}
		if st, body := published(t, s, shared); st != 200 || !strings.Contains(body, "Welcome, partners.") {
			t.Fatalf("the reader answers the share URL %d:\n%s", st, body)
		}
		if st, _ := published(t, s, siteURL); st != 404 {
			t.Fatalf("the share-link site answers %d without a key", st)
		}
		v.check("e2e-site-shared")
		a.run(chromedp.Click(`//form[contains(@action, "/revoke")]/button`), chromedp.WaitVisible(`//p[@role="status"][contains(., "revoked")]`))
		if st, _ := published(t, s, shared); st != 404 {
			t.Fatalf("the reader answers a revoked share link %d", st)
		}

		// An invite link; the newcomer joins with it in a second browser
		// and edits a page.
		a.run(chromedp.Navigate(s.URL+"/o/"+org+"/members"), chromedp.WaitVisible(`#members-heading`, chromedp.ByQuery),
			chromedp.SetValue(`#invite-role`, "edit", chromedp.ByQuery),
			chromedp.Click(`//button[.="Create invite link"]`), chromedp.WaitVisible(`.new-link input.invite-url`, chromedp.ByQuery))
		var link string
		a.run(chromedp.Value(`.new-link input.invite-url`, &link, chromedp.ByQuery))
		at := strings.Index(link, "/join/"+org+"/")
		if at < 0 {
			t.Fatalf("invite link %q", link)
		}
		n := &e2eTab{t: t, s: s, ctx: startBrowser(t)}
		n.run(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(s.URL+link[at:]), chromedp.WaitVisible(`//a[.="Sign in to join"]`),
			chromedp.Click(`//a[.="Sign in to join"]`), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
			chromedp.SendKeys(`#email`, newcomer.Email, chromedp.ByQuery), chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
			chromedp.Click(`form[action="/signin"] button`, chromedp.ByQuery), chromedp.WaitVisible(`//button[.="Join the organization"]`),
			chromedp.Click(`//button[.="Join the organization"]`), chromedp.WaitVisible(`#spaces-heading`, chromedp.ByQuery))
		if got := roleOf(t, s, org, admin.ID, newcomer.ID); got != "edit" {
			t.Fatalf("the newcomer joined as %s", got)
		}
		n.run(chromedp.Navigate(s.URL+"/s/"+guide), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//a[.="Edit"]`), chromedp.WaitVisible(`#editor[data-ready]`, chromedp.ByQuery),
			chromedp.Click(`//div[contains(@class,"fe-content")]/p[.="Welcome, partners."]`), chromedp.KeyEvent(kb.End))
		n.waitJS(`(() => { const $f = folioEditor.view.state.selection.$from; return $f.parent.textContent === "Welcome, partners." && $f.parentOffset === 18 })()`, editorState)
		n.run(chromedp.KeyEvent(" Glad you joined."))
		n.save("Welcome, partners. Glad you joined.")

		// Git sync: connect and import, the progress updating in place.
		a.run(chromedp.Navigate(s.URL+"/s/"+fromGit), chromedp.WaitVisible(`article.doc`, chromedp.ByQuery),
			chromedp.Click(`//nav[@class="space-tabs"]/a[.="Git sync"]`), chromedp.WaitVisible(`#git-url`, chromedp.ByQuery),
			chromedp.SendKeys(`#git-url`, repo, chromedp.ByQuery), chromedp.SetValue(`#git-branch`, "main", chromedp.ByQuery),
			chromedp.SendKeys(`#git-dir`, "docs", chromedp.ByQuery), chromedp.SendKeys(`#git-user`, "alice", chromedp.ByQuery),
			chromedp.SendKeys(`#git-pass`, "s3cret-pass", chromedp.ByQuery),
			chromedp.Click(`button[value="import"]`, chromedp.ByQuery), chromedp.WaitVisible(`.progress`, chromedp.ByQuery))
		// Every text the progress element shows is recorded, on this page
		// (a reload would lose the record).
		a.eval(`(() => { const p = document.querySelector(".progress-text"); window.e2eSeen = [p.textContent];
			new MutationObserver(() => { const t = p.textContent; if (window.e2eSeen[window.e2eSeen.length - 1] !== t) window.e2eSeen.push(t) })
				.observe(p, {childList: true, characterData: true, subtree: true}); return true })()`, nil)
		runJobs(t, s)
		a.waitJS(`document.querySelector(".progress").dataset.state === "success" && document.querySelector(".progress-text").textContent.startsWith("Import done")`,
			`document.querySelector(".progress").outerHTML`)
		var seen []string
		a.eval(`window.e2eSeen || []`, &seen)
		if len(seen) < 2 || seen[0] != "Import queued: waiting for its turn." || !strings.HasPrefix(seen[len(seen)-1], "Import done") {
			t.Fatalf("the progress element showed %q", seen)
		}
		if got := titles(t, s, adminTok, fromGit); got != "Welcome from git,Guide" {
			t.Fatalf("pages after the import: %s", got)
		}
		v.check("e2e-gitsync-done")

		// The audit log lists each of those actions.
		a.run(chromedp.Navigate(s.URL+"/o/"+org), chromedp.Click(`//nav[@id="org-nav"]//a[.="Audit log"]`),
			chromedp.WaitVisible(`//h1[.="Audit log"]`))
		var rows []string
		a.eval(`[...document.querySelectorAll("ol.audit > li")].map(li => li.textContent.replace(/\s+/g, " ").trim())`, &rows)
		for _, r := range rows {
			t.Logf("audit: %s", r)
		}
		find := func(what string, parts ...string) {
			t.Helper()
			for _, r := range rows {
				ok := true
				for _, p := range parts {
					ok = ok && strings.Contains(r, p)
				}
				if ok {
					return
				}
			}
			t.Errorf("the audit log lacks %s (a row with %q):\n%s", what, parts, strings.Join(rows, "\n"))
		}
		find("the site published", "site.published by "+admin.DisplayName, "site "+siteID, `"visibility":"public"`)
		find("the share link created", "site.share_link_created by "+admin.DisplayName, "site "+siteID, `"name":"Partners"`)
		find("the share link revoked", "site.share_link_updated by "+admin.DisplayName, "site "+siteID, `"active":false`)
		find("the invite link created", "invite_link.created by "+admin.DisplayName, `"role":"edit"`)
		find("the newcomer joining", "member.added by "+newcomer.DisplayName, "member "+newcomer.ID, `"role":"edit"`)
		find("the git sync", "space.git_sync_import by "+admin.DisplayName, "space "+fromGit)
		v.check("e2e-audit")
	})
}
