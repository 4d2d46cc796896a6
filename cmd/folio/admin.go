package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

func runInit(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("init",
		"Create the first admin user, the first organization and an API token on an empty database, and print the token.\nIt may run beside a serving server.", stdout)
	var (
		sf               storeFlags
		email, name, org string
		asJSON           bool
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&email, "email", "", "email of the first admin (required)")
	fs.StringVar(&name, "name", "", "display name of the first admin")
	fs.StringVar(&org, "org", "My organization", "title of the first organization")
	fs.BoolVar(&asJSON, "json", false, `print {"user":ID,"organization":ID,"token":TOKEN}`)
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if email == "" {
		return fmt.Errorf("init: --email is required")
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := app.New(app.Config{DB: db}).Init(ctx, app.InitInput{Email: email, Name: name, OrgTitle: org})
	if err != nil {
		return fmt.Errorf("init: %s", describe(err))
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			User         string `json:"user"`
			Organization string `json:"organization"`
			Token        string `json:"token"`
		}{b.User.ID, b.Organization.ID, b.Token})
	}
	printBootstrap(stdout, b, "")
	return nil
}

// printBootstrap shows the first admin's token, the only time it is shown.
func printBootstrap(w io.Writer, b *app.Bootstrap, baseURL string) {
	fmt.Fprintf(w, "\nFolio created the first admin user %s (%s),\nthe organization %q (%s) and an API token.\n",
		b.User.Email, b.User.ID, b.Organization.Title, b.Organization.ID)
	fmt.Fprintf(w, "\nThe token is shown only this once; keep it somewhere safe:\n\n    %s\n\n", b.Token)
	if baseURL != "" {
		// The variables of the README's walkthrough, ready to paste.
		fmt.Fprintf(w, "Try it in a shell (README.md walks on from here):\n\n    FOLIO=%s\n    TOKEN=%s\n"+
			"    curl -H \"Authorization: Bearer $TOKEN\" \"$FOLIO/v1/user\"\n\n", baseURL, b.Token)
	}
}

func runUsersCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("users create",
		"Create a user, optionally a member of an organization with a role, and an API token; print the token.\nIt may run beside a serving server.", stdout)
	var (
		sf                     storeFlags
		email, name, org, role string
		asJSON                 bool
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&email, "email", "", "email of the new user (required)")
	fs.StringVar(&name, "name", "", "display name")
	fs.StringVar(&org, "org", "", "organization id to add the user to")
	fs.StringVar(&role, "role", "", "role in --org: admin, create, review, edit, comment, read, or guest")
	fs.BoolVar(&asJSON, "json", false, `print {"user":ID,"token":TOKEN}`)
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if email == "" {
		return fmt.Errorf("users create: --email is required")
	}
	if org == "" && role != "" {
		return fmt.Errorf("users create: --role needs --org")
	}
	if org != "" && role == "" {
		return fmt.Errorf("users create: --org needs --role")
	}
	r := folio.Role(role)
	if role == "guest" {
		r = folio.RoleGuest
	} else if org != "" && r.Rank() == 0 {
		return fmt.Errorf("users create: --role must be admin, create, review, edit, comment, read or guest")
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	acc, err := app.New(app.Config{DB: db}).CreateAccount(ctx, app.NewAccount{
		Email: email, Name: name, Organization: org, Role: r, TokenLabel: "created by folio users create"})
	if err != nil {
		return fmt.Errorf("users create: %s", describe(err))
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			User  string `json:"user"`
			Token string `json:"token"`
		}{acc.User.ID, acc.Token})
	}
	fmt.Fprintf(stdout, "Created user %s (%s).\nAPI token, shown only this once:\n\n    %s\n\n", acc.User.Email, acc.User.ID, acc.Token)
	return nil
}

func runUsersToken(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("users token",
		"Create an API token for an existing user and print it. It may run beside a serving server.", stdout)
	var (
		sf           storeFlags
		email, label string
		asJSON       bool
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&email, "email", "", "email of the user (required)")
	fs.StringVar(&label, "label", "created by folio users token", "label of the token")
	fs.BoolVar(&asJSON, "json", false, `print {"user":ID,"token":TOKEN}`)
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if email == "" {
		return fmt.Errorf("users token: --email is required")
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	acc, err := app.New(app.Config{DB: db}).CreateTokenForEmail(ctx, email, label)
	if err != nil {
		return fmt.Errorf("users token: %s", describe(err))
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			User  string `json:"user"`
			Token string `json:"token"`
		}{acc.User.ID, acc.Token})
	}
	fmt.Fprintf(stdout, "API token for %s (%s), shown only this once:\n\n    %s\n\n", acc.User.Email, acc.User.ID, acc.Token)
	return nil
}

func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("migrate",
		"Apply the schema migrations of this binary and exit. On SQLite it takes the data folder's lock: stop the server first.", stdout)
	var sf storeFlags
	e := &env{getenv: getenv}
	sf.register(fs, e)
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	// Migrations change the schema under a running server's feet: on
	// SQLite, where one server owns the folder, wait for it to stop.
	if sf.databaseURL == "" {
		lock, err := lockDataFolder(sf.data, "migrate")
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	cur, _, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "the %s database is at schema version %d\n", db.Dialect(), cur)
	return nil
}
