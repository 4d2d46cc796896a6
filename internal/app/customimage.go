package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Customization images: the logos and favicons that the web app uploads
// for a site's customization, and the organization's logo. The API takes
// them as URLs (CustomizationThemedURL, the organization's logo), so an
// upload is stored in the blob bucket under its content hash and answered
// as an absolute URL of this server that the customization then holds,
// like any other URL: /images/{hash}.{ext}, served by OpenCustomImage.

// MaxCustomImageBytes bounds one uploaded logo or favicon.
const MaxCustomImageBytes = 1 << 20

// customImagePrefix is where customization images live in the bucket.
const customImagePrefix = "images/"

// CustomImagePath is the path under the public URL that serves the
// customization images; the web app routes it.
const CustomImagePath = "/images/"

// customImageTypes are the accepted image types, judged by their bytes
// (no SVG: it can carry script, and the URL is on the app's origin).
var customImageTypes = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif",
	"image/webp": ".webp", "image/x-icon": ".ico"}

var customImageName = regexp.MustCompile(`^[0-9a-f]{64}\.(png|jpg|gif|webp|ico)$`)

// AddCustomImage stores an uploaded logo or favicon and returns its URL.
// With siteID it is an image of that site's customization, which whoever
// may manage the site may upload; without, the organization's logo, which
// only its admins may. The caller's access is checked before the bytes
// are looked at (NotFound, Forbidden); then an empty file or one that is
// not a PNG, JPEG, GIF, WebP or ICO image is Invalid, and one larger than
// MaxCustomImageBytes TooLarge. Uploading the same bytes twice stores
// them once.
func (a *App) AddCustomImage(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, field string, data []byte) (string, error) {
	err := a.db.Read(ctx, func(tx *store.Tx) error {
		if siteID != "" {
			_, err := site(ctx, tx, caller, orgID, siteID, true)
			return err
		}
		acc, err := access(ctx, tx, caller, orgID)
		if err != nil {
			return err
		}
		return require(acc.Permissions().Admin, "only organization admins can update the organization")
	})
	if err != nil {
		return "", err
	}
	if len(data) > MaxCustomImageBytes {
		return "", &folio.Error{Kind: folio.TooLarge, Field: field,
			Message: fmt.Sprintf("%s: the image is larger than %d KiB", field, MaxCustomImageBytes>>10)}
	}
	if len(data) == 0 {
		return "", folio.FieldErrorf(field, "%s: the file is empty", field)
	}
	mime := http.DetectContentType(data)
	ext, ok := customImageTypes[mime]
	if !ok {
		return "", folio.FieldErrorf(field, "%s must be a PNG, JPEG, GIF, WebP or ICO image, not %s", field, strings.TrimSuffix(mime, "; charset=utf-8"))
	}
	if a.blobs == nil {
		return "", folio.Errorf(folio.Unavailable, "this server has no file storage for images")
	}
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:]) + ext
	// Written every time, even when the bucket has the bytes: the write's
	// time keeps a collection from removing an image about to be named
	// again (sweepCustomImages).
	if err := a.blobs.WriteAll(ctx, customImagePrefix+name, data, &blob.WriterOptions{ContentType: mime}); err != nil {
		return "", fmt.Errorf("write image %s: %w", name, err)
	}
	return a.publicURL + CustomImagePath + name, nil
}

// sweepCustomImages removes the customization images that no site,
// site space or organization names any more, once older than the grace
// period (an upload is named by the save that follows it at once).
func (a *App) sweepCustomImages(ctx context.Context, cutoff time.Time) (int64, error) {
	var names map[string]bool
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) { names, err = store.CustomImageRefs(ctx, tx); return err })
	if err != nil {
		return 0, err
	}
	return a.sweepBucket(ctx, customImagePrefix, cutoff, time.Time{}, nil, func(keys []string) ([]string, error) {
		var dead []string
		for _, k := range keys {
			if !names[strings.TrimPrefix(k, customImagePrefix)] {
				dead = append(dead, k)
			}
		}
		return dead, nil
	})
}

// OpenCustomImage opens a customization image by its file name, with its
// content type; NotFound when there is none. Images are public: their
// names are content hashes, which only someone who saw the image knows.
func (a *App) OpenCustomImage(ctx context.Context, name string) (*blob.Reader, string, error) {
	errNone := folio.Errorf(folio.NotFound, "image not found")
	if !customImageName.MatchString(name) || a.blobs == nil {
		return nil, "", errNone
	}
	r, err := a.blobs.NewReader(ctx, customImagePrefix+name, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, "", errNone
	}
	if err != nil {
		return nil, "", fmt.Errorf("open image %s: %w", name, err)
	}
	for mime, ext := range customImageTypes {
		if strings.HasSuffix(name, ext) {
			return r, mime, nil
		}
	}
	return r, "application/octet-stream", nil
}
