package httpapi_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/store"
)

// gitbookRepo is a small repository in GitBook's format: a summary with a
// group, a nested page with front matter, a link page, and an image.
var gitbookRepo = map[string]string{
	".gitbook.yaml": "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n",
	"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started/README.md)\n" +
		"  * [Install](getting-started/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [Website](https://example.com)\n",
	"README.md":                  "# Welcome\n\nHello from **git**.\n",
	"getting-started/README.md":  "# Getting started\n\nSee [Install](install.md).\n",
	"getting-started/install.md": "---\ndescription: How to install it\n---\n\n# Install\n\n<figure><img src=\"../.gitbook/assets/logo.png\" alt=\"Logo\"><figcaption></figcaption></figure>\n",
	"reference/api.md":           "# API\n\nCall it.\n",
	".gitbook/assets/logo.png":   "\x89PNG\r\n\x1a\nnot really a png",
	"src/main.go":                "package main\n",
}

// gitInfoBody is the answer of getSpaceGitInfo.
type gitInfoBody struct {
	RepoName, Integration, URL, UpdatedAt, Ref, Commit string
	InstallationProvider                               string
	Operation                                          *struct {
		ID, State, Direction, Stage, Error, Outcome, Commit, Revision, ChangeRequest string
		CompletedTasks, DispatchedTasks                                              int
	}
}

// fileURL is the file:// URL of a local repository.
func fileURL(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}

// gitSync triggers an import or export and runs the jobs it queued; it
// returns the space's Git info afterwards.
func gitSync(t *testing.T, s *apitest.Server, token, space, direction string, body map[string]any) gitInfoBody {
	t.Helper()
	s.Do(t, token, "POST", "/v1/spaces/"+space+"/git/"+direction, body).WantStatus(t, 204)
	return runGitJobs(t, s, token, space)
}

func runGitJobs(t *testing.T, s *apitest.Server, token, space string) gitInfoBody {
	t.Helper()
	for range 10 {
		n, err := s.Jobs.RunDue(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	var info gitInfoBody
	s.Do(t, token, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 200).JSON(t, &info)
	return info
}

func wantGitState(t *testing.T, info gitInfoBody, state, outcome string) {
	t.Helper()
	if info.Operation == nil || info.Operation.State != state || info.Operation.Outcome != outcome {
		t.Fatalf("operation %+v, want state %s outcome %s", info.Operation, state, outcome)
	}
}

// pagesByPath flattens a revision's pages by path.
func pagesByPath(pages []pageBody, out map[string]pageBody) map[string]pageBody {
	for _, p := range pages {
		out[p.Path] = p
		pagesByPath(p.Pages, out)
	}
	return out
}

func TestGitImportThenExportKeepsTheRepository(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		head := gittest.Commit(t, repo, "main", gitbookRepo, "Docs from git")

		info := gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main",
			"repoCommitURL": "https://git.example.com/docs/commit", "gitInfo": map[string]any{"provider": "github", "url": "https://github.com/acme/docs"}})
		wantGitState(t, info, "success", "revision")
		if info.Operation.Commit != head || info.Commit != head || info.Ref != "refs/heads/main" ||
			info.URL != "https://github.com/acme/docs" || info.InstallationProvider != "github" || info.Integration != "git-sync" ||
			info.Operation.CompletedTasks != info.Operation.DispatchedTasks || info.Operation.CompletedTasks <= 4 {
			t.Fatalf("info %+v", info)
		}

		var rev struct {
			revisionBody
			Git *struct {
				OID, Message, URL, Ref string
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.ID != info.Operation.Revision || rev.Git == nil || rev.Git.OID != head || rev.Git.Message != "Docs from git" ||
			rev.Git.URL != "https://git.example.com/docs/commit/"+head || rev.Git.Ref != "refs/heads/main" {
			t.Fatalf("revision %+v git %+v", rev.revisionBody, rev.Git)
		}
		pages := pagesByPath(rev.Pages, map[string]pageBody{})
		install, ok := pages["getting-started/install"]
		if !ok || install.Title != "Install" || install.Description != "How to install it" {
			t.Fatalf("pages %v", pages)
		}
		if len(rev.Files) != 1 || rev.Files[0].Name != "logo.png" {
			t.Fatalf("files %+v", rev.Files)
		}
		var sp struct {
			GitSync *struct{ RepoName, URL, InstallationProvider string }
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space, nil).WantStatus(t, 200).JSON(t, &sp)
		if sp.GitSync == nil || sp.GitSync.URL != "https://github.com/acme/docs" || sp.GitSync.InstallationProvider != "github" {
			t.Fatalf("space gitSync %+v", sp.GitSync)
		}

		// Export to a new repository: the docs come out as they went in,
		// byte for byte.
		out := gittest.Bare(t)
		info = gitSync(t, s, admin, space, "export", map[string]any{"url": fileURL(out), "ref": "refs/heads/main",
			"commitMessage": "Export from Folio"})
		wantGitState(t, info, "success", "commit")
		got := gittest.Read(t, out, "refs/heads/main")
		for path, want := range gitbookRepo {
			if path == "src/main.go" {
				continue // not docs: the new repository never had it
			}
			if got[path] != want {
				t.Errorf("%s:\n%q\nwant\n%q", path, got[path], want)
			}
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).WantStatus(t, 200).JSON(t, &rev)
		if rev.Git == nil || rev.Git.OID != info.Operation.Commit || rev.Git.Message != "Export from Folio" {
			t.Fatalf("revision git after export %+v", rev.Git)
		}

		// Export back to the first repository: files that are not docs stay.
		info = gitSync(t, s, admin, space, "export", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main",
			"commitMessage": "Nothing new"})
		wantGitState(t, info, "success", "commit")
		if back := gittest.Read(t, repo, "refs/heads/main"); back["src/main.go"] != "package main\n" || back["README.md"] != gitbookRepo["README.md"] {
			t.Fatalf("repository after export %v", back)
		}
	})
}

