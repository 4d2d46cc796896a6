package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// Resolver maps relative link and image targets found in Markdown to content
// references; nil resolves nothing (targets stay URLs). Used by imports,
// which know the page tree and files.
type Resolver interface {
	// Page resolves a target such as "../guide/setup.md#install" to a page
	// and an optional anchor.
	Page(target string) (pageID string, anchor string, ok bool)
	// File resolves a target such as ".gitbook/assets/logo.png" to a file.
	File(target string) (fileID string, ok bool)
}

// DataResolver is an optional extension of Resolver: a Resolver that also
// implements it turns images and {% file %} sources given as data: URLs
// into file references. Without it, or when Data answers false, the data:
// URL stays a URL.
type DataResolver interface {
	// Data stores the bytes of a data: URL such as
	// "data:image/png;base64,iVBOR..." as a file and returns its id.
	Data(url string) (fileID string, ok bool)
}

// LinkTarget gives back the Markdown target of a page or file reference
// when writing Markdown; nil writes references as-is ("page:ID",
// "page:ID#anchor", "file:ID"), which ToDocument reads back as references.
type LinkTarget interface {
	// PagePath returns the target for a page, with anchor "" for none.
	PagePath(pageID, anchor string) string
	// FilePath returns the target for a file.
	FilePath(fileID string) string
}

// ReusableResolver is an optional extension of Resolver: a Resolver that
// also implements it turns {% include "path" %} into a reusable-content
// block. Without it, or when the path does not resolve, the tag is kept as
// raw text (see DataRaw).
type ReusableResolver interface {
	// Reusable resolves an include target such as
	// "../.gitbook/includes/warning.md" to a reusable content id.
	Reusable(target string) (id string, ok bool)
}

// ReusableTarget is an optional extension of LinkTarget giving back the
// include path of a reusable content; without it, reusable-content blocks
// are written as {% include "reusable:ID" %}, which ToDocument reads back.
type ReusableTarget interface {
	// ReusablePath returns the include target for a reusable content.
	ReusablePath(id string) string
}

// ToDocument parses GitBook-flavored Markdown (GFM) into a Document that
// passes Validate("document"). Raw HTML, footnotes, unknown tags and other
// constructs without a Document equivalent become paragraphs holding their
// source, which is kept with the source of blocks that would not write
// back identically in the document's data (DataRaw). It returns an
// Invalid error (field "markdown") for input that is not UTF-8, that nests
// more than MaxLineNesting lists or quotes on one line, or whose Document
// would break the limits of content.Validate.
func ToDocument(src []byte, r Resolver) (*content.Document, error) {
	if !utf8.Valid(src) {
		return nil, folio.FieldErrorf("markdown", "markdown must be UTF-8 text")
	}
	c := &converter{resolver: r, allowed: rootBlocks}
	c.reusable, _ = r.(ReusableResolver)
	c.data, _ = r.(DataResolver)
	var nodes []content.Node
	text := string(src)
	if fm, rest, ok := frontMatter(text); ok {
		// Front matter has no place in a Document; it stays visible as YAML code.
		code := c.code(fm)
		code.Data["syntax"] = "yaml"
		nodes = append(nodes, code)
		text = rest
	}
	if err := checkNesting(text); err != nil {
		return nil, err
	}
	nodes = append(nodes, c.segments(splitSegments(text))...)
	doc := &content.Document{Object: content.ObjectDocument, Data: map[string]any{},
		Nodes: clampDepth(fit(rootBlocks, nodes), 1)}
	doc.Normalize()
	c.keeper.finish(doc)
	if err := doc.Validate("markdown"); err != nil {
		return nil, err
	}
	return doc, nil
}

// FromDocument writes a Document as GitBook-flavored Markdown, in the form
// GitBook writes in git-synced repositories; blocks unchanged since
// ToDocument kept their source are written as that source. Page and file
// references go through t (and reusable content through t's optional
// ReusableTarget). It does not fail on content it cannot express
// (see the package documentation for the lossy cases); the error is kept for
// callers and is always nil today.
func FromDocument(doc *content.Document, t LinkTarget) ([]byte, error) {
	if doc == nil {
		return []byte{}, nil
	}
	w := &writer{target: t, raw: rawEntries(doc)}
	w.reusable, _ = t.(ReusableTarget)
	return []byte(w.document(doc)), nil
}

// frontMatter splits YAML front matter ("---" lines around it at the very
// start) from the rest of the source.
func frontMatter(src string) (yaml, rest string, ok bool) {
	src = strings.TrimPrefix(src, "\ufeff")
	if !strings.HasPrefix(src, "---\n") && !strings.HasPrefix(src, "---\r\n") {
		return "", "", false
	}
	lines := strings.SplitAfter(src, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r\n") == "---" {
			return strings.Join(lines[1:i], ""), strings.Join(lines[i+1:], ""), true
		}
	}
	return "", "", false
}
