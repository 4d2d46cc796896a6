package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// walkStep is one fenced ```sh block of the README's walkthrough.
type walkStep struct {
	line   int    // of the opening fence in README.md
	code   string // the block's text
	skip   bool   // marked "walkthrough: skip": not run by the test
	output string // expected standard output, when a block marked "walkthrough: output" follows
	hasOut bool
}

// walkthroughHeading opens the README section whose blocks the test runs;
// the section ends at the next second-level heading.
const walkthroughHeading = "## Try it"

var walkMarkerRE = regexp.MustCompile(`^<!--\s*walkthrough:\s*(\S+)\s*-->$`)

// readWalkthrough returns the steps of the walkthrough section of the README
// at path. It fails on a marker it does not know or that no fenced block
// follows, so that a mistyped marker cannot silently turn a check off.
func readWalkthrough(t *testing.T, path string) []walkStep {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == walkthroughHeading {
			start = i + 1
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s has no %q section", path, walkthroughHeading)
	}
	var (
		steps  []walkStep
		marker string // the marker waiting for its block
		at     int    // line of that marker
	)
scan:
	for i := start; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "## "):
			break scan
		case strings.TrimSpace(l) == "":
			continue
		case walkMarkerRE.MatchString(l):
			if marker != "" {
				t.Fatalf("%s:%d: marker %q is not followed by a fenced block", path, at+1, marker)
			}
			marker, at = walkMarkerRE.FindStringSubmatch(l)[1], i
			if marker != "skip" && marker != "output" {
				t.Fatalf("%s:%d: unknown marker %q (want skip or output)", path, i+1, marker)
			}
			continue
		case strings.HasPrefix(l, "<!--"):
			// A comment for the README's editors: skip to its end.
			for ; i < len(lines) && !strings.Contains(lines[i], "-->"); i++ {
			}
			continue
		case strings.HasPrefix(l, "```"):
			info := strings.TrimSpace(strings.TrimPrefix(l, "```"))
			open := i
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				body = append(body, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("%s:%d: the fenced block is not closed", path, open+1)
			}
			text := strings.Join(body, "\n")
			switch {
			case marker == "output":
				if len(steps) == 0 || steps[len(steps)-1].skip || steps[len(steps)-1].hasOut {
					t.Fatalf("%s:%d: an output block must follow a ```sh block that is run and has no output block yet", path, open+1)
				}
				steps[len(steps)-1].output, steps[len(steps)-1].hasOut = text, true
			case info == "sh":
				steps = append(steps, walkStep{line: open + 1, code: text, skip: marker == "skip"})
			case marker == "skip":
				t.Fatalf("%s:%d: a skip marker before a block that is not ```sh", path, open+1)
			}
			marker = ""
			continue
		}
		if marker != "" {
			t.Fatalf("%s:%d: marker %q is not followed by a fenced block", path, at+1, marker)
		}
	}
	if marker != "" {
		t.Fatalf("%s:%d: marker %q is not followed by a fenced block", path, at+1, marker)
	}
	return steps
}

// requireCommands skips the test when one of the commands is not on PATH,
// or fails it when the CI variable is set: CI must run every test.
func requireCommands(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and CI is set: install it (the README walkthrough needs it)", name)
			}
			t.Skipf("%s is not installed: the README walkthrough needs bash, curl and jq", name)
		}
	}
}

// outputMatches reports whether got is the output want shows, where "..."
// in want stands for any text within a line. Trailing newlines are ignored.
func outputMatches(want, got string) bool {
	var re strings.Builder
	re.WriteString(`\A`)
	for i, part := range strings.Split(strings.TrimRight(want, "\n"), "...") {
		if i > 0 {
			re.WriteString(`.*`)
		}
		re.WriteString(regexp.QuoteMeta(part))
	}
	re.WriteString(`\z`)
	return regexp.MustCompile(re.String()).MatchString(strings.TrimRight(got, "\n"))
}

// stepMarkerRE matches the line the walkthrough script prints before each
// step, on standard output and standard error, so that the test can split
// them by step.
var stepMarkerRE = regexp.MustCompile(`(?m)^@@walkthrough step (\d+)@@\n`)

// splitSteps splits the script's output at the step markers into each
// step's output, indexed like steps.
func splitSteps(out string, n int) []string {
	parts := make([]string, n)
	locs := stepMarkerRE.FindAllStringSubmatchIndex(out, -1)
	for k, loc := range locs {
		i, _ := strconv.Atoi(out[loc[2]:loc[3]])
		end := len(out)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		if i < n {
			parts[i] = out[loc[1]:end]
		}
	}
	return parts
}

