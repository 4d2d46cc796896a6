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

// stampBranches is, as a UNION of (kind, row) selects, the state a site's
// published profile is built from, for the site whose id is the SQL
// expression site: the site row (customization included), its site spaces
// (with their customizations), sections, section groups, and the spaces
// they publish. Change request and comment counts of the spaces are not in
// it.
func stampBranches(site string) string {
	return `SELECT 1 AS k, ` + stampRow("s", []string{"st.organization_id", "st.type", "st.title", "st.visibility",
		"st.hostname", "st.basename", "st.proxy_origin", "st.agents_context", "st.default_site_section", "st.customization"},
		[]string{"st.published", "st.adaptive_content", "st.updated_at"}) + ` AS r FROM sites st WHERE st.id = ` + site + `
UNION ALL SELECT 2, ` + stampRow("ss", []string{"ss.id", "ss.space_id", "ss.section_id", "ss.path", "ss.condition",
		"ss.customization"}, []string{"ss.position", "ss.is_default", "ss.hidden", "ss.updated_at"}) + ` FROM site_spaces ss WHERE ss.site_id = ` + site + `
UNION ALL SELECT 3, ` + stampRow("sec", []string{"sc.id", "sc.group_id", "sc.title", "sc.path", "sc.icon", "sc.description",
		"sc.condition"}, []string{"sc.position", "sc.updated_at"}) + ` FROM site_sections sc WHERE sc.site_id = ` + site + `
UNION ALL SELECT 4, ` + stampRow("g", []string{"g.id", "g.parent_id", "g.title", "g.icon"}, []string{"g.position"}) +
		` FROM site_section_groups g WHERE g.site_id = ` + site + `
UNION ALL SELECT 5, ` + stampRow("sp", []string{"sp.id", "sp.organization_id", "sp.parent_id", "sp.title", "sp.emoji",
		"sp.language", "sp.edit_mode", "sp.default_level", "sp.merge_rules", "sp.visibility", "sp.revision"},
		[]string{"sp.position", "sp.created_at", "sp.updated_at", "sp.deleted_at"}) +
		` FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id WHERE ss.site_id = ` + site
}

// readerSiteQuery reads a site row (by id or hostname, the "?" of where)
// with the text of its stamp, in one statement: the reader's one round
// trip per page. The stamp's rows are joined in (kind, row) order with a
// record separator; every column in them is length-prefixed, so the join
// is as unambiguous as the rows themselves.
func readerSiteQuery(d dialect, where string) string {
	agg := `(SELECT group_concat(r, char(30) ORDER BY k, r) FROM (` + stampBranches("s0.id") + `) x)`
	if d.name() == "postgres" {
		agg = `(SELECT string_agg(r, chr(30) ORDER BY k, r) FROM (` + stampBranches("s0.id") + `) x)`
	}
	return `SELECT s0.id, s0.organization_id, s0.type, s0.title, s0.visibility, s0.hostname, s0.basename,
	s0.proxy_origin, s0.published, s0.agents_context, s0.adaptive_content, s0.default_site_section,
	s0.created_at, s0.updated_at, 0, ` + agg + ` FROM sites s0 WHERE ` + where
}

// ReaderSite returns a site by id (or, when id is empty, by custom
// hostname) with the stamp of the state its published profile is built
// from (stampBranches), in one query: equal stamps mean a profile built
// from the same rows, so a server may reuse a profile it built while the
// stamp it read then is still the one read now. Its SiteSpaces count is not
// read (0). NotFound when no site matches.
func ReaderSite(ctx context.Context, t *Tx, id folio.ID, hostname string) (*folio.Site, [sha256.Size]byte, error) {
	var (
		s     folio.Site
		stamp sql.NullString
		out   [sha256.Size]byte
	)
	q, arg := readerSiteQuery(t.db.d, "s0.id = ?"), any(id)
	if id == "" {
		q, arg = readerSiteQuery(t.db.d, "s0.hostname = ?"), any(hostname)
	}
	err := t.one(ctx, q, []any{arg}, func(r *sql.Rows) error {
		var (
			hn, basename, proxy, section sql.NullString
			created, updated             int64
		)
		if err := r.Scan(&s.ID, &s.OrganizationID, &s.Type, &s.Title, &s.Visibility, &hn, &basename, &proxy,
			&s.Published, &s.AgentsContext, &s.AdaptiveContent, &section, &created, &updated, &s.SiteSpaces, &stamp); err != nil {
			return err
		}
		s.Hostname, s.Basename, s.ProxyOrigin, s.DefaultSiteSection = hn.String, basename.String, proxy.String, section.String
		s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
		return nil
	})
	if err != nil {
		return nil, out, notFound(err, "get site for the reader", "site not found")
	}
	out = sha256.Sum256([]byte(stamp.String))
	return &s, out, nil
}
