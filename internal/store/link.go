package store

import (
	"context"
	"database/sql"
	"strings"
)

// Link is one content reference or URL found in a page of a space's current
// revision. TargetSpace is the referenced space (the page's own when the
// reference names none); TargetKey identifies the target for grouping; Ref
// is the reference's JSON.
type Link struct {
	SpaceID     string
	PageID      string
	Ord         int
	Kind        string
	TargetSpace string
	TargetPage  string
	TargetFile  string
	TargetKey   string
	Relation    string
	Ref         string
}

// PutLinks records links.
func PutLinks(ctx context.Context, t *Tx, links []Link) error {
	for start := 0; start < len(links); start += maxRowsPerInsert {
		batch := links[start:min(start+maxRowsPerInsert, len(links))]
		var q strings.Builder
		q.WriteString(`INSERT INTO content_links (space_id, page_id, ord, kind, target_space, target_page, target_file, target_key, relation, ref) VALUES `)
		args := make([]any, 0, 9*len(batch))
		for i, l := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, l.SpaceID, l.PageID, l.Ord, l.Kind, l.TargetSpace, l.TargetPage, l.TargetFile, l.TargetKey, l.Relation, l.Ref)
		}
		if _, err := t.once().exec(ctx, q.String(), args...); err != nil {
			return wrap(err, "put links")
		}
	}
	return nil
}

const linkColumns = `space_id, page_id, ord, kind, target_space, target_page, target_file, target_key, relation, ref`

func scanLinks(out *[]Link) func(*sql.Rows) error {
	return func(r *sql.Rows) error {
		var l Link
		if err := r.Scan(&l.SpaceID, &l.PageID, &l.Ord, &l.Kind, &l.TargetSpace, &l.TargetPage, &l.TargetFile, &l.TargetKey, &l.Relation, &l.Ref); err != nil {
			return err
		}
		*out = append(*out, l)
		return nil
	}
}

// ListLinks returns the links of a space, or of one of its pages when
// pageID is set, by page and then in document order.
func ListLinks(ctx context.Context, t *Tx, spaceID, pageID string) ([]Link, error) {
	q := `SELECT ` + linkColumns + ` FROM content_links WHERE space_id = ?`
	args := []any{spaceID}
	if pageID != "" {
		q += ` AND page_id = ?`
		args = append(args, pageID)
	}
	var out []Link
	err := t.query(ctx, q+` ORDER BY page_id, ord`, args, scanLinks(&out))
	return out, wrap(err, "list links")
}

// Backlinks returns the links pointing at a page (or, when pageID is empty,
// at a file) of a space, from any space, by location.
func Backlinks(ctx context.Context, t *Tx, spaceID, pageID, fileID string) ([]Link, error) {
	q := `SELECT ` + linkColumns + ` FROM content_links WHERE target_space = ? AND target_page = ? AND target_page <> ''`
	args := []any{spaceID, pageID}
	if pageID == "" {
		q = `SELECT ` + linkColumns + ` FROM content_links WHERE target_space = ? AND target_file = ? AND target_file <> ''`
		args = []any{spaceID, fileID}
	}
	var out []Link
	err := t.query(ctx, q+` ORDER BY space_id, page_id, ord`, args, scanLinks(&out))
	return out, wrap(err, "list backlinks")
}
