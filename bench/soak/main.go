// Command soak drives a running folio server with a mixed workload at a
// fixed rate and reports, minute by minute, every status, the latency
// percentiles, and the server's memory, goroutines and write-ahead log.
// bench/soak.sh starts the server and runs it; see bench/README.md.
//
// The workload: page reads, space reads, page lists, searches, published
// reader pages, space updates, imports, and change requests (create,
// import into, merge). Requests start on a fixed schedule (open loop): a
// slow server makes more requests wait, it does not lower the rate.
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func main() {
	base := flag.String("url", "", "base URL of the server")
	token := flag.String("token", "", "API token of an organization admin")
	duration := flag.Duration("duration", 10*time.Minute, "how long to run")
	rate := flag.Float64("rate", 40, "requests started per second")
	pages := flag.Int("pages", 500, "pages in the space the reads use")
	wal := flag.String("wal", "", "SQLite write-ahead log file to watch")
	pgURL := flag.String("pg", "", "PostgreSQL URL whose WAL folder size to watch (needs pg_ls_waldir)")
	out := flag.String("o", "", "file to write the markdown report to (also printed)")
	flag.Parse()
	if *base == "" || *token == "" {
		fail(errors.New("-url and -token are required"))
	}
	c := &client{base: strings.TrimRight(*base, "/"), token: *token, http: &http.Client{Timeout: 60 * time.Second}}
	w, err := setup(c, *pages)
	if err != nil {
		fail(fmt.Errorf("setup: %w", err))
	}
	probe := &probe{c: c, wal: *wal}
	if *pgURL != "" {
		if probe.pg, err = sql.Open("pgx", *pgURL); err != nil {
			fail(err)
		}
	}
	report := run(c, w, probe, *rate, *duration)
	fmt.Print(report.text)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(report.text), 0o644); err != nil {
			fail(err)
		}
	}
	if !report.ok {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(2)
}

// client sends authenticated JSON requests.
type client struct {
	base, token string
	http        *http.Client
}

