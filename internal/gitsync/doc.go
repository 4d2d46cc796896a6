// Package gitsync reads and writes GitBook's git repository format, so that
// existing synced repositories import unchanged. It is pure: a repository
// is a Files map (path -> bytes) handed in and out; fetching, committing and
// pushing with go-git live with the caller.
//
// Read (read.go):
//   - .gitbook.yaml in the project directory (ParseConfig): root, which all
//     other paths are relative to; structure.readme (README.md) and
//     structure.summary (SUMMARY.md); redirects (old path -> file), resolved
//     to page ids in Result.Redirects. YAML that does not parse is an Invalid
//     error naming the line.
//   - SUMMARY.md (summary.go) is read line by line: "## Group" headings
//     become group pages (a "# Title" before any entry is the table's own
//     title); "* [Title](path.md)" entries, nested by indentation, become
//     document pages; a rule line (***, ---, ___) ends the current group;
//     an external link becomes a link page {kind: url}; the first entry for
//     a file makes its document page and later ones (with or without an
//     #anchor) become link pages {kind: page} or {kind: anchor}; an entry
//     whose file is missing becomes an empty page; children of a link page
//     follow it. Targets are relative to the summary's folder. Markdown
//     files the summary does not list are not pages.
//   - Without a summary, folders give the tree: the root readme first, then
//     files and folders in natural order; a folder's README.md is its page,
//     and a folder without one becomes an empty page.
//   - A page file is front matter (frontmatter.go), an optional "# Title"
//     and the body for markdown.ToDocument. The title is the SUMMARY.md link
//     text, else the H1, else the humanized file name; the H1 is removed
//     from the document either way. Front matter gives description, icon,
//     hidden and layout (width, cover {visible, size} and the {visible}
//     flags of title, description, tableOfContents, outline, pagination and
//     metadata; a flag that is absent is visible). Other top-level keys are
//     kept verbatim, in their order, as YAML text in the document's
//     data.gitFrontMatter, and unknown layout keys in data.gitLayoutExtra; a
//     page whose only content is such keys gets an empty paragraph so its
//     document exists. Front matter that is not a YAML mapping is kept whole
//     in data.gitFrontMatter.
//   - Files under .gitbook/assets/ become content.Files. Relative links and
//     images resolve to pages and files (case-insensitively as a fallback);
//     links to other files of the repository become ReadOptions.TreeURL
//     followed by the path from the repository root when TreeURL is set.
//   - Markdown files under .gitbook/includes/ become reusable contents:
//     front matter "title" (else the humanized file name) is the title and
//     the body is the document, a leading heading included. Resolving
//     {% include %} blocks to them is the markdown package's part.
//   - Git paths (Page.Git.Path, File.Git.Path) are relative to the docs
//     root, as GitBook records them; Git.OID is the blob id (BlobOID).
//   - Ids are stable across syncs: with ReadOptions.Previous, a document
//     page keeps the id of the previous page with the same git path, a group
//     the id of the previous group with the same title, a link page that of
//     the previous link with the same target, a file that of the previous
//     file with the same git path.
//
// Write (write.go) starts from the existing repository and replaces its
// docs: the pages the existing SUMMARY.md lists (every Markdown file under
// the root when there is none), SUMMARY.md, .gitbook/assets/ and the
// Markdown files of .gitbook/includes/. Everything
// else is left alone. A page keeps its git path; a new page gets the root
// readme when it is the first page, dir/slug/README.md when it has
// children, dir/slug.md otherwise, with a group's pages under the group's
// slug. A page whose existing file reads back to the same document and
// fields keeps its bytes exactly, and so do SUMMARY.md when it lists the
// same entries and .gitbook.yaml when its meaning is unchanged. Otherwise a
// page is written as front matter (hidden, icon, description, kept keys,
// layout; omitted when empty), "# Title" (unless the document starts with
// its own heading-1), a blank line and markdown.FromDocument's output with
// relative links; SUMMARY.md as "# Table of contents", entries "* [T](p)"
// indented two spaces a level, "## Group" sections and "***" before
// top-level entries that follow a group. Assets keep their git path or go
// to .gitbook/assets/<name>, made unique as "name (1).png" (the file keeps
// its own name when read back with Previous); reusable contents go to
// .gitbook/includes/<slug>.md as "title:" front matter and the body.
// WriteTree reports each page's, file's and reusable content's new git
// blob id and path, for the revision the export records.
//
// Known gaps: Page.Emoji and Page.Cover have no place in the format (a
// "cover:" front matter key is kept verbatim, not read as a cover); a link
// page placed before the page it points to reads back as that page's
// document entry; link pages to spaces or other non-repository targets are
// left out of SUMMARY.md; links rewritten to TreeURL stay absolute when a
// changed page is written.
//
// Bounds: importer.Limits bound pages (SUMMARY.md entries included), asset
// files and bytes; nesting is bounded by content.MaxPageDepth;
// .gitbook.yaml by MaxConfigBytes and MaxRedirects. Work is linear in the
// repository's size. Hostile input gives Invalid errors, never panics.
//
// Allowed imports: folio, internal/content, internal/markdown,
// internal/importer, go.yaml.in/yaml/v3 and the standard library.
package gitsync
