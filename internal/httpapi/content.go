package httpapi

import (
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/wire"
)

// queryBool reads an optional boolean query parameter.
func queryBool(r *http.Request, name string, def bool) (bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, folio.FieldErrorf(name, "%s must be true or false", name)
	}
	return b, nil
}

// contentOptions reads the metadata and computed flags.
func contentOptions(r *http.Request) (folio.ContentOptions, error) {
	var (
		o   folio.ContentOptions
		err error
	)
	if o.Metadata, err = queryBool(r, "metadata", true); err != nil {
		return o, err
	}
	if o.Computed, err = queryBool(r, "computed", true); err != nil {
		return o, err
	}
	return o, nil
}

// pageOptions reads the options of a page read: format, evaluated,
// dereferenced and the two flags.
func pageOptions(r *http.Request) (folio.PageOptions, error) {
	co, err := contentOptions(r)
	if err != nil {
		return folio.PageOptions{}, err
	}
	o := folio.PageOptions{ContentOptions: co}
	q := r.URL.Query()
	switch f := q.Get("format"); f {
	case "", folio.FormatDocument, folio.FormatMarkdown:
		o.Format = f
	default:
		return o, folio.FieldErrorf("format", "format must be document or markdown")
	}
	switch v := q.Get("evaluated"); v {
	case "", "false":
	case "true", "deterministic-only":
		o.Evaluated = v
	default:
		return o, folio.FieldErrorf("evaluated", "evaluated must be true, false or deterministic-only")
	}
	switch v := q.Get("dereferenced"); v {
	case "", "false":
	case "true", "reusable-contents":
		o.Dereferenced = v
	default:
		return o, folio.FieldErrorf("dereferenced", "dereferenced must be true, false or reusable-contents")
	}
	return o, nil
}

// contentView is the converter for one revision read.
func (s *Server) contentView(c *app.Content, metadata bool) wire.ContentView {
	return wire.ContentView{URLs: s.urls, SpaceID: c.Space.ID, Paths: c.Paths(), Metadata: metadata, FileURL: c.FileURL}
}

// getRevision serves GET /spaces/{spaceId}/content and
// GET /spaces/{spaceId}/revisions/{revisionId}.
func (s *Server) getRevision(w http.ResponseWriter, r *http.Request) error {
	opts, err := contentOptions(r)
	if err != nil {
		return err
	}
	c, err := s.app.GetContent(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"))
	if err != nil {
		return err
	}
	out := s.contentView(c, opts.Metadata).NewRevision(c.Revision, c.Tree)
	if c.MergedFrom != nil {
		cr := s.changeRequest(c.MergedFrom)
		out.MergedFrom = &cr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// listPages serves GET .../content/pages and .../revisions/{revisionId}/pages.
func (s *Server) listPages(w http.ResponseWriter, r *http.Request) error {
	opts, err := contentOptions(r)
	if err != nil {
		return err
	}
	c, err := s.app.GetContent(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"pages": s.contentView(c, opts.Metadata).NewPages(c.Tree.Pages)})
	return nil
}

// getPage serves a page by id or by path, of the current revision or of
// the one named in the path.
func (s *Server) getPage(w http.ResponseWriter, r *http.Request) error {
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	pc, err := s.app.GetPage(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"),
		r.PathValue("pageId"), r.PathValue("pagePath"), opts)
	if err != nil {
		return err
	}
	out := s.contentView(pc.Content, opts.Metadata).NewPage(pc.Node.Page, true)
	out.Document, out.Markdown = pc.Document, pc.Markdown
	writeJSON(w, http.StatusOK, out)
	return nil
}

// listFiles serves a revision's files, paginated.
func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) error {
	co, err := contentOptions(r)
	if err != nil {
		return err
	}
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	c, l, err := s.app.ListFiles(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.contentView(c, co.Metadata).NewFile))
	return nil
}

// getFile serves one file of a revision.
func (s *Server) getFile(w http.ResponseWriter, r *http.Request) error {
	co, err := contentOptions(r)
	if err != nil {
		return err
	}
	c, f, err := s.app.GetFile(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("revisionId"), r.PathValue("fileId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contentView(c, co.Metadata).NewFile(&f))
	return nil
}

// downloadFile serves a file's bytes to the holder of a signed URL.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request) error {
	d, err := s.app.OpenFile(r.Context(), r.PathValue("hash"), r.URL.Query())
	if err != nil {
		return err
	}
	defer d.Reader.Close()
	ct := d.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	sendBlob(w, r, d.Reader, ct, d.Name, d.Size, "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
	return nil
}

// sendBlob answers the bytes of a blob to the holder of a signed URL:
// shown inline under its file name, never sniffed, cached privately, with
// csp as its Content-Security-Policy unless empty.
func sendBlob(w http.ResponseWriter, r *http.Request, body io.Reader, contentType, name string, size int64, csp string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name}))
	h.Set("X-Content-Type-Options", "nosniff")
	if csp != "" {
		h.Set("Content-Security-Policy", csp)
	}
	h.Set("Cache-Control", "private, max-age=3600, immutable")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		io.Copy(w, body)
	}
}

// importContent serves POST .../content/import and
// .../content/page/{pageId}/import.
func (s *Server) importContent(w http.ResponseWriter, r *http.Request) error {
	var in app.ImportInput
	if err := decode(r, &in); err != nil {
		return err
	}
	res, err := s.app.ImportContent(r.Context(), caller(r), r.PathValue("spaceId"), r.PathValue("pageId"), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/spaces/"+res.SpaceID+"/revisions/"+res.RevisionID))
	writeJSON(w, http.StatusCreated, map[string]any{"revision": res.RevisionID,
		"importedResources": res.Imported, "totalResources": res.Total})
	return nil
}

// applyTemplate serves POST .../content/template.
func (s *Server) applyTemplate(w http.ResponseWriter, r *http.Request) error {
	var in app.TemplateInput
	if err := decode(r, &in); err != nil {
		return err
	}
	if _, err := s.app.ApplyTemplate(r.Context(), caller(r), r.PathValue("spaceId"), in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
