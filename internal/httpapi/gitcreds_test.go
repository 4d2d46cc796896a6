package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/store"
)

// authRecorder forwards to target and records the Authorization header of
// every request it receives ("" when there was none).
type authRecorder struct {
	URL  string
	mu   sync.Mutex
	auth []string
}

func newAuthRecorder(t *testing.T, target string) *authRecorder {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rec := &authRecorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.auth = append(rec.auth, r.Header.Get("Authorization"))
		rec.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	rec.URL = srv.URL
	return rec
}

func (rec *authRecorder) seen() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.auth...)
}

// gitSyncCreds is what the space's git sync keeps: whether it says it has
// credentials, and the column's value.
func gitSyncCreds(t *testing.T, s *apitest.Server, space string) (has bool, sealed string) {
	t.Helper()
	ctx := context.Background()
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		g, err := store.GetGitSync(ctx, tx, space)
		if err != nil {
			return err
		}
		has = g.HasCredentials
		sealed, err = store.GitSyncCredentials(ctx, tx, space)
		if folio.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return has, sealed
}

// TestGitSyncKeepsCredentialsForItsURL: the credentials of an import are
// kept sealed on the space's sync and used by the next operations on the
// same URL that give none (an import and an export against a server that
// requires basic auth); credentials given replace them; a sync with
// another URL sends none and forgets them; forgetting and removing the
// sync erase them; a reader cannot forget them. The API's answers (checked
// against GitBook's reference by s.Do) never show them, nor does the audit
// log, and the column holds no plaintext.
func TestGitSyncKeepsCredentialsForItsURL(t *testing.T) {
	gittest.Require(t, true)
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		root := t.TempDir()
		repo := gittest.BareIn(t, root, "docs.git")
		gittest.Commit(t, repo, "main", gitbookRepo, "Docs over HTTP")
		base := gittest.HTTPServer(t, root, "alice", "s3cret-pass")
		plain := base + "/docs.git"
		withCreds := func(user, pass string) string {
			u, _ := url.Parse(plain)
			u.User = url.UserPassword(user, pass)
			return u.String()
		}
		importBody := func(u string) map[string]any { return map[string]any{"url": u, "ref": "refs/heads/main"} }

		// The first import gives credentials: they are kept, sealed.
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(withCreds("alice", "s3cret-pass"))), "success", "revision")
		has, sealed := gitSyncCreds(t, s, space)
		if !has || sealed == "" {
			t.Fatalf("credentials not kept: %v %q", has, sealed)
		}
		for _, clear := range []string{"s3cret-pass", "alice", "czNjcmV0LXBhc3M"} { // and base64 of the password
			if strings.Contains(sealed, clear) {
				t.Fatalf("the column holds %q in clear: %q", clear, sealed)
			}
		}
		raw := s.Do(t, admin, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 200)
		sp := s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200)
		for _, body := range []string{string(raw.Body), string(sp.Body)} {
			if strings.Contains(body, "s3cret") || strings.Contains(body, "alice") || strings.Contains(body, "redentials") {
				t.Fatalf("an answer tells of the credentials: %s", body)
			}
		}

		// The next import gives none and syncs with the same URL: it uses
		// them (the server requires them).
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Welcome\n\nChanged in git.\n"}, "second")
		info := gitSync(t, s, admin, space, "import", importBody(plain))
		wantGitState(t, info, "success", "revision")
		if strings.Contains(info.URL, "alice") {
			t.Fatalf("info %+v", info)
		}
		// An export too, to another branch of the same URL.
		wantGitState(t, gitSync(t, s, admin, space, "export", map[string]any{"url": plain, "ref": "refs/heads/folio",
			"commitMessage": "From Folio"}), "success", "commit")
		if got := gittest.Read(t, repo, "refs/heads/folio"); got["README.md"] != "# Welcome\n\nChanged in git.\n" {
			t.Fatalf("pushed tree %v", got)
		}
		entries := auditLog(t, s, admin, org, "?action=space.git_sync_import")
		if len(entries) != 2 || entries[0].Fields["credentials"] != true || entries[0].Fields["savedCredentials"] != "used" ||
			entries[1].Fields["credentials"] != true || entries[1].Fields["savedCredentials"] != "saved" {
			t.Fatalf("audit entries %+v", entries)
		}

		// Credentials given replace the saved ones: wrong ones fail, and
		// so does the next sync that gives none.
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(withCreds("alice", "wrong-pass-123"))), "failure", "")
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(plain)), "failure", "")
		wantSuccess(t, gitSync(t, s, admin, space, "import", importBody(withCreds("alice", "s3cret-pass"))))

		// Another URL without credentials: none are sent to it, and the
		// saved ones are forgotten (they were for the other URL).
		rec := newAuthRecorder(t, base)
		other := gitSync(t, s, admin, space, "import", importBody(rec.URL+"/docs.git"))
		wantGitState(t, other, "failure", "")
		seen := rec.seen()
		if len(seen) == 0 {
			t.Fatal("the other URL was not reached")
		}
		for _, a := range seen {
			if a != "" {
				t.Fatalf("the other URL received credentials: %q", a)
			}
		}
		if has, sealed := gitSyncCreds(t, s, space); has || sealed != "" {
			t.Fatalf("credentials kept after a sync with another URL: %v %q", has, sealed)
		}
		entries = auditLog(t, s, admin, org, "?action=space.git_sync_import")
		if f := entries[0].Fields; f["credentials"] != false || f["savedCredentials"] != "forgotten" {
			t.Fatalf("audit fields %v", f)
		}
		// Back to the first URL without credentials: none are saved now.
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(plain)), "failure", "")

		// Forgetting: a reader is refused and nothing changes; the admin
		// forgets them, and the next sync without credentials has none.
		wantSuccess(t, gitSync(t, s, admin, space, "import", importBody(withCreds("alice", "s3cret-pass"))))
		_, before := gitSyncCreds(t, s, space)
		reader, _ := s.Member(t, org, folio.RoleRead)
		if _, err := s.App.ForgetGitCredentials(ctx, folio.Caller{UserID: reader.ID}, space); folio.KindOf(err) != folio.Forbidden {
			t.Fatalf("a reader forgets: %v", err)
		}
		stranger, _ := s.User(t)
		if _, err := s.App.ForgetGitCredentials(ctx, folio.Caller{UserID: stranger.ID}, space); folio.KindOf(err) != folio.NotFound {
			t.Fatalf("a stranger forgets: %v", err)
		}
		if has, after := gitSyncCreds(t, s, space); !has || after != before {
			t.Fatal("a refused forget changed the credentials")
		}
		adminCaller := folio.Caller{UserID: whoami(t, s, admin)}
		if existed, err := s.App.ForgetGitCredentials(ctx, adminCaller, space); err != nil || !existed {
			t.Fatalf("forget: %v %v", existed, err)
		}
		if has, sealed := gitSyncCreds(t, s, space); has || sealed != "" {
			t.Fatalf("credentials kept after forgetting: %v %q", has, sealed)
		}
		if existed, err := s.App.ForgetGitCredentials(ctx, adminCaller, space); err != nil || existed {
			t.Fatalf("forget again: %v %v", existed, err)
		}
		if e := auditLog(t, s, admin, org, "?action=space.git_sync_credentials_forgotten"); len(e) != 1 {
			t.Fatalf("forget audit entries %+v", e)
		}
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(plain)), "failure", "")

		// Removing the sync forgets them too; connecting again without
		// credentials has none.
		wantSuccess(t, gitSync(t, s, admin, space, "import", importBody(withCreds("alice", "s3cret-pass"))))
		s.Do(t, admin, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantStatus(t, 204)
		if has, sealed := gitSyncCreds(t, s, space); has || sealed != "" {
			t.Fatalf("credentials kept after removing the sync: %v %q", has, sealed)
		}
		if e := auditLog(t, s, admin, org, "?action=space.git_sync_removed"); len(e) != 1 || e[0].Fields["credentials"] != true {
			t.Fatalf("removal audit entries %+v", e)
		}
		wantGitState(t, gitSync(t, s, admin, space, "import", importBody(plain)), "failure", "")
		if leaked := gitSecretsInDB(t, s, space, "s3cret-pass"); leaked != "" {
			t.Fatalf("the password is stored: %s", leaked)
		}
		for _, e := range auditLog(t, s, admin, org, "") {
			for k, v := range e.Fields {
				if str, _ := v.(string); strings.Contains(str, "s3cret") || strings.Contains(str, "wrong-pass") {
					t.Fatalf("audit %s field %s shows the password", e.Action, k)
				}
			}
		}
	})
}

func wantSuccess(t *testing.T, info gitInfoBody) {
	t.Helper()
	if info.Operation == nil || info.Operation.State != "success" {
		t.Fatalf("operation %+v, want success", info.Operation)
	}
}
