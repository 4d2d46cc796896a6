package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/foliodocs/folio"
)

// siteColumns reads a site and the number of its site spaces whose space
// is not deleted.
const siteColumns = `st.id, st.organization_id, st.type, st.title, st.visibility, st.hostname, st.basename,
	st.proxy_origin, st.published, st.agents_context, st.adaptive_content, st.default_site_section,
	st.created_at, st.updated_at,
	(SELECT COUNT(*) FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id
	 WHERE ss.site_id = st.id AND sp.deleted_at IS NULL)`

func scanSite(rows *sql.Rows, s *folio.Site) error {
	var (
		hostname, basename, proxy, section sql.NullString
		created, updated                   int64
	)
	err := rows.Scan(&s.ID, &s.OrganizationID, &s.Type, &s.Title, &s.Visibility, &hostname, &basename, &proxy,
		&s.Published, &s.AgentsContext, &s.AdaptiveContent, &section, &created, &updated, &s.SiteSpaces)
	if err != nil {
		return err
	}
	s.Hostname, s.Basename, s.ProxyOrigin, s.DefaultSiteSection = hostname.String, basename.String, proxy.String, section.String
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	return nil
}

// CreateSite inserts a site.
func CreateSite(ctx context.Context, t *Tx, s *folio.Site) error {
	_, err := t.exec(ctx, `INSERT INTO sites (id, organization_id, type, title, visibility, hostname, basename,
		proxy_origin, published, agents_context, adaptive_content, default_site_section, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.OrganizationID, s.Type, s.Title, s.Visibility, nullString(s.Hostname), nullString(s.Basename),
		nullString(s.ProxyOrigin), s.Published, s.AgentsContext, s.AdaptiveContent, nullString(s.DefaultSiteSection),
		micros(s.CreatedAt), micros(s.UpdatedAt))
	return wrap(err, "create site")
}

// GetSite returns a site of an organization, or NotFound.
func GetSite(ctx context.Context, t *Tx, orgID, id folio.ID) (*folio.Site, error) {
	var s folio.Site
	err := t.one(ctx, `SELECT `+siteColumns+` FROM sites st WHERE st.id = ? AND st.organization_id = ?`,
		[]any{id, orgID}, func(r *sql.Rows) error { return scanSite(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site", "site not found")
	}
	return &s, nil
}

// ListSites lists the sites of an organization, oldest first, filtered.
func ListSites(ctx context.Context, t *Tx, orgID folio.ID, f folio.SiteFilter, opts folio.ListOptions) (folio.List[folio.Site], error) {
	where := ` WHERE st.organization_id = ?`
	args := []any{orgID}
	if f.Space != "" {
		where += ` AND EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = st.id AND ss.space_id = ?)`
		args = append(args, f.Space)
	}
	if f.Title != "" {
		// A case-insensitive substring match, the same in both dialects.
		where += ` AND LOWER(st.title) LIKE ? ESCAPE '\'`
		args = append(args, "%"+escapeLike(f.Title)+"%")
	}
	if f.Published != nil {
		where += ` AND st.published = ?`
		args = append(args, *f.Published)
	}
	q := listQuery{
		Query: `SELECT ` + siteColumns + ` FROM sites st` + where, Args: args,
		Keys: []string{"st.created_at", "st.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM sites st` + where, CountArgs: args,
	}
	return page(ctx, t, "list sites", q, opts, func(r *sql.Rows) (folio.Site, []any, error) {
		var s folio.Site
		err := scanSite(r, &s)
		return s, []any{micros(s.CreatedAt), s.ID}, err
	})
}

