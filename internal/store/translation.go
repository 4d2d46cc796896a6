package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/foliodocs/folio"
)

const translationColumns = `tr.id, tr.organization_id, tr.source_space, tr.source_language, tr.language, tr.instructions,
	tr.result_space, tr.result_revision, tr.status, tr.stats, tr.last_error, tr.last_run_at, tr.created_by, tr.created_at, tr.updated_at`

func scanTranslation(rows *sql.Rows, tr *folio.Translation) error {
	var (
		instructions, stats string
		lastRun             sql.NullInt64
		created, updated    int64
	)
	if err := rows.Scan(&tr.ID, &tr.OrganizationID, &tr.SourceSpace, &tr.SourceLanguage, &tr.Language, &instructions,
		&tr.ResultSpace, &tr.ResultRevision, &tr.Status, &stats, &tr.LastError, &lastRun, &tr.CreatedBy, &created, &updated); err != nil {
		return err
	}
	if instructions != "" {
		tr.Instructions = json.RawMessage(instructions)
	}
	if err := json.Unmarshal([]byte(stats), &tr.Stats); err != nil {
		return fmt.Errorf("decode stats of translation %s: %w", tr.ID, err)
	}
	tr.LastRunAt = nullMicros(lastRun)
	tr.CreatedAt, tr.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateTranslation records a translation.
func CreateTranslation(ctx context.Context, t *Tx, tr *folio.Translation) error {
	tr.CreatedAt, tr.UpdatedAt = t.Now, t.Now
	stats, _ := json.Marshal(tr.Stats)
	_, err := t.exec(ctx, `INSERT INTO translations (id, organization_id, source_space, source_language, language, instructions,
		status, stats, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		tr.ID, tr.OrganizationID, tr.SourceSpace, tr.SourceLanguage, tr.Language, string(tr.Instructions), tr.Status,
		string(stats), tr.CreatedBy, micros(t.Now), micros(t.Now))
	return wrap(err, "create translation")
}

// GetTranslation returns a translation of an organization, or NotFound.
func GetTranslation(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.Translation, error) {
	tr := new(folio.Translation)
	err := t.one(ctx, `SELECT `+translationColumns+` FROM translations tr WHERE tr.organization_id = ? AND tr.id = ?`,
		[]any{orgID, id}, func(rows *sql.Rows) error { return scanTranslation(rows, tr) })
	if err != nil {
		return nil, notFound(err, "get translation", "translation not found")
	}
	return tr, nil
}

// ListTranslations lists an organization's translations, oldest first.
func ListTranslations(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.Translation], error) {
	where := ` WHERE tr.organization_id = ?`
	args := []any{orgID}
	q := listQuery{
		Query: `SELECT ` + translationColumns + ` FROM translations tr` + where, Args: args,
		Keys: []string{"tr.created_at", "tr.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM translations tr` + where, CountArgs: args,
	}
	return page(ctx, t, "list translations", q, opts, func(r *sql.Rows) (folio.Translation, []any, error) {
		var tr folio.Translation
		err := scanTranslation(r, &tr)
		return tr, []any{micros(tr.CreatedAt), tr.ID}, err
	})
}

// UpdateTranslation saves a translation's instructions, result, status,
// stats and last error.
func UpdateTranslation(ctx context.Context, t *Tx, tr *folio.Translation) error {
	tr.UpdatedAt = t.Now
	stats, _ := json.Marshal(tr.Stats)
	var lastRun any
	if tr.LastRunAt != nil {
		lastRun = micros(*tr.LastRunAt)
	}
	_, err := t.exec(ctx, `UPDATE translations SET instructions = ?, result_space = ?, result_revision = ?, status = ?, stats = ?,
		last_error = ?, last_run_at = ?, updated_at = ? WHERE id = ?`,
		string(tr.Instructions), tr.ResultSpace, tr.ResultRevision, tr.Status, string(stats), tr.LastError, lastRun,
		micros(t.Now), tr.ID)
	return wrap(err, "update translation")
}

// DeleteTranslation removes a translation (its target space stays).
func DeleteTranslation(ctx context.Context, t *Tx, id folio.ID) error {
	if _, err := t.exec(ctx, `DELETE FROM translation_pages WHERE translation_id = ?`, id); err != nil {
		return wrap(err, "delete translation pages")
	}
	_, err := t.exec(ctx, `DELETE FROM translations WHERE id = ?`, id)
	return wrap(err, "delete translation")
}

// TranslationPages returns the source key of every page a translation's
// last run translated, by page id.
func TranslationPages(ctx context.Context, t *Tx, id folio.ID) (map[string]string, error) {
	out := map[string]string{}
	err := t.query(ctx, `SELECT page_id, source_key FROM translation_pages WHERE translation_id = ?`, []any{id},
		func(r *sql.Rows) error {
			var p, k string
			if err := r.Scan(&p, &k); err != nil {
				return err
			}
			out[p] = k
			return nil
		})
	return out, wrap(err, "translation pages")
}

// SetTranslationPages records the source keys of the pages a run
// translated or kept (pages translated by earlier runs stay recorded, so
// that the count of pages ever translated is exact) and returns how many
// pages the translation has translated in all.
func SetTranslationPages(ctx context.Context, t *Tx, id folio.ID, keys map[string]string) (int, error) {
	ids := make([]string, 0, len(keys))
	for p := range keys {
		ids = append(ids, p)
	}
	for start := 0; start < len(ids); start += 200 {
		batch := ids[start:min(start+200, len(ids))]
		q := `INSERT INTO translation_pages (translation_id, page_id, source_key) VALUES `
		args := make([]any, 0, 3*len(batch))
		for i, p := range batch {
			if i > 0 {
				q += ", "
			}
			q += "(?, ?, ?)"
			args = append(args, id, p, keys[p])
		}
		q += ` ON CONFLICT (translation_id, page_id) DO UPDATE SET source_key = excluded.source_key`
		if _, err := t.once().exec(ctx, q, args...); err != nil {
			return 0, wrap(err, "set translation pages")
		}
	}
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM translation_pages WHERE translation_id = ?`, []any{id}, &n)
	return n, wrap(err, "count translation pages")
}

func scanGlossaryEntry(rows *sql.Rows, e *folio.GlossaryEntry) error {
	var (
		tr               string
		created, updated int64
	)
	if err := rows.Scan(&e.ID, &e.OrganizationID, &tr, &created, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(tr), &e.Translations); err != nil {
		return fmt.Errorf("decode glossary entry %s: %w", e.ID, err)
	}
	e.CreatedAt, e.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

const glossaryColumns = `g.id, g.organization_id, g.translations, g.created_at, g.updated_at`

// ListGlossaryEntries lists an organization's glossary, oldest first.
func ListGlossaryEntries(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.GlossaryEntry], error) {
	where := ` WHERE g.organization_id = ?`
	args := []any{orgID}
	q := listQuery{
		Query: `SELECT ` + glossaryColumns + ` FROM glossary_entries g` + where, Args: args,
		Keys: []string{"g.created_at", "g.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM glossary_entries g` + where, CountArgs: args,
	}
	return page(ctx, t, "list glossary entries", q, opts, func(r *sql.Rows) (folio.GlossaryEntry, []any, error) {
		var e folio.GlossaryEntry
		err := scanGlossaryEntry(r, &e)
		return e, []any{micros(e.CreatedAt), e.ID}, err
	})
}

