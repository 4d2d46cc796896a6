package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/translate"
)

// TranslationInput is the body of createTranslation.
type TranslationInput struct {
	Language     string                  `json:"language"`
	Source       *TranslationSourceInput `json:"source"`
	Instructions json.RawMessage         `json:"instructions"`
}

// TranslationSourceInput is a translation's source: a space and its
// language.
type TranslationSourceInput struct {
	Space    string `json:"space"`
	Language string `json:"language"`
}

// translationJob is the payload of a JobTranslate job.
type translationJob struct {
	Translation folio.ID `json:"translation"`
	Org         folio.ID `json:"org"`
	User        folio.ID `json:"user"`
}

var errTranslationNotFound = folio.Errorf(folio.NotFound, "translation not found")

// translationRights checks the caller's role: members (guests excepted)
// view translations, creators and admins change and run them.
func translationRights(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID, edit bool) (folio.Access, error) {
	if caller.Site != nil {
		return folio.Access{}, errTranslationNotFound
	}
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return acc, err
	}
	if acc.Role == folio.RoleGuest {
		return acc, errTranslationNotFound
	}
	if edit && !acc.Role.AtLeast(folio.RoleCreate) {
		return acc, folio.Errorf(folio.Forbidden, "you cannot change this organization's translations")
	}
	return acc, nil
}

func translationView(acc folio.Access, tr *folio.Translation) *folio.TranslationView {
	return &folio.TranslationView{Translation: *tr, Edit: acc.Role.AtLeast(folio.RoleCreate)}
}

// validateInstructions checks a JSONDocument of instructions (nil or null
// for none) and returns it normalized.
func validateInstructions(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if len(raw) > folio.MaxInstructionsBytes {
		return nil, folio.FieldErrorf("instructions", "instructions must be at most %d bytes", folio.MaxInstructionsBytes)
	}
	doc := new(content.Document)
	if err := doc.UnmarshalJSON(raw); err != nil {
		return nil, folio.FieldErrorf("instructions", "instructions must be a document: %s", folio.MessageOf(err))
	}
	doc.Normalize()
	if err := doc.Validate("instructions"); err != nil {
		return nil, err
	}
	b, err := doc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return b, nil
}

// ListTranslations lists an organization's translations.
func (a *App) ListTranslations(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.TranslationView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := translationRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		trs, err := store.ListTranslations(ctx, tx, orgID, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.TranslationView]{Count: trs.Count, Next: trs.Next, Items: make([]folio.TranslationView, len(trs.Items))}
		for i := range trs.Items {
			l.Items[i] = *translationView(acc, &trs.Items[i])
		}
		return nil
	})
	return l, err
}

// CreateTranslation records a translation of a space the caller may view
// into a language; its first run creates the target space.
func (a *App) CreateTranslation(ctx context.Context, caller folio.Caller, orgID folio.ID, in TranslationInput) (v *folio.TranslationView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := translationRights(ctx, tx, caller, orgID, true)
		if err != nil {
			return err
		}
		if in.Language == "" {
			return folio.FieldErrorf("language", "language is required")
		}
		if !folio.ValidTranslationLanguage(in.Language) {
			return folio.FieldErrorf("language", "language must be one of %s", strings.Join(folio.TranslationLanguages, ", "))
		}
		if in.Source == nil || in.Source.Space == "" {
			return folio.FieldErrorf("source.space", "source.space is required")
		}
		if in.Source.Language == "" {
			return folio.FieldErrorf("source.language", "source.language is required")
		}
		if !folio.ValidTranslationLanguage(in.Source.Language) {
			return folio.FieldErrorf("source.language", "source.language must be one of %s", strings.Join(folio.TranslationLanguages, ", "))
		}
		if in.Source.Language == in.Language {
			return folio.FieldErrorf("language", "language must differ from source.language")
		}
		instructions, err := validateInstructions(in.Instructions)
		if err != nil {
			return err
		}
		sv, _, err := space(ctx, tx, caller, in.Source.Space)
		if folio.IsNotFound(err) || err == nil && (sv.OrganizationID != orgID || sv.DeletedAt != nil) {
			return folio.FieldErrorf("source.space", "source space %s not found in the organization", in.Source.Space)
		}
		if err != nil {
			return err
		}
		tr := &folio.Translation{ID: folio.NewID(), OrganizationID: orgID, SourceSpace: sv.ID, SourceLanguage: in.Source.Language,
			Language: in.Language, Instructions: instructions, Status: folio.TranslationPending, CreatedBy: caller.UserID}
		if err := store.CreateTranslation(ctx, tx, tr); err != nil {
			return err
		}
		v = translationView(acc, tr)
		return nil
	})
	return v, err
}

