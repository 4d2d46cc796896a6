package webhook_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/webhook"
)

var (
	secret = []byte("whsec_test")
	t0     = time.Unix(1_700_000_000, 0)
	body   = []byte(`{"type":"space_content_updated","eventId":"e1"}`)
)

func TestSignKnownVector(t *testing.T) {
	// The expected value comes from openssl, not from this package.
	got := webhook.Sign(secret, t0, body)
	want := "t=1700000000,v1=" + knownMAC
	if got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
}

func TestVerify(t *testing.T) {
	good := webhook.Sign(secret, t0, body)
	tests := []struct {
		name    string
		secret  []byte
		header  string
		body    []byte
		now     time.Time
		tol     time.Duration
		wantErr error // nil, a sentinel, or errInvalid for any Invalid error
	}{
		{"round trip", secret, good, body, t0, time.Minute, nil},
		{"spaces around parts", secret, " t=1700000000 , v1=" + knownMAC + " ", body, t0, time.Minute, nil},
		{"upper-case hex", secret, "t=1700000000,v1=" + strings.ToUpper(knownMAC), body, t0, time.Minute, nil},
		{"rotation: second v1 matches", secret, "t=1700000000,v1=" + strings.Repeat("0", 64) + ",v1=" + knownMAC, body, t0, time.Minute, nil},
		{"unknown scheme ignored", secret, good + ",v0=abc", body, t0, time.Minute, nil},
		{"tolerance/edge in the past", secret, good, body, t0.Add(time.Minute), time.Minute, nil},
		{"tolerance/edge in the future", secret, good, body, t0.Add(-time.Minute), time.Minute, nil},
		{"tolerance/just past", secret, good, body, t0.Add(time.Minute + time.Second), time.Minute, webhook.ErrSignatureExpired},
		{"tolerance/just future", secret, good, body, t0.Add(-time.Minute - time.Second), time.Minute, webhook.ErrSignatureExpired},
		{"tolerance/zero means default", secret, good, body, t0.Add(webhook.DefaultTolerance), 0, nil},
		{"tolerance/zero default exceeded", secret, good, body, t0.Add(webhook.DefaultTolerance + time.Second), 0, webhook.ErrSignatureExpired},
		{"tampered/body", secret, good, append([]byte(nil), append(body, ' ')...), t0, time.Minute, webhook.ErrSignatureMismatch},
		{"tampered/empty body", secret, good, nil, t0, time.Minute, webhook.ErrSignatureMismatch},
		{"tampered/timestamp", secret, strings.Replace(good, "t=1700000000", "t=1700000001", 1), body, t0, time.Minute, webhook.ErrSignatureMismatch},
		{"tampered/secret", []byte("whsec_other"), good, body, t0, time.Minute, webhook.ErrSignatureMismatch},
		{"tampered/signature", secret, good[:len(good)-1] + flip(good[len(good)-1]), body, t0, time.Minute, webhook.ErrSignatureMismatch},
		{"malformed/empty", secret, "", body, t0, time.Minute, errInvalid},
		{"malformed/blank", secret, "   ", body, t0, time.Minute, errInvalid},
		{"malformed/no timestamp", secret, "v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/no v1", secret, "t=1700000000", body, t0, time.Minute, errInvalid},
		{"malformed/two timestamps", secret, "t=1,t=1700000000,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/timestamp not digits", secret, "t=17e8,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/negative timestamp", secret, "t=-1,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/huge timestamp", secret, "t=99999999999999999999,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/empty timestamp", secret, "t=,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/v1 not hex", secret, "t=1700000000,v1=" + strings.Repeat("g", 64), body, t0, time.Minute, errInvalid},
		{"malformed/v1 short", secret, "t=1700000000,v1=" + knownMAC[:62], body, t0, time.Minute, errInvalid},
		{"malformed/v1 long", secret, "t=1700000000,v1=" + knownMAC + "00", body, t0, time.Minute, errInvalid},
		{"malformed/part without =", secret, "t=1700000000,garbage,v1=" + knownMAC, body, t0, time.Minute, errInvalid},
		{"malformed/too long", secret, good + "," + strings.Repeat("x=y,", 300) + "x=y", body, t0, time.Minute, errInvalid},
		{"malformed/too many parts", secret, good + strings.Repeat(",x=y", 10), body, t0, time.Minute, errInvalid},
		{"malformed/only commas", secret, ",,,", body, t0, time.Minute, errInvalid},
		{"malformed/binary", secret, "t=\x00\xff,v1=\xfe", body, t0, time.Minute, errInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := webhook.Verify(tt.secret, tt.header, tt.body, tt.now, tt.tol)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Verify: %v", err)
			case tt.wantErr == errInvalid:
				if err == nil || folio.KindOf(err) != folio.Invalid {
					t.Fatalf("Verify = %v, want an Invalid error", err)
				}
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("Verify = %v, want %v", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), string(tt.secret)) {
				t.Fatalf("error %q contains the secret", err)
			}
		})
	}
}

// errInvalid stands for "any error of kind Invalid" in the table above.
var errInvalid = errors.New("invalid")

func flip(c byte) string {
	if c == '0' {
		return "1"
	}
	return "0"
}

func FuzzVerify(f *testing.F) {
	f.Add(webhook.Sign(secret, t0, body), body)
	f.Add("t=1,v1=00", []byte{})
	f.Fuzz(func(t *testing.T, header string, b []byte) {
		_ = webhook.Verify(secret, header, b, t0, time.Minute)
	})
}

// knownMAC is HMAC-SHA256("whsec_test", "1700000000."+body), from openssl.
const knownMAC = "efe524b40fdd344e26dd1c77cc1b1aca6f8208a19d25b70d16955e9aff092bb0"
