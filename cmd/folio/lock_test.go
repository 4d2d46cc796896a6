package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecondServeOnSQLiteFolderIsRefused: a second "folio serve" (or a
// migrate, or a restore) on a SQLite data folder that a server uses stops
// with a message naming the holder, instead of starting beside it; the
// commands that run ordinary transactions still work beside the server,
// and the lock goes with the server.
func TestSecondServeOnSQLiteFolderIsRefused(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	s := startServe(t, "--data", data)
	lockPath := filepath.Join(data, lockFileName)
	wantBusy := fmt.Sprintf("the data folder is in use: folio serve (pid %d) holds %s; stop it before running folio %%s here, "+
		"or give this one its own --data (one server per SQLite data folder; several servers share a PostgreSQL database)", os.Getpid(), lockPath)

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a serve that wrongly starts returns at once
	var stdout bytes.Buffer
	err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", data}, noenv, &stdout, io.Discard)
	if want := fmt.Sprintf(wantBusy, "serve"); err == nil || err.Error() != want {
		t.Fatalf("second serve = %v, want %s", err, want)
	}
	if strings.Contains(stdout.String(), "listening") {
		t.Errorf("the second server listened: %s", stdout.String())
	}
	err = run(context.Background(), []string{"migrate", "--data", data}, noenv, io.Discard, io.Discard)
	if want := fmt.Sprintf(wantBusy, "migrate"); err == nil || err.Error() != want {
		t.Fatalf("migrate beside serve = %v, want %s", err, want)
	}
	// users create, init and backup are transactions the server sees.
	if err := run(context.Background(), []string{"users", "create", "--data", data, "--email", "beside@example.com"},
		noenv, io.Discard, io.Discard); err != nil {
		t.Errorf("users create beside serve: %v", err)
	}
	if err := run(context.Background(), []string{"backup", "--data", data, "--out", filepath.Join(t.TempDir(), "b.tar")},
		noenv, io.Discard, io.Discard); err != nil {
		t.Errorf("backup beside serve: %v", err)
	}

	s.stop(t)
	if err := run(context.Background(), []string{"migrate", "--data", data}, noenv, io.Discard, io.Discard); err != nil {
		t.Errorf("migrate after the server stopped: %v", err)
	}
	startServe(t, "--data", data) // the lock went with the first server
}

// TestLockDataFolder: the lock is exclusive between holders and free again
// once released.
func TestLockDataFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	a, err := lockDataFolder(dir, "serve")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockDataFolder(dir, "migrate"); err == nil || !strings.Contains(err.Error(), "the data folder is in use") {
		t.Fatalf("second lock = %v, want the folder in use", err)
	}
	a.Release()
	b, err := lockDataFolder(dir, "migrate")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	b.Release()
}