// GetTranslation returns a translation.
func (a *App) GetTranslation(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (v *folio.TranslationView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := translationRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		tr, err := store.GetTranslation(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		v = translationView(acc, tr)
		return nil
	})
	return v, err
}

// UpdateTranslationInstructions replaces a translation's instructions.
func (a *App) UpdateTranslationInstructions(ctx context.Context, caller folio.Caller, orgID, id folio.ID, raw json.RawMessage, present bool) (v *folio.TranslationView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := translationRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		tr, err := store.GetTranslation(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		if _, err := translationRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		if !present {
			return folio.FieldErrorf("instructions", "instructions is required")
		}
		if tr.Instructions, err = validateInstructions(raw); err != nil {
			return err
		}
		if err := store.UpdateTranslation(ctx, tx, tr); err != nil {
			return err
		}
		v = translationView(acc, tr)
		return nil
	})
	return v, err
}

// DeleteTranslation removes a translation (its target space stays); no
// error when there is none.
func (a *App) DeleteTranslation(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		if _, err := store.GetTranslation(ctx, tx, orgID, id); folio.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		return store.DeleteTranslation(ctx, tx, id)
	})
}

// RunTranslation queues a run of a translation, unless one is already
// waiting to start.
func (a *App) RunTranslation(ctx context.Context, caller folio.Caller, orgID, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		tr, err := store.GetTranslation(ctx, tx, orgID, id)
		if err != nil {
			return err
		}
		if _, err := translationRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		// A run already waiting will translate the latest content: one is
		// enough (a run in progress does not count; the next one follows).
		key := "translation:" + tr.ID
		if n, err := store.WaitingKeyedJobs(ctx, tx, key); err != nil || n > 0 {
			return err
		}
		payload, _ := json.Marshal(translationJob{Translation: tr.ID, Org: orgID, User: caller.UserID})
		_, err = store.EnqueueKeyedJob(ctx, tx, folio.JobTranslate, key, string(payload), tx.Now)
		return err
	})
}

// pageKey is what a page's translation depends on: its title, its
// description and its document; a run translates again only pages whose
// key changed.
func pageKey(p *content.Page) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", p.Title, p.Description, p.Type, p.Document)
	return hex.EncodeToString(h.Sum(nil))
}

// TranslateJob runs a translation: every page of the source space's current
// revision whose title, description or document changed since the last run
// is translated; the others keep their translation. The result becomes a
// new revision of the target space, created on the first run. A failure
// (no engine, an engine error) changes nothing but the translation's
// status and last error.
func (a *App) TranslateJob(ctx context.Context, payload string) error {
	var job translationJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "translation job payload: %v", err)
	}
	caller := folio.Caller{UserID: job.User, Org: job.Org}
	started := a.clock.Now()
	var tr *folio.Translation
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		if tr, err = store.GetTranslation(ctx, tx, job.Org, job.Translation); err != nil {
			return err
		}
		tr.Status = folio.TranslationRunning
		return store.UpdateTranslation(ctx, tx, tr)
	})
	if folio.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	pages, words, runErr := a.runTranslation(ctx, caller, tr)
	took := a.clock.Now().Sub(started).Milliseconds()
	return a.db.Write(ctx, func(tx *store.Tx) error {
		cur, err := store.GetTranslation(ctx, tx, job.Org, job.Translation)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		now := tx.Now
		cur.LastRunAt = &now
		cur.Stats.Runs++
		cur.Stats.TotalDuration += took
		cur.Stats.LatestRunDuration = took
		if runErr != nil {
			cur.Stats.LatestPages, cur.Stats.LatestWords = 0, 0
			cur.LastError = translationErrorMessage(runErr)
			if cur.ResultRevision != "" {
				cur.Status = folio.TranslationCompleted
			} else {
				cur.Status = folio.TranslationPending
			}
			if folio.KindOf(runErr) == folio.Internal {
				a.logger.Error("translation run failed", "translation", cur.ID, "error", runErr.Error())
			}
			return store.UpdateTranslation(ctx, tx, cur)
		}
		cur.Status, cur.LastError = folio.TranslationCompleted, ""
		cur.ResultSpace, cur.ResultRevision = tr.ResultSpace, tr.ResultRevision
		cur.Stats.TotalWords += words
		cur.Stats.TotalPages = tr.Stats.TotalPages
		cur.Stats.LatestPages, cur.Stats.LatestWords = pages, words
		return store.UpdateTranslation(ctx, tx, cur)
	})
}