func TestGitExportThenImportGivesTheSameContent(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		src := newSpace(t, s, admin, org, "Source")
		importInto(t, s, admin, src, "", "zip", zipOf(t, map[string]string{
			"SUMMARY.md":                  "# Summary\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n",
			"README.md":                   "# Home\n\nWelcome. Read the [setup](guide/setup.md).\n",
			"guide/README.md":             "# Guide\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n",
			"guide/setup.md":              "# Setup\n\n```go\nfmt.Println(1)\n```\n\n- one\n- two\n\n![Diagram](../.gitbook/assets/diagram.png)\n",
			".gitbook/assets/diagram.png": "\x89PNG\r\n\x1a\nthe diagram",
		}))
		repo := gittest.Bare(t)
		wantGitState(t, gitSync(t, s, admin, src, "export", map[string]any{"url": fileURL(repo), "ref": "refs/heads/docs",
			"commitMessage": "First export"}), "success", "commit")

		dst := newSpace(t, s, admin, org, "Copy")
		wantGitState(t, gitSync(t, s, admin, dst, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/docs"}),
			"success", "revision")
		var a, b revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+src+"/content", nil).JSON(t, &a)
		s.Do(t, admin, "GET", "/v1/spaces/"+dst+"/content", nil).JSON(t, &b)
		pa, pb := pagesByPath(a.Pages, map[string]pageBody{}), pagesByPath(b.Pages, map[string]pageBody{})
		if len(pa) != 3 || len(pa) != len(pb) {
			t.Fatalf("pages %v vs %v", pa, pb)
		}
		if len(a.Files) != 1 || len(b.Files) != 1 || a.Files[0].Name != b.Files[0].Name || a.Files[0].Size != b.Files[0].Size ||
			a.Files[0].ContentType != b.Files[0].ContentType {
			t.Fatalf("files %+v vs %+v", a.Files, b.Files)
		}
		for path, p := range pa {
			q, ok := pb[path]
			if !ok || q.Title != p.Title {
				t.Fatalf("page %s: %+v vs %+v", path, p, q)
			}
			var da, db pageBody
			s.Do(t, admin, "GET", "/v1/spaces/"+src+"/content/page/"+p.ID+"?format=markdown", nil).JSON(t, &da)
			s.Do(t, admin, "GET", "/v1/spaces/"+dst+"/content/page/"+q.ID+"?format=markdown", nil).JSON(t, &db)
			if da.Markdown == nil || db.Markdown == nil || normalizeIDs(*da.Markdown, src, a.Files[0].ID) != normalizeIDs(*db.Markdown, dst, b.Files[0].ID) {
				t.Errorf("page %s markdown differs:\n%v\n%v", path, deref(da.Markdown), deref(db.Markdown))
			}
		}
	})
}

