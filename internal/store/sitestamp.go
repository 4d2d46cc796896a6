package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"strings"

	"github.com/foliodocs/folio"
)

// stampRow is the SQL of one row of a stamp: every column in an unambiguous
// text form (NULL apart from empty text, text length-prefixed), so that two
// rows have the same form only when all their columns are equal.
func stampRow(kind string, text, other []string) string {
	parts := make([]string, 0, len(text)+len(other)+1)
	parts = append(parts, "'"+kind+"'")
	for _, c := range text {
		parts = append(parts, "CASE WHEN "+c+" IS NULL THEN 'n' ELSE 'v' || LENGTH("+c+") || ':' || "+c+" END")
	}
	for _, c := range other {
		parts = append(parts, "COALESCE(CAST("+c+" AS TEXT), 'n')")
	}
	return strings.Join(parts, " || '|' || ")
}

// siteStampQuery reads what a site's published profile is built from: the
// site row (customization included), its site spaces (with their
// customizations), sections, section groups, and the spaces they publish.
// Change request and comment counts of the spaces are not in it.
var siteStampQuery = `SELECT 1, ` + stampRow("s", []string{"st.organization_id", "st.type", "st.title", "st.visibility",
	"st.hostname", "st.basename", "st.proxy_origin", "st.agents_context", "st.default_site_section", "st.customization"},
	[]string{"st.published", "st.adaptive_content", "st.updated_at"}) + ` FROM sites st WHERE st.id = ?
UNION ALL SELECT 2, ` + stampRow("ss", []string{"ss.id", "ss.space_id", "ss.section_id", "ss.path", "ss.condition",
	"ss.customization"}, []string{"ss.position", "ss.is_default", "ss.hidden", "ss.updated_at"}) + ` FROM site_spaces ss WHERE ss.site_id = ?
UNION ALL SELECT 3, ` + stampRow("sec", []string{"sc.id", "sc.group_id", "sc.title", "sc.path", "sc.icon", "sc.description",
	"sc.condition"}, []string{"sc.position", "sc.updated_at"}) + ` FROM site_sections sc WHERE sc.site_id = ?
UNION ALL SELECT 4, ` + stampRow("g", []string{"g.id", "g.parent_id", "g.title", "g.icon"}, []string{"g.position"}) +
	` FROM site_section_groups g WHERE g.site_id = ?
UNION ALL SELECT 5, ` + stampRow("sp", []string{"sp.id", "sp.organization_id", "sp.parent_id", "sp.title", "sp.emoji",
	"sp.language", "sp.edit_mode", "sp.default_level", "sp.merge_rules", "sp.visibility", "sp.revision"},
	[]string{"sp.position", "sp.created_at", "sp.updated_at", "sp.deleted_at"}) +
	` FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id WHERE ss.site_id = ?
ORDER BY 1, 2`

// SiteStamp returns a digest of the state a site's published profile is
// built from (see siteStampQuery), in one query: equal stamps mean the
// profile built from the same rows, so a server may reuse a profile it
// built while the stamp it read then is still the one read now.
func SiteStamp(ctx context.Context, t *Tx, siteID folio.ID) ([sha256.Size]byte, error) {
	h := sha256.New()
	err := t.query(ctx, siteStampQuery, []any{siteID, siteID, siteID, siteID, siteID}, func(r *sql.Rows) error {
		var (
			kind int
			row  sql.NullString
		)
		if err := r.Scan(&kind, &row); err != nil {
			return err
		}
		h.Write([]byte(row.String))
		h.Write([]byte{0})
		return nil
	})
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out, wrap(err, "site stamp")
}
