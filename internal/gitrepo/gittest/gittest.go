// Package gittest provides test helpers that drive Debian's git as a real
// peer: bare repositories in temp dirs, commits made and trees read with the
// git CLI, and a smart-HTTP server (git http-backend behind net/http/cgi)
// with basic auth. Helpers skip the test when git is missing, unless the
// environment has CI=true, where they fail instead. Only tests import it;
// it may import the standard library only.
package gittest

import (
	"bytes"
	"crypto/subtle"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// HTTPBackend is the path of git's smart-HTTP CGI program.
const HTTPBackend = "/usr/lib/git-core/git-http-backend"

// Require skips the test (fails it when CI=true) unless the git CLI and,
// with httpBackend, git-http-backend are installed.
func Require(t testing.TB, httpBackend bool) {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("git"); err != nil {
		missing = "git"
	} else if httpBackend {
		if _, err := os.Stat(HTTPBackend); err != nil {
			missing = HTTPBackend
		}
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is required when CI=true", missing)
	}
	t.Skipf("%s is not installed", missing)
}

// Git runs git with args in dir and returns its standard output, failing
// the test on error. The environment is isolated from the user's config.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	Require(t, false)
	out, err := gitCmd(dir, nil, args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func gitCmd(dir string, stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+os.TempDir(),
		"GIT_AUTHOR_NAME=Peer", "GIT_AUTHOR_EMAIL=peer@example.com",
		"GIT_COMMITTER_NAME=Peer", "GIT_COMMITTER_EMAIL=peer@example.com",
		"GIT_TERMINAL_PROMPT=0")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), &cmdError{err: err, stderr: stderr.String()}
	}
	return stdout.String(), nil
}

type cmdError struct {
	err    error
	stderr string
}

func (e *cmdError) Error() string { return e.err.Error() + ": " + strings.TrimSpace(e.stderr) }

// Bare returns a new, empty bare repository (default branch main) in a temp dir.
func Bare(t testing.TB) string {
	t.Helper()
	return BareIn(t, t.TempDir(), "repo.git")
}

// BareIn makes an empty bare repository named name under root (for
// HTTPServer, which serves every repository under one root) and returns its path.
func BareIn(t testing.TB, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	Git(t, root, "init", "--quiet", "--bare", "-b", "main", dir)
	// Let http-backend accept pushes from an authenticated REMOTE_USER.
	Git(t, dir, "config", "http.receivepack", "true")
	return dir
}

// Commit clones branch of bareDir, writes files (path -> content; the value
// Delete removes the path), commits them with msg and pushes with the git
// CLI, as a peer would, and returns the new commit's hash. A branch that
// does not exist yet starts from nothing.
func Commit(t testing.TB, bareDir, branch string, files map[string]string, msg string) string {
	t.Helper()
	work := t.TempDir()
	Git(t, work, "init", "--quiet", "-b", branch)
	Git(t, work, "remote", "add", "origin", bareDir)
	if _, err := gitCmd(work, nil, "fetch", "--quiet", "origin", branch); err == nil {
		Git(t, work, "reset", "--quiet", "--hard", "FETCH_HEAD")
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(work, filepath.FromSlash(p))
		if files[p] == Delete {
			Git(t, work, "rm", "--quiet", "-r", "--", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		Git(t, work, "add", "--", p)
	}
	Git(t, work, "commit", "--quiet", "--allow-empty", "-m", msg)
	Git(t, work, "push", "--quiet", "origin", "HEAD:refs/heads/"+branch)
	return strings.TrimSpace(Git(t, work, "rev-parse", "HEAD"))
}

// Delete, as a value in Commit's files, removes the path.
const Delete = "\x00delete"

// Read returns the files of the tree at ref (a branch, or any revision) of
// bareDir as read by the git CLI; nil when the ref does not exist.
func Read(t testing.TB, bareDir, ref string) map[string]string {
	t.Helper()
	Require(t, false)
	if _, err := gitCmd(bareDir, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil
	}
	out := Git(t, bareDir, "ls-tree", "-r", "-z", "--full-tree", ref)
	files := map[string]string{}
	for _, line := range strings.Split(out, "\x00") {
		if line == "" {
			continue
		}
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue
		}
		files[p] = Git(t, bareDir, "cat-file", "blob", f[2])
	}
	return files
}

// Head returns the commit hash of ref in bareDir, or "" when it does not exist.
func Head(t testing.TB, bareDir, ref string) string {
	t.Helper()
	Require(t, false)
	out, err := gitCmd(bareDir, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// HTTPServer serves every repository under bareRootDir over git's smart
// HTTP protocol on loopback, behind basic auth with user and password
// (401 with a WWW-Authenticate challenge otherwise), and returns the base
// URL: a repository bareRootDir/x.git is at baseURL+"/x.git". The server
// stops when the test ends.
func HTTPServer(t testing.TB, bareRootDir, user, password string) string {
	t.Helper()
	Require(t, true)
	backend := &cgi.Handler{
		Path: HTTPBackend,
		Env: []string{
			"GIT_PROJECT_ROOT=" + bareRootDir,
			"GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(user)) != 1 ||
			subtle.ConstantTimeCompare([]byte(p), []byte(password)) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		// http-backend lets an authenticated user push; REMOTE_USER says who.
		r.Header.Del("Authorization")
		h := *backend
		h.Env = append(append([]string(nil), backend.Env...), "REMOTE_USER="+u)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