// normalizeIDs removes the space and file ids from a page's Markdown, which
// differ between two spaces holding the same content.
func normalizeIDs(md, space, file string) string {
	md = strings.ReplaceAll(md, space, "SPACE")
	md = strings.ReplaceAll(md, file, "FILE")
	if i := strings.Index(md, "/v1/files/"); i >= 0 {
		md = md[:i] // signed download URLs differ by expiry and signature
	}
	return md
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestGitSyncValidation(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := fileURL(gittest.Bare(t))
		ok := map[string]any{"url": repo, "ref": "refs/heads/main", "commitMessage": "m"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for k, v := range ok {
				m[k] = v
			}
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
			return m
		}
		for _, tc := range []struct {
			name, direction string
			body            map[string]any
			msg             string
		}{
			{"no url", "import", with("url", nil), "url is required"},
			{"relative url", "import", with("url", "docs.git"), "url must be an absolute http, https, ssh or file URL"},
			{"ftp url", "export", with("url", "ftp://example.com/docs.git"), "url must be an absolute http, https, ssh or file URL"},
			{"long url", "import", with("url", "https://example.com/"+strings.Repeat("a", 2100)), "url must be at most 2048 characters"},
			{"ssh without key", "import", with("url", "ssh://git@example.com/docs.git"), "ssh repositories need an ssh key configured on this server (--git-ssh-key)"},
			{"query", "import", with("url", "https://example.com/docs.git?x=1"), "url must not have a query or a fragment"},
			{"file with credentials", "import", with("url", "file://me:pw@/tmp/x"), "a file URL cannot carry credentials"},
			{"no ref", "import", with("ref", nil), "ref is required"},
			{"tag ref", "import", with("ref", "refs/tags/v1"), "ref must be a branch in the form refs/heads/<branch>"},
			{"bare branch", "export", with("ref", "main"), "ref must be a branch in the form refs/heads/<branch>"},
			{"dotdot ref", "import", with("ref", "refs/heads/a..b"), "ref must be a branch in the form refs/heads/<branch>"},
			{"lock ref", "import", with("ref", "refs/heads/x.lock"), "ref must be a branch in the form refs/heads/<branch>"},
			{"space in ref", "import", with("ref", "refs/heads/a b"), "ref must be a branch in the form refs/heads/<branch>"},
			{"no message", "export", with("commitMessage", nil), "commitMessage is required"},
			{"blank message", "export", with("commitMessage", "  "), "commitMessage is required"},
			{"standalone export", "export", with("standalone", true), "standalone applies to imports only"},
			{"project dir escapes", "import", with("repoProjectDirectory", "../x"), "repoProjectDirectory must be a relative folder of the repository, without .."},
			{"project dir .git", "import", with("repoProjectDirectory", "docs/.git"), "repoProjectDirectory must be a relative folder of the repository, without .."},
			{"cache id", "import", with("repoCacheID", "a b"), "repoCacheID must be at most 128 letters, digits and ._:/@-"},
			{"tree url", "import", with("repoTreeURL", "javascript:alert(1)"), "repoTreeURL must be an absolute http or https URL without credentials"},
			{"provider", "import", with("gitInfo", map[string]any{"provider": "bitbucket"}), "gitInfo.provider must be github or gitlab"},
			{"future timestamp", "import", with("timestamp", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), "timestamp is in the future (more than 5m0s ahead of the server's clock)"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				body := tc.body
				if tc.direction == "import" {
					delete(body, "commitMessage")
				}
				s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/"+tc.direction, body).WantError(t, 400, tc.msg)
			})
		}
		// Nothing was recorded: no git sync, no job.
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/git/info", nil).WantError(t, 404, "no git sync is set up on this space")
		var n int
		s.DB.Read(context.Background(), func(tx *store.Tx) (err error) {
			n, err = store.CountJobs(context.Background(), tx, folio.JobGitSync)
			return err
		})
		if n != 0 {
			t.Fatalf("%d git jobs queued by refused requests", n)
		}
	})
}

