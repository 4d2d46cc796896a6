package ssotest_test

import (
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"

	"github.com/foliodocs/folio/internal/sso"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// The SP key pair is slow to make under -race, so the tests share one.
var (
	spKeyOnce     sync.Once
	spKey, spCert string
	spKeyErr      error
)

// provider returns Folio's side of a provider for idp, as the app builds it
// from an admin's settings, and has idp trust it.
func provider(t *testing.T, idp *ssotest.IdP) *sso.Provider {
	t.Helper()
	spKeyOnce.Do(func() { spKey, spCert, spKeyErr = sso.NewKeyPair("folio-sp") })
	if spKeyErr != nil {
		t.Fatal(spKeyErr)
	}
	p := &sso.Provider{
		IDPEntityID:    idp.EntityID,
		IDPSSOURL:      idp.SSOURL,
		IDPCertificate: idp.CertPEM,
		SPEntityID:     "https://folio.example/v1/orgs/org1/saml/prov1/metadata",
		ACSURL:         "https://folio.example/v1/orgs/org1/saml/prov1/acs",
		SPKeyPEM:       spKey,
		SPCertPEM:      spCert,
	}
	md, err := p.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	idp.Trust(t, md)
	return p
}

// login runs an SP-initiated login and returns the identity the SP reads
// from the response.
func login(t *testing.T, idp *ssotest.IdP, p *sso.Provider) *sso.Identity {
	t.Helper()
	state := fmt.Sprintf("state %s+/=&", t.Name())
	redirect, reqID, err := p.AuthnRedirect(state)
	if err != nil {
		t.Fatal(err)
	}
	action, resp, relay := idp.Login(t, redirect)
	if action != p.ACSURL {
		t.Errorf("form posts to %q, want the ACS URL %q", action, p.ACSURL)
	}
	if relay != state {
		t.Errorf("RelayState = %q, want %q", relay, state)
	}
	raw, err := base64.StdEncoding.DecodeString(resp)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "EncryptedAssertion") {
		t.Errorf("assertion is not encrypted, though the SP metadata offers a key:\n%s", raw)
	}
	id, err := p.ParseResponse(resp, []string{reqID}, time.Now())
	if err != nil {
		t.Fatalf("ParseResponse: %v", err)
	}
	return id
}

func wantUser(t *testing.T, id *sso.Identity, email, name string) {
	t.Helper()
	if id.NameID != email || id.Email != email || id.DisplayName != name {
		t.Errorf("identity = %+v, want %s %q", id, email, name)
	}
	if got := id.Attributes["email"]; len(got) != 1 || got[0] != email {
		t.Errorf("email attribute = %q, want %q", got, email)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	p := provider(t, idp)
	wantUser(t, login(t, idp, p), "ada@example.com", "Ada Lovelace")

	idp.SetUser("grace@example.com", "Grace Hopper")
	wantUser(t, login(t, idp, p), "grace@example.com", "Grace Hopper")

	idp.SetUser("anon@example.com", "")
	id := login(t, idp, p)
	if _, ok := id.Attributes["displayName"]; ok || id.DisplayName != "" || id.Email != "anon@example.com" {
		t.Errorf("identity = %+v, want no display name", id)
	}
}

func TestParallelLogins(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	p := provider(t, idp)
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			idp.SetUser("ada@example.com", "Ada Lovelace") // same user: only the race detector watches
			wantUser(t, login(t, idp, p), "ada@example.com", "Ada Lovelace")
		})
	}
}

func TestIdPInitiated(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	p := provider(t, idp)
	for _, state := range []string{"", "home"} {
		var action, resp, relay string
		if state == "" {
			action, resp, relay = idp.IdPInitiated(t, p.SPEntityID)
		} else {
			action, resp, relay = idp.IdPInitiated(t, p.SPEntityID, state)
		}
		if action != p.ACSURL || relay != state {
			t.Errorf("form posts RelayState %q to %q, want %q to %q", relay, action, state, p.ACSURL)
		}
		id, err := p.ParseResponse(resp, nil, time.Now())
		if err != nil {
			t.Fatalf("ParseResponse with nil request ids: %v", err)
		}
		wantUser(t, id, "ada@example.com", "Ada Lovelace")
		if _, err := p.ParseResponse(resp, []string{}, time.Now()); err == nil {
			t.Error("unsolicited response accepted where a sign-in started here was required")
		}
	}
}

