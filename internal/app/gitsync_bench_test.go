package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
	"gocloud.dev/blob/fileblob"
)

// benchRepo returns a repository of pages pages in GitBook's format: a
// SUMMARY.md of folders of 50 pages, each page about 300 words with a
// heading, a list, a code block, a hint and a link, and one image of
// 16 KiB for every ten pages.
func benchRepo(pages int) map[string]string {
	files := map[string]string{".gitbook.yaml": "root: ./\n"}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	files["README.md"] = "# Home\n\nThe start.\n"
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 1; i < pages; i++ {
		folder := fmt.Sprintf("part-%02d", i/50)
		if i%50 == 1 || i == 1 {
			summary.WriteString(fmt.Sprintf("\n## Part %d\n\n", i/50))
		}
		name := fmt.Sprintf("%s/page-%04d.md", folder, i)
		summary.WriteString(fmt.Sprintf("* [Page %d](%s)\n", i, name))
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\n", i)
		for p := range 5 {
			words := make([]string, 50)
			for w := range words {
				words[w] = fmt.Sprintf("word%d", rng.IntN(5000))
			}
			fmt.Fprintf(&b, "%s.\n\n", strings.Join(words, " "))
			if p == 1 {
				b.WriteString("* one\n* two\n\n```go\nfmt.Println(\"hi\")\n```\n\n")
			}
			if p == 2 {
				b.WriteString("{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n")
			}
		}
		if i%10 == 0 {
			img := fmt.Sprintf("image-%04d.png", i)
			fmt.Fprintf(&b, "![Figure %d](../.gitbook/assets/%s)\n", i, img)
			blob := make([]byte, 16<<10)
			for j := range blob {
				blob[j] = byte(rng.IntN(256))
			}
			files[".gitbook/assets/"+img] = string(blob)
		}
		files[name] = b.String()
	}
	files["SUMMARY.md"] = summary.String()
	return files
}