// TestReadmeWalkthrough runs the shell blocks of the README's "Try it"
// section against a real server, as a reader pasting them would, and checks
// each output the README shows. It runs on SQLite only, the store the
// README's `go run ./cmd/folio serve` uses: the commands and answers are the
// same on PostgreSQL, which the API tests cover.
func TestReadmeWalkthrough(t *testing.T) {
	t.Parallel()
	requireCommands(t, "bash", "curl", "jq")
	steps := readWalkthrough(t, filepath.Join("..", "..", "README.md"))
	var run, checked int
	for _, s := range steps {
		if !s.skip {
			run++
		}
		if s.hasOut {
			checked++
		}
	}
	if run == 0 || checked == 0 {
		t.Fatalf("the walkthrough has %d blocks to run and %d outputs to check; want some of each", run, checked)
	}

	s := startServe(t, storeArgs(t, "sqlite")...)
	token := tokenRE.FindString(s.out.String())
	if token == "" {
		t.Fatalf("serve printed no token:\n%s", s.out)
	}
	// serve prints the walkthrough's variables, for the reader to paste.
	for _, line := range []string{"    FOLIO=" + s.base + "\n", "    TOKEN=" + token + "\n"} {
		if !strings.Contains(s.out.String(), line) {
			t.Errorf("serve did not print %q:\n%s", line, s.out)
		}
	}

	// One bash process runs every step, so that variables set by one step
	// are there for the next, as in the reader's shell.
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("set -euo pipefail\n")
	for i, st := range steps {
		if st.skip {
			continue
		}
		fmt.Fprintf(&script, "echo '@@walkthrough step %d@@'; echo '@@walkthrough step %d@@' >&2\n%s\n", i, i, st.code)
	}
	// curl reads this .curlrc from the HOME below: an HTTP error fails the
	// step, as a reader would notice from the answer, instead of passing
	// an error body on to jq.
	if err := os.WriteFile(filepath.Join(dir, ".curlrc"), []byte("fail\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "walkthrough.sh")
	if err := os.WriteFile(file, []byte(script.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// A guard against a hung command, not a timed assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", file)
	cmd.Dir = dir
	// A small environment: no proxy variables (curl would send loopback
	// requests through them), and a HOME with the .curlrc above instead of
	// the developer's.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "FOLIO=" + s.base, "TOKEN=" + token}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	outs := splitSteps(stdout.String(), len(steps))
	errs := splitSteps(stderr.String(), len(steps))
	if runErr != nil {
		last := -1
		for _, m := range stepMarkerRE.FindAllStringSubmatch(stdout.String(), -1) {
			last, _ = strconv.Atoi(m[1])
		}
		if last < 0 {
			t.Fatalf("the walkthrough failed before its first step: %v\n%s", runErr, stderr.String())
		}
		t.Fatalf("the README walkthrough failed (%v) in the block at README.md:%d:\n%s\nstdout:\n%s\nstderr:\n%s",
			runErr, steps[last].line, steps[last].code, outs[last], errs[last])
	}
	for i, st := range steps {
		if st.hasOut && !outputMatches(st.output, outs[i]) {
			t.Errorf("the block at README.md:%d printed\n%s\nwhere the README shows\n%s\n(stderr: %s)",
				st.line, outs[i], st.output, errs[i])
		}
	}

	// The key outputs, whatever the README shows: the page came back as
	// Markdown with its second heading, and search found it. Update these
	// when the walkthrough's document changes.
	for _, want := range []string{"\n## Install\n", `"path":"getting-started","sections":["Install"]`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the walkthrough's output lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestServeBindsBeforeBootstrapping checks that serve on an address in use
// fails before creating the first admin: it names the address, prints no
// token and creates no user, so that the next successful start still
// bootstraps and shows its token.
func TestServeBindsBeforeBootstrapping(t *testing.T) {
	eachStore(t, func(t *testing.T, kind string) {
		args := storeArgs(t, kind)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		addr := ln.Addr().String()

		// A serve that wrongly starts is stopped as soon as it says it
		// listens, and then returns no error.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		out := &stopOnListen{cancel: cancel}
		err = run(ctx, append([]string{"serve", "--addr", addr, "--log-level", "warn"}, args...), noenv, out, io.Discard)
		if err == nil || !strings.Contains(err.Error(), addr) {
			t.Fatalf("serve on a busy address: got %v, want an error naming %s", err, addr)
		}
		if tokenRE.MatchString(out.String()) || strings.Contains(out.String(), "first admin") {
			t.Fatalf("serve on a busy address bootstrapped:\n%s", out.String())
		}

		s := startServe(t, args...)
		first := s.out.String()
		if n := strings.Count(first, "shown only this once"); n != 1 {
			t.Fatalf("the next serve showed the token %d times, want once:\n%s", n, first)
		}
		token := tokenRE.FindString(first)
		for _, tok := range tokenRE.FindAllString(first, -1) {
			if tok != token {
				t.Fatalf("the next serve printed two tokens:\n%s", first)
			}
		}
		var orgs struct {
			Items []struct{} `json:"items"`
		}
		getJSON(t, s.base+"/v1/orgs", token, &orgs)
		if len(orgs.Items) != 1 {
			t.Fatalf("the first admin is in %d organizations, want 1", len(orgs.Items))
		}
	})
}

// stopOnListen keeps what serve prints and cancels its context once serve
// says it is listening.
type stopOnListen struct {
	syncBuffer
	cancel context.CancelFunc
}

func (w *stopOnListen) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	if strings.Contains(w.String(), "folio: listening on") {
		w.cancel()
	}
	return n, err
}
