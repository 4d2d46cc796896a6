// Package storetest runs one test against every store: SQLite always, and
// PostgreSQL when FOLIO_TEST_POSTGRES_URL is set (each test gets a schema of
// its own). With FOLIO_TEST_REQUIRE_POSTGRES set, a missing URL fails the
// test instead of skipping the PostgreSQL half, so CI cannot pass silently
// on one store.
//
// Allowed imports: store, folio, the standard library (tests only).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/store"
)

// Environment variables read by the helpers.
const (
	EnvPostgresURL     = "FOLIO_TEST_POSTGRES_URL"
	EnvRequirePostgres = "FOLIO_TEST_REQUIRE_POSTGRES"
)

// Stores lists the stores the current environment tests: "sqlite" and,
// when configured, "postgres".
func Stores(t testing.TB) []string {
	t.Helper()
	if os.Getenv(EnvPostgresURL) != "" {
		return []string{"sqlite", "postgres"}
	}
	if os.Getenv(EnvRequirePostgres) != "" {
		t.Fatalf("%s is set but %s is not", EnvRequirePostgres, EnvPostgresURL)
	}
	return []string{"sqlite"}
}

// Run runs fn once per store as parallel subtests named after the store,
// each with a freshly migrated, empty database.
func Run(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	RunConfig(t, store.Config{}, fn)
}

// RunConfig is Run with a base configuration (a clock, say); the database
// location is filled in per store.
func RunConfig(t *testing.T, cfg store.Config, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, kind := range Stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, Open(t, kind, cfg))
		})
	}
}

// Open returns a migrated, empty database of the given kind, closed and
// removed when the test ends.
func Open(t testing.TB, kind string, cfg store.Config) *store.DB {
	t.Helper()
	cfg = Location(t, kind, cfg)
	db, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open %s store: %v", kind, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Location fills cfg with a new empty location of the given kind: a
// temporary folder for SQLite, a new schema for PostgreSQL. Both are
// removed when the test ends.
func Location(t testing.TB, kind string, cfg store.Config) store.Config {
	t.Helper()
	switch kind {
	case "sqlite":
		cfg.DataDir = t.TempDir()
		cfg.DatabaseURL = ""
	case "postgres":
		cfg.DatabaseURL = newSchema(t)
	default:
		t.Fatalf("unknown store %q", kind)
	}
	return cfg
}

var (
	adminOnce sync.Once
	adminDB   *sql.DB
	adminErr  error
)

// newSchema creates a schema on the test server and returns a URL whose
// connections use it.
func newSchema(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgresURL)
	if base == "" {
		t.Fatalf("%s is not set", EnvPostgresURL)
	}
	adminOnce.Do(func() {
		adminDB, adminErr = sql.Open("pgx", base)
		if adminErr == nil {
			adminErr = adminDB.Ping()
		}
	})
	if adminErr != nil {
		t.Fatalf("connect to %s: %v", EnvPostgresURL, adminErr)
	}
	b := make([]byte, 8)
	rand.Read(b)
	schema := "folio_test_" + hex.EncodeToString(b)
	if _, err := adminDB.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() { dropSchema(t, schema) })
	return withSearchPath(base, schema)
}

// dropSchema removes a test schema. Dropping takes a lock on every table
// of the schema, and tests run in parallel, so PostgreSQL may pick the drop
// as a deadlock victim (40P01, rolled back): it is tried again then.
func dropSchema(t testing.TB, schema string) {
	for attempt := 1; ; attempt++ {
		_, err := adminDB.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		if err == nil || attempt == 5 || !strings.Contains(err.Error(), "(SQLSTATE 40P01)") {
			if err != nil {
				t.Errorf("drop schema %s: %v", schema, err)
			}
			return
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
	}
}

func withSearchPath(base, schema string) string {
	if !strings.Contains(base, "://") {
		return base + " search_path=" + schema
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
