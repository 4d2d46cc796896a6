package main

import (
	"context"
	"flag"
	"fmt"
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
}

func (f *storeFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.data, "data", envOr(getenv, "FOLIO_DATA", "./folio-data"),
		"folder for the SQLite database and local files (FOLIO_DATA)")
	fs.StringVar(&f.databaseURL, "database-url", getenv("FOLIO_DATABASE_URL"),
		"postgres:// URL; when set, PostgreSQL is the store (FOLIO_DATABASE_URL)")
	fs.IntVar(&f.maxConns, "db-max-conns", int(envInt(getenv, "FOLIO_DB_MAX_CONNS", 8)),
		"database connections: the PostgreSQL pool, or SQLite's read connections (FOLIO_DB_MAX_CONNS)")
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
