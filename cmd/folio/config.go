package main

import (
	"path/filepath"

	"context"
	"flag"
	"fmt"
	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // s3:// file storage URLs
	"io"
	"log/slog"
	"strings"

	"github.com/foliodocs/folio/internal/store"
)

// storeFlags are the flags shared by every command that opens the store.
type storeFlags struct {
	data        string
	databaseURL string
	maxConns    int
	filesURL    string
}

func (f *storeFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.data, "data", envOr(getenv, "FOLIO_DATA", "./folio-data"),
		"folder for the SQLite database and local files (FOLIO_DATA)")
	fs.StringVar(&f.databaseURL, "database-url", getenv("FOLIO_DATABASE_URL"),
		"postgres:// URL; when set, PostgreSQL is the store (FOLIO_DATABASE_URL)")
	fs.IntVar(&f.maxConns, "db-max-conns", int(envInt(getenv, "FOLIO_DB_MAX_CONNS", 8)),
		"database connections: the PostgreSQL pool, or SQLite's read connections (FOLIO_DB_MAX_CONNS)")
	fs.StringVar(&f.filesURL, "files-url", getenv("FOLIO_FILES_URL"),
		"where uploaded and imported files are kept: a gocloud blob URL such as s3://bucket?region=...; default the files folder under --data (FOLIO_FILES_URL)")
}

// openFiles opens the blob bucket that holds files' bytes.
func (f *storeFlags) openFiles(ctx context.Context) (*blob.Bucket, error) {
	if f.filesURL == "" {
		b, err := fileblob.OpenBucket(filepath.Join(f.data, "files"), &fileblob.Options{CreateDir: true, NoTempDir: true})
		if err != nil {
			return nil, fmt.Errorf("open the files folder: %w", err)
		}
		return b, nil
	}
	b, err := blob.OpenBucket(ctx, f.filesURL)
	if err != nil {
		return nil, fmt.Errorf("open --files-url: %w", err)
	}
	return b, nil
}

func (f *storeFlags) open(ctx context.Context, logger *slog.Logger) (*store.DB, error) {
	if f.databaseURL != "" && !strings.HasPrefix(f.databaseURL, "postgres://") && !strings.HasPrefix(f.databaseURL, "postgresql://") {
		return nil, fmt.Errorf("--database-url must be a postgres:// URL")
	}
	return store.Open(ctx, store.Config{DatabaseURL: f.databaseURL, DataDir: f.data, Logger: logger, MaxConns: f.maxConns})
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("folio "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})), nil
}