func TestGitSyncAccess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Hi\n"}, "init")
		body := map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}
		_, reader := s.Member(t, org, folio.RoleRead)
		_, editor := s.Member(t, org, folio.RoleEdit)
		otherOrg, outsider := s.Org(t)
		_ = otherOrg

		s.Do(t, reader, "POST", "/v1/spaces/"+space+"/git/import", body).WantError(t, 403, "you cannot sync this space with git")
		s.Do(t, outsider, "POST", "/v1/spaces/"+space+"/git/import", body).WantStatus(t, 404)
		s.Do(t, outsider, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 404)
		s.Do(t, editor, "GET", "/v1/spaces/"+space+"/git/info", nil).WantError(t, 404, "no git sync is set up on this space")

		// file:// (and ssh://) use the server's own access: admins only.
		s.Do(t, editor, "POST", "/v1/spaces/"+space+"/git/import", body).
			WantError(t, 403, "only organization admins may sync with file repositories, which use the server's own access")
		wantGitState(t, gitSync(t, s, admin, space, "import", body), "success", "revision")
		s.Do(t, reader, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 200)
		s.Do(t, outsider, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 404)
		s.Do(t, reader, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantError(t, 403, "you cannot sync this space with git")
		s.Do(t, outsider, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantStatus(t, 404)

		// Removing the git sync answers 204, also when already removed.
		s.Do(t, editor, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantStatus(t, 204)
		s.Do(t, editor, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantStatus(t, 204)
		s.Do(t, editor, "GET", "/v1/spaces/"+space+"/git/info", nil).WantError(t, 404, "no git sync is set up on this space")
		var sp map[string]any
		s.Do(t, editor, "GET", "/v1/spaces/"+space, nil).JSON(t, &sp)
		if _, ok := sp["gitSync"]; ok {
			t.Fatalf("space still shows gitSync: %v", sp["gitSync"])
		}

		// A locked space refuses syncs.
		s.Do(t, admin, "PATCH", "/v1/spaces/"+space, map[string]any{"editMode": "locked"}).WantStatus(t, 200)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", body).WantError(t, 403, "the space is locked: unlock it before syncing it with git")
	})
}

func TestGitSyncOverHTTPWithBasicAuth(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		root := t.TempDir()
		repo := gittest.BareIn(t, root, "docs.git")
		gittest.Commit(t, repo, "main", gitbookRepo, "Docs over HTTP")
		base := gittest.HTTPServer(t, root, "alice", "s3cret-pass")
		u, _ := url.Parse(base + "/docs.git")

		// A wrong password fails the operation, and says so without it.
		u.User = url.UserPassword("alice", "wrong-pass-123")
		info := gitSync(t, s, admin, space, "import", map[string]any{"url": u.String(), "ref": "refs/heads/main"})
		wantGitState(t, info, "failure", "")
		if info.Operation.Error == "" || strings.Contains(info.Operation.Error, "wrong-pass-123") || strings.Contains(info.URL, "alice") {
			t.Fatalf("failure %+v", info)
		}

		u.User = url.UserPassword("alice", "s3cret-pass")
		info = gitSync(t, s, admin, space, "import", map[string]any{"url": u.String(), "ref": "refs/heads/main"})
		wantGitState(t, info, "success", "revision")
		if strings.Contains(info.URL, "s3cret") || info.RepoName != "docs" && info.RepoName != "/docs" && !strings.HasSuffix(info.RepoName, "docs") {
			t.Fatalf("info %+v", info)
		}
		// Export over HTTP too: a new branch.
		info = gitSync(t, s, admin, space, "export", map[string]any{"url": u.String(), "ref": "refs/heads/folio", "commitMessage": "From Folio"})
		wantGitState(t, info, "success", "commit")
		if got := gittest.Read(t, repo, "refs/heads/folio"); got["README.md"] != gitbookRepo["README.md"] {
			t.Fatalf("pushed tree %v", got)
		}

		// Operations do not keep credentials once they end, and nothing
		// keeps them in clear (the space's sync keeps them sealed:
		// TestGitSyncKeepsCredentialsForItsURL).
		if leaked := gitSecretsInDB(t, s, space, "s3cret-pass"); leaked != "" {
			t.Fatalf("the password is stored: %s", leaked)
		}
	})
}

