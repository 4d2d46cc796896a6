package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
)

// savedGitCreds reports whether the space's git sync keeps credentials.
func savedGitCreds(t *testing.T, s *apitest.Server, spaceID string) (has bool, sealed string) {
	t.Helper()
	ctx := context.Background()
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		g, err := store.GetGitSync(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		has = g.HasCredentials
		if sealed, err = store.GitSyncCredentials(ctx, tx, spaceID); folio.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return has, sealed
}

// TestGitSyncPageSavedCredentials: after a sync with credentials the page
// says they are saved (never what they are), the fields say that leaving
// them empty keeps them, and a sync without them succeeds against a server
// that requires them; a reader is not offered the forget button and a
// forged forget is refused with nothing changed; forgetting them says so
// and the next sync without credentials fails.
func TestGitSyncPageSavedCredentials(t *testing.T) {
	repo := gitRepo(t)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		sp := space(t, s, org, admin, "Handbook", "# Start\n\nHello.\n")
		u, _ := member(t, s, org, folio.RoleAdmin)
		reader, _ := member(t, s, org, folio.RoleRead)
		b := signIn(t, s, u.Email)
		base := "/s/" + sp + "/~/git"
		sync := func(form url.Values, want string) {
			t.Helper()
			b.post(t, base, form).redirect(t, base+"?done=queued")
			runJobs(t, s)
			b.get(t, base).want(t, 200, want)
		}
		form := func(user, pass, direction string) url.Values {
			return url.Values{"url": {repo}, "branch": {"main"}, "directory": {"docs"}, "username": {user},
				"password": {pass}, "direction": {direction}}
		}

		empty := b.get(t, base).want(t, 200, "Saved sealed for the next syncs of this repository URL, and never shown again.")
		if strings.Contains(empty.Body, "Credentials saved") || strings.Contains(empty.Body, "Forget the saved credentials") {
			t.Fatal("credentials shown as saved before any sync")
		}
		sync(form("alice", "s3cret-pass", "import"), "Import done: the space has the repository")

		p := b.get(t, base).want(t, 200, `<dt>Credentials</dt><dd><span class="badge">Credentials saved (sealed)</span></dd>`,
			`action="`+base+`/forget"`, `<button type="submit" aria-describedby="git-forget-hint">Forget the saved credentials</button>`,
			`<input id="git-user" name="username" autocomplete="off" maxlength="255" aria-describedby="git-creds-hint">`,
			`<input id="git-pass" name="password" type="password" autocomplete="new-password" maxlength="1024" aria-describedby="git-creds-hint">`,
			"leave empty to keep the saved credentials")
		for _, secret := range []string{"s3cret-pass", "alice"} {
			if strings.Contains(p.Body, secret) {
				t.Fatalf("the page shows %q", secret)
			}
		}

		// Empty fields: the saved credentials are used, for an export too.
		sync(form("", "", "import"), "Import done: already up to date.")
		sync(url.Values{"url": {repo}, "branch": {"main"}, "directory": {"docs"}, "direction": {"export"}, "message": {"Saved creds"}},
			"Export done: ")

		// A reader sees that there are some, is offered no forget button,
		// and a forged forget is refused with nothing changed.
		_, before := savedGitCreds(t, s, sp)
		rb := signIn(t, s, reader.Email)
		if rp := rb.get(t, base).want(t, 200, "Credentials saved (sealed)"); strings.Contains(rp.Body, "/forget") {
			t.Fatal("a reader is offered to forget the credentials")
		}
		rb.post(t, base+"/forget", nil).want(t, 403, "you cannot sync this space")
		if has, after := savedGitCreds(t, s, sp); !has || after != before {
			t.Fatal("a refused forget changed the saved credentials")
		}
		// Someone of another organization learns nothing.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, stranger.Email).post(t, base+"/forget", nil).want(t, 404)
		if has, after := savedGitCreds(t, s, sp); !has || after != before {
			t.Fatal("a refused forget changed the saved credentials")
		}

		// Forgetting: the page says so, offers the button no more, and the
		// next sync without credentials has none.
		b.post(t, base+"/forget", nil).redirect(t, base+"?done=forgotten")
		fp := b.get(t, base+"?done=forgotten").want(t, 200, "The saved credentials are forgotten",
			`<dt>Credentials</dt><dd><span class="muted">none saved</span></dd>`)
		if strings.Contains(fp.Body, "Forget the saved credentials") || strings.Contains(fp.Body, "leave empty to keep") {
			t.Fatal("the page still offers saved credentials")
		}
		if has, sealed := savedGitCreds(t, s, sp); has || sealed != "" {
			t.Fatalf("credentials kept after forgetting: %v %q", has, sealed)
		}
		sync(form("", "", "import"), "Import failed.")
		b.get(t, "/o/"+org+"/audit?action=space.git_sync_credentials_forgotten").want(t, 200, "space.git_sync_credentials_forgotten", u.DisplayName)

		// Disconnecting forgets them too.
		sync(form("alice", "s3cret-pass", "import"), "Credentials saved (sealed)")
		b.post(t, base+"/disconnect", nil).redirect(t, base+"?done=disconnected")
		if has, sealed := savedGitCreds(t, s, sp); has || sealed != "" {
			t.Fatalf("credentials kept after disconnecting: %v %q", has, sealed)
		}
		sync(form("", "", "import"), "Import failed.")
	})
}
