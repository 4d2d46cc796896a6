// Command editorready measures how soon the app's editor is ready: the
// time from the start of navigation to the edit view's
// "folio-editor-ready" performance mark (set by internal/web/static/edit.js
// once the editor is mounted and takes input), in headless Chromium on
// loopback, without throttling. For bench/lighthouse-app.sh; it is not part
// of folio.
//
//	go run ./bench/editorready -base http://127.0.0.1:PORT -cookie SECRET \
//	    -page 'name=/s/ID/~/pages/PAGE/edit' [-page ...] [-runs 10]
//
// Each page is opened -runs times with the browser's cache disabled
// (cold: every script and stylesheet fetched again) and -runs times with
// it enabled after one priming load (warm). It prints one Markdown table
// row per page: median, 90th percentile, minimum and maximum in ms.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/foliodocs/folio/internal/browser"
)

type pageFlag []string

func (p *pageFlag) String() string     { return strings.Join(*p, ",") }
func (p *pageFlag) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	base := flag.String("base", "", "the app's base URL")
	cookie := flag.String("cookie", "", "a session's secret (the folio_session cookie)")
	runs := flag.Int("runs", 10, "runs per page and cache state")
	var pages pageFlag
	flag.Var(&pages, "page", "name=path of an edit view (repeatable)")
	flag.Parse()
	if *base == "" || *cookie == "" || len(pages) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*base, *cookie, *runs, pages); err != nil {
		fmt.Fprintln(os.Stderr, "editorready:", err)
		os.Exit(1)
	}
}

func run(base, cookie string, runs int, pages []string) error {
	path, err := browser.Path()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browser.Options(path)...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Run(bctx, chromedp.EmulateViewport(1280, 800),
		network.SetCookie("folio_session", cookie).WithURL(base).WithHTTPOnly(true)); err != nil {
		return err
	}
	fmt.Println("| page | cache | median ms | p90 ms | min ms | max ms |")
	fmt.Println("| --- | --- | --- | --- | --- | --- |")
	for _, p := range pages {
		name, rel, ok := strings.Cut(p, "=")
		if !ok {
			return fmt.Errorf("-page %q: want name=path", p)
		}
		for _, cold := range []bool{true, false} {
			if err := chromedp.Run(bctx, network.SetCacheDisabled(cold)); err != nil {
				return err
			}
			if !cold { // prime the cache
				if _, err := readyAfter(bctx, base+rel); err != nil {
					return err
				}
			}
			var ms []float64
			for range runs {
				t, err := readyAfter(bctx, base+rel)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				ms = append(ms, t)
			}
			state := "warm"
			if cold {
				state = "cold"
			}
			slices.Sort(ms)
			fmt.Printf("| %s | %s | %.0f | %.0f | %.0f | %.0f |\n", name, state, pct(ms, 50), pct(ms, 90), ms[0], ms[len(ms)-1])
		}
	}
	return nil
}

// readyAfter opens url and answers the time of the editor's ready mark,
// in ms from the start of the navigation.
func readyAfter(ctx context.Context, url string) (float64, error) {
	var ms float64
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err := chromedp.Run(wctx,
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(url),
		chromedp.WaitVisible(`#editor[data-ready]`, chromedp.ByQuery),
		chromedp.Evaluate(`performance.getEntriesByName("folio-editor-ready")[0].startTime`, &ms))
	return ms, err
}

// pct is the p-th percentile of sorted values (nearest rank).
func pct(sorted []float64, p float64) float64 {
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}
