// Package editor is Folio's page editor: a ProseMirror editor over GitBook's
// document model, bundled into one script and one stylesheet that the web
// app serves and mounts. It imports nothing of Folio's.
//
// # Sources and build
//
// js/ holds Folio's editor sources (schema.js, convert.js, editor.js,
// toolbar.js, nodeviews.js, slash.js, editor.css); js/vendor/ holds the ProseMirror
// packages' ESM builds, fetched once from npm by js/vendor/refresh.sh,
// with their licences and exact versions (js/vendor/VERSIONS). No npm is
// needed to build or run Folio: `go run ./internal/editor/build` bundles
// the sources with esbuild's Go API into static/editor.js and
// static/editor.css, byte for byte the same on every run, and
// TestBundleUpToDate fails when the committed files differ from what the
// sources build to.
//
// # Serving
//
// New(prefix) serves the two files under content-hashed names
// (prefix+"editor-<hash>.js" and ".css"), cacheable for a year, gzipped
// for clients that accept it. ScriptURL and StyleURL give the names to
// put in the page.
//
// # The JavaScript API
//
// The script defines one global, FolioEditor:
//
//	const editor = FolioEditor.mount(element, {
//	  document,   // GitBook JSON document (content.Document), {object, data, nodes}
//	  onChange,   // optional: called with the editor after every change
//	  uploadFile, // optional: (File) => Promise<ContentRef>, e.g. {kind: "file", file: id};
//	              // called for pasted, dropped and picked images
//	  fileURL,    // optional: (fileId) => URL to show an image file
//	  pages,      // optional: [{id, title}] offered as link targets
//	  readOnly,   // optional: show without editing controls
//	  label,      // optional: accessible name of the content, "Page content" by default
//	});
//	editor.getDocument()      // the document as GitBook JSON
//	editor.setReadOnly(bool)
//	editor.focus()
//	editor.destroy()
//
// getDocument returns every block with the key it was loaded with (copies
// made by splitting or pasting drop theirs, and the server gives them new
// ones); blocks and inlines the editor does not edit are shown as kept
// atoms and written back exactly as loaded.
//
// # Inserting blocks
//
// Every block type is on the toolbar and in the slash menu: "/" typed at
// the start of a paragraph or after a space opens a listbox of block types
// (Text, headings, lists, quote, hint, code block, table, image, divider,
// tabs, expandable), filtered by what follows ("/tab"). The text keeps the
// focus and points at the listbox with aria-controls and at the
// highlighted option with aria-activedescendant (the combobox pattern);
// arrow keys, Home and End move, Enter or Tab inserts, Escape closes, and
// options can be clicked. Tabs and expandables are top-level blocks only,
// as in GitBook's schema: inserted inside another block they go after the
// top-level block holding the cursor.
//
// # Content Security Policy
//
// The editor runs under a strict policy: it needs no eval, no inline
// script and no inline style. ProseMirror and its plugins set styles only
// through the CSSOM (element.style), which style-src does not restrict, so
// the host needs no 'unsafe-inline'. CSP gives the directives the editor
// needs; with require-trusted-types-for 'script' the host must also allow
// the policy ProseMirror creates for pasted HTML ("trusted-types
// ProseMirrorClipboard").
package editor
