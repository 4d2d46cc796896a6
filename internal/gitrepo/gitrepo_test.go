package gitrepo_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/gitrepo/gittest"
	"github.com/google/go-cmp/cmp"
)

const (
	user     = "alice"
	password = "s3cr3t-pa55"
)

// countingTransport counts the response bytes read through it.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	res.Body = &countingBody{ReadCloser: res.Body, n: &c.n}
	return res, nil
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func newClient(t *testing.T, edit func(*gitrepo.Options)) *gitrepo.Client {
	t.Helper()
	o := gitrepo.Options{CacheDir: t.TempDir(), HTTP: &http.Client{}, AllowFile: true, Timeout: time.Minute}
	if edit != nil {
		edit(&o)
	}
	c, err := gitrepo.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// setup is one way to reach a fresh bare repository.
type setup struct {
	name string
	// repo returns the bare directory and the URL Folio uses for it.
	repo func(t *testing.T) (dir, url string)
}

var setups = []setup{
	{"file", func(t *testing.T) (string, string) {
		dir := gittest.Bare(t)
		return dir, "file://" + dir
	}},
	{"http", func(t *testing.T) (string, string) {
		root := t.TempDir()
		dir := gittest.BareIn(t, root, "docs.git")
		base := gittest.HTTPServer(t, root, user, password)
		return dir, strings.Replace(base, "http://", "http://"+user+":"+password+"@", 1) + "/docs.git"
	}},
}

func toBytes(m map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

func toStrings(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

func TestFetch(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			files := map[string]string{"README.md": "# Hello\n", "guide/install.md": "# Install\n", ".gitbook.yaml": "root: ./\n"}
			hash := gittest.Commit(t, dir, "main", files, "first")
			c := newClient(t, nil)
			got, err := c.Fetch(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/main"}, "space1")
			if err != nil {
				t.Fatal(err)
			}
			if got.Hash != hash || got.Message != "first\n" || got.Empty {
				t.Errorf("commit = %s %q empty=%v, want %s", got.Hash, got.Message, got.Empty, hash)
			}
			if diff := cmp.Diff(files, toStrings(got.Files)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFetchMissingRef(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			c := newClient(t, nil)
			// An empty repository, then one without the branch.
			got, err := c.Fetch(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/main"}, "x")
			if err != nil || !got.Empty {
				t.Fatalf("empty repository: %+v, %v", got, err)
			}
			gittest.Commit(t, dir, "main", map[string]string{"a.md": "a"}, "first")
			got, err = c.Fetch(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/other"}, "x")
			if err != nil || !got.Empty {
				t.Fatalf("missing branch: %+v, %v", got, err)
			}
		})
	}
}

func TestFetchMissingRepository(t *testing.T) {
	c := newClient(t, nil)
	_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: "file://" + t.TempDir() + "/nope.git", Ref: "refs/heads/main"}, "")
	if !errors.Is(err, gitrepo.ErrRepoNotFound) || folio.KindOf(err) != folio.Invalid {
		t.Fatalf("err = %v, want ErrRepoNotFound", err)
	}
}

func TestCredentialsNeverInErrors(t *testing.T) {
	root := t.TempDir()
	dir := gittest.BareIn(t, root, "docs.git")
	gittest.Commit(t, dir, "main", map[string]string{"a.md": "a"}, "first")
	base := gittest.HTTPServer(t, root, user, password)
	c := newClient(t, nil)
	wrong := "wrong-Pa55word"

	tests := []struct {
		name   string
		url    string
		secret string
		is     error
	}{
		{"wrong password", strings.Replace(base, "http://", "http://"+user+":"+wrong+"@", 1) + "/docs.git", wrong, gitrepo.ErrAuth},
		{"no credentials", base + "/docs.git", "", gitrepo.ErrAuth},
		{"bad port", "http://" + user + ":" + wrong + "@127.0.0.1:99999x/docs.git", wrong, nil},
		{"bad escape", "http://" + user + ":" + wrong + "%zz@example.com/docs.git", wrong, nil},
		{"unreachable", "http://" + user + ":" + wrong + "@127.0.0.1:1/docs.git", wrong, gitrepo.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: tt.url, Ref: "refs/heads/main"}, "")
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want %v", err, tt.is)
			}
			if folio.KindOf(err) == folio.Internal {
				t.Errorf("kind of %v is internal", err)
			}
			if tt.secret != "" && (strings.Contains(err.Error(), tt.secret) || strings.Contains(folio.MessageOf(err), tt.secret)) {
				t.Errorf("error leaks the password: %v", err)
			}
			_, err = c.Push(context.Background(), gitrepo.Remote{URL: tt.url, Ref: "refs/heads/main"}, "", "",
				map[string][]byte{"a.md": []byte("b")}, "msg", gitrepo.Signature{Name: "F", Email: "f@example.com"}, false)
			if err == nil || (tt.secret != "" && strings.Contains(err.Error(), tt.secret)) {
				t.Errorf("push error leaks the password or is nil: %v", err)
			}
		})
	}
}