// translationErrorMessage is what a failed run records.
func translationErrorMessage(err error) string {
	if folio.KindOf(err) == folio.Internal {
		return "internal error (see the server log)"
	}
	return folio.MessageOf(err)
}

// runTranslation translates the source space into the target space and
// returns how many pages and words it translated.
func (a *App) runTranslation(ctx context.Context, caller folio.Caller, tr *folio.Translation) (pages, words int, err error) {
	if a.translator == nil {
		return 0, 0, folio.Errorf(folio.Unavailable, "no translation engine is configured on this server (--translate-engine)")
	}
	src, err := a.GetContent(ctx, caller, tr.SourceSpace, "")
	if err != nil {
		return 0, 0, err
	}
	req := translate.Request{Source: tr.SourceLanguage, Target: tr.Language, Instructions: instructionsText(tr.Instructions)}
	var previous map[string]string
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		entries, err := store.AllGlossaryEntries(ctx, tx, tr.OrganizationID)
		if err != nil {
			return err
		}
		req.Glossary = map[string]string{}
		for _, e := range entries {
			from, to := e.Translations[tr.SourceLanguage], e.Translations[tr.Language]
			if from != "" && to != "" {
				req.Glossary[from] = to
			}
		}
		previous, err = store.TranslationPages(ctx, tx, tr.ID)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	if tr.ResultSpace == "" {
		sv, err := a.GetSpace(ctx, caller, tr.SourceSpace)
		if err != nil {
			return 0, 0, err
		}
		target, err := a.CreateSpace(ctx, caller, tr.OrganizationID, folio.NewSpace{Title: translatedTitle(sv.Title, tr.Language),
			Parent: sv.Parent, Language: tr.Language})
		if err != nil {
			return 0, 0, err
		}
		tr.ResultSpace = target.ID
		// Record the target at once: a failed first run must not make a
		// second space on the next one.
		if err := a.db.Write(ctx, func(tx *store.Tx) error {
			cur, err := store.GetTranslation(ctx, tx, tr.OrganizationID, tr.ID)
			if err != nil {
				return err
			}
			cur.ResultSpace = target.ID
			return store.UpdateTranslation(ctx, tx, cur)
		}); err != nil {
			return 0, 0, err
		}
	}
	old, err := a.GetContent(ctx, caller, tr.ResultSpace, "")
	if err != nil {
		return 0, 0, err
	}
	snap, err := a.fullSnapshot(ctx, src, false)
	if err != nil {
		return 0, 0, err
	}
	keys := map[string]string{}
	out := content.NewSnapshot()
	out.Tree.Files = src.Tree.Files
	out.Tree.Variables = src.Tree.Variables
	var translatePages func(in []*content.Page) ([]*content.Page, error)
	translatePages = func(in []*content.Page) ([]*content.Page, error) {
		res := make([]*content.Page, 0, len(in))
		for _, p := range in {
			np := p.Clone()
			np.Pages = nil
			np.Git = nil
			key := pageKey(p)
			keys[p.ID] = key
			prev, kept := old.Node(p.ID)
			if kept && previous[p.ID] == key {
				// Unchanged since the last run: keep its translation.
				np.Title, np.Description, np.Document, np.Slug = prev.Page.Title, prev.Page.Description, prev.Page.Document, prev.Page.Slug
				if d := oldDocument(ctx, a, old, prev.Page.Document); d != nil {
					out.Documents[prev.Page.Document] = d
				}
			} else {
				texts := []string{p.Title}
				if p.Description != "" {
					texts = append(texts, p.Description)
				}
				got, n, err := translate.TranslateText(ctx, a.translator, texts, req)
				if err != nil {
					return nil, err
				}
				words += n
				np.Title = clampTitle(got[0])
				if p.Description != "" {
					np.Description = got[1]
				}
				np.Slug = ""
				if !p.Document.IsZero() {
					doc := snap.Documents[p.Document]
					tdoc, n, err := translate.TranslateDocument(ctx, a.translator, doc, req)
					if err != nil {
						return nil, err
					}
					words += n
					np.Document = out.AddDocument(tdoc)
				}
				pages++
			}
			children, err := translatePages(p.Pages)
			if err != nil {
				return nil, err
			}
			np.Pages = children
			res = append(res, np)
		}
		return res, nil
	}
	out.Tree.Pages, err = translatePages(src.Tree.Pages)
	if err != nil {
		return 0, 0, err
	}
	c, err := a.commit(ctx, caller, tr.ResultSpace, edit{check: requireEditable, typ: folio.RevisionUpdate,
		build: func(*Content) (*content.Snapshot, error) { return out, nil }})
	if err != nil {
		return 0, 0, err
	}
	tr.ResultRevision = c.Revision.ID
	err = a.db.Write(ctx, func(tx *store.Tx) (err error) {
		tr.Stats.TotalPages, err = store.SetTranslationPages(ctx, tx, tr.ID, keys)
		return err
	})
	return pages, words, err
}