// escapeLike lower-cases s and escapes the LIKE wildcards in it.
func escapeLike(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range strings.ToLower(s) {
		if r == '%' || r == '_' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
}

// UpdateSite writes every field of a site that a PATCH or a publication
// may change. A hostname taken by another site is a Conflict.
func UpdateSite(ctx context.Context, t *Tx, s *folio.Site) error {
	n, err := t.exec(ctx, `UPDATE sites SET title = ?, visibility = ?, hostname = ?, basename = ?, proxy_origin = ?,
		published = ?, agents_context = ?, adaptive_content = ?, default_site_section = ?, updated_at = ? WHERE id = ?`,
		s.Title, s.Visibility, nullString(s.Hostname), nullString(s.Basename), nullString(s.ProxyOrigin), s.Published,
		s.AgentsContext, s.AdaptiveContent, nullString(s.DefaultSiteSection), micros(t.Now), s.ID)
	if folio.KindOf(err) == folio.Conflict {
		return &folio.Error{Kind: folio.Conflict, Field: "hostname",
			Message: "hostname " + s.Hostname + " is already used by another site"}
	}
	if err == nil && n == 0 {
		return folio.Errorf(folio.NotFound, "site not found")
	}
	return wrap(err, "update site")
}

// DeleteSite deletes a site with its site spaces, share links and
// redirects. It reports whether the site existed.
func DeleteSite(ctx context.Context, t *Tx, orgID, id folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM sites WHERE id = ? AND organization_id = ?`, id, orgID)
	return n > 0, wrap(err, "delete site")
}

// SiteCustomization returns a site's stored customization document, nil
// when it was never customized.
func SiteCustomization(ctx context.Context, t *Tx, id folio.ID) (map[string]any, error) {
	var doc sql.NullString
	if err := t.get(ctx, `SELECT customization FROM sites WHERE id = ?`, []any{id}, &doc); err != nil {
		return nil, notFound(err, "get site customization", "site not found")
	}
	return decodeDoc(doc, "site customization")
}

// SetSiteCustomization stores a site's customization document.
func SetSiteCustomization(ctx context.Context, t *Tx, id folio.ID, doc map[string]any) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return wrap(err, "encode site customization")
	}
	_, err = t.exec(ctx, `UPDATE sites SET customization = ?, updated_at = ? WHERE id = ?`, string(b), micros(t.Now), id)
	return wrap(err, "set site customization")
}

func decodeDoc(doc sql.NullString, what string) (map[string]any, error) {
	if !doc.Valid {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(doc.String), &m); err != nil {
		return nil, wrap(err, "decode "+what)
	}
	return m, nil
}

const siteSpaceColumns = `ss.id, ss.site_id, ss.space_id, ss.section_id, ss.path, ss.position, ss.is_default,
	ss.hidden, ss.condition, ss.created_at, ss.updated_at`

func scanSiteSpace(rows *sql.Rows, s *folio.SiteSpace) error {
	var (
		section, cond    sql.NullString
		created, updated int64
	)
	err := rows.Scan(&s.ID, &s.SiteID, &s.SpaceID, &section, &s.Path, &s.Position, &s.Default, &s.Hidden, &cond,
		&created, &updated)
	s.SectionID, s.Condition = section.String, cond.String
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	return err
}

// CreateSiteSpace inserts a site space.
func CreateSiteSpace(ctx context.Context, t *Tx, s *folio.SiteSpace) error {
	_, err := t.exec(ctx, `INSERT INTO site_spaces (id, site_id, space_id, section_id, path, position, is_default,
		hidden, condition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.SiteID, s.SpaceID, nullString(s.SectionID), s.Path, s.Position, s.Default, s.Hidden,
		nullString(s.Condition), micros(s.CreatedAt), micros(s.UpdatedAt))
	return wrap(err, "create site space")
}

// ListSiteSpaces returns every site space of a site whose space is not
// deleted, by section (the root first) and position.
func ListSiteSpaces(ctx context.Context, t *Tx, siteID folio.ID) ([]folio.SiteSpace, error) {
	var out []folio.SiteSpace
	err := t.query(ctx, `SELECT `+siteSpaceColumns+` FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id
		WHERE ss.site_id = ? AND sp.deleted_at IS NULL
		ORDER BY COALESCE(ss.section_id, ''), ss.position, ss.id`, []any{siteID}, func(r *sql.Rows) error {
		var s folio.SiteSpace
		if err := scanSiteSpace(r, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, wrap(err, "list site spaces")
}

// GetSiteSpace returns a site space of a site whose space is not deleted,
// or NotFound.
func GetSiteSpace(ctx context.Context, t *Tx, siteID, id folio.ID) (*folio.SiteSpace, error) {
	var s folio.SiteSpace
	err := t.one(ctx, `SELECT `+siteSpaceColumns+` FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id
		WHERE ss.id = ? AND ss.site_id = ? AND sp.deleted_at IS NULL`, []any{id, siteID},
		func(r *sql.Rows) error { return scanSiteSpace(r, &s) })
	if err != nil {
		return nil, notFound(err, "get site space", "site space not found")
	}
	return &s, nil
}

// DeleteSiteSpace deletes a site space.
func DeleteSiteSpace(ctx context.Context, t *Tx, id folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM site_spaces WHERE id = ?`, id)
	return wrap(err, "delete site space")
}

// SetDefaultSiteSpace makes a site space the only default among the site
// spaces of its section (or of the site's root when section is empty).
func SetDefaultSiteSpace(ctx context.Context, t *Tx, siteID, section, id folio.ID) error {
	_, err := t.exec(ctx, `UPDATE site_spaces SET is_default = (id = ?), updated_at = ?
		WHERE site_id = ? AND COALESCE(section_id, '') = ?`, id, micros(t.Now), siteID, section)
	return wrap(err, "set default site space")
}

// SiteSpaceCustomization returns a site space's customization overrides,
// nil when it has none.
func SiteSpaceCustomization(ctx context.Context, t *Tx, id folio.ID) (map[string]any, error) {
	var doc sql.NullString
	if err := t.get(ctx, `SELECT customization FROM site_spaces WHERE id = ?`, []any{id}, &doc); err != nil {
		return nil, notFound(err, "get site space customization", "site space not found")
	}
	return decodeDoc(doc, "site space customization")
}

// SiteSpaceCustomizations returns the overrides of every site space of a
// site that has some, by site space id.
func SiteSpaceCustomizations(ctx context.Context, t *Tx, siteID folio.ID) (map[folio.ID]map[string]any, error) {
	out := map[folio.ID]map[string]any{}
	err := t.query(ctx, `SELECT id, customization FROM site_spaces WHERE site_id = ? AND customization IS NOT NULL`,
		[]any{siteID}, func(r *sql.Rows) error {
			var (
				id  string
				doc sql.NullString
			)
			if err := r.Scan(&id, &doc); err != nil {
				return err
			}
			m, err := decodeDoc(doc, "site space customization")
			out[id] = m
			return err
		})
	return out, wrap(err, "list site space customizations")
}

// SetSiteSpaceCustomization stores a site space's overrides; nil removes
// them. It reports whether there were overrides before.
func SetSiteSpaceCustomization(ctx context.Context, t *Tx, id folio.ID, doc map[string]any) (bool, error) {
	var val any
	if doc != nil {
		b, err := json.Marshal(doc)
		if err != nil {
			return false, wrap(err, "encode site space customization")
		}
		val = string(b)
	}
	var had bool
	if err := t.get(ctx, `SELECT customization IS NOT NULL FROM site_spaces WHERE id = ?`, []any{id}, &had); err != nil {
		return false, notFound(err, "set site space customization", "site space not found")
	}
	_, err := t.exec(ctx, `UPDATE site_spaces SET customization = ?, updated_at = ? WHERE id = ?`, val, micros(t.Now), id)
	return had, wrap(err, "set site space customization")
}

// SharedSpace reports whether a share key opens a space: the key is an
// active link of a published share-link site that publishes the space.
func SharedSpace(ctx context.Context, t *Tx, key string, spaceID folio.ID) (bool, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM site_share_links l JOIN sites st ON st.id = l.site_id
		JOIN site_spaces ss ON ss.site_id = st.id
		WHERE l.share_key = ? AND l.active AND st.published AND st.visibility = 'share-link' AND ss.space_id = ?`,
		[]any{key, spaceID}, &n)
	return n > 0, wrap(err, "find shared space")
}

const shareLinkColumns = `l.id, l.site_id, l.name, l.share_key, l.active, l.created_at`

func scanShareLink(rows *sql.Rows, l *folio.ShareLink) error {
	var created int64
	err := rows.Scan(&l.ID, &l.SiteID, &l.Name, &l.Key, &l.Active, &created)
	l.CreatedAt = fromMicros(created)
	return err
}

// CreateShareLink inserts a share link.
func CreateShareLink(ctx context.Context, t *Tx, l *folio.ShareLink) error {
	_, err := t.exec(ctx, `INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, l.ID, l.SiteID, l.Name, l.Key, l.Active, micros(l.CreatedAt))
	return wrap(err, "create share link")
}

// GetShareLink returns a share link of a site, or NotFound.
func GetShareLink(ctx context.Context, t *Tx, siteID, id folio.ID) (*folio.ShareLink, error) {
	var l folio.ShareLink
	err := t.one(ctx, `SELECT `+shareLinkColumns+` FROM site_share_links l WHERE l.id = ? AND l.site_id = ?`,
		[]any{id, siteID}, func(r *sql.Rows) error { return scanShareLink(r, &l) })
	if err != nil {
		return nil, notFound(err, "get share link", "share link not found")
	}
	return &l, nil
}

// ActiveShareLink reports whether key is an active share link of a site.
func ActiveShareLink(ctx context.Context, t *Tx, siteID folio.ID, key string) (bool, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM site_share_links WHERE site_id = ? AND share_key = ? AND active`,
		[]any{siteID, key}, &n)
	return n > 0, wrap(err, "find share link")
}

// ListShareLinks lists the share links of a site, oldest first.
func ListShareLinks(ctx context.Context, t *Tx, siteID folio.ID, opts folio.ListOptions) (folio.List[folio.ShareLink], error) {
	where := ` WHERE l.site_id = ?`
	q := listQuery{
		Query: `SELECT ` + shareLinkColumns + ` FROM site_share_links l` + where, Args: []any{siteID},
		Keys: []string{"l.created_at", "l.id"}, Shape: "is",
		Count: `SELECT COUNT(*) FROM site_share_links l` + where, CountArgs: []any{siteID},
	}
	return page(ctx, t, "list share links", q, opts, func(r *sql.Rows) (folio.ShareLink, []any, error) {
		var l folio.ShareLink
		err := scanShareLink(r, &l)
		return l, []any{micros(l.CreatedAt), l.ID}, err
	})
}

// CountShareLinks counts the share links of a site.
func CountShareLinks(ctx context.Context, t *Tx, siteID folio.ID) (int, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM site_share_links WHERE site_id = ?`, []any{siteID}, &n)
	return n, wrap(err, "count share links")
}

// UpdateShareLink writes a share link's name and active flag.
func UpdateShareLink(ctx context.Context, t *Tx, l *folio.ShareLink) error {
	_, err := t.exec(ctx, `UPDATE site_share_links SET name = ?, active = ? WHERE id = ?`, l.Name, l.Active, l.ID)
	return wrap(err, "update share link")
}

// DeleteShareLink deletes a share link of a site and reports whether it
// existed.
func DeleteShareLink(ctx context.Context, t *Tx, siteID, id folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM site_share_links WHERE id = ? AND site_id = ?`, id, siteID)
	return n > 0, wrap(err, "delete share link")
}

const redirectColumns = `r.id, r.site_id, r.source, r.destination, r.created_at`

func scanRedirect(rows *sql.Rows, r *folio.SiteRedirect) error {
	var (
		dest    string
		created int64
	)
	if err := rows.Scan(&r.ID, &r.SiteID, &r.Source, &dest, &created); err != nil {
		return err
	}
	r.CreatedAt = fromMicros(created)
	return json.Unmarshal([]byte(dest), &r.Destination)
}

// CreateRedirect inserts a redirect; a source the site already redirects
// is a Conflict.
func CreateRedirect(ctx context.Context, t *Tx, r *folio.SiteRedirect) error {
	dest, _ := json.Marshal(r.Destination) // a struct of strings always marshals
	_, err := t.exec(ctx, `INSERT INTO site_redirects (id, site_id, source, destination, created_at)
		VALUES (?, ?, ?, ?, ?)`, r.ID, r.SiteID, r.Source, string(dest), micros(r.CreatedAt))
	return redirectConflict(err, r.Source, "create redirect")
}

func redirectConflict(err error, source, op string) error {
	if folio.KindOf(err) == folio.Conflict {
		return folio.Errorf(folio.Conflict, "the site already redirects %s", source)
	}
	return wrap(err, op)
}

// UpdateRedirect writes a redirect's source and destination.
func UpdateRedirect(ctx context.Context, t *Tx, r *folio.SiteRedirect) error {
	dest, _ := json.Marshal(r.Destination)
	_, err := t.exec(ctx, `UPDATE site_redirects SET source = ?, destination = ? WHERE id = ?`, r.Source, string(dest), r.ID)
	return redirectConflict(err, r.Source, "update redirect")
}

// GetRedirect returns a redirect of a site, or NotFound.
func GetRedirect(ctx context.Context, t *Tx, siteID, id folio.ID) (*folio.SiteRedirect, error) {
	return oneRedirect(ctx, t, `r.id = ? AND r.site_id = ?`, []any{id, siteID})
}

// RedirectBySource returns the redirect of a site's source path, or
// NotFound.
func RedirectBySource(ctx context.Context, t *Tx, siteID folio.ID, source string) (*folio.SiteRedirect, error) {
	return oneRedirect(ctx, t, `r.site_id = ? AND r.source = ?`, []any{siteID, source})
}

func oneRedirect(ctx context.Context, t *Tx, cond string, args []any) (*folio.SiteRedirect, error) {
	var r folio.SiteRedirect
	err := t.one(ctx, `SELECT `+redirectColumns+` FROM site_redirects r WHERE `+cond, args,
		func(rows *sql.Rows) error { return scanRedirect(rows, &r) })
	if err != nil {
		return nil, notFound(err, "get redirect", "redirect not found")
	}
	return &r, nil
}

// ListRedirects lists a site's redirects by source; search keeps those
// whose source contains it.
func ListRedirects(ctx context.Context, t *Tx, siteID folio.ID, search string, opts folio.ListOptions) (folio.List[folio.SiteRedirect], error) {
	where := ` WHERE r.site_id = ?`
	args := []any{siteID}
	if search != "" {
		where += ` AND LOWER(r.source) LIKE ? ESCAPE '\'`
		args = append(args, "%"+escapeLike(search)+"%")
	}
	q := listQuery{
		Query: `SELECT ` + redirectColumns + ` FROM site_redirects r` + where, Args: args,
		Keys: []string{"r.source", "r.id"}, Shape: "ss",
		Count: `SELECT COUNT(*) FROM site_redirects r` + where, CountArgs: args,
	}
	return page(ctx, t, "list redirects", q, opts, func(rows *sql.Rows) (folio.SiteRedirect, []any, error) {
		var r folio.SiteRedirect
		err := scanRedirect(rows, &r)
		return r, []any{r.Source, r.ID}, err
	})
}

// CountRedirects counts a site's redirects.
func CountRedirects(ctx context.Context, t *Tx, siteID folio.ID) (int, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM site_redirects WHERE site_id = ?`, []any{siteID}, &n)
	return n, wrap(err, "count redirects")
}

// DeleteRedirect deletes a redirect of a site and reports whether it
// existed.
func DeleteRedirect(ctx context.Context, t *Tx, siteID, id folio.ID) (bool, error) {
	n, err := t.exec(ctx, `DELETE FROM site_redirects WHERE id = ? AND site_id = ?`, id, siteID)
	return n > 0, wrap(err, "delete redirect")
}