// AllGlossaryEntries returns an organization's whole glossary (bounded by
// folio.MaxGlossaryEntries).
func AllGlossaryEntries(ctx context.Context, t *Tx, orgID folio.ID) ([]folio.GlossaryEntry, error) {
	var out []folio.GlossaryEntry
	err := t.query(ctx, `SELECT `+glossaryColumns+` FROM glossary_entries g WHERE g.organization_id = ?
		ORDER BY g.created_at, g.id LIMIT ?`, []any{orgID, folio.MaxGlossaryEntries}, func(r *sql.Rows) error {
		var e folio.GlossaryEntry
		if err := scanGlossaryEntry(r, &e); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, wrap(err, "all glossary entries")
}

// GetGlossaryEntry returns a glossary entry, or NotFound.
func GetGlossaryEntry(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.GlossaryEntry, error) {
	e := new(folio.GlossaryEntry)
	err := t.one(ctx, `SELECT `+glossaryColumns+` FROM glossary_entries g WHERE g.organization_id = ? AND g.id = ?`,
		[]any{orgID, id}, func(rows *sql.Rows) error { return scanGlossaryEntry(rows, e) })
	if err != nil {
		return nil, notFound(err, "get glossary entry", "glossary entry not found")
	}
	return e, nil
}

// CountGlossaryEntries counts an organization's glossary entries.
func CountGlossaryEntries(ctx context.Context, t *Tx, orgID folio.ID) (n int, err error) {
	err = t.get(ctx, `SELECT COUNT(*) FROM glossary_entries WHERE organization_id = ?`, []any{orgID}, &n)
	return n, wrap(err, "count glossary entries")
}

// PutGlossaryEntry inserts or updates an entry.
func PutGlossaryEntry(ctx context.Context, t *Tx, e *folio.GlossaryEntry, insert bool) error {
	b, _ := json.Marshal(e.Translations)
	e.UpdatedAt = t.Now
	if insert {
		e.CreatedAt = t.Now
		_, err := t.exec(ctx, `INSERT INTO glossary_entries (id, organization_id, translations, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			e.ID, e.OrganizationID, string(b), micros(t.Now), micros(t.Now))
		return wrap(err, "insert glossary entry")
	}
	_, err := t.exec(ctx, `UPDATE glossary_entries SET translations = ?, updated_at = ? WHERE id = ? AND organization_id = ?`,
		string(b), micros(t.Now), e.ID, e.OrganizationID)
	return wrap(err, "update glossary entry")
}

// DeleteGlossaryEntry removes an entry; false when there was none.
func DeleteGlossaryEntry(ctx context.Context, t *Tx, orgID, id folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM glossary_entries WHERE organization_id = ? AND id = ?`, orgID, id)
	return n > 0, wrap(err, "delete glossary entry")
}
