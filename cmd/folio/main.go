// Command folio is the Folio docs platform server and its admin commands:
//
//	folio serve                  run the API server (migrates and bootstraps first)
//	folio init                   create the first admin, organization and token
//	folio users create           create a user with an API token
//	folio users token            create an API token for an existing user
//	folio users password         set a user's web sign-in password from standard input
//	folio migrate                apply schema migrations and exit
//	folio backup / restore       write or restore an online backup
//	folio version                print the build of this binary
//
// Every flag has an environment variable (FOLIO_ADDR, FOLIO_DATA, ...);
// flags win over the environment. "folio help" and "folio <command> -h"
// print the commands and flags.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/foliodocs/folio/internal/buildinfo"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first SIGINT or SIGTERM starts a graceful shutdown, which may wait
	// up to shutdownGrace for in-flight requests. Unregistering then restores
	// the default behaviour, so a second signal kills folio at once.
	context.AfterFunc(ctx, stop)
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "folio:", err)
		os.Exit(1)
	}
}

const usage = `usage: folio <command> [flags]

Folio serves a GitBook-compatible API and published docs sites, on SQLite
(a data folder) or PostgreSQL.

commands:
  serve          run the API server
  init           create the first admin user, organization and API token
  users create   create a user with an API token
  users token    create an API token for an existing user
  users password set a user's web sign-in password (read from standard input)
  migrate        apply database migrations and exit
  backup         write an online backup (database, files, server key) to one archive
  restore        restore a backup into an empty data folder
  version        print the version and build of this binary (also: folio --version)
  help           print this help; "folio help <command>" prints a command's flags

Run "folio <command> -h" for the flags of a command. Every flag also has an
environment variable, named after it (--data: FOLIO_DATA); flags win.
`

const usersUsage = `usage: folio users <command> [flags]

commands:
  create   create a user with an API token
  token    create an API token for an existing user
  password set a user's web sign-in password, read from standard input

Run "folio users <command> -h" for its flags.
`

// errHelp is returned by a command that printed its help as asked: run
// then succeeds.
var errHelp = errors.New("help printed")

// run executes one command. It reads the environment through getenv and
// writes through stdout and stderr only, so tests can run it in process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, getenv, stdout, stderr); !errors.Is(err, errHelp) {
		return err
	}
	return nil
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "backup":
		return runBackup(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return runRestore(ctx, args[1:], getenv, stdout, stderr)
	case "init":
		return runInit(ctx, args[1:], getenv, stdout, stderr)
	case "users":
		switch {
		case len(args) >= 2 && args[1] == "create":
			return runUsersCreate(ctx, args[2:], getenv, stdout, stderr)
		case len(args) >= 2 && args[1] == "token":
			return runUsersToken(ctx, args[2:], getenv, stdout, stderr)
		case len(args) >= 2 && args[1] == "password":
			return runUsersPassword(ctx, args[2:], getenv, stdout, stderr)
		case len(args) >= 2 && isHelp(args[1]):
			fmt.Fprint(stdout, usersUsage)
			return errHelp
		}
		fmt.Fprint(stderr, usersUsage)
		if len(args) < 2 {
			return fmt.Errorf(`users: name a command: "folio users create", "folio users token" or "folio users password"`)
		}
		return fmt.Errorf(`unknown users command %q: use "folio users create", "folio users token" or "folio users password"`, args[1])
	case "migrate":
		return runMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "version", "-version", "--version":
		return runVersion(args[1:], stdout)
	case "help":
		if len(args) > 1 && !isHelp(args[1]) {
			// "folio help serve" is "folio serve -h".
			return dispatch(ctx, append(args[1:len(args):len(args)], "-h"), getenv, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return errHelp
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return errHelp
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// runVersion prints the build of this binary: its module version and the
// commit it was built from, as /healthz and folio_build_info report them.
func runVersion(args []string, stdout io.Writer) error {
	fs := newFlagSet("version", "Print the module version, VCS revision, commit time and Go version of this binary.", stdout)
	asJSON := fs.Bool("json", false, `print {"version":...,"revision":...,"time":...,"modified":...,"go":...}`)
	if err := parseFlags(fs, &env{getenv: func(string) string { return "" }}, args); err != nil {
		return err
	}
	info := buildinfo.Read()
	if *asJSON {
		return json.NewEncoder(stdout).Encode(info)
	}
	_, err := fmt.Fprintln(stdout, info)
	return err
}
