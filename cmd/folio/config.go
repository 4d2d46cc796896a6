package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // s3:// file storage URLs

	"github.com/foliodocs/folio/internal/store"
)

// storeFlags are the flags shared by every command that opens the store.
type storeFlags struct {
	data        string
	databaseURL string
	maxConns    int
	filesURL    string
}

func (f *storeFlags) register(fs *flagSet, e *env) {
	fs.StringVar(&f.data, "data", e.str("FOLIO_DATA", "./folio-data"),
		"folder for the SQLite database and local files (FOLIO_DATA)")
	fs.StringVar(&f.databaseURL, "database-url", e.str("FOLIO_DATABASE_URL", ""),
		"postgres:// URL; when set, PostgreSQL is the store (FOLIO_DATABASE_URL)")
	fs.IntVar(&f.maxConns, "db-max-conns", int(e.integer("FOLIO_DB_MAX_CONNS", 8)),
		"database connections: the PostgreSQL pool, or SQLite's read connections (FOLIO_DB_MAX_CONNS)")
	fs.StringVar(&f.filesURL, "files-url", e.str("FOLIO_FILES_URL", ""),
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
	if f.databaseURL != "" && !isPostgresURL(f.databaseURL) {
		return nil, fmt.Errorf("--database-url must be a postgres:// URL")
	}
	return store.Open(ctx, store.Config{DatabaseURL: f.databaseURL, DataDir: f.data, Logger: logger, MaxConns: f.maxConns})
}

func isPostgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// env reads the environment variables that give flags their defaults. It
// keeps the first invalid value it meets, for parseFlags to refuse once the
// command's flags are registered.
type env struct {
	getenv func(string) string
	err    error
}

// str returns the value of key, or def when it is unset or empty.
func (e *env) str(key, def string) string {
	if v := e.getenv(key); v != "" {
		return v
	}
	return def
}

// boolean returns the value of key as strconv.ParseBool reads it (true,
// false, 1, 0, ...), or def when it is unset or empty.
func (e *env) boolean(key string, def bool) bool {
	v := e.getenv(key)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		e.fail(fmt.Errorf("%s=%q is not a boolean: use true or false", key, v))
		return def
	}
	return b
}

// integer returns the value of key as a base-10 integer, or def when it is
// unset or empty.
func (e *env) integer(key string, def int64) int64 {
	v := e.getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		e.fail(fmt.Errorf("%s=%q is not an integer", key, v))
		return def
	}
	return n
}

// duration returns the value of key as time.ParseDuration reads it (30s,
// 2m), or def when it is unset or empty.
func (e *env) duration(key string, def time.Duration) time.Duration {
	v := e.getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		e.fail(fmt.Errorf("%s=%q is not a positive duration such as 30s or 2m", key, v))
		return def
	}
	return d
}

func (e *env) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// flagSet is the flag set of one command, with the synopsis its help
// shows and where the help goes.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stdout   io.Writer
}

// newFlagSet returns the flag set of the command "folio name", whose help
// ("folio name -h") goes to stdout with synopsis, a sentence or two. The
// flag package's own output is discarded: parse errors are returned, and
// main prints them once.
func newFlagSet(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet("folio "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // parseFlags prints the help when asked
	return &flagSet{FlagSet: fs, synopsis: synopsis, stdout: stdout}
}

// parseFlags parses args, then refuses an invalid environment variable met
// while registering the flags, even one a flag overrides: a typo in the
// environment should not wait for the day the flag is dropped. -h prints
// the command's help to stdout and returns errHelp. Commands take flags
// only: an argument left over is an error, since the flag package stops at
// the first non-flag and would silently drop every flag after it.
func parseFlags(fs *flagSet, e *env, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.printHelp()
			return errHelp
		}
		return fmt.Errorf("%s: %w (run \"%s -h\" for its flags)", fs.Name(), err, fs.Name())
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q: this command takes flags only (run \"%s -h\" for them)",
			fs.Name(), fs.Arg(0), fs.Name())
	}
	return e.err
}

// printHelp writes the command's usage line, synopsis and flags.
func (fs *flagSet) printHelp() {
	fmt.Fprintf(fs.stdout, "usage: %s [flags]\n\n%s\n\nflags:\n", fs.Name(), fs.synopsis)
	fs.SetOutput(fs.stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// logLevels are the values --log-level takes.
const logLevels = "debug, info, warn or error"

// parseLevel reads --log-level.
func parseLevel(level string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return l, fmt.Errorf("--log-level %q is not a level: use %s", level, logLevels)
	}
	return l, nil
}

// newBufferedLogger returns the server's JSON logger at level, writing to w
// through a logBuffer, which the caller closes when done.
func newBufferedLogger(w io.Writer, level string) (*slog.Logger, *logBuffer, error) {
	return newBufferedLoggerOn(newLogBuffer(w, logFlushEvery), level)
}

// newBufferedLoggerOn is newBufferedLogger on a given buffer.
func newBufferedLoggerOn(buf *logBuffer, level string) (*slog.Logger, *logBuffer, error) {
	l, err := parseLevel(level)
	if err != nil {
		buf.Close()
		return nil, nil, err
	}
	h := flushingHandler{Handler: slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: l}), buf: buf, level: slog.LevelWarn}
	return slog.New(h), buf, nil
}

// flagOrEnv reports whether the operator chose a setting: its flag was
// given, or its variable has a value.
func flagOrEnv(fs *flagSet, name, envValue string) bool {
	set := envValue != ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
