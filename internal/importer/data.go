package importer

import (
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// MaxDataURLBytes bounds the decoded bytes of one image given as a data:
// URL; a larger one fails the import (TooLarge).
const MaxDataURLBytes = 10 * MiB

// dataFiles turns the data: URLs of images (and {% file %} sources) into
// files of the snapshot: one file per distinct URL, named "image" and the
// extension of its media type. The first bad URL fails the whole import
// (see err): kept as a URL it would show an empty figure, and a partial
// import would hide the problem.
type dataFiles struct {
	s     *content.Snapshot
	byURL map[string]string // data: URL -> file id
	left  int               // files the import may still add
	max   int               // files the import may hold, for the message
	err   error             // the first failure; conversion goes on, the import fails
}

// newDataFiles stores files in s, at most maxFiles of them.
func newDataFiles(s *content.Snapshot, maxFiles int) *dataFiles {
	return &dataFiles{s: s, byURL: map[string]string{}, left: maxFiles, max: maxFiles}
}

// Data implements markdown.DataResolver.
func (d *dataFiles) Data(u string) (string, bool) {
	if d == nil || d.err != nil {
		return "", false
	}
	if id, ok := d.byURL[u]; ok {
		return id, true
	}
	typ, b, err := decodeDataURL(u)
	if err != nil {
		d.err = err
		return "", false
	}
	if d.left <= 0 {
		d.err = folio.Errorf(folio.Invalid, "the import holds more files than the %d allowed, counting images given as data: URLs", d.max)
		return "", false
	}
	d.left--
	f := newFile(d.s, "image"+dataExtension(typ), b)
	d.s.Tree.Files = append(d.s.Tree.Files, f)
	d.byURL[u] = f.ID
	return f.ID, true
}

// failed returns the first failure, nil when every data: URL was stored.
func (d *dataFiles) failed() error {
	if d == nil {
		return nil
	}
	return d.err
}

// dataExtensions gives the file extension of common image media types.
var dataExtensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/jpg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"image/svg+xml": ".svg", "image/avif": ".avif", "image/x-icon": ".ico", "image/vnd.microsoft.icon": ".ico",
	"image/bmp": ".bmp",
}

// dataExtension returns the extension a file of media type typ is named
// with: the common one, else none (the bytes' sniffed type then decides).
func dataExtension(typ string) string { return dataExtensions[typ] }

// decodeDataURL decodes a data: URL (RFC 2397) holding an image: its media
// type, lower case, and its bytes. Errors are Invalid (no comma, a media
// type other than image/*, bad base64 or percent-encoding, no bytes) or
// TooLarge (over MaxDataURLBytes), with a message that quotes at most the
// start of the URL.
func decodeDataURL(u string) (string, []byte, error) {
	meta, data, ok := strings.Cut(u[len("data:"):], ",")
	if !ok {
		return "", nil, folio.Errorf(folio.Invalid, "image data: URL %s has no comma before its data", quoteStart(u))
	}
	params := strings.Split(meta, ";")
	typ := strings.ToLower(strings.TrimSpace(params[0]))
	isBase64 := len(params) > 1 && strings.EqualFold(strings.TrimSpace(params[len(params)-1]), "base64")
	if !strings.HasPrefix(typ, "image/") || len(typ) == len("image/") {
		return "", nil, folio.Errorf(folio.Invalid, "image data: URL %s must hold an image (a media type image/...)", quoteStart(u))
	}
	// Base64 takes 4 bytes for 3; percent-encoding at least 1 for 1.
	if isBase64 && int64(len(data)) > MaxDataURLBytes/3*4+8 || !isBase64 && int64(len(data)) > 3*MaxDataURLBytes {
		return "", nil, folio.Errorf(folio.TooLarge, "image data: URL %s is larger than %d MiB", quoteStart(u), MaxDataURLBytes/MiB)
	}
	var b []byte
	if isBase64 {
		data = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
				return -1
			}
			return r
		}, data)
		if strings.Contains(data, "%") {
			if un, err := url.PathUnescape(data); err == nil {
				data = un
			}
		}
		var err error
		b, err = decodeBase64(data)
		if err != nil {
			return "", nil, folio.Errorf(folio.Invalid, "image data: URL %s is not valid base64", quoteStart(u))
		}
	} else {
		s, err := url.PathUnescape(data)
		if err != nil {
			return "", nil, folio.Errorf(folio.Invalid, "image data: URL %s is not validly percent-encoded", quoteStart(u))
		}
		b = []byte(s)
	}
	if len(b) == 0 {
		return "", nil, folio.Errorf(folio.Invalid, "image data: URL %s holds no data", quoteStart(u))
	}
	if int64(len(b)) > MaxDataURLBytes {
		return "", nil, folio.Errorf(folio.TooLarge, "image data: URL %s is larger than %d MiB", quoteStart(u), MaxDataURLBytes/MiB)
	}
	return typ, b, nil
}

// decodeBase64 reads standard or URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, error) {
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		var b []byte
		if b, err = enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// quoteStart quotes the start of a data: URL for a message: enough to find
// it in the source, never its whole data.
func quoteStart(u string) string {
	const max = 40
	if len(u) > max {
		u = strings.ToValidUTF8(u[:max], "") + "…"
	}
	return `"` + u + `"`
}