// gitSecretsInDB says where a space's git operations, sync or events keep
// secret (in clear, or sealed after the operation ended), or "".
func gitSecretsInDB(t *testing.T, s *apitest.Server, space, secret string) string {
	t.Helper()
	ctx := context.Background()
	found := ""
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		ops, err := store.ListGitOperations(ctx, tx, space)
		if err != nil {
			return err
		}
		if len(ops) == 0 {
			return fmt.Errorf("no operations recorded")
		}
		for _, o := range ops {
			_, params, creds, err := store.GetGitOperation(ctx, tx, o.ID)
			if err != nil {
				return err
			}
			switch {
			case strings.Contains(params, secret) || strings.Contains(o.URL, secret) || strings.Contains(o.Error, secret):
				found = "operation " + o.ID + " in clear"
			case creds != "":
				found = "operation " + o.ID + " still holds sealed credentials"
			}
		}
		g, err := store.GetGitSync(ctx, tx, space)
		if err != nil {
			return err
		}
		if strings.Contains(g.URL, secret) || strings.Contains(g.URL, "alice") {
			found = "git sync url " + g.URL
		}
		events, err := store.ListSpaceEvents(ctx, tx, space, 100)
		if err != nil {
			return err
		}
		for _, e := range events {
			if strings.Contains(string(e.Payload), secret) {
				found = "event " + e.Type
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestGitSyncOrderByTimestamp(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# One\n"}, "one")
		now := time.Now().UTC()
		body := func(ts time.Time) map[string]any {
			return map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "timestamp": ts.Format(time.RFC3339Nano), "force": true}
		}
		// The newer event is queued first; the older one, queued after it,
		// is skipped and recorded as such.
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", body(now)).WantStatus(t, 204)
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", body(now.Add(-time.Minute))).WantStatus(t, 204)
		info := runGitJobs(t, s, admin, space)
		if info.Operation == nil || info.Operation.State != "skipped" || !strings.Contains(info.Operation.Error, "an event newer than this one") {
			t.Fatalf("older event: %+v", info.Operation)
		}
		ops, err := s.App.ListGitOperations(context.Background(), folio.Caller{UserID: userID(t, s, admin), Org: ""}, space)
		if err != nil || len(ops) != 2 || ops[0].State != folio.GitSuccess || ops[1].State != folio.GitSkipped {
			t.Fatalf("operations %+v %v", ops, err)
		}
		// A newer one runs.
		info = gitSync(t, s, admin, space, "import", body(now.Add(time.Minute)))
		wantGitState(t, info, "success", "revision")
	})
}

