package scripts

import (
	"context"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMultipartEventRequest(t *testing.T) {
	event := []byte(`{"type":"fetch","eventId":"e1"}`)
	env := []byte(`{"apiEndpoint":"https://folio.example"}`)
	body := []byte{0, 1, 0xFF, '\n'}
	req, err := MultipartEventRequest(event, env, body)
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != "POST" || req.URL != "https://integration.invalid/v1" {
		t.Errorf("request line = %s %s", req.Method, req.URL)
	}
	mt, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q: %v", req.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(strings.NewReader(string(req.Body)), params["boundary"])
	got := map[string]string{}
	files := map[string]string{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		got[p.FormName()] = string(b)
		files[p.FormName()] = p.FileName()
	}
	if got["event"] != string(event) || got["environment"] != string(env) || got["fetch-body"] != string(body) {
		t.Errorf("fields = %q", got)
	}
	if files["fetch-body"] != "blob" || files["event"] != "" {
		t.Errorf("file names = %q", files)
	}

	// Without a fetch body there is no such field, and the script sees
	// exactly the fields GitBook's runtime reads.
	req, err = MultipartEventRequest(event, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(nil, testLimits())
	res, err := r.Run(context.Background(), evalScript(`
		const fd = await request.formData();
		return [new URL(request.url).pathname, request.method, [...fd.keys()], JSON.parse(fd.get('event')).type,
			JSON.parse(fd.get('environment')).apiEndpoint, fd.get('fetch-body')];`), req)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, res, `["/v1", "POST", ["event", "environment"], "fetch", "https://folio.example", null]`)
}

func TestCache(t *testing.T) {
	r := NewRunner(nil, testLimits())
	script := `export default { fetch() { return new Response('cached'); } };`
	for i := 0; i < 3; i++ {
		res := mustRun(t, r, script)
		if string(res.Response.Body) != "cached" {
			t.Fatalf("body = %q", res.Response.Body)
		}
	}
	if entries, compiles := r.cache.stats(); entries != 1 || compiles != 1 {
		t.Errorf("cache has %d entries after %d compilations, want 1 and 1", entries, compiles)
	}
	// A script that does not compile is not cached: each run reports it.
	for i := 0; i < 2; i++ {
		_, err := run(t, r, `export default {`)
		wantScriptError(t, err, KindInvalidScript)
	}
	if entries, compiles := r.cache.stats(); entries != 1 || compiles != 3 {
		t.Errorf("cache has %d entries after %d compilations, want 1 and 3", entries, compiles)
	}

	t.Run("Bounded", func(t *testing.T) {
		r := NewRunner(nil, testLimits(), WithCacheBytes(8<<10))
		for i := 0; i < 20; i++ {
			mustRun(t, r, fmt.Sprintf(`export default { fetch() { return new Response('%d'); } };`, i))
		}
		entries, _ := r.cache.stats()
		if entries == 0 || entries >= 20 {
			t.Errorf("cache holds %d of 20 programs within 8 KiB", entries)
		}
		if size := r.cache.lru.Stats().Used; size > 8<<10 {
			t.Errorf("cache size %d over its budget", size)
		}
		// The most recent program is still there.
		_, before := r.cache.stats()
		mustRun(t, r, `export default { fetch() { return new Response('19'); } };`)
		if _, after := r.cache.stats(); after != before {
			t.Errorf("the most recently used program was evicted")
		}
	})

	t.Run("ConcurrentFirstRunsCompileOnce", func(t *testing.T) {
		r := NewRunner(nil, testLimits())
		script := `export default { fetch() { return new Response('once'); } };`
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := run(t, r, script)
				if err != nil || string(res.Response.Body) != "once" {
					t.Errorf("run: %v", err)
				}
			}()
		}
		wg.Wait()
		if _, compiles := r.cache.stats(); compiles != 1 {
			t.Errorf("%d compilations, want 1", compiles)
		}
	})
}

func TestConcurrentRuns(t *testing.T) {
	l := testLimits()
	l.MaxConcurrent = 2
	r := NewRunner(nil, l)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			script := fmt.Sprintf(`export default { async fetch() {
				await new Promise((r) => setTimeout(r, 10));
				console.log('run %d');
				return new Response(String(%d * 2));
			} };`, i, i)
			res, err := run(t, r, script)
			if err != nil {
				t.Errorf("run %d: %v", i, err)
				return
			}
			if string(res.Response.Body) != fmt.Sprint(i*2) || len(res.Logs) != 1 || res.Logs[0].Message != fmt.Sprintf("run %d", i) {
				t.Errorf("run %d: body %q, logs %q", i, res.Response.Body, logText(res))
			}
		}(i)
	}
	wg.Wait()

	// A run waiting for a slot gives up with its context.
	block := make(chan struct{})
	defer close(block)
	r2 := NewRunner(nil, Limits{MaxConcurrent: 1, WallTime: 5 * time.Second})
	started := make(chan struct{})
	go func() {
		close(started)
		_, _ = r2.Run(context.Background(), `export default { fetch() { return new Promise((r) => setTimeout(() => r(new Response('')), 300)); } };`,
			Request{URL: "https://example.com/"})
	}()
	<-started
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := r2.Run(ctx, `export default { fetch() { return new Response(''); } };`, Request{URL: "https://example.com/"})
	wantScriptError(t, err, KindTimeout)
}

func TestBadRequest(t *testing.T) {
	r := NewRunner(nil, testLimits())
	_, err := r.Run(context.Background(), `export default { fetch() { return new Response(''); } };`, Request{URL: "/relative"})
	if err == nil {
		t.Fatal("a relative request URL was accepted")
	}
	if _, ok := err.(*ScriptError); ok {
		t.Errorf("a bad request is Folio's error, not the script's: %v", err)
	}
}

func TestDefaultLimits(t *testing.T) {
	r := NewRunner(http.DefaultClient, Limits{CPUTime: time.Second})
	l := r.Limits()
	d := DefaultLimits()
	if l.CPUTime != time.Second || l.Memory != d.Memory || l.WallTime != d.WallTime || l.MaxLogs != d.MaxLogs ||
		l.MaxResponse != d.MaxResponse || l.MaxConcurrent != d.MaxConcurrent {
		t.Errorf("limits = %+v", l)
	}
	if d.CPUTime != 2*time.Second || d.Memory != 64<<20 || d.WallTime != 30*time.Second || d.MaxLogs != 200 || d.MaxResponse != 5<<20 {
		t.Errorf("defaults = %+v", d)
	}
}
