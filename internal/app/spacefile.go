package app

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
)

// MaxSpaceFileBytes bounds the bytes of one file added with AddSpaceFile:
// the bound imports put on one image given as a data: URL.
const MaxSpaceFileBytes = importer.MaxDataURLBytes

// maxSpaceFileName bounds the length of an added file's name, in bytes.
const maxSpaceFileName = 255

// spaceFileTypes are the content types AddSpaceFile accepts, with the
// extension a file of that type is named with when its name has none.
var spaceFileTypes = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp", "image/svg+xml": ".svg",
}

// SpaceFile is a file AddSpaceFile stored: the file as the revision holds
// it, a signed URL of its bytes, and the revision that added it.
type SpaceFile struct {
	File     content.File
	URL      string
	Revision folio.ID
}

// AddSpaceFile adds one image to a space's files, as the web app's editor
// uploads a pasted, dropped or picked image: a new revision of the live
// content (commit, checked by requireEditable like every content write), or
// of the head of the change request changeRequest (id or number) when set.
// The bytes go to the blob bucket and the file to the revision's Files, as
// imports store theirs (importer.NewFile decides the type the same way).
//
// Only PNG, JPEG, GIF, WebP and SVG images are accepted, judged by their
// bytes (and, for SVG, which sniffs as XML, by a .svg name or declared
// type and a root <svg> element); contentType, when given, must be one of
// them too. Anything else is Invalid; more than MaxSpaceFileBytes is
// TooLarge; the caller's access is checked before the bytes are looked at.
// Nothing changes when it fails.
func (a *App) AddSpaceFile(ctx context.Context, caller folio.Caller, spaceID folio.ID, changeRequest, name, contentType string, data []byte) (*SpaceFile, error) {
	if int64(len(data)) > MaxSpaceFileBytes {
		return nil, folio.Errorf(folio.TooLarge, "the file is larger than %d MiB", MaxSpaceFileBytes/importer.MiB)
	}
	var file content.File
	build := func(base *Content) (*content.Snapshot, error) {
		snap := &content.Snapshot{Blobs: map[content.Hash][]byte{}}
		f, err := newSpaceFile(snap, name, contentType, data)
		if err != nil {
			return nil, err
		}
		t := base.Tree.Fork()
		t.Files = append(t.Files, f)
		snap.Tree = t
		file = f
		return snap, nil
	}
	var revision folio.ID
	if changeRequest != "" {
		rev, err := a.commitChangeRequest(ctx, caller, spaceID, changeRequest, "", build)
		if err != nil {
			return nil, err
		}
		revision = rev.ID
	} else {
		c, err := a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits, build: build})
		if err != nil {
			return nil, err
		}
		revision = c.Revision.ID
	}
	urls, err := a.fileURLs(ctx)
	if err != nil {
		return nil, err
	}
	return &SpaceFile{File: file, URL: (&Content{urls: urls}).FileURL(file), Revision: revision}, nil
}

// newSpaceFile checks an uploaded image and returns its file, its bytes
// recorded in snap.
func newSpaceFile(snap *content.Snapshot, name, contentType string, data []byte) (content.File, error) {
	if len(data) == 0 {
		return content.File{}, folio.FieldErrorf("file", "the file is empty")
	}
	declared := ""
	if contentType != "" {
		t, _, err := mime.ParseMediaType(contentType)
		if err != nil {
			return content.File{}, folio.FieldErrorf("contentType", "the content type %q is not a valid media type", contentType)
		}
		if _, ok := spaceFileTypes[t]; !ok && t != "application/octet-stream" {
			return content.File{}, folio.FieldErrorf("file", "only images can be added (PNG, JPEG, GIF, WebP or SVG), not %s", t)
		}
		if t != "application/octet-stream" {
			declared = t
		}
	}
	name = strings.TrimSpace(path.Base(strings.ReplaceAll(name, "\\", "/")))
	if name == "." || name == "/" {
		name = ""
	}
	if !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return content.File{}, folio.FieldErrorf("name", "the file name must be text without control characters")
	}
	if len(name) > maxSpaceFileName {
		return content.File{}, folio.FieldErrorf("name", "the file name is longer than %d bytes", maxSpaceFileName)
	}
	if name == "" {
		name = "image"
	}
	if path.Ext(name) == "" && declared != "" {
		name += spaceFileTypes[declared]
	}
	f := importer.NewFile(snap, name, data)
	if _, ok := spaceFileTypes[f.ContentType]; !ok {
		return content.File{}, folio.FieldErrorf("file", "only images can be added (PNG, JPEG, GIF, WebP or SVG): this file's bytes are %s", f.ContentType)
	}
	if declared != "" && declared != f.ContentType {
		return content.File{}, folio.FieldErrorf("file", "the file is declared as %s but its bytes are %s", declared, f.ContentType)
	}
	// Only SVG, which sniffs as XML, may take its type from its name:
	// other images must be what their bytes say (an HTML page named .webp
	// is not an image).
	if f.ContentType != "image/svg+xml" && http.DetectContentType(data) != f.ContentType {
		return content.File{}, folio.FieldErrorf("file", "only images can be added (PNG, JPEG, GIF, WebP or SVG): this file's bytes are %s", http.DetectContentType(data))
	}
	switch f.ContentType {
	case "image/png", "image/jpeg", "image/gif":
		if _, _, err := image.DecodeConfig(bytes.NewReader(data)); err != nil {
			return content.File{}, folio.FieldErrorf("file", "the file is not a readable %s image", f.ContentType)
		}
	case "image/svg+xml":
		if !isSVG(data) {
			return content.File{}, folio.FieldErrorf("file", "the file is not an SVG image: its root element must be <svg>")
		}
	}
	return f, nil
}

// isSVG reports whether data is XML whose root element is svg.
func isSVG(data []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t.Name.Local == "svg"
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return false
			}
		}
	}
}