// oldDocument loads a document of the target space's current revision.
func oldDocument(ctx context.Context, a *App, c *Content, h content.Hash) *content.Document {
	if h.IsZero() {
		return nil
	}
	var d *content.Document
	_ = a.db.Read(ctx, func(tx *store.Tx) (err error) { d, err = a.loadDocument(ctx, tx, h); return err })
	return d
}

func clampTitle(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > content.MaxTitleLength {
		s = string(r[:content.MaxTitleLength])
	}
	if s == "" {
		s = "Untitled"
	}
	return s
}

// translatedTitle is the title of a translation's target space.
func translatedTitle(title, lang string) string {
	return clampTitle(title + " (" + lang + ")")
}

// instructionsText is the plain text of instructions, for the engines
// that take them.
func instructionsText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	doc := new(content.Document)
	if doc.UnmarshalJSON(raw) != nil {
		return ""
	}
	return doc.PlainText()
}

// UpdateGlossary applies a batch of glossary operations (insert, update,
// delete) in one transaction: all or nothing.
func (a *App) UpdateGlossary(ctx context.Context, caller folio.Caller, orgID folio.ID, ops []GlossaryOperation) error {
	if len(ops) > folio.MaxGlossaryOperations {
		return folio.FieldErrorf("operations", "at most %d operations per request", folio.MaxGlossaryOperations)
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		n, err := store.CountGlossaryEntries(ctx, tx, orgID)
		if err != nil {
			return err
		}
		for i, op := range ops {
			field := fmt.Sprintf("operations[%d]", i)
			switch op.Type {
			case "insert", "update":
				if err := validateGlossaryTerms(field, op.Translations); err != nil {
					return err
				}
				e := &folio.GlossaryEntry{ID: op.ID, OrganizationID: orgID, Translations: op.Translations}
				if op.Type == "insert" {
					if op.ID != "" {
						return folio.FieldErrorf(field+".id", "an insert takes no id")
					}
					if n++; n > folio.MaxGlossaryEntries {
						return folio.FieldErrorf(field, "a glossary holds at most %d entries", folio.MaxGlossaryEntries)
					}
					e.ID = folio.NewID()
					if err := store.PutGlossaryEntry(ctx, tx, e, true); err != nil {
						return err
					}
					continue
				}
				if _, err := store.GetGlossaryEntry(ctx, tx, orgID, op.ID); err != nil {
					if folio.IsNotFound(err) {
						return folio.FieldErrorf(field+".id", "glossary entry %s not found", op.ID)
					}
					return err
				}
				if err := store.PutGlossaryEntry(ctx, tx, e, false); err != nil {
					return err
				}
			case "delete":
				ok, err := store.DeleteGlossaryEntry(ctx, tx, orgID, op.ID)
				if err != nil {
					return err
				}
				if ok {
					n--
				}
			default:
				return folio.FieldErrorf(field+".type", "type must be insert, update or delete")
			}
		}
		return nil
	})
}

// GlossaryOperation is one operation of updateGlossaryEntries.
type GlossaryOperation struct {
	Type         string            `json:"type"`
	ID           string            `json:"id"`
	Translations map[string]string `json:"translations"`
}

func validateGlossaryTerms(field string, terms map[string]string) error {
	if len(terms) == 0 {
		return folio.FieldErrorf(field+".translations", "translations needs at least one language")
	}
	for lang, term := range terms {
		if !folio.ValidTranslationLanguage(lang) {
			return folio.FieldErrorf(field+".translations", "%s is not a language code of the reference", lang)
		}
		if term == "" || len([]rune(term)) > folio.MaxGlossaryTerm || strings.ContainsAny(term, "\r\n") {
			return folio.FieldErrorf(field+".translations", "each term is 1 to %d characters on one line", folio.MaxGlossaryTerm)
		}
	}
	return nil
}

// ListGlossaryEntries lists an organization's glossary.
func (a *App) ListGlossaryEntries(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.GlossaryEntry], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		l, err = store.ListGlossaryEntries(ctx, tx, orgID, opts)
		return err
	})
	return l, err
}

// GetGlossaryEntry returns one glossary entry.
func (a *App) GetGlossaryEntry(ctx context.Context, caller folio.Caller, orgID, id folio.ID) (e *folio.GlossaryEntry, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := translationRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		e, err = store.GetGlossaryEntry(ctx, tx, orgID, id)
		return err
	})
	return e, err
}
