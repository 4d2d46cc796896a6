package editor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio/internal/browser/browsertest"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/editor"
)

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en" data-theme="light">
<head>
<meta charset="utf-8">
<title>Editor test</title>
<link rel="stylesheet" href="/page.css">
<link rel="stylesheet" href="{{.Style}}">
<script src="{{.Script}}" defer></script>
<script src="/harness.js" defer></script>
</head>
<body>
<main>
<h1>Editor test page</h1>
<div id="editor"></div>
<script type="application/json" id="doc">{{.Doc}}</script>
</main>
</body>
</html>
`))

// editorServer serves a test page hosting the editor under the CSP the
// editor documents, with the document of testdata/every-block.json.
func editorServer(t *testing.T, doc []byte) *httptest.Server {
	t.Helper()
	assets := editor.New("/assets/")
	mux := http.NewServeMux()
	mux.Handle("/assets/", assets)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", editor.CSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		err := page.Execute(w, map[string]any{"Style": assets.StyleURL(), "Script": assets.ScriptURL(), "Doc": template.JS(doc)})
		if err != nil {
			t.Error(err)
		}
	})
	for _, name := range []string{"harness.js", "page.css"} {
		b, err := os.ReadFile(filepath.Join("testdata", "page", name))
		if err != nil {
			t.Fatal(err)
		}
		ctype := "text/css"
		if strings.HasSuffix(name, ".js") {
			ctype = "text/javascript"
		}
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Write(b)
		})
	}
	mux.HandleFunc("/files/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(testPNG())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// testPNG draws a small two-colour diagram.
func testPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 320, 120))
	for y := 0; y < 120; y++ {
		for x := 0; x < 320; x++ {
			c := color.RGBA{0x54, 0xae, 0xff, 0xff}
			if (x/40+y/40)%2 == 0 {
				c = color.RGBA{0x1f, 0x6f, 0xeb, 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

type tab struct {
	t   *testing.T
	ctx context.Context
}

func (b *tab) run(actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *tab) eval(expr string, v any) {
	b.t.Helper()
	b.run(chromedp.Evaluate(expr, v))
}

// waitFor polls a JavaScript condition of the page.
func (b *tab) waitFor(expr string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		err := chromedp.Run(b.ctx, chromedp.Evaluate("!!("+expr+")", &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var state string
			_ = chromedp.Run(b.ctx, chromedp.Evaluate(`window.editor ? JSON.stringify({doc: editor.view.state.doc.toJSON().content.slice(0, 4), sel: editor.view.state.selection.toJSON()}) : ""`, &state))
			b.t.Fatalf("waiting for %s: %v\n%s", expr, err, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// document returns the editor's document, decoded for comparison
// (so the order of properties does not matter).
func (b *tab) document(opts string) any {
	b.t.Helper()
	var s string
	b.eval("JSON.stringify(editor.getDocument("+opts+"))", &s)
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		b.t.Fatal(err)
	}
	return v
}

func (b *tab) keys(keys ...string) {
	b.t.Helper()
	for _, k := range keys {
		b.run(chromedp.KeyEvent(k))
	}
}

func (b *tab) screenshot(name string) {
	b.t.Helper()
	var buf []byte
	b.run(chromedp.FullScreenshot(&buf, 100))
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		b.t.Fatalf("%s: %v", name, err)
	}
	if w := img.Bounds().Dx(); w != 1280 {
		b.t.Fatalf("%s: screenshot %d px wide", name, w)
	}
	// FOLIO_SCREENSHOTS names a folder to keep the screenshots in.
	if dir := os.Getenv("FOLIO_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "editor-"+name+".png"), buf, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// valid checks that a document the editor wrote is a valid Folio document.
func valid(t *testing.T, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	var d content.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if err := d.Validate("document"); err != nil {
		t.Fatalf("the editor's document is invalid: %v", err)
	}
}

// TestEditorInBrowser mounts the editor in Chromium under a strict CSP on
// a document holding every block it edits and some it does not, checks
// the document comes back unchanged, then types, uses input rules, the
// toolbar (by keyboard) and a pasted image, and checks the document.
func TestEditorInBrowser(t *testing.T) {
	ctx := browsertest.New(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "every-block.json"))
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		t.Fatal(err)
	}
	want := decode(t, raw)
	valid(t, want)
	srv := editorServer(t, compact.Bytes())
	b := &tab{t: t, ctx: ctx}
	b.run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/"))
	b.waitFor("window.mounted")

	// Round trip: unchanged, the document comes back as loaded, both with
	// the loaded text of untouched paragraphs and written from the
	// editor's model alone.
	if diff := cmp.Diff(want, b.document("")); diff != "" {
		t.Fatalf("round trip (-loaded +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, b.document("{canonical: true}")); diff != "" {
		t.Fatalf("round trip from the model (-loaded +got):\n%s", diff)
	}
	var kept []string
	b.eval(`[...document.querySelectorAll('.fe-opaque')].map(e => e.textContent)`, &kept)
	if diff := cmp.Diff([]string{"Block kept as is: math", "Block kept as is: reusable-content"}, kept); diff != "" {
		t.Errorf("kept blocks (-want +got):\n%s", diff)
	}
	var names []string
	b.eval(`[...document.querySelectorAll('.fe-toolbar button')].filter(e => !e.hidden).map(e => e.getAttribute('aria-label'))`, &names)
	if len(names) < 18 || names[0] != "Undo" || !contains(names, "Bold") || !contains(names, "H1 heading") || !contains(names, "Code block") {
		t.Errorf("toolbar buttons %q", names)
	}
	b.screenshot("light")
	b.run(chromedp.Evaluate(`document.documentElement.dataset.theme = "dark"`, nil))
	var bg string
	b.eval(`getComputedStyle(document.querySelector('.folio-editor')).backgroundColor`, &bg)
	if bg != "rgb(13, 17, 23)" {
		t.Errorf("dark editor background %q", bg)
	}
	b.screenshot("dark")
	b.run(chromedp.Evaluate(`document.documentElement.dataset.theme = "light"`, nil))

	// On a phone the toolbar wraps, and no row starts with a separator:
	// a group that starts a row has no rule on its left.
	b.run(chromedp.EmulateViewport(360, 900))
	rowStarts := `(() => { const gs = [...document.querySelectorAll('.fe-toolbar .fe-group')].filter(g => !g.hidden);
		return gs.filter((g, i) => i > 0 && g.offsetTop > gs[i-1].offsetTop + gs[i-1].offsetHeight / 2)
			.map(g => g.querySelector('button').getAttribute('aria-label') + ":" + getComputedStyle(g).borderLeftWidth) })()`
	b.waitFor(rowStarts + `.length > 0 && ` + rowStarts + `.every(s => s.endsWith(":0px"))`)
	var starts []string
	b.eval(rowStarts, &starts)
	t.Logf("toolbar rows at 360 px start with %q", starts)
	b.run(chromedp.EmulateViewport(1280, 900))
	// Wider, the marks follow the new rows (the toolbar, with tabs and
	// expandables, takes two rows in this 960 px editor).
	b.waitFor(rowStarts + `.every(s => s.endsWith(":0px")) && [...document.querySelectorAll('.fe-toolbar .fe-group.fe-row-start')].length === ` + rowStarts + `.length`)

	// Typing: at the end of the first heading, Enter starts a paragraph;
	// "- " (an input rule) makes it a bulleted list.
	b.run(chromedp.Click(`.fe-content h2[data-key="kH1"]`, chromedp.ByQuery))
	inHeading := "document.activeElement.classList.contains('fe-content') && editor.view.state.selection.$from.parent.attrs.key === 'kH1'"
	b.waitFor(inHeading)
	b.keys(kb.End)
	b.waitFor(inHeading + " && editor.view.state.selection.$from.parentOffset === 7")
	b.enter()
	b.waitFor(emptyParagraph)
	b.run(chromedp.KeyEvent("- First item "))
	b.waitFor("document.querySelector('.fe-content > ul li')")

	// The toolbar by keyboard: Alt+F10 reaches its one tab stop (Undo),
	// arrows move to Bold, Enter presses it; the focus goes back to the
	// text, and what follows is bold.
	b.run(chromedp.KeyEvent(kb.F10, chromedp.KeyModifiers(input.ModifierAlt)))
	b.waitFor("document.activeElement.getAttribute('aria-label') === 'Undo'")
	for {
		var label string
		b.eval("document.activeElement.getAttribute('aria-label')", &label)
		if label == "Bold" {
			break
		}
		if label == "Redo" || label == "Text" || label == "H1 heading" || label == "H2 heading" || label == "H3 heading" || label == "Undo" {
			b.keys(kb.ArrowRight)
			continue
		}
		t.Fatalf("arrow keys reached %q before Bold", label)
	}
	b.enter()
	b.waitFor("document.activeElement.classList.contains('fe-content')")
	b.run(chromedp.KeyEvent("bold text"))
	var pressed string
	b.eval(`document.querySelector('.fe-toolbar button[aria-label="Bold"]').getAttribute('aria-pressed')`, &pressed)
	if pressed != "true" {
		t.Errorf("Bold aria-pressed %q after typing bold", pressed)
	}

	// Leave the list (Enter on an empty item), then "## " makes a heading
	// and "```" a code block.
	b.enter()
	b.enter()
	b.waitFor(emptyParagraph)
	b.run(chromedp.KeyEvent("## Setup"))
	b.waitFor("[...document.querySelectorAll('.fe-content > h3')].some(h => h.textContent === 'Setup')")
	b.enter()
	b.waitFor(emptyParagraph)
	b.run(chromedp.KeyEvent("```"))
	b.waitFor("document.querySelector('.fe-content > h3 + .fe-codeblock')")
	b.run(chromedp.KeyEvent("make"))

	// A pasted image goes to uploadFile and comes back as an image block.
	b.run(chromedp.Evaluate(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([new Uint8Array([137, 80, 78, 71])], "shot.png", {type: "image/png"}));
		document.querySelector('.fe-content').dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}));
	})()`, nil))
	b.waitFor("window.uploads.length === 1 && document.querySelectorAll('.fe-image').length === 3")
	// The new image asks for its alt text: its field has the focus, and
	// Enter takes the text back to the editor. Then a caption.
	b.waitFor(`document.activeElement.id.startsWith('fe-image-alt-') && document.querySelector('label[for="' + document.activeElement.id + '"]').textContent === 'Alt text'`)
	b.run(chromedp.KeyEvent("A diagram of the setup"))
	b.enter()
	b.waitFor("document.activeElement.classList.contains('fe-content')")
	b.run(chromedp.Click(`.fe-image:last-of-type figcaption`, chromedp.ByQuery))
	b.run(chromedp.KeyEvent("Figure 1"))
	b.waitFor("[...document.querySelectorAll('.fe-image figcaption')].some(f => f.textContent === 'Figure 1')")

	got := b.document("")
	nodes := want.(map[string]any)["nodes"].([]any)
	text := func(leaves ...any) any { return map[string]any{"object": "text", "leaves": leaves} }
	leaf := func(s string, marks ...any) any {
		if marks == nil {
			marks = []any{}
		}
		return map[string]any{"object": "leaf", "text": s, "marks": marks}
	}
	bold := map[string]any{"object": "mark", "type": "bold"}
	inserted := []any{
		map[string]any{"object": "block", "type": "list-unordered", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "list-item", "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{
					text(leaf("First item "), leaf("bold text", bold))}}}}}},
		map[string]any{"object": "block", "type": "heading-2", "data": map[string]any{}, "nodes": []any{text(leaf("Setup"))}},
		map[string]any{"object": "block", "type": "code", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "code-line", "data": map[string]any{}, "nodes": []any{text(leaf("make"))}}}},
		map[string]any{"object": "block", "type": "images", "isVoid": false, "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "image", "isVoid": true, "data": map[string]any{
				"ref": map[string]any{"kind": "file", "file": "up-shotpng"}, "alt": "A diagram of the setup"}, "fragments": []any{
				map[string]any{"object": "fragment", "fragment": "caption", "type": "caption", "nodes": []any{
					map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{text(leaf("Figure 1"))}}}}}}}},
	}
	wantNodes := append(append(append([]any{}, nodes[0]), inserted...), nodes[1:]...)
	wantAfter := map[string]any{"object": "document", "data": map[string]any{}, "nodes": wantNodes}
	if diff := cmp.Diff(wantAfter, got); diff != "" {
		t.Fatalf("document after editing (-want +got):\n%s", diff)
	}
	valid(t, got)

	var changes int
	b.eval("window.changes", &changes)
	if changes == 0 {
		t.Error("onChange never called")
	}
	var violations, errs []string
	b.eval("window.violations", &violations)
	b.eval("window.errors", &errs)
	if len(violations) > 0 || len(errs) > 0 {
		t.Fatalf("CSP violations %q, errors %q", violations, errs)
	}
	b.screenshot("edited")
}

// enter presses Enter as a browser does: one keyDown carrying the
// text, so that a handled (prevented) keyDown inserts nothing more.
// chromedp's KeyEvent sends a separate char event for "\r", which the
// page cannot prevent, and which would split the block a second time.
func (b *tab) enter() {
	b.t.Helper()
	b.run(
		input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13).WithText("\r"),
		input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").WithWindowsVirtualKeyCode(13),
	)
}

// emptyParagraph is true when the cursor is in an empty top-level
// paragraph.
const emptyParagraph = `(() => { const $f = editor.view.state.selection.$from;
	return $f.depth === 1 && $f.parent.type.name === 'paragraph' && $f.parent.content.size === 0 })()`

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSlashMenuInBrowser inserts blocks from the slash menu by keyboard
// only ("/", a filter, arrow keys, Enter; Escape closes it), then edits an
// expandable's title and body and a tabs block's titles and tabs, and
// checks the document the editor writes.
func TestSlashMenuInBrowser(t *testing.T) {
	ctx := browsertest.New(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "every-block.json"))
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		t.Fatal(err)
	}
	srv := editorServer(t, compact.Bytes())
	b := &tab{t: t, ctx: ctx}
	b.run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/"))
	b.waitFor("window.mounted")

	// At the end of the last paragraph, two empty paragraphs; the cursor
	// in the first.
	b.run(chromedp.Focus(`.fe-content`, chromedp.ByQuery), chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
	b.waitFor("editor.view.state.selection.$from.parent.attrs.key === 'kLast' && editor.view.state.selection.$from.parentOffset === 8")
	b.enter()
	b.enter()
	b.keys(kb.ArrowUp)
	b.waitFor(emptyParagraph + " && editor.view.state.selection.$from.index(0) === editor.view.state.doc.childCount - 2")

	// "/" opens the menu: a listbox the text points at.
	b.run(chromedp.KeyEvent("/"))
	menuOpen := `(() => { const m = document.querySelector('.fe-slash'); const c = document.querySelector('.fe-content');
		return !m.hidden && m.getAttribute('role') === 'listbox' && c.getAttribute('aria-controls') === m.id &&
			document.getElementById(c.getAttribute('aria-activedescendant')).getAttribute('aria-selected') === 'true' })()`
	b.waitFor(menuOpen)
	var options []string
	b.eval(`[...document.querySelectorAll('.fe-slash [role=option] .fe-slash-name')].map(o => o.textContent)`, &options)
	want := []string{"Text", "Heading 1", "Heading 2", "Heading 3", "Bulleted list", "Numbered list", "Task list", "Quote", "Hint",
		"Code block", "Table", "Image", "Divider", "Tabs", "Expandable"}
	if diff := cmp.Diff(want, options); diff != "" {
		t.Fatalf("slash menu options (-want +got):\n%s", diff)
	}
	b.screenshot("slash-menu")
	// Escape closes it and leaves the "/" as text; Backspace removes it.
	b.keys(kb.Escape)
	b.waitFor("document.querySelector('.fe-slash').hidden && !document.querySelector('.fe-content').hasAttribute('aria-activedescendant') && editor.view.state.selection.$from.parent.textContent === '/'")
	b.keys(kb.Backspace)
	b.waitFor(emptyParagraph)

	// "/exp" leaves one option; Enter makes an expandable, the cursor in its title.
	b.run(chromedp.KeyEvent("/exp"))
	b.waitFor(menuOpen + " && document.querySelectorAll('.fe-slash [role=option]').length === 1")
	b.enter()
	b.waitFor("document.querySelector('.fe-slash').hidden && editor.view.state.selection.$from.parent.type.name === 'expandable_title'")
	b.waitFor("getComputedStyle(document.querySelector('.fe-content > .fe-expandable:nth-last-child(2) .fe-expandable-title'), '::after').content === '\"Expandable title\"'")
	b.screenshot("expandable-new")
	b.run(chromedp.KeyEvent("Why?"))
	b.enter() // from the title to the body
	b.waitFor("editor.view.state.selection.$from.node(2).type.name === 'expandable_body'")
	b.run(chromedp.KeyEvent("Because."))

	// "/tab" matches Table and Tabs: ArrowDown, then Enter inserts tabs
	// in place of the empty paragraph after the expandable.
	b.run(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
	b.waitFor(emptyParagraph)
	b.run(chromedp.KeyEvent("/tab"))
	b.waitFor(menuOpen + " && document.querySelectorAll('.fe-slash [role=option]').length === 2")
	b.keys(kb.ArrowDown)
	b.waitFor("document.querySelector('.fe-content').getAttribute('aria-activedescendant').endsWith('-tabs')")
	b.enter()
	b.waitFor("editor.view.state.selection.$from.node(2) && editor.view.state.selection.$from.node(2).type.name === 'tabs_item'")
	b.run(chromedp.KeyEvent("apt install folio"))

	// The first tab's title field: renamed; Enter goes back to its text.
	b.run(chromedp.Focus(`.fe-content > .fe-tabs:last-child .fe-tab-title input`, chromedp.ByQuery), chromedp.Evaluate(`document.activeElement.select()`, nil))
	b.run(chromedp.KeyEvent("Linux"))
	b.enter()
	b.waitFor("document.activeElement.classList.contains('fe-content')")
	// Add a tab: its title field takes the focus, selected.
	b.run(chromedp.Click(`.fe-content > .fe-tabs:last-child .fe-tab-add`, chromedp.ByQuery))
	b.waitFor("document.activeElement.id.startsWith('fe-tab-title-') && document.activeElement.value === 'Tab 3'")
	b.run(chromedp.KeyEvent("macOS"))
	b.enter()
	b.waitFor("document.activeElement.classList.contains('fe-content') && editor.view.state.selection.$from.node(2).attrs.data.title === 'macOS'")
	b.run(chromedp.KeyEvent("brew install folio"))
	// Remove the second tab.
	b.run(chromedp.Click(`button[aria-label="Remove tab Tab 2"]`, chromedp.ByQuery))
	b.waitFor("document.querySelectorAll('.fe-content > .fe-tabs:last-child .fe-tab').length === 2")
	b.screenshot("tabs-expandable")

	// The mouse: "/div" and a click on Divider puts a rule at the end of
	// the tab's text, before its next paragraph.
	b.run(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(input.ModifierCtrl)))
	b.enter()
	b.run(chromedp.KeyEvent("/div"))
	b.waitFor("document.querySelectorAll('.fe-slash [role=option]').length === 1 && !document.querySelector('.fe-slash').hidden")
	b.run(chromedp.Click(`.fe-slash [role=option]`, chromedp.ByQuery))
	b.waitFor("document.querySelector('.fe-slash').hidden && document.querySelector('.fe-content > .fe-tabs:last-child .fe-tab:last-child hr')")
	// Nothing else of "/div" is left behind.
	b.waitFor("!document.querySelector('.fe-content').textContent.includes('/div')")

	doc := b.document("").(map[string]any)
	valid(t, doc)
	nodes := doc["nodes"].([]any)
	last := func(i int) map[string]any { return nodes[len(nodes)-i].(map[string]any) }
	text := func(v any) string {
		b, _ := json.Marshal(v)
		var s strings.Builder
		for _, part := range strings.Split(string(b), `"text":"`)[1:] {
			s.WriteString(part[:strings.Index(part, `"`)])
		}
		return s.String()
	}
	exp, tabs := last(2), last(1)
	if exp["type"] != "expandable" || exp["isVoid"] != true {
		t.Fatalf("second to last block: %v", exp)
	}
	frags := exp["fragments"].([]any)
	if len(frags) != 2 || frags[0].(map[string]any)["fragment"] != "expandable-title" || text(frags[0]) != "Why?" ||
		frags[1].(map[string]any)["fragment"] != "expandable-body" || text(frags[1]) != "Because." {
		t.Fatalf("expandable fragments: %v", frags)
	}
	if tabs["type"] != "tabs" {
		t.Fatalf("last block: %v", tabs)
	}
	var got []string
	for _, it := range tabs["nodes"].([]any) {
		item := it.(map[string]any)
		got = append(got, item["type"].(string)+" "+item["data"].(map[string]any)["title"].(string)+": "+text(item))
	}
	if diff := cmp.Diff([]string{"tabs-item Linux: apt install folio", "tabs-item macOS: brew install folio"}, got); diff != "" {
		t.Fatalf("tabs (-want +got):\n%s", diff)
	}
	lastTab := tabs["nodes"].([]any)[1].(map[string]any)["nodes"].([]any)
	var inTab []string
	for _, n := range lastTab {
		inTab = append(inTab, n.(map[string]any)["type"].(string))
	}
	if diff := cmp.Diff([]string{"paragraph", "divider", "paragraph"}, inTab); diff != "" {
		t.Fatalf("tabs (-want +got):\n%s", diff)
	}
	var problems []string
	b.eval(`window.violations.concat(window.errors)`, &problems)
	if len(problems) > 0 {
		t.Fatalf("CSP violations or errors: %q", problems)
	}
}
