package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/backup"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

func noEnv(string) string { return "" }

// writeLoad creates users until stop is closed, as a running server would
// write during a backup.
func writeLoad(t *testing.T, db *store.DB, stop chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := db.Write(context.Background(), func(tx *store.Tx) error {
				_, err := store.CreateUser(context.Background(), tx, folio.NewUser{Email: fmt.Sprintf("load%d@example.com", i), DisplayName: "Load"})
				return err
			})
			if err != nil {
				t.Errorf("write during the backup: %v", err)
				return
			}
		}
	}()
	return &wg
}

// tableRows returns every row of every table, as text, by table.
func tableRows(t *testing.T, db *sql.DB, tables []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM ` + table)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprint(vals...))
		}
		rows.Close()
		sort.Strings(out[table])
	}
	return out
}

func TestBackupRestoreSQLite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	blobs := map[string][]byte{"files/blobs/ab": []byte("first file"), "files/blobs/cd": bytes.Repeat([]byte("x"), 100_000)}
	for name, b := range blobs {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o700)
		os.WriteFile(filepath.Join(dir, name), b, 0o600)
	}
	os.WriteFile(filepath.Join(dir, "secret.key"), []byte("key"), 0o600)

	// One user is there before the backup starts, so that the restored
	// database has rows whatever the load managed to write meanwhile.
	if err := db.Write(ctx, func(tx *store.Tx) error {
		_, err := store.CreateUser(ctx, tx, folio.NewUser{Email: "before@example.com", DisplayName: "Before"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	wg := writeLoad(t, db, stop)
	archive := filepath.Join(t.TempDir(), "folio.backup")
	var out bytes.Buffer
	if err := run(ctx, []string{"backup", "--data", dir, "--out", archive}, noEnv, &out, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	close(stop)
	wg.Wait()
	if err := run(ctx, []string{"backup", "--data", dir, "--out", archive}, noEnv, io.Discard, io.Discard); err == nil {
		t.Fatal("a backup overwrote an existing archive")
	}

	restored := filepath.Join(t.TempDir(), "restored")
	if err := run(ctx, []string{"restore", "--in", archive, "--data", restored}, noEnv, &out, io.Discard); err != nil {
		t.Fatalf("restore: %v", err)
	}
	// Every row of the restored database is a row of the live one (which
	// only gained rows since), the restored one is sound, and the files are
	// the same bytes.
	live, _ := sql.Open("sqlite", filepath.Join(dir, store.SQLiteFile))
	defer live.Close()
	back, _ := sql.Open("sqlite", filepath.Join(restored, store.SQLiteFile))
	defer back.Close()
	// Every table, full-text indexes by their content rather than their
	// internal segments (which merges rewrite).
	var tables, virtual []string
	rows, err := back.Query(`SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n, ddl string
		rows.Scan(&n, &ddl)
		if strings.HasPrefix(strings.ToUpper(ddl), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, n)
		}
		tables = append(tables, n)
	}
	rows.Close()
	tables = slices.DeleteFunc(tables, func(n string) bool {
		return slices.ContainsFunc(virtual, func(v string) bool { return strings.HasPrefix(n, v+"_") })
	})
	liveRows, backRows := tableRows(t, live, tables), tableRows(t, back, tables)
	if len(backRows["users"]) == 0 {
		t.Fatal("the restored database has no users")
	}
	for _, table := range tables {
		have := map[string]bool{}
		for _, r := range liveRows[table] {
			have[r] = true
		}
		for _, r := range backRows[table] {
			if !have[r] {
				t.Fatalf("table %s: restored row %q is not in the live database", table, r)
			}
		}
	}
	var check string
	back.QueryRow(`PRAGMA integrity_check`).Scan(&check)
	if check != "ok" {
		t.Fatalf("integrity check: %s", check)
	}
	for name, want := range blobs {
		if got, err := os.ReadFile(filepath.Join(restored, name)); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("file %s restored as %d bytes (%v)", name, len(got), err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(restored, "secret.key")); string(got) != "key" {
		t.Fatal("the server key was not restored")
	}

	// A folder that is not empty is refused.
	if err := run(ctx, []string{"restore", "--in", archive, "--data", restored}, noEnv, io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "is not empty") {
		t.Fatalf("restore into a used folder: %v", err)
	}
	// A damaged or truncated archive is refused and leaves nothing behind.
	b, _ := os.ReadFile(archive)
	for name, bad := range map[string][]byte{
		"truncated": b[:len(b)/2],
		"flipped":   append(append(append([]byte{}, b[:len(b)/2]...), b[len(b)/2]^0xff), b[len(b)/2+1:]...),
	} {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, bad, 0o600)
		target := filepath.Join(t.TempDir(), "target")
		if err := run(ctx, []string{"restore", "--in", p, "--data", target}, noEnv, io.Discard, io.Discard); err == nil {
			t.Fatalf("%s archive restored", name)
		}
		if entries, _ := os.ReadDir(target); len(entries) != 0 {
			t.Fatalf("%s archive left %d entries", name, len(entries))
		}
	}
}

