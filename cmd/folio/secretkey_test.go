package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/foliodocs/folio/internal/seal"
)

// TestOpenSealer: the server key from FOLIO_SECRET_KEY, from a key file, or
// (SQLite) from secret.key in the data folder, created once and kept; with
// PostgreSQL and no key, no sealer; bad keys refuse to start.
func TestOpenSealer(t *testing.T) {
	logger := slog.New(slog.DiscardHandler)
	dir := t.TempDir()
	sqlite := &storeFlags{data: dir}
	s1, err := openSealer("", "", sqlite, logger)
	if err != nil || s1 == nil {
		t.Fatalf("SQLite default: %v", err)
	}
	fi, err := os.Stat(filepath.Join(dir, "secret.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secret.key: %v %v", err, fi)
	}
	sealed, _ := s1.Seal([]byte("k"), "c")
	s2, err := openSealer("", "", sqlite, logger)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s2.Open(sealed, "c"); err != nil || string(got) != "k" {
		t.Fatalf("the key file was not kept: %v", err)
	}
	pg := &storeFlags{data: t.TempDir(), databaseURL: "postgres://x"}
	if s, err := openSealer("", "", pg, logger); err != nil || s != nil {
		t.Fatalf("PostgreSQL without a key: %v %v", s, err)
	}
	if s, err := openSealer(seal.NewKeyText(), "", pg, logger); err != nil || s == nil {
		t.Fatalf("FOLIO_SECRET_KEY: %v", err)
	}
	if s, err := openSealer("", filepath.Join(dir, "secret.key"), pg, logger); err != nil || s == nil {
		t.Fatalf("--secret-key-file: %v", err)
	}
	if _, err := openSealer("short", "", pg, logger); err == nil {
		t.Fatal("a bad FOLIO_SECRET_KEY was accepted")
	}
	if _, err := openSealer("", filepath.Join(dir, "missing"), pg, logger); err == nil {
		t.Fatal("a missing key file was accepted")
	}
}
