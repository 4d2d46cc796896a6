// Package browsertest gives tests a headless Chromium tab. Outside CI a
// test without Chromium is skipped with a visible message; in CI (CI set)
// it fails, because .ci/run installs the browser.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/browser"
)

var notice sync.Once

// New returns a context for a fresh tab of a new headless Chromium,
// closed when the test ends. Actions run under it time out after a
// minute so that a stuck page fails the test instead of hanging it.
func New(t testing.TB) context.Context {
	t.Helper()
	Need(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	bctx, stop, err := browser.Start(ctx)
	if err != nil {
		cancel()
		t.Fatalf("start Chromium: %v", err)
	}
	t.Cleanup(func() { stop(); cancel() })
	return bctx
}

// Need skips (outside CI) or fails (in CI) a test unless Chromium and
// the named commands (pdftotext, ...) are installed.
func Need(t testing.TB, commands ...string) {
	t.Helper()
	_, err := browser.Path()
	for _, c := range commands {
		if err != nil {
			break
		}
		if _, lerr := exec.LookPath(c); lerr != nil {
			err = fmt.Errorf("%s is not installed", c)
		}
	}
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("browser tests are required in CI: %v", err)
	}
	notice.Do(func() {
		msg := "folio tests: browser tests SKIPPED: " + err.Error() + "\n"
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			tty.WriteString(msg)
			tty.Close()
			return
		}
		os.Stderr.WriteString(msg)
	})
	t.Skipf("browser test skipped: %v", err)
}
