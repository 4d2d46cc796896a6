// Package importer turns imported material (one Markdown file, one HTML file,
// or a zip archive of them with images and other files) into a
// content.Snapshot that the app layer stores as a new revision. Everything
// here is pure: no database, no network, no clock. Errors are Invalid
// (folio.Errorf or folio.FieldErrorf) with a message safe to show; hostile
// input (zip bombs, path traversal, deep nesting, bad encodings) gives an
// error, never a panic.
//
// Zip archives follow GitBook's import rules. Directory entries, __MACOSX/,
// .DS_Store and hidden files (except under .gitbook/assets/) are ignored, and a
// single top folder shared by every entry (repo-main/) is stripped. A root
// SUMMARY.md, when present, gives the tree: nested lists of links are pages,
// headings start top-level groups, external links become link pages, listed
// files that are missing become empty pages, and Markdown files it does not
// list are ignored. Without it the folders give the tree: a folder's
// README.md is the folder's page (the root README.md is the first top-level
// page), a folder without README takes a sibling file of the same name
// (guide.md next to guide/) or else becomes an empty page, and entries are
// ordered README first, then by natural name order (2 before 10). .md,
// .markdown, .html and .htm files are pages; every other file becomes a
// content.File. Links and images between them are resolved to page and file
// references (see resolve.go); targets that resolve to nothing stay URLs, to
// be reported as broken links later.
//
// A single Markdown page (MarkdownInto) resolves its relative links against
// the pages of the space it goes into, by their paths (space.go): a page at
// guide/setup answers to guide/setup.md, guide/setup/README.md and the file
// it was synced from, read from where Folio's git export would write the
// imported page. Images given as data: URLs, in single pages and archives,
// become files named image.<ext> (data.go), one per distinct URL, counted
// among MaxFiles; one that is not an image (image/*), is badly encoded or
// holds more than MaxDataURLBytes fails the whole import, so nothing is
// written and the message quotes the start of the URL. HTML imports drop
// data: images as before (websites use them as lazy-loading placeholders).
//
// Titles come from the SUMMARY.md link text, else a leading "# H1" (removed
// from the body), else front matter "title:", else the humanized file or
// folder name (the root README.md is "Introduction"). Front matter
// "description:" fills Page.Description, and the front matter itself is
// dropped from the document. Slugs come from the file name (a README from its
// folder's name, the root README from its title) and are unique among
// siblings.
//
// Limits: MaxFileBytes and MaxTotalBytes count the bytes actually
// decompressed (through an io.LimitReader), never the sizes that the archive's
// headers claim. Before zip.NewReader allocates the central directory, the
// entry count in the end record (zip64 included) is checked against
// 3 × (MaxPages + MaxFiles). Entries with unsafe names (../x, /x, C:/x) or
// duplicate names fail the import rather than being skipped, so a doctored
// archive never half-imports. SUMMARY.md is read by markdown.ToDocument, so
// it can list about 25,000 entries before content.MaxNodes stops it.
//
// HTML is converted by walking the golang.org/x/net/html tree and building the
// Document directly (html.go), rather than writing Markdown for
// markdown.ToDocument. The direct path keeps every mark exactly (CommonMark
// cannot place emphasis delimiters next to punctuation, which a Markdown detour
// would turn into literal asterisks), needs no escaping of text that looks
// like Markdown or Liquid, and follows HTML's white-space rules. The
// containment rules of content/schema.go are applied by markdown.Fit, which
// degrades a block a container cannot hold into blocks it can, keeping the
// text; links go through the same markdown.Resolver as Markdown pages. The
// title of an HTML page is its first top-level <h1> wherever it stands (site
// chrome often comes first), else <title>; a Markdown page's H1 must be its
// first block. HTML nested beyond the parser's 512 open elements is kept as
// paragraphs of its text.
//
// Text is cleaned before conversion, whatever the source: invalid UTF-8 and
// NUL bytes (which CommonMark turns into U+FFFD, and PostgreSQL refuses)
// become U+FFFD in Markdown, HTML, SUMMARY.md and entry names.
//
// Allowed imports: folio, internal/content, internal/markdown,
// golang.org/x/net/html and the standard library.
package importer
