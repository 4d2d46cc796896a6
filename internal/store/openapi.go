package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/foliodocs/folio"
)

// openAPIColumns leave a text source out (it can be megabytes):
// GetOpenAPISourceText reads it where it is needed.
const openAPIColumns = `o.id, o.organization_id, o.slug, o.source_url, '', o.visibility, o.processing_state,
	o.last_version, o.last_processed_at, o.last_error_code, o.last_errors, o.created_at, o.updated_at`

func scanOpenAPISpec(rows *sql.Rows, s *folio.OpenAPISpec) error {
	var (
		processed        sql.NullInt64
		errs             string
		created, updated int64
	)
	if err := rows.Scan(&s.ID, &s.OrganizationID, &s.Slug, &s.SourceURL, &s.SourceText, &s.Visibility, &s.ProcessingState,
		&s.LastVersion, &processed, &s.LastErrorCode, &errs, &created, &updated); err != nil {
		return err
	}
	s.LastProcessedAt = nullMicros(processed)
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	if err := json.Unmarshal([]byte(errs), &s.LastErrors); err != nil {
		return fmt.Errorf("decode errors of OpenAPI spec %s: %w", s.ID, err)
	}
	return nil
}

// CreateOpenAPISpec records a new specification; Conflict when the slug is
// taken in the organization.
func CreateOpenAPISpec(ctx context.Context, t *Tx, s *folio.OpenAPISpec) error {
	s.CreatedAt, s.UpdatedAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, visibility,
		processing_state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.OrganizationID, s.Slug, s.SourceURL, s.SourceText, s.Visibility, s.ProcessingState, micros(t.Now), micros(t.Now))
	if folio.KindOf(err) == folio.Conflict {
		return folio.FieldErrorf("slug", "an OpenAPI specification with the slug %s already exists", s.Slug)
	}
	return wrap(err, "create openapi spec")
}

// GetOpenAPISpec returns an organization's specification by slug, or
// NotFound.
func GetOpenAPISpec(ctx context.Context, t *Tx, orgID folio.ID, slug string) (*folio.OpenAPISpec, error) {
	return oneOpenAPISpec(ctx, t, `o.organization_id = ? AND o.slug = ?`, orgID, slug)
}

// GetOpenAPISpecByID returns a specification by id, or NotFound.
func GetOpenAPISpecByID(ctx context.Context, t *Tx, id folio.ID) (*folio.OpenAPISpec, error) {
	return oneOpenAPISpec(ctx, t, `o.id = ?`, id)
}

func oneOpenAPISpec(ctx context.Context, t *Tx, cond string, args ...any) (*folio.OpenAPISpec, error) {
	s := new(folio.OpenAPISpec)
	err := t.one(ctx, `SELECT `+openAPIColumns+` FROM openapi_specs o WHERE `+cond, args,
		func(rows *sql.Rows) error { return scanOpenAPISpec(rows, s) })
	if err != nil {
		return nil, notFound(err, "get openapi spec", "no matching OpenAPI specification found")
	}
	return s, nil
}

