package web

import (
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// openAPIListView is an organization's OpenAPI specifications, with the
// form that adds one (creators and admins).
type openAPIListView struct {
	Frame   *orgFrame
	Specs   []openAPIRow
	Count   int
	Next    string
	CanEdit bool
	Notice  string
}

type openAPIRow struct {
	Spec folio.OpenAPISpecView
	Href string
	P    progress
}

// openAPISpecPage is one specification: its source, processing state and
// errors (live while it is processed), and its versions.
type openAPISpecPage struct {
	Frame    *orgFrame
	Spec     folio.OpenAPISpecView
	Href     string
	P        progress
	Versions []folio.OpenAPIVersion
	Count    int
	Next     string
	Notice   string
}

// openAPIProgress says where a specification's processing is.
func openAPIProgress(s *folio.OpenAPISpec) progress {
	p := progress{State: s.ProcessingState}
	switch s.ProcessingState {
	case folio.OpenAPIPending:
		p.Text = "Waiting to be processed."
	case folio.OpenAPIProgress:
		p.Text = "Processing the specification."
	default:
		p.Ended = true
		switch {
		case s.LastErrorCode != "":
			p.Text = "Processed with errors (" + s.LastErrorCode + ")."
		case s.LastVersion != "":
			p.Text = "Processed."
		default:
			p.Text = "Not processed yet."
		}
	}
	if len(s.LastErrors) > 0 {
		msgs := make([]string, 0, len(s.LastErrors))
		for _, e := range s.LastErrors {
			msgs = append(msgs, e.Message)
		}
		p.Error = strings.Join(msgs, "\n")
	}
	return p
}

func (h *Handler) openAPIList(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.orgFrame(r.Context(), q, r.PathValue("org"), "openapi")
	if err != nil {
		return err
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListOpenAPISpecs(r.Context(), q.caller, f.Org.ID, opts)
	if err != nil {
		return err
	}
	v := openAPIListView{Frame: f, Count: l.Count, Next: nextHref(r, l.Next), CanEdit: f.Org.Permissions().CreateOpenAPISpec, Notice: noticeOf(r)}
	for _, s := range l.Items {
		row := openAPIRow{Spec: s, Href: f.Href + "/openapi/" + s.Slug, P: openAPIProgress(&s.OpenAPISpec)}
		row.P.Href = row.Href + "/status"
		v.Specs = append(v.Specs, row)
	}
	h.renderLive(w, "openapi", q, "OpenAPI · "+f.Org.Title, v)
	return nil
}

// openAPISource reads a specification's source from a form: a URL, or
// the text pasted (or read from a file by static/progress.js).
func openAPISource(r *http.Request) *app.OpenAPISource {
	src := &app.OpenAPISource{}
	if r.PostForm.Get("from") == "text" {
		t := r.PostForm.Get("text")
		src.Text = &t
	} else {
		u := strings.TrimSpace(r.PostForm.Get("url"))
		src.URL = &u
	}
	return src
}

func (h *Handler) openAPICreate(w http.ResponseWriter, r *http.Request, q *req) error {
	orgID := r.PathValue("org")
	s, err := h.app.CreateOpenAPISpec(r.Context(), q.caller, orgID,
		app.OpenAPISpecInput{Slug: strings.TrimSpace(r.PostForm.Get("slug")), Source: openAPISource(r)})
	if err != nil {
		return err
	}
	seeOther(w, r, "/o/"+orgID+"/openapi/"+s.Slug, "processing")
	return nil
}

func (h *Handler) openAPISpec(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "openapi")
	if err != nil {
		return err
	}
	s, err := h.app.GetOpenAPISpec(ctx, q.caller, f.Org.ID, r.PathValue("slug"))
	if err != nil {
		return err
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	_, l, err := h.app.ListOpenAPIVersions(ctx, q.caller, f.Org.ID, s.Slug, opts)
	if err != nil {
		return err
	}
	v := openAPISpecPage{Frame: f, Spec: *s, Href: f.Href + "/openapi/" + s.Slug, P: openAPIProgress(&s.OpenAPISpec),
		Versions: l.Items, Count: l.Count, Next: nextHref(r, l.Next), Notice: noticeOf(r)}
	v.P.Href = v.Href + "/status"
	h.renderLive(w, "openapispec", q, s.Slug+" · OpenAPI · "+f.Org.Title, v)
	return nil
}

func (h *Handler) openAPIStatus(w http.ResponseWriter, r *http.Request, q *req) error {
	s, err := h.app.GetOpenAPISpec(r.Context(), q.caller, r.PathValue("org"), r.PathValue("slug"))
	if err != nil {
		return err
	}
	return writeProgress(w, openAPIProgress(&s.OpenAPISpec))
}

// openAPIAction runs a specification's forms: a new source (processed
// again), its visibility, deleting it.
func (h *Handler) openAPIAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID, slug := r.PathValue("org"), r.PathValue("slug")
	back := "/o/" + orgID + "/openapi/" + slug
	switch r.PathValue("action") {
	case "source":
		if _, err := h.app.GetOpenAPISpec(ctx, q.caller, orgID, slug); err != nil {
			return err // PUT would create a missing one
		}
		if _, _, err := h.app.PutOpenAPISpec(ctx, q.caller, orgID, slug, app.OpenAPISpecInput{Slug: slug, Source: openAPISource(r)}); err != nil {
			return err
		}
		seeOther(w, r, back, "processing")
	case "visibility":
		if _, err := h.app.UpdateOpenAPISpecVisibility(ctx, q.caller, orgID, slug, r.PostForm.Get("visibility")); err != nil {
			return err
		}
		seeOther(w, r, back, "updated")
	case "delete":
		if _, err := h.app.GetOpenAPISpec(ctx, q.caller, orgID, slug); err != nil {
			return err
		}
		if r.PostForm.Get("confirm") != "yes" {
			return folio.FieldErrorf("confirm", "tick the box to confirm deleting the specification")
		}
		if err := h.app.DeleteOpenAPISpec(ctx, q.caller, orgID, slug); err != nil {
			return err
		}
		seeOther(w, r, "/o/"+orgID+"/openapi", "deleted")
	default:
		return folio.Errorf(folio.NotFound, "Not found")
	}
	return nil
}

// chooseView lists the places a link may mean (a specification's slug or
// an integration in several of the caller's organizations).
type chooseView struct {
	Heading, Intro string
	Choices        []choice
}

type choice struct{ Label, Href string }

// openAPILink lands the old urls.app of a specification (/openapi/{slug},
// without its organization): on the specification when one of the
// caller's organizations has it, on a choice when several do.
func (h *Handler) openAPILink(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	slug := r.PathValue("slug")
	orgs, err := h.app.ListOrganizations(ctx, q.caller, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	var found []choice
	for _, o := range orgs.Items {
		if _, err := h.app.GetOpenAPISpec(ctx, q.caller, o.ID, slug); err == nil {
			found = append(found, choice{Label: o.Title, Href: "/o/" + o.ID + "/openapi/" + slug})
		} else if k := folio.KindOf(err); k != folio.NotFound && k != folio.Forbidden {
			return err
		}
	}
	switch len(found) {
	case 0:
		return folio.Errorf(folio.NotFound, "no matching OpenAPI specification found")
	case 1:
		http.Redirect(w, r, found[0].Href, http.StatusFound)
		return nil
	}
	h.render(w, http.StatusOK, "choose", q, "OpenAPI "+slug, chooseView{Heading: "OpenAPI specification " + slug,
		Intro: "Several of your organizations have a specification of this name:", Choices: found})
	return nil
}
