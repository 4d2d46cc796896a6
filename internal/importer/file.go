package importer

import (
	"bytes"
	"image"
	_ "image/gif" // registers GIF for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"path"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// extensionTypes gives the content type of common extensions that sniffing
// cannot recognize (SVG, JSON, YAML, CSV...). It is a fixed table rather than
// mime.TypeByExtension, whose answers depend on the host's mime files.
var extensionTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml", ".avif": "image/avif", ".ico": "image/x-icon",
	".bmp": "image/bmp", ".pdf": "application/pdf", ".json": "application/json",
	".yaml": "application/yaml", ".yml": "application/yaml", ".csv": "text/csv",
	".txt": "text/plain; charset=utf-8", ".css": "text/css; charset=utf-8",
	".js": "text/javascript; charset=utf-8", ".xml": "application/xml", ".zip": "application/zip",
	".mp4": "video/mp4", ".webm": "video/webm", ".mp3": "audio/mpeg", ".wav": "audio/wav",
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf",
}

// contentType sniffs b; when sniffing only finds generic text or bytes, the
// extension decides (an .svg sniffs as XML, a .json as text).
func contentType(name string, b []byte) string {
	sniffed := http.DetectContentType(b)
	generic := sniffed == "application/octet-stream" || strings.HasPrefix(sniffed, "text/")
	if t, ok := extensionTypes[strings.ToLower(path.Ext(name))]; ok && generic {
		return t
	}
	return sniffed
}

// newFile returns the content.File of an archive entry, its bytes recorded in
// s. Width and height are read for PNG, JPEG and GIF only.
func newFile(s *content.Snapshot, name string, b []byte) content.File {
	f := content.File{ID: folio.NewID(), Name: cleanString(name), ContentType: contentType(name, b),
		Size: int64(len(b)), Blob: s.AddBlob(b)}
	switch f.ContentType {
	case "image/png", "image/jpeg", "image/gif":
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(b)); err == nil && cfg.Width > 0 && cfg.Height > 0 {
			f.Width, f.Height = float64(cfg.Width), float64(cfg.Height)
		}
	}
	return f
}