// ListOpenAPISpecs lists an organization's specifications, oldest first.
func ListOpenAPISpecs(ctx context.Context, t *Tx, orgID folio.ID, opts folio.ListOptions) (folio.List[folio.OpenAPISpec], error) {
	where := ` WHERE o.organization_id = ?`
	args := []any{orgID}
	q := listQuery{
		Query: `SELECT ` + openAPIColumns + ` FROM openapi_specs o` + where, Args: args,
		Keys: []string{"o.created_at", "o.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM openapi_specs o` + where, CountArgs: args,
	}
	return page(ctx, t, "list openapi specs", q, opts, func(r *sql.Rows) (folio.OpenAPISpec, []any, error) {
		var s folio.OpenAPISpec
		err := scanOpenAPISpec(r, &s)
		return s, []any{micros(s.CreatedAt), s.ID}, err
	})
}

// DueOpenAPISpecs returns the ids of URL-sourced specifications whose
// processing is complete and was last done before cutoff, at most limit,
// oldest first (pending and running ones have a job already).
func DueOpenAPISpecs(ctx context.Context, t *Tx, cutoff int64, limit int) ([]folio.ID, error) {
	var ids []folio.ID
	err := t.query(ctx, `SELECT id FROM openapi_specs WHERE source_url <> '' AND processing_state = ?
		AND (last_processed_at IS NULL OR last_processed_at < ?) ORDER BY COALESCE(last_processed_at, 0), id LIMIT ?`,
		[]any{folio.OpenAPIComplete, cutoff, limit}, func(r *sql.Rows) error {
			var id folio.ID
			if err := r.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
			return nil
		})
	return ids, wrap(err, "due openapi specs")
}

// UpdateOpenAPISpec saves a specification's visibility and processing
// fields (SetOpenAPISource changes its source).
func UpdateOpenAPISpec(ctx context.Context, t *Tx, s *folio.OpenAPISpec) error {
	s.UpdatedAt = t.Now
	errs, _ := json.Marshal(s.LastErrors)
	if s.LastErrors == nil {
		errs = []byte("[]")
	}
	var processed any
	if s.LastProcessedAt != nil {
		processed = micros(*s.LastProcessedAt)
	}
	_, err := t.exec(ctx, `UPDATE openapi_specs SET visibility = ?, processing_state = ?,
		last_version = ?, last_processed_at = ?, last_error_code = ?, last_errors = ?, updated_at = ? WHERE id = ?`,
		s.Visibility, s.ProcessingState, s.LastVersion, processed, s.LastErrorCode, string(errs), micros(t.Now), s.ID)
	return wrap(err, "update openapi spec")
}

// SetOpenAPISource changes a specification's source (a URL, or a text).
func SetOpenAPISource(ctx context.Context, t *Tx, id folio.ID, sourceURL, text string) error {
	_, err := t.exec(ctx, `UPDATE openapi_specs SET source_url = ?, source_text = ?, updated_at = ? WHERE id = ?`,
		sourceURL, text, micros(t.Now), id)
	return wrap(err, "set openapi source")
}

// GetOpenAPISourceText returns the text of a specification given as text
// ("" for one from a URL).
func GetOpenAPISourceText(ctx context.Context, t *Tx, id folio.ID) (text string, err error) {
	if err = t.get(ctx, `SELECT source_text FROM openapi_specs WHERE id = ?`, []any{id}, &text); err != nil {
		return "", notFound(err, "get openapi source", "no matching OpenAPI specification found")
	}
	return text, nil
}

// DeleteOpenAPISpec removes a specification and its versions; false when
// there was none.
func DeleteOpenAPISpec(ctx context.Context, t *Tx, id folio.ID) (bool, error) {
	if _, err := t.exec(ctx, `DELETE FROM openapi_versions WHERE spec_id = ?`, id); err != nil {
		return false, wrap(err, "delete openapi versions")
	}
	n, err := t.exec(ctx, `DELETE FROM openapi_specs WHERE id = ?`, id)
	return n > 0, wrap(err, "delete openapi spec")
}

const openAPIVersionColumns = `v.id, v.spec_id, v.hash, v.created_at`

func scanOpenAPIVersion(rows *sql.Rows, v *folio.OpenAPIVersion) error {
	var created int64
	if err := rows.Scan(&v.ID, &v.SpecID, &v.Hash, &created); err != nil {
		return err
	}
	v.CreatedAt = fromMicros(created)
	return nil
}

// CreateOpenAPIVersion records a version with its content.
func CreateOpenAPIVersion(ctx context.Context, t *Tx, v *folio.OpenAPIVersion, c *folio.OpenAPIContent) error {
	v.CreatedAt = t.Now
	_, err := t.exec(ctx, `INSERT INTO openapi_versions (id, spec_id, hash, content, raw, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		v.ID, v.SpecID, v.Hash, c.Filesystem, string(c.Raw), micros(t.Now))
	return wrap(err, "create openapi version")
}

// GetOpenAPIVersion returns a version of a specification, or NotFound.
func GetOpenAPIVersion(ctx context.Context, t *Tx, specID, id folio.ID) (*folio.OpenAPIVersion, error) {
	v := new(folio.OpenAPIVersion)
	err := t.one(ctx, `SELECT `+openAPIVersionColumns+` FROM openapi_versions v WHERE v.spec_id = ? AND v.id = ?`,
		[]any{specID, id}, func(rows *sql.Rows) error { return scanOpenAPIVersion(rows, v) })
	if err != nil {
		return nil, notFound(err, "get openapi version", "no matching OpenAPI specification version found")
	}
	return v, nil
}

// GetOpenAPIContent returns a version's content, or NotFound.
func GetOpenAPIContent(ctx context.Context, t *Tx, specID, id folio.ID) (*folio.OpenAPIContent, error) {
	var (
		c   folio.OpenAPIContent
		raw string
	)
	err := t.get(ctx, `SELECT content, raw FROM openapi_versions WHERE spec_id = ? AND id = ?`, []any{specID, id}, &c.Filesystem, &raw)
	if err != nil {
		return nil, notFound(err, "get openapi content", "no matching OpenAPI specification version found")
	}
	c.Raw = []byte(raw)
	return &c, nil
}

// ListOpenAPIVersions lists a specification's versions, newest first.
func ListOpenAPIVersions(ctx context.Context, t *Tx, specID folio.ID, opts folio.ListOptions) (folio.List[folio.OpenAPIVersion], error) {
	where := ` WHERE v.spec_id = ?`
	args := []any{specID}
	opts.Desc = true
	q := listQuery{
		Query: `SELECT ` + openAPIVersionColumns + ` FROM openapi_versions v` + where, Args: args,
		Keys: []string{"v.created_at", "v.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM openapi_versions v` + where, CountArgs: args,
	}
	return page(ctx, t, "list openapi versions", q, opts, func(r *sql.Rows) (folio.OpenAPIVersion, []any, error) {
		var v folio.OpenAPIVersion
		err := scanOpenAPIVersion(r, &v)
		return v, []any{micros(v.CreatedAt), v.ID}, err
	})
}

// PruneOpenAPIVersions removes a specification's versions beyond the
// newest keep (never its latest).
func PruneOpenAPIVersions(ctx context.Context, t *Tx, specID folio.ID, keep int) error {
	_, err := t.exec(ctx, `DELETE FROM openapi_versions WHERE spec_id = ? AND id NOT IN (
		SELECT id FROM openapi_versions WHERE spec_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, specID, specID, keep)
	return wrap(err, "prune openapi versions")
}

// GetOpenAPISpecBySourceURL returns the oldest specification of an
// organization fetched from sourceURL, or NotFound.
func GetOpenAPISpecBySourceURL(ctx context.Context, t *Tx, orgID folio.ID, sourceURL string) (*folio.OpenAPISpec, error) {
	if sourceURL == "" {
		return nil, folio.Errorf(folio.NotFound, "no matching OpenAPI specification found")
	}
	return oneOpenAPISpec(ctx, t, `o.organization_id = ? AND o.source_url = ? ORDER BY o.created_at, o.id LIMIT 1`, orgID, sourceURL)
}