func TestNotAllowed(t *testing.T) {
	dir := gittest.Bare(t)
	tests := []struct {
		name string
		edit func(*gitrepo.Options)
		url  string
	}{
		{"file not allowed", func(o *gitrepo.Options) { o.AllowFile = false }, "file://" + dir},
		{"local path not allowed", func(o *gitrepo.Options) { o.AllowFile = false }, dir},
		{"http without client", func(o *gitrepo.Options) { o.HTTP = nil }, "http://127.0.0.1:1/x.git"},
		{"https without client", func(o *gitrepo.Options) { o.HTTP = nil }, "https://example.com/x.git"},
		{"ssh without key", nil, "ssh://git@example.com/x.git"},
		{"scp-like ssh without key", nil, "git@example.com:x.git"},
		{"git protocol", nil, "git://example.com/x.git"},
		{"other scheme", nil, "ftp://example.com/x.git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, tt.edit)
			_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: tt.url, Ref: "refs/heads/main"}, "")
			if !errors.Is(err, gitrepo.ErrNotAllowed) || folio.KindOf(err) != folio.Invalid {
				t.Fatalf("err = %v, want Invalid ErrNotAllowed", err)
			}
		})
	}
}

func TestInvalidRemote(t *testing.T) {
	c := newClient(t, nil)
	tests := []struct{ name, url, ref string }{
		{"empty url", "", "refs/heads/main"},
		{"relative path", "repo.git", "refs/heads/main"},
		{"ref not a branch", "/tmp/x.git", "refs/tags/v1"},
		{"ref without name", "/tmp/x.git", "refs/heads/"},
		{"ref with dots", "/tmp/x.git", "refs/heads/a..b"},
		{"bare branch name", "/tmp/x.git", "main"},
		{"newline in url", "/tmp/x\n.git", "refs/heads/main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: tt.url, Ref: tt.ref}, "")
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("err = %v, want Invalid", err)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://user:pw@example.com/a.git", "https://example.com/a.git"},
		{"https://token@example.com/a.git", "https://example.com/a.git"},
		{"https://example.com/a.git?private_token=x#frag", "https://example.com/a.git"},
		{"ssh://git@example.com/a.git", "ssh://git@example.com/a.git"},
		{"git@example.com:a.git", "git@example.com:a.git"},
		{"file:///srv/a.git", "file:///srv/a.git"},
		{"http://u:p%zz@example.com/a.git", "http://example.com/a.git"},
		{"http://u:pw@host:99999x/a.git", "http://host:99999x/a.git"},
	}
	for _, tt := range tests {
		if got := gitrepo.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCachedFetchTransfersOnlyNewObjects(t *testing.T) {
	root := t.TempDir()
	dir := gittest.BareIn(t, root, "docs.git")
	big := make([]byte, 300<<10)
	rand.Read(big)
	gittest.Commit(t, dir, "main", map[string]string{"big.bin": string(big), "a.md": "a"}, "first")
	base := gittest.HTTPServer(t, root, user, password)
	url := strings.Replace(base, "http://", "http://"+user+":"+password+"@", 1) + "/docs.git"
	counter := &countingTransport{}
	c := newClient(t, func(o *gitrepo.Options) { o.HTTP = &http.Client{Transport: counter} })
	r := gitrepo.Remote{URL: url, Ref: "refs/heads/main"}

	if _, err := c.Fetch(context.Background(), r, "space"); err != nil {
		t.Fatal(err)
	}
	first := counter.n.Swap(0)
	if first < 300<<10 {
		t.Fatalf("first fetch read %d bytes, want the whole pack", first)
	}
	hash := gittest.Commit(t, dir, "main", map[string]string{"a.md": "changed"}, "second")
	got, err := c.Fetch(context.Background(), r, "space")
	if err != nil {
		t.Fatal(err)
	}
	second := counter.n.Swap(0)
	if got.Hash != hash || string(got.Files["a.md"]) != "changed" || len(got.Files["big.bin"]) != len(big) {
		t.Fatalf("second fetch: %s %q", got.Hash, got.Files["a.md"])
	}
	if second > first/10 {
		t.Errorf("second fetch read %d bytes, first %d: the cache was not reused", second, first)
	}
	// A throwaway cache transfers everything again.
	if _, err := c.Fetch(context.Background(), r, ""); err != nil {
		t.Fatal(err)
	}
	if n := counter.n.Load(); n < 300<<10 {
		t.Errorf("throwaway fetch read only %d bytes", n)
	}
}

var author = gitrepo.Signature{Name: "Folio", Email: "folio@example.com", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}

func TestPush(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			gittest.Commit(t, dir, "main", map[string]string{"README.md": "# Old\n", "code/main.go": "package main\n"}, "first")
			c := newClient(t, nil)
			r := gitrepo.Remote{URL: url, Ref: "refs/heads/main"}
			got, err := c.Fetch(context.Background(), r, "space")
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"README.md": "# New\n", "code/main.go": "package main\n", "guide/a.md": "A", "guide/b/c.md": "C", "guide-x.md": "x"}
			hash, err := c.Push(context.Background(), r, "space", got.Hash, toBytes(files), "Update docs", author, false)
			if err != nil {
				t.Fatal(err)
			}
			if head := gittest.Head(t, dir, "main"); head != hash {
				t.Fatalf("remote head = %s, pushed %s", head, hash)
			}
			if diff := cmp.Diff(files, gittest.Read(t, dir, "main")); diff != "" {
				t.Errorf("remote tree (-want +got):\n%s", diff)
			}
			// git itself accepts what go-git wrote, and sees our parent and author.
			gittest.Git(t, dir, "fsck", "--strict")
			if got := gittest.Git(t, dir, "log", "-1", "--format=%P|%an <%ae>|%s", "main"); got != got0(t, dir)+"|Folio <folio@example.com>|Update docs\n" {
				t.Errorf("log = %q", got)
			}
			// A peer builds on the pushed commit, and the next fetch sees it.
			gittest.Commit(t, dir, "main", map[string]string{"guide/a.md": gittest.Delete}, "peer")
			again, err := c.Fetch(context.Background(), r, "space")
			if err != nil {
				t.Fatal(err)
			}
			delete(files, "guide/a.md")
			if diff := cmp.Diff(files, toStrings(again.Files)); diff != "" {
				t.Errorf("refetch (-want +got):\n%s", diff)
			}
		})
	}
}