func TestEditAssertion(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	p := provider(t, idp)
	idp.EditAssertion(func(a *saml.Assertion) {
		a.Subject.NameID.Format = string(saml.PersistentNameIDFormat)
		a.Subject.NameID.Value = "u-1"
	})
	id := login(t, idp, p)
	if id.NameID != "u-1" || id.Email != "ada@example.com" {
		t.Errorf("identity = %+v, want NameID u-1 and the email attribute", id)
	}
	idp.EditAssertion(nil)
	wantUser(t, login(t, idp, p), "ada@example.com", "Ada Lovelace")
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	resp, err := http.Get(idp.EntityID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var md saml.EntityDescriptor
	if err := xml.Unmarshal(body, &md); err != nil {
		t.Fatalf("metadata: %v\n%s", err, body)
	}
	cert, err := sso.ParseCertificate(idp.CertPEM)
	if err != nil {
		t.Fatal(err)
	}
	d := md.IDPSSODescriptors[0]
	if md.EntityID != idp.EntityID || d.SingleSignOnServices[0].Location != idp.SSOURL ||
		d.KeyDescriptors[0].KeyInfo.X509Data.X509Certificates[0].Data != base64.StdEncoding.EncodeToString(cert.Raw) {
		t.Errorf("metadata does not match the IdP's fields:\n%s", body)
	}
	if !strings.HasPrefix(idp.SSOURL, idp.URL+"/") || !strings.HasPrefix(idp.EntityID, idp.URL+"/") {
		t.Errorf("URL %s, SSOURL %s, EntityID %s", idp.URL, idp.SSOURL, idp.EntityID)
	}
}

// fakeTB records the first fatal failure of a helper instead of failing.
type fakeTB struct {
	testing.TB
	mu    sync.Mutex
	fatal string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

// wantFatal runs fn with a fakeTB and returns its fatal message.
func wantFatal(t *testing.T, fn func(testing.TB)) string {
	t.Helper()
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fatal == "" {
		t.Fatal("the helper did not fail the test")
	}
	t.Logf("failed with: %s", f.fatal)
	return f.fatal
}

func TestLoginFailures(t *testing.T) {
	t.Parallel()
	idp := ssotest.New(t)
	p := provider(t, idp)
	redirect, _, err := p.AuthnRedirect("")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ErrNotTheSSOURL", func(t *testing.T) {
		msg := wantFatal(t, func(tb testing.TB) { idp.Login(tb, "https://folio.example/v1/orgs/org1/saml/prov1/start") })
		if !strings.Contains(msg, "not a URL of the IdP SSO endpoint") {
			t.Errorf("message = %q", msg)
		}
	})
	t.Run("ErrUntrustedSP", func(t *testing.T) {
		other := *p
		other.SPEntityID = "https://folio.example/untrusted"
		u, _, err := other.AuthnRedirect("")
		if err != nil {
			t.Fatal(err)
		}
		msg := wantFatal(t, func(tb testing.TB) { idp.Login(tb, u) })
		if !strings.Contains(msg, "400") {
			t.Errorf("message = %q, want the IdP's 400", msg)
		}
	})
	t.Run("ErrIdPInitiatedUntrustedSP", func(t *testing.T) {
		msg := wantFatal(t, func(tb testing.TB) { idp.IdPInitiated(tb, "https://folio.example/untrusted") })
		if !strings.Contains(msg, "404") {
			t.Errorf("message = %q, want the IdP's 404", msg)
		}
	})
	t.Run("ErrNotMetadata", func(t *testing.T) {
		wantFatal(t, func(tb testing.TB) { idp.Trust(tb, []byte("<nope")) })
	})
	// The SP is still trusted and the request still good.
	if action, _, _ := idp.Login(t, redirect); action != p.ACSURL {
		t.Errorf("action = %q", action)
	}
}