func userID(t *testing.T, s *apitest.Server, token string) string {
	t.Helper()
	var me struct{ ID string }
	s.Do(t, token, "GET", "/v1/user", nil).WantStatus(t, 200).JSON(t, &me)
	return me.ID
}

func TestGitImportConflictLandsAsChangeRequest(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nFirst.\n"}, "first")
		body := map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}
		first := gitSync(t, s, admin, space, "import", body)
		wantGitState(t, first, "success", "revision")

		// Nothing changed in the repository: up to date.
		wantGitState(t, gitSync(t, s, admin, space, "import", body), "success", "up-to-date")

		// Both sides change.
		importInto(t, s, admin, space, "", "markdown", []byte("# Space edit\n\nMade in Folio.\n"))
		var edited revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &edited)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nSecond, from git.\n"}, "second")

		info := gitSync(t, s, admin, space, "import", body)
		wantGitState(t, info, "success", "change-request")
		var now revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != edited.ID {
			t.Fatalf("the conflicting import changed the space: %s, want %s", now.ID, edited.ID)
		}
		var cr crBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/change-requests/"+info.Operation.ChangeRequest, nil).WantStatus(t, 200).JSON(t, &cr)
		if cr.Status != "open" || cr.Subject != "Import from git: second" || cr.RevisionInitial != first.Operation.Revision {
			t.Fatalf("change request %+v", cr)
		}
		var head revisionBody
		s.Do(t, admin, "GET", crPath(space, cr)+"/content", nil).JSON(t, &head)
		if len(head.Pages) != 1 || head.Pages[0].Title != "Home" {
			t.Fatalf("change request head %+v", head.Pages)
		}
		var page pageBody
		s.Do(t, admin, "GET", crPath(space, cr)+"/content/page/"+head.Pages[0].ID+"?format=markdown", nil).JSON(t, &page)
		if page.Markdown == nil || !strings.Contains(*page.Markdown, "Second, from git.") {
			t.Fatalf("head markdown %v", deref(page.Markdown))
		}

		// With force, the repository wins.
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nThird.\n"}, "third")
		info = gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "force": true})
		wantGitState(t, info, "success", "revision")
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != info.Operation.Revision || len(now.Pages) != 1 || now.Pages[0].Title != "Home" {
			t.Fatalf("forced import: %+v", now)
		}
	})
}

func TestGitExportRejectedWhenTheBranchMoved(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n\nFirst.\n"}, "first")
		wantGitState(t, gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}), "success", "revision")

		importInto(t, s, admin, space, "", "markdown", []byte("# Added\n\nIn Folio.\n"))
		moved := gittest.Commit(t, repo, "main", map[string]string{"other.md": "# Other\n"}, "someone else")

		export := map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "commitMessage": "Folio edits"}
		info := gitSync(t, s, admin, space, "export", export)
		wantGitState(t, info, "failure", "")
		if !strings.Contains(info.Operation.Error, "rejected as non-fast-forward") {
			t.Fatalf("error %q", info.Operation.Error)
		}
		if tip := gittest.Head(t, repo, "refs/heads/main"); tip != moved {
			t.Fatalf("the refused export moved the branch to %s", tip)
		}
		export["force"] = true
		info = gitSync(t, s, admin, space, "export", export)
		wantGitState(t, info, "success", "commit")
		got := gittest.Read(t, repo, "refs/heads/main")
		if !strings.Contains(got["SUMMARY.md"], "Added") {
			t.Fatalf("forced export tree %v", got)
		}
	})
}

func TestGitImportStandalone(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var before revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &before)
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Alone\n"}, "alone")
		info := gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "standalone": true})
		wantGitState(t, info, "success", "revision")
		var now, standalone revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != before.ID {
			t.Fatalf("a standalone import changed the space's content")
		}
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/revisions/"+info.Operation.Revision, nil).WantStatus(t, 200).JSON(t, &standalone)
		if len(standalone.Pages) != 1 || standalone.Pages[0].Title != "Alone" {
			t.Fatalf("standalone revision %+v", standalone)
		}
	})
}