// got0 returns the first commit of main in dir (the parent of the pushed one).
func got0(t *testing.T, dir string) string {
	return strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "main"))
}

func TestPushNewBranch(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			c := newClient(t, nil)
			// Into an empty repository, then a second branch next to it.
			for _, branch := range []string{"main", "docs"} {
				files := map[string]string{"README.md": "# " + branch}
				hash, err := c.Push(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/" + branch}, "", "", toBytes(files), "init", author, false)
				if err != nil {
					t.Fatal(err)
				}
				if head := gittest.Head(t, dir, branch); head != hash {
					t.Fatalf("%s head = %s, pushed %s", branch, head, hash)
				}
				if diff := cmp.Diff(files, gittest.Read(t, dir, branch)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", branch, diff)
				}
			}
		})
	}
}

func TestPushNonFastForward(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			gittest.Commit(t, dir, "main", map[string]string{"a.md": "1"}, "first")
			c := newClient(t, nil)
			r := gitrepo.Remote{URL: url, Ref: "refs/heads/main"}
			base, err := c.Fetch(context.Background(), r, "space")
			if err != nil {
				t.Fatal(err)
			}
			theirs := gittest.Commit(t, dir, "main", map[string]string{"a.md": "theirs"}, "meanwhile")
			ours := map[string]string{"a.md": "ours"}

			_, err = c.Push(context.Background(), r, "space", base.Hash, toBytes(ours), "ours", author, false)
			if !errors.Is(err, gitrepo.ErrNonFastForward) || folio.KindOf(err) != folio.Conflict {
				t.Fatalf("err = %v, want Conflict ErrNonFastForward", err)
			}
			if head := gittest.Head(t, dir, "main"); head != theirs {
				t.Fatalf("remote moved to %s after a rejected push", head)
			}
			// A new branch's commit over an existing branch is no fast-forward either.
			if _, err := c.Push(context.Background(), r, "", "", toBytes(ours), "ours", author, false); !errors.Is(err, gitrepo.ErrNonFastForward) {
				t.Fatalf("push without parent over a branch: %v", err)
			}

			hash, err := c.Push(context.Background(), r, "space", base.Hash, toBytes(ours), "ours", author, true)
			if err != nil {
				t.Fatal(err)
			}
			if head := gittest.Head(t, dir, "main"); head != hash {
				t.Fatalf("forced push: head %s, pushed %s", head, hash)
			}
			if diff := cmp.Diff(ours, gittest.Read(t, dir, "main")); diff != "" {
				t.Errorf("forced tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPushInvalid(t *testing.T) {
	dir := gittest.Bare(t)
	c := newClient(t, nil)
	r := gitrepo.Remote{URL: dir, Ref: "refs/heads/main"}
	ok := map[string][]byte{"a.md": []byte("a")}
	tests := []struct {
		name   string
		parent string
		files  map[string][]byte
		author gitrepo.Signature
	}{
		{"path/dotdot", "", map[string][]byte{"../x.md": nil}, author},
		{"path/absolute", "", map[string][]byte{"/x.md": nil}, author},
		{"path/empty segment", "", map[string][]byte{"a//x.md": nil}, author},
		{"path/trailing slash", "", map[string][]byte{"a/": nil}, author},
		{"path/dot git", "", map[string][]byte{".git/config": nil}, author},
		{"path/dot GIT", "", map[string][]byte{"a/.GIT/config": nil}, author},
		{"path/file and dir", "", map[string][]byte{"a": nil, "a/b": nil}, author},
		{"parent/not hex", "xyz", ok, author},
		{"parent/short", "abcdef", ok, author},
		{"parent/unknown", strings.Repeat("ab", 20), ok, author},
		{"author/no name", "", ok, gitrepo.Signature{Email: "a@b"}},
		{"author/angle bracket", "", ok, gitrepo.Signature{Name: "a>", Email: "a@b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Push(context.Background(), r, "", tt.parent, tt.files, "msg", tt.author, true)
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("err = %v, want Invalid", err)
			}
		})
	}
	if gittest.Head(t, dir, "main") != "" {
		t.Error("an invalid push reached the remote")
	}
}

func TestMaxBytes(t *testing.T) {
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir, url := s.repo(t)
			big := make([]byte, 200<<10)
			rand.Read(big)
			gittest.Commit(t, dir, "main", map[string]string{"big.bin": string(big)}, "first")
			cacheDir := t.TempDir()
			c := newClient(t, func(o *gitrepo.Options) { o.MaxBytes = 64 << 10; o.CacheDir = cacheDir })
			r := gitrepo.Remote{URL: url, Ref: "refs/heads/main"}
			for _, cacheID := range []string{"", "space"} {
				_, err := c.Fetch(context.Background(), r, cacheID)
				if !errors.Is(err, gitrepo.ErrTooLarge) || folio.KindOf(err) != folio.Invalid {
					t.Fatalf("cache %q: err = %v, want Invalid ErrTooLarge", cacheID, err)
				}
			}
			_, err := c.Push(context.Background(), r, "", "", map[string][]byte{"x": big}, "big", author, true)
			if !errors.Is(err, gitrepo.ErrTooLarge) {
				t.Fatalf("push: err = %v, want ErrTooLarge", err)
			}
			// The failed fetch left no partial pack or throwaway cache behind,
			// and the cache still works under a larger limit.
			leftovers, _ := filepath.Glob(filepath.Join(cacheDir, "*", "objects", "pack", "tmp_pack_*"))
			tmps, _ := filepath.Glob(filepath.Join(cacheDir, "tmp-*"))
			if len(leftovers)+len(tmps) > 0 {
				t.Errorf("left behind: %v %v", leftovers, tmps)
			}
			c = newClient(t, func(o *gitrepo.Options) { o.CacheDir = cacheDir })
			got, err := c.Fetch(context.Background(), r, "space")
			if err != nil || len(got.Files["big.bin"]) != len(big) {
				t.Fatalf("fetch under a larger limit: %v", err)
			}
		})
	}
}

