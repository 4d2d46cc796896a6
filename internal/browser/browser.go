// Package browser starts headless Chromium for the work that needs a real
// browser engine: printing PDFs of spaces, and the reader's end-to-end
// tests. It finds Debian's chromium (or the binary named by
// FOLIO_CHROMIUM) and starts it with the flags that keep it from reaching
// the network on its own.
package browser

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrNotInstalled says that no Chromium binary was found.
var ErrNotInstalled = errors.New("headless Chromium is not installed (install Debian's chromium package or set FOLIO_CHROMIUM to its path)")

// candidates are the binary names looked up on the PATH, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Path returns the Chromium binary to run: FOLIO_CHROMIUM when set,
// otherwise the first candidate found on the PATH.
func Path() (string, error) {
	if p := os.Getenv("FOLIO_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", errors.New("FOLIO_CHROMIUM: " + err.Error())
		}
		return p, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotInstalled
}

// Options are the allocator options for a headless, offline Chromium:
// no sandbox (the server often runs as root in a container), no GPU, and
// none of the background services that phone home.
func Options(path string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("font-render-hinting", "none"),
	)
}

// Start starts a browser and returns a context for its first tab. Cancel
// the returned function to close the tab and stop the browser.
func Start(ctx context.Context) (context.Context, context.CancelFunc, error) {
	path, err := Path()
	if err != nil {
		return nil, nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, Options(path)...)
	bctx, cancelTab := chromedp.NewContext(actx)
	// Run with no actions starts the browser, so a failure to start is
	// reported here and not by the first real action.
	if err := chromedp.Run(bctx); err != nil {
		cancelTab()
		cancelAlloc()
		return nil, nil, err
	}
	return bctx, func() { cancelTab(); cancelAlloc() }, nil
}
