package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
)

// Delivery limits.
const (
	DefaultTimeout  = 10 * time.Second // GitBook's webhook integration waits 10 s too
	MaxResponseRead = 64 << 10         // bytes of a response read before the rest is dropped
	MaxSnippet      = 1 << 10          // bytes of a response kept in Attempt.ResponseSnippet
	MaxRedirects    = 5                // 307/308 hops followed before giving up
	MaxRetryAfter   = time.Hour        // a longer Retry-After is cut to this
	maxErrorLen     = 300
	maxDeliveryID   = 200
)

// UserAgent is sent with every delivery.
const UserAgent = "Folio-Webhook/1 (GitBook-Webhook compatible)"

// IdempotencyHeader carries the delivery id; it is the same on every retry
// of one delivery, so a receiver can drop the copies it already processed.
const IdempotencyHeader = "Idempotency-Key"

// Attempt is the outcome of one delivery try, for the event's trace and the
// delivery log. It holds no secret and no URL credentials.
type Attempt struct {
	At              time.Time     // when the request started
	Duration        time.Duration // until the response was read, or the failure
	Status          int           // the final HTTP status; 0 when no response came
	Error           string        // why it failed, safe to show; empty on success
	ResponseSnippet string        // the first MaxSnippet bytes of the response body, valid UTF-8
	Retry           bool          // the failure may pass on a later try
	RetryAfter      time.Duration // the receiver's Retry-After on 429 or 503, at most MaxRetryAfter
}

// OK reports whether the receiver accepted the delivery (a 2xx answer).
func (a Attempt) OK() bool { return a.Error == "" && a.Status >= 200 && a.Status < 300 }

// Client delivers webhooks through the server's guarded *http.Client, with a
// time limit per attempt and bounded reads of the response.
type Client struct {
	hc      *http.Client
	timeout time.Duration
	// Clock stamps signatures and attempts; the system clock unless set.
	Clock folio.Clock
}

// New returns a Client that sends through hc, which should be the server's
// guarded outbound client (it refuses private addresses); nil means a plain
// client, for tests. Each attempt is limited to timeout (DefaultTimeout when
// timeout <= 0), and only redirects that keep the POST (307, 308) are
// followed, at most MaxRedirects, each also checked by hc's own policy.
func New(hc *http.Client, timeout time.Duration) *Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var cp http.Client
	if hc != nil {
		cp = *hc
	}
	inner := cp.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.Response == nil || (req.Response.StatusCode != http.StatusTemporaryRedirect &&
			req.Response.StatusCode != http.StatusPermanentRedirect) {
			// 301, 302 and 303 turn the POST into a GET without a body; the
			// 3xx itself is reported instead, as a failure.
			return http.ErrUseLastResponse
		}
		if len(via) > MaxRedirects {
			return folio.Errorf(folio.Invalid, "more than %d redirects", MaxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return folio.Errorf(folio.Invalid, "redirect to a URL that is not http or https")
		}
		if inner != nil {
			return inner(req, via)
		}
		return nil
	}
	// The per-attempt limit is applied through the context, which also
	// covers reading the body; hc's own Timeout stays as an outer bound.
	return &Client{hc: &cp, timeout: timeout, Clock: folio.SystemClock{}}
}

// DeliverJSON POSTs body, a JSON document, to rawURL, signed with secret in
// X-GitBook-Signature, with deliveryID in the Idempotency-Key header. It
// never panics; every failure is described in the returned Attempt.
func (c *Client) DeliverJSON(ctx context.Context, rawURL string, secret []byte, deliveryID string, body []byte) Attempt {
	return c.deliver(ctx, rawURL, secret, deliveryID, "application/json", body)
}

// DeliverEvent POSTs GitBook's integration dispatch to rawURL: a
// multipart/form-data body with the parts "event" (the event JSON),
// "environment" (the IntegrationEnvironment JSON the caller built) and, when
// fetchBody is not empty, "fetch-body". The body is signed like DeliverJSON's.
func (c *Client) DeliverEvent(ctx context.Context, rawURL string, secret []byte, deliveryID string, event, environment, fetchBody []byte) Attempt {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	parts := []struct {
		name string
		data []byte
	}{{"event", event}, {"environment", environment}, {"fetch-body", fetchBody}}
	for _, p := range parts {
		if p.name == "fetch-body" && len(p.data) == 0 {
			continue
		}
		// Writes to a bytes.Buffer cannot fail.
		w, _ := mw.CreateFormField(p.name)
		w.Write(p.data)
	}
	mw.Close()
	return c.deliver(ctx, rawURL, secret, deliveryID, mw.FormDataContentType(), buf.Bytes())
}

func (c *Client) now() time.Time {
	if c.Clock == nil {
		return time.Now()
	}
	return c.Clock.Now()
}

