package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio/internal/buildinfo"
)

// TestHelp: every command's help, asked in any of the usual ways, goes to
// stdout, lists what it should and succeeds (it exited 1 with "flag: help
// requested" before).
func TestHelp(t *testing.T) {
	commands := []string{"serve", "init", "users", "migrate", "backup", "restore", "version", "help"}
	tests := []struct {
		args []string
		want []string // in stdout
	}{
		{[]string{"help"}, append([]string{"usage: folio <command>", "users create", "users token"}, commands...)},
		{[]string{"--help"}, commands},
		{[]string{"-h"}, commands},
		{[]string{"serve", "--help"}, []string{"usage: folio serve [flags]", "-addr", "(FOLIO_ADDR)", "-data", "-pdf-paper", "-gogc", "-memory-limit"}},
		{[]string{"serve", "-h"}, []string{"usage: folio serve [flags]", "-log-level"}},
		{[]string{"help", "serve"}, []string{"usage: folio serve [flags]", "-addr"}},
		{[]string{"init", "--help"}, []string{"usage: folio init [flags]", "-email", "-org"}},
		{[]string{"users", "--help"}, []string{"usage: folio users <command>", "create", "token"}},
		{[]string{"users", "-h"}, []string{"usage: folio users <command>", "create", "token"}},
		{[]string{"help", "users"}, []string{"usage: folio users <command>"}},
		{[]string{"users", "create", "--help"}, []string{"usage: folio users create [flags]", "-email", "-role"}},
		{[]string{"users", "token", "-h"}, []string{"usage: folio users token [flags]", "-email", "-label"}},
		{[]string{"migrate", "--help"}, []string{"usage: folio migrate [flags]", "-database-url"}},
		{[]string{"backup", "--help"}, []string{"usage: folio backup [flags]", "-out"}},
		{[]string{"restore", "--help"}, []string{"usage: folio restore [flags]", "-in"}},
		{[]string{"version", "--help"}, []string{"usage: folio version [flags]", "-json"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			// The data folder of the environment must not be created by help.
			getenv := func(k string) string {
				if k == "FOLIO_DATA" {
					return filepath.Join(dir, "data")
				}
				return ""
			}
			if err := run(context.Background(), tt.args, getenv, &stdout, &stderr); err != nil {
				t.Fatalf("run %v: %v", tt.args, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("help lacks %q:\n%s", w, stdout.String())
				}
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr = %q, want nothing", stderr.String())
			}
			assertMissing(t, filepath.Join(dir, "data"))
		})
	}
}

// TestUnknownUsersCommand: a wrong users command still fails, listing the
// right ones.
func TestUnknownUsersCommand(t *testing.T) {
	for _, args := range [][]string{{"users"}, {"users", "delete"}} {
		var stderr bytes.Buffer
		err := run(context.Background(), args, noenv, io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error(), `"folio users create", "folio users token" or "folio users password"`) {
			t.Errorf("run %v = %v, want the users commands named", args, err)
		}
		if !strings.Contains(stderr.String(), "usage: folio users <command>") {
			t.Errorf("run %v printed %q, want the users usage", args, stderr.String())
		}
	}
}

func TestVersion(t *testing.T) {
	want := buildinfo.Read()
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var stdout bytes.Buffer
		if err := run(context.Background(), args, noenv, &stdout, io.Discard); err != nil {
			t.Fatalf("run %v: %v", args, err)
		}
		if got := stdout.String(); got != want.String()+"\n" {
			t.Errorf("run %v printed %q, want %q", args, got, want.String()+"\n")
		}
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"version", "--json"}, noenv, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got buildinfo.Info
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("version --json printed %q: %v", stdout.String(), err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("version --json (-want +got):\n%s", diff)
	}
}

// assertMissing fails unless nothing exists at path.
func assertMissing(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (or cannot be checked: %v): a refused command must create nothing", path, err)
	}
}

