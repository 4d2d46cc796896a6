package app_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"gocloud.dev/blob/fileblob"
)

// countingProxy forwards to target and counts the bytes of its answers.
func countingProxy(t *testing.T, target string) (string, *atomic.Int64) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(res *http.Response) error {
		res.Body = &countBody{ReadCloser: res.Body, n: &n}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

type countBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func randomText(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return string(b)
}

// TestGitImportReadsOnlyWhatPagesNeed imports a repository shaped like a
// real GitBook one over HTTP (git-http-backend): history holding a large
// asset no longer in the tip, many assets no page links to, and one image
// under three names. The first import fetches only the tip; only linked
// assets are stored, the image's bytes once; progress shows while the
// content is read; a later import with the same repoCacheID fetches only
// what changed; git info shows the repository's web address, never the
// credentials.
func TestGitImportReadsOnlyWhatPagesNeed(t *testing.T) {
	gittest.Require(t, true)
	root := t.TempDir()
	repo := gittest.BareIn(t, root, "docs.git")
	// History: a 1 MiB asset, gone from the tip.
	gittest.Commit(t, repo, "main", map[string]string{"README.md": "# Home\n", ".gitbook/assets/history.bin": randomText(1 << 20)}, "old")
	logo := randomText(30 << 10)
	files := map[string]string{".gitbook/assets/history.bin": gittest.Delete,
		".gitbook/assets/logo.png": logo, ".gitbook/assets/logo (1).png": logo, ".gitbook/assets/logo (2).png": logo}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	files["README.md"] = "# Home\n\n![Logo](.gitbook/assets/logo.png)\n"
	for g := range 2 {
		fmt.Fprintf(&summary, "\n## Group %d\n\n", g)
		for i := range 20 {
			name := fmt.Sprintf("g%d/page-%02d.md", g, i)
			fmt.Fprintf(&summary, "* [Page %d-%d](%s)\n", g, i, name)
			img := []string{"logo.png", "logo (1).png", "logo (2).png"}[i%3]
			files[name] = fmt.Sprintf("# Page %d-%d\n\nText.\n\n![Logo](<../.gitbook/assets/%s>)\n", g, i, img)
		}
	}
	files["SUMMARY.md"] = summary.String()
	for i := range 20 {
		files[fmt.Sprintf(".gitbook/assets/unused-%02d.png", i)] = randomText(2 << 10)
	}
	gittest.Commit(t, repo, "main", files, "docs")
	base, transferred := countingProxy(t, gittest.HTTPServer(t, root, "alice", "s3cret-pass"))
	u, _ := url.Parse(base + "/docs.git")
	u.User = url.UserPassword("alice", "s3cret-pass")
	web := "https://github.com/acme/docs"

	for _, kind := range storetest.Stores(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.Open(t, kind, store.Config{})
			bucket, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { bucket.Close() })
			key, err := seal.ParseKey(seal.NewKeyText())
			if err != nil {
				t.Fatal(err)
			}
			sealer, err := seal.New(key)
			if err != nil {
				t.Fatal(err)
			}
			a := app.New(app.Config{DB: db, Blobs: bucket, Sealer: sealer, HTTPClient: app.NewImportClient(true),
				Git: &app.GitConfig{CacheDir: t.TempDir()}})
			runner := jobs.NewRunner(db, nil, a.JobHandlers())
			boot, err := a.Init(ctx, app.InitInput{Email: "git@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			admin, _ := a.Authenticate(ctx, boot.Token)
			sp, err := a.CreateSpace(ctx, admin, boot.Organization.ID, folio.NewSpace{Title: "Docs"})
			if err != nil {
				t.Fatal(err)
			}
			// Each progress record is read back as getSpaceGitInfo shows it.
			var seen []folio.GitOperation
			app.SetGitProgressHookForTest(a, func(space string) {
				info, err := a.GetSpaceGitInfo(ctx, admin, space)
				if err != nil {
					t.Error(err)
					return
				}
				seen = append(seen, *info.Operation)
			})
			run := func() *app.GitInfo {
				t.Helper()
				for {
					n, err := runner.RunDue(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if n == 0 {
						break
					}
				}
				info, err := a.GetSpaceGitInfo(ctx, admin, sp.ID)
				if err != nil {
					t.Fatal(err)
				}
				if info.Operation == nil || info.Operation.State != folio.GitSuccess {
					t.Fatalf("operation %+v", info.Operation)
				}
				return info
			}
			in := app.GitInput{URL: u.String(), Ref: "refs/heads/main", RepoCacheID: "docs-cache"}
			in.GitInfo = &struct {
				Provider string `json:"provider"`
				URL      string `json:"url"`
			}{Provider: "github", URL: web}
			transferred.Store(0)
			if err := a.ImportGitRepository(ctx, admin, sp.ID, in); err != nil {
				t.Fatal(err)
			}
			info := run()
			// Shallow: the tip is ~130 KiB on the wire, history 1 MiB more.
			if n := transferred.Load(); n > 512<<10 {
				t.Errorf("first import transferred %d bytes: history was fetched", n)
			}

			c, err := a.GetContent(ctx, admin, sp.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			blobs := map[content.Hash]bool{}
			for _, f := range c.Tree.Files {
				names = append(names, f.Git.Path)
				blobs[f.Blob] = true
			}
			if got := strings.Join(names, ","); got != ".gitbook/assets/logo (1).png,.gitbook/assets/logo (2).png,.gitbook/assets/logo.png" {
				t.Errorf("files %s: only the linked assets are stored", got)
			}
			if len(blobs) != 1 {
				t.Errorf("%d blobs for one image under three names", len(blobs))
			}

			// Progress: recorded while the content stage ran, then complete.
			var midway bool
			for _, op := range seen {
				if op.State == folio.GitRunning && op.Stage == folio.GitStageContent && op.TasksTotal > 0 && op.TasksDone < op.TasksTotal {
					midway = true
				}
			}
			if !midway {
				t.Errorf("no progress seen during the content stage: %+v", seen)
			}
			// 41 pages and 3 assets read.
			if op := info.Operation; op.TasksDone != 44 || op.TasksTotal != 44 {
				t.Errorf("final progress %d/%d, want 44/44", op.TasksDone, op.TasksTotal)
			}

			// The web address named in gitInfo, never the clone URL.
			if st := info.Sync.State(); st.URL != web || strings.Contains(st.URL, "s3cret") || strings.Contains(info.Sync.URL, "s3cret") {
				t.Errorf("git info url %q (sync url %q)", st.URL, info.Sync.URL)
			}

			// Incremental: one page changes; the same repoCacheID fetches
			// only the new commit, tree and blob (a few KiB).
			gittest.Commit(t, repo, "main", map[string]string{"g0/page-00.md": "# Page 0-0\n\nChanged on " + kind + ".\n"}, "change")
			transferred.Store(0)
			in.GitInfo = nil
			if err := a.ImportGitRepository(ctx, admin, sp.ID, in); err != nil {
				t.Fatal(err)
			}
			info = run()
			if n := transferred.Load(); n > 32<<10 {
				t.Errorf("incremental import transferred %d bytes", n)
			}
			if info.Operation.Outcome != folio.GitOutcomeRevision {
				t.Errorf("outcome %s", info.Operation.Outcome)
			}
			// An operation that names no web address keeps the one named before.
			if st := info.Sync.State(); st.URL != web {
				t.Errorf("git info url after an import without gitInfo: %q", st.URL)
			}
		})
	}
}
