// Package backup writes and reads Folio's backup archives: a gzip'd tar
// holding the database snapshot, the files, and last a manifest with each
// entry's size and SHA-256, which a restore checks before it keeps
// anything.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Format names the archive layout in the manifest.
const Format = "folio-backup/1"

// ManifestName is the manifest's path in the archive (its last entry).
const ManifestName = "manifest.json"

// Manifest describes an archive.
type Manifest struct {
	Format    string    `json:"format"`
	CreatedAt time.Time `json:"createdAt"`
	Store     string    `json:"store"`  // sqlite or postgres
	Schema    int64     `json:"schema"` // the database's migration version
	Note      string    `json:"note,omitempty"`
	Files     []Entry   `json:"files"`
}

// Entry is one file of the archive.
type Entry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Writer writes an archive.
type Writer struct {
	gz  *gzip.Writer
	tw  *tar.Writer
	man Manifest
}

// NewWriter starts an archive on w.
func NewWriter(w io.Writer, m Manifest) *Writer {
	gz := gzip.NewWriter(w)
	m.Format, m.Files = Format, nil
	return &Writer{gz: gz, tw: tar.NewWriter(gz), man: m}
}

// AddFile adds the file at src under name.
func (w *Writer) AddFile(name, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := w.tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w.tw, h), f)
	if err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	if n != st.Size() {
		return fmt.Errorf("archive %s: it changed size while being read", name)
	}
	w.man.Files = append(w.man.Files, Entry{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// AddDir adds every regular file under dir, under prefix.
func (w *Writer) AddDir(prefix, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return w.AddFile(path.Join(prefix, filepath.ToSlash(rel)), p)
	})
}

// Close writes the manifest and ends the archive.
func (w *Writer) Close() error {
	b, err := json.MarshalIndent(w.man, "", "  ")
	if err != nil {
		return err
	}
	if err := w.tw.WriteHeader(&tar.Header{Name: ManifestName, Mode: 0o600, Size: int64(len(b)), ModTime: w.man.CreatedAt, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := w.tw.Write(b); err != nil {
		return err
	}
	if err := w.tw.Close(); err != nil {
		return err
	}
	return w.gz.Close()
}

// Extract reads an archive into dir, which must not exist or be empty. It
// checks every file against the manifest (present, same size and
// checksum, nothing extra) and, on any mismatch or damage, removes what it
// wrote and fails.
func Extract(r io.Reader, dir string) (m *Manifest, err error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s is not empty: restore into a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			cleanDir(dir)
		}
	}()
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a Folio backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	got := map[string]Entry{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the archive is damaged: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("the archive holds %s, which is not a regular file", h.Name)
		}
		if h.Name == ManifestName {
			if m != nil {
				return nil, fmt.Errorf("the archive holds two manifests")
			}
			m = new(Manifest)
			if err := json.NewDecoder(io.LimitReader(tr, 64<<20)).Decode(m); err != nil {
				return nil, fmt.Errorf("the manifest is damaged: %w", err)
			}
			continue
		}
		name := path.Clean(h.Name)
		if name != h.Name || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return nil, fmt.Errorf("the archive holds the unsafe path %q", h.Name)
		}
		if _, dup := got[name]; dup {
			return nil, fmt.Errorf("the archive holds %s twice", name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, err
		}
		hs := sha256.New()
		n, err := io.Copy(io.MultiWriter(f, hs), tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("the archive is damaged at %s: %w", name, err)
		}
		got[name] = Entry{Path: name, Size: n, SHA256: hex.EncodeToString(hs.Sum(nil))}
	}
	if m == nil {
		return nil, fmt.Errorf("the archive has no manifest: it is incomplete or not a Folio backup")
	}
	if m.Format != Format {
		return nil, fmt.Errorf("the archive's format %q is not %s", m.Format, Format)
	}
	if len(m.Files) != len(got) {
		return nil, fmt.Errorf("the archive holds %d files, its manifest lists %d", len(got), len(m.Files))
	}
	for _, e := range m.Files {
		if g, ok := got[e.Path]; !ok || g != e {
			return nil, fmt.Errorf("%s does not match the manifest (missing, or changed since the backup)", e.Path)
		}
	}
	return m, nil
}

// cleanDir empties dir after a failed restore.
func cleanDir(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
