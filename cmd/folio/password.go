package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/foliodocs/folio/internal/app"
)

type stdinKey struct{}

// withStdin makes run read standard input from r (tests).
func withStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey{}, r)
}

func stdinOf(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey{}).(io.Reader); ok {
		return r
	}
	return os.Stdin
}

// runUsersPassword sets a user's web sign-in password, read from the first
// line of standard input (so it stays out of the process list and shell
// history), and ends the user's sessions.
func runUsersPassword(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("users password", "Set a user's web sign-in password, read from the first line of standard input; the user's sessions end.", stdout)
	var (
		sf    storeFlags
		email string
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	fs.StringVar(&email, "email", "", "email of the user (required); the password is read from standard input")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if email == "" {
		return fmt.Errorf("users password: --email is required")
	}
	line, err := bufio.NewReader(io.LimitReader(stdinOf(ctx), app.MaxPasswordBytes+2)).ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("users password: read the password from standard input: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	db, err := sf.open(ctx, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := app.New(app.Config{DB: db}).SetPassword(ctx, email, password)
	if err != nil {
		return fmt.Errorf("users password: %s", describe(err))
	}
	fmt.Fprintf(stdout, "Set the password of %s (%s); their web sessions have ended.\n", u.Email, u.ID)
	return nil
}

// printSignInLink prints a one-time link that signs the first admin in to
// the web application (once, within app.SignInLinkTTL).
func printSignInLink(ctx context.Context, w io.Writer, a *app.App, b *app.Bootstrap, publicURL string) error {
	tok, err := a.CreateSignInLink(ctx, b.User.ID)
	if err != nil {
		return fmt.Errorf("create the first admin's sign-in link: %s", describe(err))
	}
	fmt.Fprintf(w, "Sign in to the web app with this one-time link (it works once, within an hour),\nthen set a password:\n\n    %s/signin/link/%s\n\n", publicURL, tok)
	return nil
}
