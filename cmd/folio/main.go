// Command folio is the Folio docs platform server and its admin commands:
//
//	folio serve                  run the API server (migrates and bootstraps first)
//	folio init                   create the first admin, organization and token
//	folio users create           create a user with an API token
//	folio users token            create an API token for an existing user
//	folio users password         set a user's web sign-in password from standard input
//	folio migrate                apply schema migrations and exit
//
// Every flag has an environment variable (FOLIO_ADDR, FOLIO_DATA, ...);
// flags win over the environment.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
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

commands:
  serve          run the API server
  init           create the first admin user, organization and API token
  users create   create a user with an API token
  users token    create an API token for an existing user
  users password set a user's web sign-in password (read from standard input)
  migrate        apply database migrations and exit
  backup         write an online backup (database, files, server key) to one archive
  restore        restore a backup into an empty data folder

Run "folio <command> -h" for the flags of a command.
`

// run executes one command. It reads the environment through getenv and
// writes through stdout and stderr only, so tests can run it in process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
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
		}
		return fmt.Errorf(`unknown users command: use "folio users create" or "folio users token"`)
	case "migrate":
		return runMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
