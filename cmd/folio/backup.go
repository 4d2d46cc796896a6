package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/foliodocs/folio/internal/backup"
	"github.com/foliodocs/folio/internal/store"
)

// runBackup writes a consistent online backup: the database (SQLite's
// VACUUM INTO, or pg_dump for PostgreSQL), the files folder and the server
// key, in one archive with a manifest of checksums. The server may run
// meanwhile: files are content-addressed and written before the rows that
// name them, so every file the snapshot needs was on disk before it.
func runBackup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("backup",
		"Write an online backup (the database, the files folder and the server key) to one archive with a manifest of\nchecksums. The server may keep running meanwhile. PostgreSQL backups need pg_dump.", stdout)
	var (
		sf  storeFlags
		out string
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&out, "out", "", "the archive to write (required; it holds the server key: keep it as safe as the data)")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if out == "" {
		return fmt.Errorf("--out is required")
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	schema, _, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".folio-backup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	f, err := os.OpenFile(out, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("create %s (it must not exist yet): %w", out, err)
	}
	ok := false
	defer func() {
		f.Close()
		if !ok {
			os.Remove(out)
		}
	}()
	m := backup.Manifest{CreatedAt: time.Now().UTC(), Store: db.Dialect(), Schema: schema}
	if sf.filesURL != "" {
		m.Note = "files are in " + redactURL(sf.filesURL) + " and not in this archive: back the bucket up with its own tools"
	}
	w := backup.NewWriter(f, m)
	switch db.Dialect() {
	case "sqlite":
		snap := filepath.Join(tmp, store.SQLiteFile)
		if err := db.SnapshotSQLite(ctx, snap); err != nil {
			return err
		}
		if err := w.AddFile(store.SQLiteFile, snap); err != nil {
			return err
		}
	default:
		dump := filepath.Join(tmp, "postgres.dump")
		if err := pgDump(ctx, sf.databaseURL, dump); err != nil {
			return err
		}
		if err := w.AddFile("postgres.dump", dump); err != nil {
			return err
		}
	}
	if sf.filesURL == "" {
		if err := w.AddDir("files", filepath.Join(sf.data, "files")); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(sf.data, "secret.key")); err == nil {
		if err := w.AddFile("secret.key", filepath.Join(sf.data, "secret.key")); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	ok = true
	fmt.Fprintf(stdout, "backed up the %s database (schema %d) and files to %s\n", db.Dialect(), schema, out)
	return nil
}

// runRestore restores an archive into an empty data folder (and, for a
// PostgreSQL backup, into the empty database of --database-url), checking
// every checksum first, then runs the migrations of this binary.
func runRestore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("restore",
		"Restore an archive written by \"folio backup\" into an empty data folder (and, for a PostgreSQL backup, into the\nempty database of --database-url), then apply this binary's migrations.", stdout)
	var (
		sf storeFlags
		in string
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&in, "in", "", "the archive to restore (required)")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if in == "" {
		return fmt.Errorf("--in is required")
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := backup.Extract(f, sf.data)
	if err != nil {
		return fmt.Errorf("restore %s: %w", in, err)
	}
	if m.Store == "postgres" {
		if sf.databaseURL == "" {
			return fmt.Errorf("this is a PostgreSQL backup: give the empty database to restore into with --database-url")
		}
		dump := filepath.Join(sf.data, "postgres.dump")
		if err := pgRestore(ctx, sf.databaseURL, dump); err != nil {
			return err
		}
		os.Remove(dump)
	} else if sf.databaseURL != "" {
		return fmt.Errorf("this is a SQLite backup: restore it without --database-url")
	} else {
		// Extract refused a folder in use (it is not empty); a server
		// started on it since must not see the migrations half done.
		lock, err := lockDataFolder(sf.data, "restore")
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler)) // runs this binary's migrations
	if err != nil {
		return fmt.Errorf("open the restored database: %w", err)
	}
	defer db.Close()
	cur, _, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %d files of a %s backup of %s into %s (schema %d, now %d)\n",
		len(m.Files), m.Store, m.CreatedAt.Format(time.RFC3339), sf.data, m.Schema, cur)
	return nil
}

// pgArgs turns a pgx URL into what libpq tools take: the URL without pgx's
// search_path parameter, and that schema as --schema.
func pgArgs(raw string) (conn string, schema string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("--database-url: %w", err)
	}
	q := u.Query()
	schema = q.Get("search_path")
	q.Del("search_path")
	u.RawQuery = q.Encode()
	return u.String(), schema, nil
}

func pgDump(ctx context.Context, dbURL, out string) error {
	if _, err := exec.LookPath("pg_dump"); err != nil {
		return fmt.Errorf("pg_dump is not on the PATH: install PostgreSQL's client tools, or follow docs/operations.md")
	}
	conn, schema, err := pgArgs(dbURL)
	if err != nil {
		return err
	}
	args := []string{"--format=custom", "--no-owner", "--no-privileges", "--file", out}
	if schema != "" {
		args = append(args, "--schema", schema)
	}
	cmd := exec.CommandContext(ctx, "pg_dump", append(args, "--dbname", conn)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_dump: %v: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

func pgRestore(ctx context.Context, dbURL, dump string) error {
	if _, err := exec.LookPath("pg_restore"); err != nil {
		return fmt.Errorf("pg_restore is not on the PATH: install PostgreSQL's client tools")
	}
	conn, _, err := pgArgs(dbURL)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
		"--dbname", conn, dump)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_restore (the database must be empty): %v: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

// redactURL drops credentials from a URL for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the configured bucket"
	}
	u.User = nil
	u.RawQuery = ""
	return u.String()
}
