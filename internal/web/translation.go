package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// translationListView is an organization's translations, with the form
// that creates one (creators and admins).
type translationListView struct {
	Frame     *orgFrame
	Items     []translationRow
	Count     int
	Next      string
	CanEdit   bool
	Spaces    []choice // Label: title, Href: id
	Languages []string
	Notice    string
}

type translationRow struct {
	T           folio.TranslationView
	Href        string
	SourceTitle string
	P           progress
}

// translationPage is one translation: its source and result, its last
// run's figures and error, live progress while it runs.
type translationPage struct {
	Frame       *orgFrame
	T           folio.TranslationView
	Href        string
	SourceTitle string
	SourceHref  string
	ResultHref  string
	P           progress
	Notice      string
}

// translationProgress says where a translation is; waiting is whether a
// run is queued.
func translationProgress(t *folio.Translation, waiting bool) progress {
	p := progress{State: t.Status, Ended: true, Error: t.LastError}
	switch {
	case t.Status == folio.TranslationRunning:
		p.Text, p.Ended, p.Error = "Translating the source space.", false, ""
	case waiting:
		p.State, p.Text, p.Ended, p.Error = "queued", "Run queued: waiting for its turn.", false, ""
	case t.LastError != "":
		p.Text = "The last run failed."
	case t.Status == folio.TranslationCompleted:
		p.Text = fmt.Sprintf("Completed: the last run translated %d pages, %d words.", t.Stats.LatestPages, t.Stats.LatestWords)
	default:
		p.Text = "Not run yet."
	}
	return p
}

func (h *Handler) spaceTitle(ctx context.Context, q *req, id folio.ID) string {
	if s, err := h.app.GetSpace(ctx, q.caller, id); err == nil {
		return s.Title
	}
	return "a space you cannot see"
}

func (h *Handler) translationList(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "translations")
	if err != nil {
		return err
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	l, err := h.app.ListTranslations(ctx, q.caller, f.Org.ID, opts)
	if err != nil {
		return err
	}
	v := translationListView{Frame: f, Count: l.Count, Next: nextHref(r, l.Next), Languages: folio.TranslationLanguages, Notice: noticeOf(r),
		CanEdit: f.Org.CallerRole.AtLeast(folio.RoleCreate)}
	for _, t := range l.Items {
		waiting, err := h.app.TranslationRunWaiting(ctx, q.caller, f.Org.ID, t.ID)
		if err != nil {
			return err
		}
		row := translationRow{T: t, Href: f.Href + "/translations/" + t.ID, SourceTitle: h.spaceTitle(ctx, q, t.SourceSpace),
			P: translationProgress(&t.Translation, waiting)}
		row.P.Href = row.Href + "/status"
		v.Items = append(v.Items, row)
	}
	if v.CanEdit {
		spaces, err := h.app.ListSpaces(ctx, q.caller, f.Org.ID, "", folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		for _, s := range spaces.Items {
			v.Spaces = append(v.Spaces, choice{Label: s.Title, Href: s.ID})
		}
	}
	h.renderLive(w, "translations", q, "Translations · "+f.Org.Title, v)
	return nil
}

func (h *Handler) translationCreate(w http.ResponseWriter, r *http.Request, q *req) error {
	orgID := r.PathValue("org")
	f := r.PostForm
	t, err := h.app.CreateTranslation(r.Context(), q.caller, orgID, app.TranslationInput{Language: f.Get("language"),
		Source: &app.TranslationSourceInput{Space: f.Get("space"), Language: f.Get("source_language")}})
	if err != nil {
		return err
	}
	seeOther(w, r, "/o/"+orgID+"/translations/"+t.ID, "created")
	return nil
}

func (h *Handler) translationPage(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "translations")
	if err != nil {
		return err
	}
	t, err := h.app.GetTranslation(ctx, q.caller, f.Org.ID, r.PathValue("id"))
	if err != nil {
		return err
	}
	waiting, err := h.app.TranslationRunWaiting(ctx, q.caller, f.Org.ID, t.ID)
	if err != nil {
		return err
	}
	v := translationPage{Frame: f, T: *t, Href: f.Href + "/translations/" + t.ID, SourceTitle: h.spaceTitle(ctx, q, t.SourceSpace),
		SourceHref: "/s/" + t.SourceSpace, P: translationProgress(&t.Translation, waiting), Notice: noticeOf(r)}
	if t.ResultSpace != "" {
		v.ResultHref = "/s/" + t.ResultSpace
	}
	v.P.Href = v.Href + "/status"
	h.renderLive(w, "translation", q, "Translation · "+f.Org.Title, v)
	return nil
}

func (h *Handler) translationStatus(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID := r.PathValue("org")
	t, err := h.app.GetTranslation(ctx, q.caller, orgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	waiting, err := h.app.TranslationRunWaiting(ctx, q.caller, orgID, t.ID)
	if err != nil {
		return err
	}
	return writeProgress(w, translationProgress(&t.Translation, waiting))
}

// translationAction runs a translation's forms: run, delete.
func (h *Handler) translationAction(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	orgID, id := r.PathValue("org"), r.PathValue("id")
	switch r.PathValue("action") {
	case "run":
		if err := h.app.RunTranslation(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		seeOther(w, r, "/o/"+orgID+"/translations/"+id, "running")
	case "delete":
		if _, err := h.app.GetTranslation(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		if r.PostForm.Get("confirm") != "yes" {
			return folio.FieldErrorf("confirm", "tick the box to confirm deleting the translation")
		}
		if err := h.app.DeleteTranslation(ctx, q.caller, orgID, id); err != nil {
			return err
		}
		seeOther(w, r, "/o/"+orgID+"/translations", "deleted")
	default:
		return folio.Errorf(folio.NotFound, "Not found")
	}
	return nil
}