// BenchmarkGitSync times, on each store, the import and the export of a
// 1,000-page repository with 100 images, beside a zip import of the same
// files and a `git clone` of the repository (Debian's git) in the same run.
// Figures are in docs/performance.md.
func BenchmarkGitSync(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	files := benchRepo(1000)
	repo := gittest.Bare(b)
	gittest.Commit(b, repo, "main", files, "benchmark docs")
	repoURL := (&url.URL{Scheme: "file", Path: repo}).String()
	zipData := zipFiles(b, files)

	b.Run("git-clone", func(b *testing.B) {
		for b.Loop() {
			dir := filepath.Join(b.TempDir(), "clone")
			if out, err := exec.Command("git", "clone", "-q", repoURL, dir).CombinedOutput(); err != nil {
				b.Fatalf("git clone: %v\n%s", err, out)
			}
		}
	})
	for _, kind := range storetest.Stores(b) {
		b.Run("store="+kind, func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, kind, store.Config{})
			bucket, err := fileblob.OpenBucket(b.TempDir(), &fileblob.Options{NoTempDir: true})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { bucket.Close() })
			a := app.New(app.Config{DB: db, Blobs: bucket, Git: &app.GitConfig{CacheDir: b.TempDir(), AllowFile: true}})
			runner := jobs.NewRunner(db, nil, a.JobHandlers())
			boot, err := a.Init(ctx, app.InitInput{Email: "bench@example.com"})
			if err != nil {
				b.Fatal(err)
			}
			admin, _ := a.Authenticate(ctx, boot.Token)
			newSpace := func() folio.ID {
				sp, err := a.CreateSpace(ctx, admin, boot.Organization.ID, folio.NewSpace{Title: "Bench"})
				if err != nil {
					b.Fatal(err)
				}
				return sp.ID
			}
			runAll := func(space folio.ID) {
				for {
					n, err := runner.RunDue(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if n == 0 {
						break
					}
				}
				info, err := a.GetSpaceGitInfo(ctx, admin, space)
				if err != nil || info.Operation == nil || info.Operation.State != folio.GitSuccess {
					b.Fatalf("operation %+v %v", info, err)
				}
			}
			var exported folio.ID
			b.Run("import", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					space := newSpace()
					b.StartTimer()
					if err := a.ImportGitRepository(ctx, admin, space, app.GitInput{URL: repoURL, Ref: "refs/heads/main"}); err != nil {
						b.Fatal(err)
					}
					runAll(space)
					exported = space
				}
			})
			b.Run("export", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					out := gittest.Bare(b)
					b.StartTimer()
					in := app.GitInput{URL: (&url.URL{Scheme: "file", Path: out}).String(), Ref: "refs/heads/main",
						CommitMessage: "export", Force: true}
					if err := a.ExportToGitRepository(ctx, admin, exported, in); err != nil {
						b.Fatal(err)
					}
					runAll(exported)
				}
			})
			b.Run("zip-import", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					space := newSpace()
					b.StartTimer()
					_, err := a.ImportContent(ctx, admin, space, "", app.ImportInput{Source: "zip",
						URL: "data:application/zip;base64," + base64.StdEncoding.EncodeToString(zipData)})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func zipFiles(b *testing.B, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// gitbookShapedRepo returns a repository shaped like a large real GitBook
// one: pages pages in 8 groups (a SUMMARY.md with "## Group" sections),
// each linking one or two images, and assets files under .gitbook/assets
// of which only the linked ones (about one in eight) are used; the assets
// are 256 distinct blobs of 4 to 64 KiB, each under many names.
func gitbookShapedRepo(pages, assets int) map[string]string {
	rng := rand.New(rand.NewPCG(3, 4))
	blobs := make([]string, 256)
	for i := range blobs {
		b := make([]byte, 4<<10+rng.IntN(60<<10))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		blobs[i] = string(b)
	}
	files := map[string]string{".gitbook.yaml": "root: ./\n", "README.md": "# Home\n\nWelcome.\n"}
	names := make([]string, assets)
	for i := range names {
		names[i] = fmt.Sprintf("image (%d).png", i)
		files[".gitbook/assets/"+names[i]] = blobs[rng.IntN(len(blobs))]
	}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	per := (pages + 7) / 8
	for i := 1; i < pages; i++ {
		g := i / per
		if i == 1 || i%per == 0 {
			fmt.Fprintf(&summary, "\n## Group %d\n\n", g)
		}
		name := fmt.Sprintf("group-%d/page-%04d.md", g, i)
		fmt.Fprintf(&summary, "* [Page %d](%s)\n", i, name)
		var b strings.Builder
		fmt.Fprintf(&b, "# Page %d\n\n", i)
		for range 4 {
			words := make([]string, 60)
			for w := range words {
				words[w] = fmt.Sprintf("word%d", rng.IntN(5000))
			}
			fmt.Fprintf(&b, "%s.\n\n", strings.Join(words, " "))
		}
		fmt.Fprintf(&b, "![Figure](<../.gitbook/assets/%s>)\n", names[rng.IntN(len(names))])
		if i%2 == 0 {
			fmt.Fprintf(&b, "\n![Figure](<../.gitbook/assets/%s>)\n", names[rng.IntN(len(names))])
		}
		files[name] = b.String()
	}
	files["SUMMARY.md"] = summary.String()
	return files
}

// BenchmarkGitImportGitBookShape times, on each store, the import of a
// repository shaped like a large real GitBook one (473 pages in 8 groups,
// 7,200 asset files of which most are linked from no page, 256 distinct
// blobs under many names), served over HTTP by git-http-backend as a git
// host would, with basic auth. Each import goes into a new space with a
// new cache (a first, shallow fetch). Figures are in docs/performance.md.
func BenchmarkGitImportGitBookShape(b *testing.B) {
	gittest.Require(b, true)
	files := gitbookShapedRepo(473, 7200)
	root := b.TempDir()
	repo := gittest.BareIn(b, root, "docs.git")
	gittest.Commit(b, repo, "main", files, "benchmark docs")
	u, _ := url.Parse(gittest.HTTPServer(b, root, "bench", "bench-pass") + "/docs.git")
	u.User = url.UserPassword("bench", "bench-pass")
	for _, kind := range storetest.Stores(b) {
		b.Run("store="+kind, func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, kind, store.Config{})
			bucket, err := fileblob.OpenBucket(b.TempDir(), &fileblob.Options{NoTempDir: true})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { bucket.Close() })
			key, _ := seal.ParseKey(seal.NewKeyText())
			sealer, err := seal.New(key)
			if err != nil {
				b.Fatal(err)
			}
			a := app.New(app.Config{DB: db, Blobs: bucket, Sealer: sealer, HTTPClient: app.NewImportClient(true),
				Git: &app.GitConfig{CacheDir: b.TempDir()}})
			runner := jobs.NewRunner(db, nil, a.JobHandlers())
			boot, err := a.Init(ctx, app.InitInput{Email: "bench@example.com"})
			if err != nil {
				b.Fatal(err)
			}
			admin, _ := a.Authenticate(ctx, boot.Token)
			for b.Loop() {
				b.StopTimer()
				sp, err := a.CreateSpace(ctx, admin, boot.Organization.ID, folio.NewSpace{Title: "Bench"})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := a.ImportGitRepository(ctx, admin, sp.ID, app.GitInput{URL: u.String(), Ref: "refs/heads/main"}); err != nil {
					b.Fatal(err)
				}
				for {
					n, err := runner.RunDue(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if n == 0 {
						break
					}
				}
				info, err := a.GetSpaceGitInfo(ctx, admin, sp.ID)
				if err != nil || info.Operation == nil || info.Operation.State != folio.GitSuccess {
					b.Fatalf("operation %+v %v", info, err)
				}
			}
		})
	}
}