func TestGitImportBadConfigFails(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var before revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &before)
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{".gitbook.yaml": "root: ./\nstructure:\n  readme: [unclosed\n", "README.md": "# x\n"}, "bad")
		info := gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
		wantGitState(t, info, "failure", "")
		if !strings.Contains(info.Operation.Error, "line") || info.Operation.Stage != "config_check" {
			t.Fatalf("operation %+v", info.Operation)
		}
		var now revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
		if now.ID != before.ID {
			t.Fatalf("a failed import changed the space")
		}
		// A missing branch fails too.
		info = gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/nope"})
		wantGitState(t, info, "failure", "")
		// So does an unreachable server, at once rather than after retries
		// that would hold up the space's next operations.
		info = gitSync(t, s, admin, space, "import", map[string]any{"url": "http://127.0.0.1:1/docs.git", "ref": "refs/heads/main"})
		wantGitState(t, info, "failure", "")
		if info.Operation.Error == "" || info.Operation.Stage != "repo_fetch" {
			t.Fatalf("unreachable: %+v", info.Operation)
		}
		gittest.Commit(t, repo, "main", map[string]string{".gitbook.yaml": "root: ./\n"}, "fixed")
		wantGitState(t, gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}), "success", "revision")
	})
}

// readRepoDir reads a repository written by hand from testdata.
func readRepoDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The hand-written GitBook repositories of internal/gitsync (a book, and a
// page per GitBook block) go through the API: import, then export into an
// empty repository, where no byte of the original can be kept, and every
// file comes out as it went in; events record each operation.
func TestGitRoundTripOfHandWrittenRepositories(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		for _, name := range []string{"book", "blocks"} {
			t.Run(name, func(t *testing.T) {
				files := readRepoDir(t, filepath.Join("..", "gitsync", "testdata", name))
				space := newSpace(t, s, admin, org, name)
				repo := gittest.Bare(t)
				gittest.Commit(t, repo, "main", files, "hand-written "+name)
				info := gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"})
				wantGitState(t, info, "success", "revision")

				var rev revisionBody
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &rev)
				var page struct {
					Git *struct{ OID, Path string }
				}
				s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content/page/"+rev.Pages[0].ID, nil).JSON(t, &page)
				if page.Git == nil || page.Git.Path != "README.md" || len(page.Git.OID) != 40 {
					t.Fatalf("first page git %+v", page.Git)
				}

				out := gittest.Bare(t)
				info = gitSync(t, s, admin, space, "export", map[string]any{"url": fileURL(out), "ref": "refs/heads/main", "commitMessage": "round trip"})
				wantGitState(t, info, "success", "commit")
				got := gittest.Read(t, out, "refs/heads/main")
				for path, want := range files {
					if path == "LICENSE" {
						continue // not docs: an empty repository never had it
					}
					if got[path] != want {
						t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got[path], want)
					}
				}

				var types []string
				s.DB.Read(context.Background(), func(tx *store.Tx) error {
					events, err := store.ListSpaceEvents(context.Background(), tx, space, 10)
					for i := len(events) - 1; i >= 0; i-- {
						types = append(types, events[i].Type)
					}
					return err
				})
				want := []string{"space_gitsync_started", "space_content_updated", "space_gitsync_completed", "space_gitsync_started", "space_gitsync_completed"}
				if strings.Join(types, " ") != strings.Join(want, " ") {
					t.Fatalf("events %v", types)
				}
			})
		}
	})
}

