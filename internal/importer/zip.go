package importer

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"unicode"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// Zip imports a zip archive of Markdown and HTML pages and other files, as
// described in the package documentation, within lim (zero fields take the
// DefaultLimits values). Every error is Invalid: an archive that is not a
// valid zip, an entry with an unsafe or duplicate name, an entry that is
// encrypted, corrupt or compressed with an unknown method, a limit passed, a
// page that is not UTF-8 or breaks the document limits, or no page at all.
func Zip(r io.ReaderAt, size int64, lim Limits) (*content.Snapshot, error) {
	lim = lim.withDefaults()
	// zip.NewReader allocates every central directory record up front, so a
	// count far beyond what the limits could use is refused before that.
	if n, ok := entryCount(r, size); ok && n > maxEntries(lim) {
		return nil, folio.Errorf(folio.Invalid, "zip archive holds %d entries, more than the %d allowed", n, maxEntries(lim))
	}
	zr, err := zip.NewReader(r, size)
	// With GODEBUG=zipinsecurepath=0 the reader comes with ErrInsecurePath;
	// names are checked below either way, with a clearer message.
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, invalid(err, "zip archive is not valid")
	}
	a, err := openArchive(zr, lim)
	if err != nil {
		return nil, err
	}
	b := &builder{a: a, s: content.NewSnapshot(), idx: newIndex(), converted: map[*entry]page{}}
	return b.run()
}

// maxEntries is the most archive entries Zip reads: pages and files, and as
// many again twice over for folders and the __MACOSX twins that macOS adds.
func maxEntries(lim Limits) uint64 { return 3 * uint64(lim.MaxPages+lim.MaxFiles) }

