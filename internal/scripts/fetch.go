package scripts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// fetchResult is a finished outbound request, as fetchDone hands it to the
// prelude: err is empty on success; headers is JSON [name, value] pairs and
// body a binary string.
type fetchResult struct {
	id         int
	err        string
	status     int
	statusText string
	headers    string
	body       string
	url        string
	redirected bool
}

// startFetch starts the outbound request the prelude's fetch asked for:
// fetch(id, method, url, headersJSON, body or null, redirect). It returns at
// once; the response reaches the event loop through s.results.
func (s *session) startFetch(a []any) error {
	if s.r.client == nil {
		return errors.New("fetch is not available in this Folio server")
	}
	if s.fetchCount >= s.limits.MaxFetches {
		return fmt.Errorf("too many subrequests: a run may make %d", s.limits.MaxFetches)
	}
	id := int(argNumber(a, 0))
	method := argString(a, 1)
	u, err := url.Parse(argString(a, 2))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("fetch: cannot fetch %q: only http and https URLs are supported", argString(a, 2))
	}
	var pairs [][2]string
	if err := json.Unmarshal([]byte(argString(a, 3)), &pairs); err != nil {
		return fmt.Errorf("fetch: headers: %w", err)
	}
	var body []byte
	hasBody := !isAbsent(a, 4)
	if hasBody {
		if body, err = argBinary(a, 4); err != nil {
			return fmt.Errorf("fetch: body: %w", err)
		}
	}
	redirect := argString(a, 5)

	s.fetchCount++
	ctx, cancel := context.WithCancel(s.ctx)
	s.inflight[id] = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		res := fetchResult{id: id}
		select {
		case s.fetchSlots <- struct{}{}:
			// The slot is held until the event loop takes the result, so at
			// most MaxConcurrentFetches bodies are ever held in Go.
			defer func() { <-s.fetchSlots }()
			res = s.doFetch(ctx, id, method, u.String(), pairs, body, hasBody, redirect)
		case <-ctx.Done():
			res.err = "the request was aborted"
		}
		select {
		case s.results <- res:
		case <-s.ctx.Done():
		}
	}()
	return nil
}

// abortFetch cancels fetch id; the prelude has already rejected its promise.
func (s *session) abortFetch(id int) {
	if cancel, ok := s.inflight[id]; ok {
		cancel()
		delete(s.inflight, id)
	}
}

// skippedHeaders are set by Go's HTTP client itself. Leaving Accept-Encoding
// to it also makes it decompress gzip transparently, as Workers do.
var skippedHeaders = map[string]bool{
	"host": true, "content-length": true, "connection": true, "keep-alive": true,
	"transfer-encoding": true, "upgrade": true, "te": true, "trailer": true,
	"accept-encoding": true,
}

// doFetch makes one request through the Runner's client and reads at most
// MaxFetchBody bytes of its response.
func (s *session) doFetch(ctx context.Context, id int, method, target string, pairs [][2]string, body []byte, hasBody bool, redirect string) (res fetchResult) {
	res.id = id
	defer func() {
		if p := recover(); p != nil {
			res = fetchResult{id: id, err: "fetch failed: internal error"}
		}
	}()
	var rd io.Reader
	if hasBody {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		res.err = "fetch: " + err.Error()
		return res
	}
	for _, p := range pairs {
		if !skippedHeaders[strings.ToLower(p[0])] {
			req.Header.Add(p[0], p[1])
		}
	}
	client := s.r.client
	if redirect == "manual" || redirect == "error" {
		// Only ever stricter than the client's own redirect policy.
		c := *client
		c.CheckRedirect = func(*http.Request, []*http.Request) error {
			if redirect == "manual" {
				return http.ErrUseLastResponse
			}
			return errors.New(`redirect mode is "error"`)
		}
		client = &c
	}
	resp, err := client.Do(req)
	if err != nil {
		res.err = "fetch failed: " + fetchErrorText(ctx, err)
		return res
	}
	defer resp.Body.Close()
	max := s.limits.MaxFetchBody
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		res.err = "fetch failed while reading the body: " + fetchErrorText(ctx, err)
		return res
	}
	if int64(len(data)) > max {
		res.err = fmt.Sprintf("fetch: the response body of %s is over the limit of %d bytes", target, max)
		return res
	}
	hj, err := json.Marshal(headerPairs(resp.Header))
	if err != nil {
		res.err = "fetch failed: " + err.Error()
		return res
	}
	res.status = resp.StatusCode
	res.statusText = strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
	res.headers = string(hj)
	res.body = binaryString(data)
	res.url = resp.Request.URL.String()
	res.redirected = res.url != target
	return res
}

// fetchErrorText describes a client error without the method and URL that
// url.Error repeats.
func fetchErrorText(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "the request was aborted"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