// Removing the git sync ends the operations still waiting (they never run,
// and lose their credentials), and forgets the newest timestamp processed.
func TestGitSyncRemovalSkipsQueuedOperations(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n"}, "init")
		body := map[string]any{"url": fileURL(repo), "ref": "refs/heads/main", "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", body).WantStatus(t, 204)
		s.Do(t, admin, "DELETE", "/v1/spaces/"+space+"/git/legacy-installation", nil).WantStatus(t, 204)
		runJobs(t, s)
		ctx := context.Background()
		var ops []folio.GitOperation
		s.DB.Read(ctx, func(tx *store.Tx) (err error) { ops, err = store.ListGitOperations(ctx, tx, space); return err })
		if len(ops) != 1 || ops[0].State != folio.GitSkipped || !strings.Contains(ops[0].Error, "git sync was removed") {
			t.Fatalf("operations %+v", ops)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &rev)
		if len(rev.Pages) != 0 {
			t.Fatalf("a removed sync imported: %+v", rev.Pages)
		}
		// Connecting again works, with an older timestamp too.
		body["timestamp"] = time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
		wantGitState(t, gitSync(t, s, admin, space, "import", body), "success", "revision")
	})
}

// The redirects of .gitbook.yaml become redirects of the sites that publish
// the space, without replacing one a site already has.
func TestGitImportRedirectsBecomeSiteRedirects(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		var site struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}).WantStatus(t, 201).JSON(t, &site)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/sites/"+site.ID+"/redirects", map[string]any{"source": "/kept",
			"destination": map[string]any{"kind": "site-section", "siteSectionId": "nope"}}).WantStatus(t, 400)
		repo := gittest.Bare(t)
		gittest.Commit(t, repo, "main", map[string]string{
			".gitbook.yaml": "root: ./\n\nredirects:\n  old/setup: setup.md\n  docs/start: README.md\n",
			"SUMMARY.md":    "# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n",
			"README.md":     "# Home\n", "setup.md": "# Setup\n",
		}, "with redirects")
		wantGitState(t, gitSync(t, s, admin, space, "import", map[string]any{"url": fileURL(repo), "ref": "refs/heads/main"}), "success", "revision")
		var list struct {
			Items []struct {
				Source      string
				Destination map[string]any
			}
		}
		s.Do(t, admin, "GET", "/v1/orgs/"+org+"/sites/"+site.ID+"/redirects", nil).WantStatus(t, 200).JSON(t, &list)
		got := map[string]string{}
		for _, r := range list.Items {
			got[r.Source], _ = r.Destination["pageId"].(string)
		}
		var rev revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &rev)
		if len(got) != 2 || got["/old/setup"] != rev.Pages[1].ID || got["/docs/start"] != rev.Pages[0].ID {
			t.Fatalf("redirects %v, pages %+v", got, rev.Pages)
		}
	})
}

// A git operation whose job the runner gives up ends as failed, its
// credentials erased, rather than staying queued forever.
func TestGitOperationOfAGivenUpJobEnds(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		s.Do(t, admin, "POST", "/v1/spaces/"+space+"/git/import", map[string]any{
			"url": "https://alice:secret-pw@git.example.com/docs.git", "ref": "refs/heads/main"}).WantStatus(t, 204)
		ctx := context.Background()
		var ops []folio.GitOperation
		s.DB.Read(ctx, func(tx *store.Tx) (err error) { ops, err = store.ListGitOperations(ctx, tx, space); return err })
		if len(ops) != 1 || ops[0].State != folio.GitQueued {
			t.Fatalf("operations %+v", ops)
		}
		s.App.JobGiveUps()[folio.JobGitSync](ctx, `{"operation":"`+ops[0].ID+`"}`, "out of attempts")
		var info gitInfoBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/git/info", nil).WantStatus(t, 200).JSON(t, &info)
		if info.Operation == nil || info.Operation.State != "failure" || info.Operation.Error != "the operation could not finish and was given up" {
			t.Fatalf("operation %+v", info.Operation)
		}
		if leaked := gitSecretsInDB(t, s, space, "secret-pw"); leaked != "" {
			t.Fatalf("after giving up: %s", leaked)
		}
	})
}
