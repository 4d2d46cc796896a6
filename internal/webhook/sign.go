package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// SignatureHeader is the request header that carries the signature.
const SignatureHeader = "X-GitBook-Signature"

// DefaultTolerance is the replay window Verify uses when given a tolerance of
// zero or less.
const DefaultTolerance = 5 * time.Minute

// Bounds on what Verify accepts, so a hostile header costs little.
const (
	maxHeaderLen    = 1024 // a real header is about 80 bytes
	maxHeaderParts  = 8    // t plus a few v1 during a secret rotation
	maxTimestampLen = 12   // seconds since 1970 fit in 11 digits until year 5138
)

// Errors Verify returns when the header is well formed but does not prove
// the body came from a holder of the secret (kind Unauthenticated).
var (
	ErrSignatureMismatch = folio.Errorf(folio.Unauthenticated, "signature does not match the body")
	ErrSignatureExpired  = folio.Errorf(folio.Unauthenticated, "signature timestamp is outside the allowed window")
)

// Sign returns the X-GitBook-Signature header value for body at time t:
// "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<unix seconds>.<body>")>".
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a signature header made by Sign against body and secret. The
// timestamp must lie within tolerance of now on either side (DefaultTolerance
// when tolerance <= 0). Several v1 values are allowed, so a sender can sign
// with an old and a new secret during a rotation; one match is enough. A
// malformed header is an Invalid error; a wrong or stale signature is
// ErrSignatureMismatch or ErrSignatureExpired (kind Unauthenticated).
func Verify(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	header = strings.TrimSpace(header)
	if header == "" {
		return folio.Errorf(folio.Invalid, "signature header is missing")
	}
	if len(header) > maxHeaderLen {
		return folio.Errorf(folio.Invalid, "signature header is longer than %d bytes", maxHeaderLen)
	}
	parts := strings.Split(header, ",")
	if len(parts) > maxHeaderParts {
		return folio.Errorf(folio.Invalid, "signature header has more than %d parts", maxHeaderParts)
	}
	var ts string
	var sigs [][]byte
	for _, p := range parts {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			return folio.Errorf(folio.Invalid, "signature header part %q is not key=value", folio.Clip(p, 20))
		}
		switch k {
		case "t":
			if ts != "" {
				return folio.Errorf(folio.Invalid, "signature header has more than one timestamp")
			}
			if v == "" || len(v) > maxTimestampLen || strings.Trim(v, "0123456789") != "" {
				return folio.Errorf(folio.Invalid, "signature timestamp must be Unix seconds")
			}
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil || len(sig) != sha256.Size {
				return folio.Errorf(folio.Invalid, "signature v1 must be %d hexadecimal digits", 2*sha256.Size)
			}
			sigs = append(sigs, sig)
		default:
			// Unknown schemes (a future v2) are skipped, as the JavaScript
			// verifiers do, so senders can add them without breaking us.
		}
	}
	if ts == "" {
		return folio.Errorf(folio.Invalid, "signature header has no timestamp (t=)")
	}
	if len(sigs) == 0 {
		return folio.Errorf(folio.Invalid, "signature header has no v1 signature")
	}
	want := mac(secret, ts, body)
	matched := false
	for _, sig := range sigs {
		// Every candidate is compared, in constant time, so timing does not
		// tell which one was close.
		if hmac.Equal(sig, want) {
			matched = true
		}
	}
	if !matched {
		return ErrSignatureMismatch
	}
	// Checked after the MAC, so an attacker cannot learn anything about the
	// window from unauthenticated headers; at most 12 digits cannot overflow.
	sec, _ := strconv.ParseInt(ts, 10, 64)
	skew := now.Unix() - sec
	if skew < 0 {
		skew = -skew
	}
	if time.Duration(skew) > tolerance/time.Second {
		return ErrSignatureExpired
	}
	return nil
}