// A tree within the transfer limit can still be over the limit once
// inflated: compressible content is checked when read.
func TestMaxBytesTree(t *testing.T) {
	dir := gittest.Bare(t)
	gittest.Commit(t, dir, "main", map[string]string{"zeros.txt": strings.Repeat("0", 1<<20)}, "first")
	c := newClient(t, func(o *gitrepo.Options) { o.MaxBytes = 256 << 10 })
	_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: dir, Ref: "refs/heads/main"}, "")
	if !errors.Is(err, gitrepo.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestMaxFiles(t *testing.T) {
	dir := gittest.Bare(t)
	files := map[string]string{}
	for _, p := range []string{"a", "b", "c", "d/e", "d/f"} {
		files[p] = p
	}
	gittest.Commit(t, dir, "main", files, "first")
	c := newClient(t, func(o *gitrepo.Options) { o.MaxFiles = 4 })
	_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: dir, Ref: "refs/heads/main"}, "")
	if !errors.Is(err, gitrepo.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// Symlinks and submodules are skipped by Fetch and kept by Push, and so is
// the executable bit.
func TestSpecialEntries(t *testing.T) {
	dir := gittest.Bare(t)
	work := t.TempDir()
	gittest.Git(t, work, "init", "--quiet", "-b", "main")
	if err := os.WriteFile(filepath.Join(work, "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "README.md"), []byte("# R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(work, "passwd.md")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, work, "add", ".")
	// A submodule entry pointing at a commit of another repository.
	sub := strings.Repeat("1", 40)
	gittest.Git(t, work, "update-index", "--add", "--cacheinfo", "160000,"+sub+",vendor/lib")
	gittest.Git(t, work, "commit", "--quiet", "-m", "special")
	gittest.Git(t, work, "push", "--quiet", dir, "HEAD:refs/heads/main")

	c := newClient(t, nil)
	r := gitrepo.Remote{URL: dir, Ref: "refs/heads/main"}
	got, err := c.Fetch(context.Background(), r, "s")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"README.md": "# R\n", "run.sh": "#!/bin/sh\n"}
	if diff := cmp.Diff(want, toStrings(got.Files)); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	got.Files["README.md"] = []byte("# Changed\n")
	if _, err := c.Push(context.Background(), r, "s", got.Hash, got.Files, "edit", author, false); err != nil {
		t.Fatal(err)
	}
	tree := gittest.Git(t, dir, "ls-tree", "-r", "main")
	for _, line := range []string{"100755 blob", "120000 blob", "160000 commit " + sub + "\tvendor/lib", "100644 blob"} {
		if !strings.Contains(tree, line) {
			t.Errorf("tree lacks %q:\n%s", line, tree)
		}
	}
}

func TestConcurrentFetchOneCache(t *testing.T) {
	dir := gittest.Bare(t)
	hash := gittest.Commit(t, dir, "main", map[string]string{"a.md": "a", "b/c.md": "c"}, "first")
	c := newClient(t, nil)
	r := gitrepo.Remote{URL: "file://" + dir, Ref: "refs/heads/main"}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := c.Fetch(context.Background(), r, "shared")
			if err == nil && (got.Hash != hash || len(got.Files) != 2) {
				err = errors.New("wrong commit " + got.Hash)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("fetch %d: %v", i, err)
		}
	}
}

func TestTimeout(t *testing.T) {
	// A server that never answers: the operation ends at the timeout.
	stop := make(chan struct{})
	srv := gittestHang(t, stop)
	c := newClient(t, func(o *gitrepo.Options) { o.Timeout = 300 * time.Millisecond })
	start := time.Now()
	_, err := c.Fetch(context.Background(), gitrepo.Remote{URL: srv + "/x.git", Ref: "refs/heads/main"}, "")
	close(stop)
	if !errors.Is(err, gitrepo.ErrUnavailable) || folio.KindOf(err) != folio.Unavailable {
		t.Fatalf("err = %v, want Unavailable", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// gittestHang starts a server whose handlers wait until stop is closed.
func gittestHang(t *testing.T, stop chan struct{}) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFetchMissingRepositoryHTTP(t *testing.T) {
	root := t.TempDir()
	base := gittest.HTTPServer(t, root, user, password)
	url := strings.Replace(base, "http://", "http://"+user+":"+password+"@", 1) + "/nope.git"
	_, err := newClient(t, nil).Fetch(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/main"}, "")
	if !errors.Is(err, gitrepo.ErrRepoNotFound) || strings.Contains(err.Error(), password) {
		t.Fatalf("err = %v, want ErrRepoNotFound without the password", err)
	}
}

func TestDeepTree(t *testing.T) {
	dir := gittest.Bare(t)
	gittest.Commit(t, dir, "main", map[string]string{strings.Repeat("d/", 70) + "f.md": "deep"}, "deep")
	_, err := newClient(t, nil).Fetch(context.Background(), gitrepo.Remote{URL: dir, Ref: "refs/heads/main"}, "")
	if !errors.Is(err, gitrepo.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// Cache ids and URLs never become paths: every cache is CacheDir/repo-<hex>.
// (Local repositories are read in place, so the caches are those of an
// http remote.)
func TestCacheDirNames(t *testing.T) {
	root := t.TempDir()
	dir := gittest.BareIn(t, root, "docs.git")
	gittest.Commit(t, dir, "main", map[string]string{"a.md": "a"}, "first")
	url := strings.Replace(gittest.HTTPServer(t, root, user, password), "http://", "http://"+user+":"+password+"@", 1) + "/docs.git"
	cacheDir := t.TempDir()
	c := newClient(t, func(o *gitrepo.Options) { o.CacheDir = cacheDir })
	for _, id := range []string{"../../escape", "/etc", "space 1", "a/b"} {
		if _, err := c.Fetch(context.Background(), gitrepo.Remote{URL: url, Ref: "refs/heads/main"}, id); err != nil {
			t.Fatalf("cache id %q: %v", id, err)
		}
	}
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 4 {
		t.Errorf("%d cache entries, want 4", len(entries))
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "repo-") || len(e.Name()) != len("repo-")+32 {
			t.Errorf("unexpected cache entry %q", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(cacheDir)), "escape")); err == nil {
		t.Error("a cache id escaped the cache directory")
	}
}

func TestNewSSHOptions(t *testing.T) {
	tests := []struct {
		name  string
		key   []byte
		hosts []byte
	}{
		{"key without known hosts", []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), nil},
		{"not a key", []byte("nope"), []byte("example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gitrepo.New(gitrepo.Options{CacheDir: t.TempDir(), SSHKey: tt.key, SSHKnownHosts: tt.hosts})
			if folio.KindOf(err) != folio.Invalid {
				t.Fatalf("err = %v, want Invalid", err)
			}
		})
	}
	if _, err := gitrepo.New(gitrepo.Options{}); folio.KindOf(err) != folio.Invalid {
		t.Errorf("no cache dir: err = %v, want Invalid", err)
	}
}

// TestFetchIsShallow: over http a first fetch takes only the tip (one
// commit, none of the history's objects) and a later one into the same
// cache only what changed.
func TestFetchIsShallow(t *testing.T) {
	root := t.TempDir()
	dir := gittest.BareIn(t, root, "docs.git")
	old := make([]byte, 400<<10)
	rand.Read(old)
	gittest.Commit(t, dir, "main", map[string]string{"old.bin": string(old), "a.md": "a"}, "first")
	gittest.Commit(t, dir, "main", map[string]string{"a.md": "b", "old.bin": gittest.Delete}, "second")
	tip := gittest.Commit(t, dir, "main", map[string]string{"a.md": "c"}, "third")
	base := gittest.HTTPServer(t, root, user, password)
	url := strings.Replace(base, "http://", "http://"+user+":"+password+"@", 1) + "/docs.git"
	counter := &countingTransport{}
	cacheDir := t.TempDir()
	c := newClient(t, func(o *gitrepo.Options) { o.HTTP = &http.Client{Transport: counter}; o.CacheDir = cacheDir })
	r := gitrepo.Remote{URL: url, Ref: "refs/heads/main"}
	got, err := c.Fetch(context.Background(), r, "space")
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash != tip || len(got.Files) != 1 || string(got.Files["a.md"]) != "c" {
		t.Fatalf("fetch %s, %d files", got.Hash, len(got.Files))
	}
	if n := counter.n.Swap(0); n > 64<<10 {
		t.Errorf("fetch read %d bytes: history (a 400 KiB blob) was transferred", n)
	}
	caches, _ := filepath.Glob(filepath.Join(cacheDir, "repo-*"))
	if len(caches) != 1 {
		t.Fatalf("caches %v", caches)
	}
	// The cache holds the tip commit, its tree and one blob: 3 objects.
	if n := countObjects(t, caches[0]); n != 3 {
		t.Errorf("cache holds %d objects after a shallow fetch, want 3", n)
	}
	// An incremental fetch brings the new commit, tree and blob only.
	next := gittest.Commit(t, dir, "main", map[string]string{"a.md": "d", "new.md": "new"}, "fourth")
	got, err = c.Fetch(context.Background(), r, "space")
	if err != nil || got.Hash != next || string(got.Files["new.md"]) != "new" {
		t.Fatalf("second fetch: %v", err)
	}
	if n := countObjects(t, caches[0]); n != 3+4 {
		t.Errorf("cache holds %d objects after an incremental fetch, want 7 (3 + commit, tree, 2 blobs)", n)
	}
}

// countObjects counts the objects of a bare repository's packs and loose objects.
func countObjects(t *testing.T, dir string) int {
	t.Helper()
	out := gittest.Git(t, dir, "count-objects", "-v")
	n := 0
	for _, line := range strings.Split(out, "\n") {
		var v int
		if _, err := fmt.Sscanf(line, "count: %d", &v); err == nil {
			n += v
		}
		if _, err := fmt.Sscanf(line, "in-pack: %d", &v); err == nil {
			n += v
		}
	}
	return n
}

// TestFetchTreeReadsOnDemand: FetchTree lists every path but reads only
// what is asked, and the byte limit counts a blob once however many paths
// name it.
func TestFetchTreeReadsOnDemand(t *testing.T) {
	dir := gittest.Bare(t)
	blob := strings.Repeat("x", 600)
	gittest.Commit(t, dir, "main", map[string]string{"a.png": blob, "b.png": blob, "c.png": blob, "big.bin": strings.Repeat("y", 5000), "doc.md": "hi"}, "first")
	c := newClient(t, func(o *gitrepo.Options) { o.MaxBytes = 1000 })
	r := gitrepo.Remote{URL: "file://" + dir, Ref: "refs/heads/main"}
	_, err := c.FetchTree(context.Background(), r, "", func(_ *gitrepo.Commit, tree *gitrepo.Tree) error {
		if got := strings.Join(tree.Paths(), ","); got != "a.png,b.png,big.bin,c.png,doc.md" {
			t.Errorf("paths %s", got)
		}
		for _, p := range []string{"a.png", "b.png", "c.png", "doc.md"} {
			if data, err := tree.ReadFile(p); err != nil || len(data) == 0 {
				t.Fatalf("read %s: %v", p, err)
			}
		}
		if n := tree.BytesRead(); n != 602 {
			t.Errorf("bytes read %d, want 602 (one 600-byte blob under three names, and doc.md)", n)
		}
		_, err := tree.ReadFile("big.bin")
		if !errors.Is(err, gitrepo.ErrTooLarge) || folio.KindOf(err) != folio.Invalid {
			t.Errorf("big.bin: %v, want ErrTooLarge", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The whole-tree Fetch is refused: big.bin passes the limit.
	if _, err := c.Fetch(context.Background(), r, ""); !errors.Is(err, gitrepo.ErrTooLarge) {
		t.Errorf("fetch: %v, want ErrTooLarge", err)
	}
}