func (c *Client) deliver(ctx context.Context, rawURL string, secret []byte, deliveryID, contentType string, body []byte) (a Attempt) {
	a.At = c.now()
	defer func() { a.Duration = c.now().Sub(a.At) }()

	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		a.Error = "the webhook URL is not an absolute http or https URL"
		return a
	}
	if deliveryID == "" || len(deliveryID) > maxDeliveryID || strings.IndexFunc(deliveryID, badHeaderRune) >= 0 {
		a.Error = "the delivery id must be 1–200 printable ASCII characters"
		return a
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		a.Error = "the webhook URL is not an absolute http or https URL"
		return a
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(IdempotencyHeader, deliveryID)
	req.Header.Set(SignatureHeader, Sign(secret, a.At, body))

	resp, err := c.hc.Do(req)
	if err != nil {
		a.Error, a.Retry = describe(ctx, err, c.timeout, u, secret)
		return a
	}
	defer resp.Body.Close()
	a.Status = resp.StatusCode
	a.ResponseSnippet = readSnippet(resp.Body)
	a.Retry = Retryable(resp.StatusCode)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return a
	}
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		a.Error = fmt.Sprintf("the receiver answered %d (a redirect); webhook URLs must not redirect", resp.StatusCode)
	default:
		a.Error = fmt.Sprintf("the receiver answered %d", resp.StatusCode)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		a.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), a.At)
	}
	return a
}

func badHeaderRune(r rune) bool { return r <= ' ' || r >= 0x7f }

// Retryable reports whether a delivery that got status may pass later:
// 408, 425, 429 and 5xx may; 2xx needs no retry, and other 1xx, 3xx and 4xx
// answers will not change by themselves.
func Retryable(status int) bool {
	switch {
	case status == http.StatusRequestTimeout, status == http.StatusTooEarly, status == http.StatusTooManyRequests:
		return true
	case status >= 500 && status <= 599:
		return true
	}
	return false
}

// readSnippet keeps the first MaxSnippet bytes of r and reads on to at most
// MaxResponseRead bytes, so a short response frees the connection for reuse
// while a huge one costs a bounded read before the connection is dropped.
func readSnippet(r io.Reader) string {
	buf := make([]byte, MaxSnippet)
	n, _ := io.ReadFull(r, buf)
	if n == MaxSnippet {
		io.Copy(io.Discard, io.LimitReader(r, MaxResponseRead-MaxSnippet))
	}
	s := buf[:n]
	if n == MaxSnippet {
		// Drop a rune the cut split in half rather than mark it invalid.
		for i := 1; i < utf8.UTFMax && i <= len(s); i++ {
			if tail := s[len(s)-i:]; utf8.RuneStart(tail[0]) {
				if !utf8.FullRune(tail) {
					s = s[:len(s)-i]
				}
				break
			}
		}
	}
	return strings.ToValidUTF8(string(s), "\uFFFD")
}

// parseRetryAfter reads a Retry-After value in seconds or as an HTTP date,
// bounded to [0, MaxRetryAfter]; zero when absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), MaxRetryAfter)
}

// describe turns a transport error into a message safe to show (no secret,
// no userinfo, no query string) and tells whether a retry may help.
func describe(ctx context.Context, err error, timeout time.Duration, u *url.URL, secret []byte) (string, bool) {
	var fe *folio.Error
	switch {
	case errors.As(err, &fe) && fe.Kind != folio.Internal && fe.Kind != folio.Unavailable && fe.Kind != folio.Timeout:
		// A decision by our own redirect policy or the guarded client's
		// (for example a private address): the same on every try.
		return scrub(folio.MessageOf(fe), u, secret), false
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("no answer within %s", timeout), true
	case ctx.Err() != nil:
		return "the delivery was cancelled", true
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the receiver refused the connection", true
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "the receiver closed the connection without answering", true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "the receiver's host name could not be resolved", true
	}
	// Anything else: the innermost message, which net/http builds from
	// addresses and reasons, scrubbed of anything the URL could carry.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return "the delivery failed: " + scrub(err.Error(), u, secret), true
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// scrub removes from msg the URL's userinfo and query and the secret, and
// bounds its length.
func scrub(msg string, u *url.URL, secret []byte) string {
	var drop []string
	if u.User != nil {
		drop = append(drop, u.User.String())
		if p, ok := u.User.Password(); ok {
			drop = append(drop, p)
		}
	}
	if u.RawQuery != "" {
		drop = append(drop, u.RawQuery)
	}
	if len(secret) > 0 {
		drop = append(drop, string(secret))
	}
	for _, d := range drop {
		if d != "" {
			msg = strings.ReplaceAll(msg, d, "[redacted]")
		}
	}
	if len(msg) > maxErrorLen {
		msg = folio.Clip(msg, maxErrorLen)
	}
	return msg
}