// TestRefusedConfigurationCreatesNothing: an unexpected argument, or any
// invalid setting, stops a command before it creates its data folder (the
// flags after "extra" were silently dropped, and ./folio-data created and
// migrated; --pdf-paper a3 created secret.key and folio.db first).
func TestRefusedConfigurationCreatesNothing(t *testing.T) {
	tests := []struct {
		name string
		args []string // --data DIR is added
		want string   // the whole error
	}{
		{"serve/extra argument", []string{"serve", "extra", "--addr", "127.0.0.1:0"},
			`folio serve: unexpected argument "extra": this command takes flags only (run "folio serve -h" for them)`},
		{"serve/trailing argument", []string{"serve", "--addr", "127.0.0.1:0", "extra"},
			`folio serve: unexpected argument "extra": this command takes flags only (run "folio serve -h" for them)`},
		{"serve/unknown flag", []string{"serve", "--adress", "127.0.0.1:0"},
			`folio serve: flag provided but not defined: -adress (run "folio serve -h" for its flags)`},
		{"serve/pdf paper", []string{"serve", "--addr", "127.0.0.1:0", "--pdf-paper", "a3"},
			`--pdf-paper: unknown paper size "a3": a4 or letter`},
		{"serve/log level", []string{"serve", "--addr", "127.0.0.1:0", "--log-level", "verbose"},
			`--log-level "verbose" is not a level: use debug, info, warn or error`},
		{"serve/gogc", []string{"serve", "--addr", "127.0.0.1:0", "--gogc", "lots"},
			`--gogc: "lots" is not a percentage (such as 100) or off`},
		{"serve/memory limit", []string{"serve", "--addr", "127.0.0.1:0", "--memory-limit", "200MB"},
			`--memory-limit: "200MB" is not a size such as 256MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off`},
		{"serve/translate engine", []string{"serve", "--addr", "127.0.0.1:0", "--translate-engine", "babelfish"},
			`--translate-engine: unknown translation engine "babelfish"`},
		{"serve/database url", []string{"serve", "--addr", "127.0.0.1:0", "--database-url", "mysql://x"},
			`--database-url must be a postgres:// URL`},
		{"serve/files url", []string{"serve", "--addr", "127.0.0.1:0", "--files-url", "nosuch://bucket"},
			`open --files-url: open blob.Bucket: no driver registered for "nosuch" for URL "nosuch://bucket"; available schemes: file, s3`},
		{"serve/address", []string{"serve", "--addr", "127.0.0.1:99999"},
			`listen on 127.0.0.1:99999: listen tcp: address 99999: invalid port`},
		{"init/extra argument", []string{"init", "admin@example.com"},
			`folio init: unexpected argument "admin@example.com": this command takes flags only (run "folio init -h" for them)`},
		{"users create/extra argument", []string{"users", "create", "--email", "a@example.com", "now"},
			`folio users create: unexpected argument "now": this command takes flags only (run "folio users create -h" for them)`},
		{"users token/extra argument", []string{"users", "token", "x", "--email", "a@example.com"},
			`folio users token: unexpected argument "x": this command takes flags only (run "folio users token -h" for them)`},
		{"migrate/extra argument", []string{"migrate", "up"},
			`folio migrate: unexpected argument "up": this command takes flags only (run "folio migrate -h" for them)`},
		{"backup/extra argument", []string{"backup", "--out", "x.tar", "y"},
			`folio backup: unexpected argument "y": this command takes flags only (run "folio backup -h" for them)`},
		{"restore/extra argument", []string{"restore", "--in", "x.tar", "y"},
			`folio restore: unexpected argument "y": this command takes flags only (run "folio restore -h" for them)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			data := filepath.Join(dir, "data")
			// The default data folder too: a leftover argument used to end
			// the flags, --data included.
			getenv := func(k string) string {
				if k == "FOLIO_DATA" {
					return filepath.Join(dir, "default-data")
				}
				return ""
			}
			// Cancelled, so that a serve that wrongly starts returns at once.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			args := append(tt.args[:len(tt.args):len(tt.args)], "--data", data)
			if tt.name == "serve/trailing argument" {
				args = append([]string{"serve", "--data", data}, tt.args[1:]...)
			}
			err := run(ctx, args, getenv, io.Discard, io.Discard)
			if err == nil || err.Error() != tt.want {
				t.Errorf("run %v = %v, want %s", args, err, tt.want)
			}
			assertMissing(t, data)
			assertMissing(t, filepath.Join(dir, "default-data"))
		})
	}
}