// do sends one request and returns its status and body.
func (c *client) do(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// must sends a setup request that has to succeed and decodes its answer.
func (c *client) must(method, path string, body, out any) error {
	status, b, err := c.do(method, path, body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if status/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// world is what the workload works on.
type world struct {
	org, space, scratch, reviewed, site string
	pageIDs, readerPaths                []string
	scratchPages, reviewedPages         []pageRef // the pages writes replace
	words                               []string
}

var vocabulary = strings.Fields(`archive backup cluster deploy editor folder garden harbor index journal kernel ` +
	`ledger mirror network orbit palette quorum replica schema token upgrade vector widget yield zenith ` +
	`anchor beacon canvas delta engine filter gateway helper import lantern module notice option`)

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

// markdownURL returns a data URL of a markdown page.
func markdownURL(title, body string) string {
	return "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte("# "+title+"\n\n"+body+"\n"))
}

// editedPages is the number of pages of each space the workload writes
// to: writes replace their documents, so the spaces keep their size and
// the run measures the server, not a growing data set.
const editedPages = 50

// setup creates the spaces and the published site the workload uses.
func setup(c *client, pages int) (*world, error) {
	w := &world{words: vocabulary}
	var orgs struct{ Items []struct{ ID string } }
	if err := c.must("GET", "/v1/orgs", nil, &orgs); err != nil || len(orgs.Items) == 0 {
		return nil, fmt.Errorf("no organization: %v", err)
	}
	w.org = orgs.Items[0].ID
	var sp struct{ ID string }
	for _, s := range []struct {
		title string
		id    *string
	}{{"Handbook", &w.space}, {"Scratch", &w.scratch}, {"Reviewed", &w.reviewed}} {
		if err := c.must("POST", "/v1/orgs/"+w.org+"/spaces", map[string]any{"title": s.title}, &sp); err != nil {
			return nil, err
		}
		*s.id = sp.ID
	}
	// The handbook: pages in folders of 50, imported as one zip; the two
	// spaces the workload writes to get editedPages pages each.
	handbook, err := importPages(c, w.space, pages)
	if err != nil {
		return nil, err
	}
	if w.scratchPages, err = importPages(c, w.scratch, editedPages); err != nil {
		return nil, err
	}
	if w.reviewedPages, err = importPages(c, w.reviewed, editedPages); err != nil {
		return nil, err
	}
	var site struct{ ID string }
	if err := c.must("POST", "/v1/orgs/"+w.org+"/sites", map[string]any{"title": "Handbook", "spaces": []string{w.space}}, &site); err != nil {
		return nil, err
	}
	w.site = site.ID
	if err := c.must("POST", "/v1/orgs/"+w.org+"/sites/"+w.site+"/publish", nil, nil); err != nil {
		return nil, err
	}
	for _, p := range handbook {
		w.pageIDs = append(w.pageIDs, p.ID)
		w.readerPaths = append(w.readerPaths, "/sites/"+w.site+"/"+p.Path)
	}
	return w, nil
}

type pageRef struct{ ID, Path string }

type listedPage struct {
	ID, Path, Type, Title string
	Pages                 []listedPage
}

// importPages imports n pages into a space, in folders of 50, as one zip,
// and returns the pages (not the folders).
func importPages(c *client, space string, n int) ([]pageRef, error) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		f, _ := zw.Create(fmt.Sprintf("part-%d/page-%d.md", i/50, i))
		fmt.Fprintf(f, "# Page %d\n\n%s.\n\n## Details\n\n%s.\n", i, sentence(r, 60), sentence(r, 120))
	}
	zw.Close()
	imp := map[string]any{"source": "zip", "url": "data:application/zip;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}
	if err := c.must("POST", "/v1/spaces/"+space+"/content/import", imp, nil); err != nil {
		return nil, err
	}
	var list struct{ Pages []listedPage }
	if err := c.must("GET", "/v1/spaces/"+space+"/content/pages", nil, &list); err != nil {
		return nil, err
	}
	// The documents at any depth (a zip of one folder imports its pages at
	// the top level).
	var out []pageRef
	var walk func([]listedPage)
	walk = func(pages []listedPage) {
		for _, p := range pages {
			if p.Type == "document" && strings.HasPrefix(p.Title, "Page ") {
				out = append(out, pageRef{p.ID, p.Path})
			}
			walk(p.Pages)
		}
	}
	walk(list.Pages)
	if len(out) == 0 {
		return nil, errors.New("the import made no pages")
	}
	return out, nil
}

// op is one kind of work, with its share of the rate.
type op struct {
	name   string
	weight int
	run    func(c *client, w *world, r *rand.Rand) []result
}

// result is one request's outcome.
type result struct {
	op     string
	status int // 0: no answer
	took   time.Duration
}

func timed(c *client, name, method, path string, body any) (result, []byte) {
	t0 := time.Now()
	status, b, err := c.do(method, path, body)
	if err != nil {
		status = 0
	}
	return result{op: name, status: status, took: time.Since(t0)}, b
}

func one(name, method string, path func(w *world, r *rand.Rand) string, body func(r *rand.Rand) any) func(*client, *world, *rand.Rand) []result {
	return func(c *client, w *world, r *rand.Rand) []result {
		var b any
		if body != nil {
			b = body(r)
		}
		res, _ := timed(c, name, method, path(w, r), b)
		return []result{res}
	}
}

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

var ops = []op{
	{"page", 30, one("page", "GET", func(w *world, r *rand.Rand) string {
		return "/v1/spaces/" + w.space + "/content/page/" + pick(r, w.pageIDs) + "?format=document"
	}, nil)},
	{"space", 8, one("space", "GET", func(w *world, _ *rand.Rand) string { return "/v1/spaces/" + w.space }, nil)},
	{"pages", 4, one("pages", "GET", func(w *world, _ *rand.Rand) string { return "/v1/spaces/" + w.space + "/content/pages" }, nil)},
	{"search", 15, one("search", "GET", func(w *world, r *rand.Rand) string {
		return "/v1/spaces/" + w.space + "/search?query=" + url.QueryEscape(pick(r, w.words)+" "+pick(r, w.words))
	}, nil)},
	{"reader", 20, one("reader", "GET", func(w *world, r *rand.Rand) string { return pick(r, w.readerPaths) }, nil)},
	{"update", 8, one("update", "PATCH", func(w *world, _ *rand.Rand) string { return "/v1/spaces/" + w.scratch }, func(r *rand.Rand) any {
		return map[string]any{"title": "Scratch " + strconv.Itoa(r.IntN(1000))}
	})},
	{"import", 10, one("import", "POST", func(w *world, r *rand.Rand) string {
		return "/v1/spaces/" + w.scratch + "/content/page/" + w.scratchPages[r.IntN(len(w.scratchPages))].ID + "/import"
	},
		func(r *rand.Rand) any {
			return map[string]any{"source": "markdown", "url": markdownURL("Note "+strconv.Itoa(r.IntN(1e6)), sentence(r, 80))}
		})},
	{"change-request", 5, changeRequest},
}

// changeRequest opens a change request, replaces a page's document in it
// by an import and merges it: three requests, each recorded. Two change
// requests that edit the same page at once may conflict (409 on merge).
func changeRequest(c *client, w *world, r *rand.Rand) []result {
	res, b := timed(c, "cr-create", "POST", "/v1/spaces/"+w.reviewed+"/change-requests", map[string]any{"subject": "Soak"})
	out := []result{res}
	var cr struct{ ID string }
	if res.status != 201 || json.Unmarshal(b, &cr) != nil {
		return out
	}
	path := "/v1/spaces/" + w.reviewed + "/change-requests/" + cr.ID
	page := w.reviewedPages[r.IntN(len(w.reviewedPages))].ID
	res, _ = timed(c, "cr-import", "POST", path+"/content/page/"+page+"/import",
		map[string]any{"source": "markdown", "url": markdownURL("Reviewed "+strconv.Itoa(r.IntN(1e6)), sentence(r, 60))})
	out = append(out, res)
	res, _ = timed(c, "cr-merge", "POST", path+"/merge", nil)
	return append(out, res)
}

// probe reads the server's figures once a minute.
type probe struct {
	c   *client
	wal string
	pg  *sql.DB
}

type sample struct {
	rssMB, heapMB, goroutines, walMB float64 // heapMB: live after the last collection
	treePages, docMB                 float64 // what the tree and document caches hold
}

func (p *probe) read() sample {
	var s sample
	if status, b, err := p.c.do("GET", "/metrics", nil); err == nil && status == 200 {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			name, value, ok := strings.Cut(sc.Text(), " ")
			if !ok {
				continue
			}
			v, _ := strconv.ParseFloat(value, 64)
			switch name {
			case "process_resident_memory_bytes":
				s.rssMB = v / (1 << 20)
			case "go_gc_heap_live_bytes":
				s.heapMB = v / (1 << 20)
			case "go_goroutines":
				s.goroutines = v
			case `folio_cache_size{cache="trees",unit="pages"}`:
				s.treePages = v
			case `folio_cache_size{cache="documents",unit="bytes"}`:
				s.docMB = v / (1 << 20)
			}
		}
	}
	if p.wal != "" {
		if st, err := os.Stat(p.wal); err == nil {
			s.walMB = float64(st.Size()) / (1 << 20)
		}
	}
	if p.pg != nil {
		var bytes int64
		if err := p.pg.QueryRowContext(context.Background(), `SELECT COALESCE(SUM(size), 0) FROM pg_ls_waldir()`).Scan(&bytes); err == nil {
			s.walMB = float64(bytes) / (1 << 20)
		}
	}
	return s
}

// minute gathers one minute of results.
type minute struct {
	results []result
	sample  sample
	dropped int
}

type report struct {
	text string
	ok   bool
}

// maxInFlight bounds the requests waiting at once; starts beyond it are
// counted as dropped (the server fell behind).
const maxInFlight = 512

func run(c *client, w *world, p *probe, rate float64, d time.Duration) report {
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	var (
		mu      sync.Mutex
		minutes = []*minute{{}}
		wg      sync.WaitGroup
		slots   = make(chan struct{}, maxInFlight)
	)
	first := p.read()
	start := time.Now()
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	seed := uint64(0)
	for now := range tick.C {
		if now.Sub(start) >= d {
			break
		}
		if m := int(now.Sub(start) / time.Minute); m >= len(minutes) {
			s := p.read()
			mu.Lock()
			minutes[len(minutes)-1].sample = s
			minutes = append(minutes, &minute{})
			mu.Unlock()
			fmt.Fprintf(os.Stderr, "minute %d: RSS %.0f MB, live heap %.0f MB, %0.f goroutines, WAL %.1f MB\n", m, s.rssMB, s.heapMB, s.goroutines, s.walMB)
		}
		select {
		case slots <- struct{}{}:
		default:
			mu.Lock()
			minutes[len(minutes)-1].dropped++
			mu.Unlock()
			continue
		}
		seed++
		r := rand.New(rand.NewPCG(seed, 7))
		n := r.IntN(total)
		var o op
		for _, o = range ops {
			if n -= o.weight; n < 0 {
				break
			}
		}
		m := minutes[len(minutes)-1]
		wg.Go(func() {
			defer func() { <-slots }()
			res := o.run(c, w, r)
			mu.Lock()
			m.results = append(m.results, res...)
			mu.Unlock()
		})
	}
	wg.Wait()
	minutes[len(minutes)-1].sample = p.read()
	return summarize(minutes, first, rate, d)
}

func pct(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func summarize(minutes []*minute, first sample, rate float64, d time.Duration) report {
	var b strings.Builder
	ok, clean, dropped := true, true, 0
	fmt.Fprintf(&b, "Mixed workload at %.0f requests/s for %s (start: RSS %.0f MB, %.0f goroutines, WAL %.1f MB).\n\n",
		rate, d, first.rssMB, first.goroutines, first.walMB)
	fmt.Fprintln(&b, "| minute | requests | 2xx | 4xx | 5xx | failed | dropped | p50 ms | p99 ms | RSS MB | live heap MB | tree cache pages | document cache MB | goroutines | WAL MB |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	byOp := map[string][]time.Duration{}
	statuses := map[string]map[int]int{}
	var p99s []time.Duration
	for i, m := range minutes {
		var c2, c4, c5, c0 int
		var ds []time.Duration
		for _, r := range m.results {
			switch {
			case r.status == 0:
				c0++
			case r.status >= 500:
				c5++
			case r.status >= 400:
				c4++
			default:
				c2++
			}
			ds = append(ds, r.took)
			byOp[r.op] = append(byOp[r.op], r.took)
			if statuses[r.op] == nil {
				statuses[r.op] = map[int]int{}
			}
			statuses[r.op][r.status]++
		}
		p99 := pct(ds, 0.99)
		p99s = append(p99s, p99)
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %s | %s | %.0f | %.0f | %.0f | %.1f | %.0f | %.1f |\n", i+1, len(m.results), c2, c4, c5, c0,
			m.dropped, ms(pct(ds, 0.5)), ms(p99), m.sample.rssMB, m.sample.heapMB, m.sample.treePages, m.sample.docMB, m.sample.goroutines, m.sample.walMB)
		if c5 > 0 || c0 > 0 {
			clean = false
		}
		dropped += m.dropped
	}
	fmt.Fprintln(&b, "\n| operation | requests | statuses | p50 ms | p99 ms |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	names := make([]string, 0, len(byOp))
	for n := range byOp {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		var st []string
		codes := make([]int, 0, len(statuses[n]))
		for code := range statuses[n] {
			codes = append(codes, code)
		}
		slices.Sort(codes)
		for _, code := range codes {
			st = append(st, fmt.Sprintf("%d×%d", code, statuses[n][code]))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", n, len(byOp[n]), strings.Join(st, " "), ms(pct(byOp[n], 0.5)), ms(pct(byOp[n], 0.99)))
	}
	// Verdicts: the first minute warms caches, so stability compares the
	// second minute with the last.
	fmt.Fprintln(&b)
	verdict := func(pass bool, format string, args ...any) {
		mark := "ok"
		if !pass {
			mark, ok = "FAILED", false
		}
		fmt.Fprintf(&b, "- %s: %s\n", mark, fmt.Sprintf(format, args...))
	}
	n := len(minutes)
	if n >= 3 {
		ref, last := minutes[1], minutes[n-1]
		verdict(p99s[n-1] <= 2*p99s[1]+10*time.Millisecond, "p99 %s ms in minute 2, %s ms in the last", ms(p99s[1]), ms(p99s[n-1]))
		verdict(last.sample.rssMB <= 1.5*ref.sample.rssMB+64, "RSS %.0f MB after minute 2, %.0f MB at the end", ref.sample.rssMB, last.sample.rssMB)
		verdict(last.sample.goroutines <= 1.5*ref.sample.goroutines+50, "goroutines %.0f after minute 2, %.0f at the end",
			ref.sample.goroutines, last.sample.goroutines)
		verdict(last.sample.walMB <= 1024, "WAL %.1f MB at the end (bound 1 GiB)", last.sample.walMB)
	}
	verdict(clean, "no 5xx and no request without an answer")
	verdict(dropped == 0, "the server kept up with the rate (%d starts dropped with %d requests waiting)", dropped, maxInFlight)
	return report{text: b.String(), ok: ok}
}
