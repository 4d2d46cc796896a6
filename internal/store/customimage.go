package store

import (
	"context"
	"database/sql"
	"regexp"
)

// customImageRef finds the names of customization images (app's
// AddCustomImage: /images/{sha256}.{ext}) in any text.
var customImageRef = regexp.MustCompile(`/images/([0-9a-f]{64}\.(?:png|jpg|gif|webp|ico))`)

// CustomImageRefs returns the names of the customization images that a
// site's or a site space's customization, or an organization's logo,
// names: the roots of the images in the bucket. It reads the stored text,
// so an image named in any field of the document counts.
func CustomImageRefs(ctx context.Context, t *Tx) (map[string]bool, error) {
	out := map[string]bool{}
	for _, q := range []string{
		`SELECT customization FROM sites WHERE customization IS NOT NULL`,
		`SELECT customization FROM site_spaces WHERE customization IS NOT NULL`,
		`SELECT logo FROM organizations WHERE logo IS NOT NULL`,
	} {
		err := t.query(ctx, q, nil, func(r *sql.Rows) error {
			var s string
			if err := r.Scan(&s); err != nil {
				return err
			}
			for _, m := range customImageRef.FindAllStringSubmatch(s, -1) {
				out[m[1]] = true
			}
			return nil
		})
		if err != nil {
			return nil, wrap(err, "list customization images")
		}
	}
	return out, nil
}