func TestBackupRestorePostgres(t *testing.T) {
	base := os.Getenv(storetest.EnvPostgresURL)
	if base == "" {
		t.Skip(storetest.EnvPostgresURL + " is not set")
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pg_dump is not installed")
		}
		t.Skip("pg_dump is not installed")
	}
	ctx := context.Background()
	cfg := storetest.Location(t, "postgres", store.Config{})
	db, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stop := make(chan struct{})
	wg := writeLoad(t, db, stop)
	dir := t.TempDir()
	archive := filepath.Join(t.TempDir(), "pg.backup")
	if err := run(ctx, []string{"backup", "--database-url", cfg.DatabaseURL, "--data", dir, "--out", archive}, noEnv, io.Discard, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	close(stop)
	wg.Wait()

	// Restore into a new, empty database.
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	rb := make([]byte, 6)
	rand.Read(rb)
	name := "folio_restore_" + hex.EncodeToString(rb)
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`)
	u, _ := url.Parse(cfg.DatabaseURL)
	u.Path = "/" + name
	target := u.String()
	if err := run(ctx, []string{"restore", "--in", archive, "--database-url", target, "--data", filepath.Join(t.TempDir(), "d")},
		noEnv, io.Discard, io.Discard); err != nil {
		t.Fatalf("restore: %v", err)
	}
	count := func(url string) (n int) {
		d, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.QueryRow(`SELECT COUNT(*) FROM users`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	live, restoredN := count(cfg.DatabaseURL), count(target)
	if restoredN == 0 || restoredN > live {
		t.Fatalf("restored %d users of %d", restoredN, live)
	}
	// Restoring again into the same (no longer empty) database fails.
	if err := run(ctx, []string{"restore", "--in", archive, "--database-url", target, "--data", filepath.Join(t.TempDir(), "e")},
		noEnv, io.Discard, io.Discard); err == nil {
		t.Fatal("a restore into a database that is not empty succeeded")
	}
}

// TestRestoreMigrates restores the backup of an older schema with this
// binary: the restore runs the migrations it lacks.
func TestRestoreMigrates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, latest, err := db.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateDownTo(ctx, latest-1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	archive := filepath.Join(t.TempDir(), "old.backup")
	// The backup command opens the store, which would migrate it: back up
	// the older database as its files are instead.
	f, _ := os.Create(archive)
	w := backup.NewWriter(f, backup.Manifest{Store: "sqlite", Schema: latest - 1})
	if err := w.AddFile(store.SQLiteFile, filepath.Join(dir, store.SQLiteFile)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	restored := filepath.Join(t.TempDir(), "restored")
	var out bytes.Buffer
	if err := run(ctx, []string{"restore", "--in", archive, "--data", restored}, noEnv, &out, io.Discard); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if want := fmt.Sprintf("(schema %d, now %d)", latest-1, latest); !strings.Contains(out.String(), want) {
		t.Fatalf("restore said %q, want %q", out.String(), want)
	}
}