// entryCount reads the number of entries from the end of central directory
// record (zip64 or not) without reading the directory; ok is false when
// the record cannot be found, which zip.NewReader then reports.
func entryCount(r io.ReaderAt, size int64) (n uint64, ok bool) {
	const eocdLen, locatorLen, maxComment = 22, 20, 1<<16 - 1
	if size < eocdLen {
		return 0, false
	}
	tail := min(size, eocdLen+maxComment+locatorLen)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, false
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < eocdLen {
		return 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n != 0xFFFF || i < locatorLen || !bytes.Equal(buf[i-locatorLen:i-locatorLen+4], []byte("PK\x06\x07")) {
		return n, true
	}
	// A zip64 archive: the locator points at the zip64 record, whose total
	// entry count is at offset 32.
	off := int64(binary.LittleEndian.Uint64(buf[i-locatorLen+8:]))
	var rec [40]byte
	if off < 0 || off > size-int64(len(rec)) {
		return 0, false
	}
	if _, err := r.ReadAt(rec[:], off); err != nil || !bytes.Equal(rec[:4], []byte("PK\x06\x06")) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}

// invalid returns an Invalid error with a safe message, keeping the cause
// for the logs.
func invalid(cause error, format string, args ...any) error {
	e := folio.Errorf(folio.Invalid, format, args...)
	e.Err = cause
	return e
}

// entry is one archive member kept for the import.
type entry struct {
	f    *zip.File
	path string // cleaned, slash-separated, top folder stripped
}

// archive holds the kept entries and counts the bytes read from them.
type archive struct {
	lim     Limits
	entries []*entry
	total   int64 // decompressed bytes read so far
}

// openArchive checks every name and keeps the entries that take part in
// the import, with a top folder shared by all of them stripped.
func openArchive(zr *zip.Reader, lim Limits) (*archive, error) {
	a := &archive{lim: lim}
	seen := map[string]bool{}
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, `\`, "/")
		if strings.HasSuffix(name, "/") || f.Mode().IsDir() || f.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		p, ok := safePath(name)
		if !ok {
			return nil, folio.Errorf(folio.Invalid, "zip entry %s has an unsafe path", display(name))
		}
		if p == "" || ignored(p) {
			continue
		}
		// Names give titles, slugs and file names: valid UTF-8 only (a
		// NUL was refused by safePath).
		p = cleanString(p)
		if seen[p] {
			return nil, folio.Errorf(folio.Invalid, "zip archive holds %s twice", display(p))
		}
		seen[p] = true
		a.entries = append(a.entries, &entry{f: f, path: p})
	}
	if top := commonTop(a.entries); top != "" {
		for _, e := range a.entries {
			e.path = strings.TrimPrefix(e.path, top+"/")
		}
	}
	kept := a.entries[:0]
	for _, e := range a.entries {
		if !hidden(e.path) {
			kept = append(kept, e)
		}
	}
	a.entries = kept
	return a, nil
}

// safePath cleans an entry name, refusing absolute names, drive letters,
// NUL bytes and any ".." element; "" means the name is the root itself.
func safePath(name string) (string, bool) {
	if strings.ContainsRune(name, 0) || strings.HasPrefix(name, "/") {
		return "", false
	}
	if len(name) >= 2 && name[1] == ':' && (name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z') {
		return "", false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "", false
		}
	}
	p := path.Clean(name)
	if p == "." {
		return "", true
	}
	return p, true
}

// ignored reports entries that operating systems add to archives.
func ignored(p string) bool {
	return p == "__MACOSX" || strings.HasPrefix(p, "__MACOSX/") || path.Base(p) == ".DS_Store"
}

// hidden reports paths with a segment starting with ".", except files
// under .gitbook/assets/ (GitBook's asset folder).
func hidden(p string) bool {
	segs := strings.Split(p, "/")
	for i := 0; i < len(segs); i++ {
		if !strings.HasPrefix(segs[i], ".") {
			continue
		}
		if segs[i] == ".gitbook" && i+2 < len(segs) && segs[i+1] == "assets" {
			i++
			continue
		}
		return true
	}
	return false
}

// commonTop returns the first folder shared by every entry, or "".
func commonTop(entries []*entry) string {
	top := ""
	for i, e := range entries {
		first, _, ok := strings.Cut(e.path, "/")
		if !ok || (i > 0 && first != top) {
			return ""
		}
		top = first
	}
	return top
}

// display makes an entry name safe to put in a message: valid UTF-8, no
// control characters, at most 200 characters.
func display(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(name, "?"))
	return truncate(name, 200)
}

// read returns the bytes of e, counting what is really decompressed
// against the per-file and total limits rather than trusting the header.
func (a *archive) read(e *entry) ([]byte, error) {
	name := display(e.path)
	if e.f.Flags&0x1 != 0 {
		return nil, folio.Errorf(folio.Invalid, "zip entry %s is encrypted", name)
	}
	if e.f.UncompressedSize64 > uint64(a.lim.MaxFileBytes) {
		return nil, a.fileTooLarge(name)
	}
	rc, err := e.f.Open()
	if err != nil {
		if errors.Is(err, zip.ErrAlgorithm) {
			return nil, invalid(err, "zip entry %s uses an unsupported compression method", name)
		}
		return nil, invalid(err, "zip entry %s is corrupt", name)
	}
	defer rc.Close()
	remaining := a.lim.MaxTotalBytes - a.total
	limit := min(a.lim.MaxFileBytes, remaining)
	var buf bytes.Buffer
	// The header size only sizes the buffer, and never beyond the limit.
	buf.Grow(int(min(int64(e.f.UncompressedSize64), limit, 64*MiB)))
	n, err := io.Copy(&buf, io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, invalid(err, "zip entry %s is corrupt", name)
	}
	if n > limit {
		if n > a.lim.MaxFileBytes {
			return nil, a.fileTooLarge(name)
		}
		return nil, folio.Errorf(folio.Invalid, "zip archive holds more than %s of uncompressed data", formatBytes(a.lim.MaxTotalBytes))
	}
	a.total += n
	return buf.Bytes(), nil
}

func (a *archive) fileTooLarge(name string) error {
	return folio.Errorf(folio.Invalid, "zip entry %s exceeds the %s file limit", name, formatBytes(a.lim.MaxFileBytes))
}

// formatBytes writes a limit in MiB or KiB when it is a whole number of
// them, else in bytes.
func formatBytes(n int64) string {
	switch {
	case n >= MiB && n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	case n >= 1024 && n%1024 == 0:
		return fmt.Sprintf("%d KiB", n/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// pageKind tells how a file is read: as Markdown, as HTML, or not as a page.
func pageKind(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown":
		return "markdown"
	case ".html", ".htm":
		return "html"
	}
	return ""
}
