// Package ssotest runs identity providers in process, for tests only: an
// OpenID Connect provider (OIDC, in oidc.go: discovery, keys, a code flow
// with PKCE and RS256 ID tokens made with github.com/golang-jwt/jwt), and a
// SAML identity provider (IdP): a real github.com/crewjam/saml IdP on a
// loopback httptest server that always has a user signed in, so a test can
// take a service provider (Folio's SAML endpoints, or a bare sso.Provider)
// through a whole login without a browser or an outside IdP.
//
// A test starts an IdP with New, configures the service provider with the
// IdP's EntityID, SSOURL and CertPEM, hands the IdP the provider's metadata
// with Trust, and then turns the provider's sign-in redirect into the form
// a browser would post to the assertion consumer service with Login.
//
// Allowed imports: github.com/crewjam/saml (with goxmldsig, whose types
// its API exposes), github.com/golang-jwt/jwt, the standard library
// (tests only). Not package sso: the
// in-package tests of sso use this package, and Go refuses the import
// cycle that would make.
package ssotest

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// IdP is a SAML identity provider served on a loopback httptest server.
// It serves its metadata at EntityID, HTTP-Redirect (and HTTP-POST)
// AuthnRequests at SSOURL, and IdP-initiated logins at
// URL/idp-initiated?sp=ENTITYID&RelayState=STATE. It answers every
// AuthnRequest from a trusted service provider at once with a signed
// response for the current user (see SetUser), encrypting the assertion
// when the provider's metadata offers an encryption key, as an HTML form
// that posts SAMLResponse and RelayState to the provider's HTTP-POST
// assertion consumer service. It keeps no sessions or cookies.
//
// Its methods are safe for concurrent use, from parallel subtests too.
type IdP struct {
	URL      string // base URL of the IdP server
	EntityID string // the IdP's entity id (its metadata URL)
	SSOURL   string // its HTTP-Redirect SSO endpoint
	CertPEM  string // PEM certificate it signs with

	srv *httptest.Server
	idp *saml.IdentityProvider

	mu    sync.Mutex
	email string
	name  string
	edit  func(*saml.Assertion)
	sps   map[string]*saml.EntityDescriptor // by entity id
}

// New starts an IdP, stopped when the test ends. The signed-in user is
// ada@example.com "Ada Lovelace" until SetUser.
//
// Every IdP in a test binary signs with the same RSA-2048 key (keys are
// slow to make under -race), whose self-signed certificate is valid from a
// day before the first New for ten years; a test of a wrong certificate
// needs one from elsewhere. The IdP logs what it rejects, and why, to t.
func New(t testing.TB) *IdP {
	t.Helper()
	key, cert, certPEM, err := signingKey()
	if err != nil {
		t.Fatalf("ssotest: %v", err)
	}
	p := &IdP{
		CertPEM: certPEM,
		email:   "ada@example.com",
		name:    "Ada Lovelace",
		sps:     map[string]*saml.EntityDescriptor{},
	}
	mux := http.NewServeMux()
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	base, err := url.Parse(p.srv.URL)
	if err != nil {
		t.Fatalf("ssotest: %v", err)
	}
	p.URL = p.srv.URL
	p.idp = &saml.IdentityProvider{
		Key:                     key,
		Certificate:             cert,
		Logger:                  log.New(logWriter{t}, "ssotest IdP: ", 0),
		MetadataURL:             *base.JoinPath("/metadata"),
		SSOURL:                  *base.JoinPath("/sso"),
		ServiceProviderProvider: (*serviceProviders)(p),
		SessionProvider:         (*sessions)(p),
		AssertionMaker:          (*assertionMaker)(p),
		SignatureMethod:         dsig.RSASHA256SignatureMethod,
	}
	p.EntityID = p.idp.MetadataURL.String()
	p.SSOURL = p.idp.SSOURL.String()
	mux.HandleFunc("/metadata", p.idp.ServeMetadata)
	mux.HandleFunc("/sso", p.idp.ServeSSO)
	mux.HandleFunc("/idp-initiated", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		p.idp.ServeIDPInitiated(w, r, q.Get("sp"), q.Get("RelayState"))
	})
	return p
}

// SetUser changes who the IdP says is signed in (email is used as NameID
// with emailAddress format and as an "email" attribute; name as
// "displayName"). It affects the responses of later Login and IdPInitiated
// calls, of every goroutine: parallel subtests that need different users
// should start an IdP each. An empty email gives an empty NameID and no
// email attribute; an empty name gives no displayName attribute.
func (p *IdP) SetUser(email, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.email, p.name = email, name
}

// EditAssertion sets a function that changes every assertion the IdP makes
// from now on, before it is signed and encrypted: for tests of how a
// service provider treats unusual or broken assertions, or of attributes
// SetUser cannot express. nil removes it. edit may run on several
// goroutines at once when logins run in parallel.
func (p *IdP) EditAssertion(edit func(*saml.Assertion)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.edit = edit
}

// Trust registers a service provider by its metadata XML (as served by
// folio's metadata endpoint), so the IdP will issue assertions to it. It
// replaces an earlier registration of the same entity id. The IdP encrypts
// assertions when the metadata has an encryption (or use-less) key, and
// posts responses to the first HTTP-POST assertion consumer service it
// lists unless an AuthnRequest names another listed one.
func (p *IdP) Trust(t testing.TB, spMetadataXML []byte) {
	t.Helper()
	var md saml.EntityDescriptor
	if err := xml.Unmarshal(spMetadataXML, &md); err != nil {
		t.Fatalf("ssotest: Trust: SP metadata is not an EntityDescriptor: %v", err)
	}
	if md.EntityID == "" {
		t.Fatalf("ssotest: Trust: SP metadata has no entityID")
	}
	post := false
	for _, d := range md.SPSSODescriptors {
		for _, acs := range d.AssertionConsumerServices {
			post = post || acs.Binding == saml.HTTPPostBinding
		}
	}
	if !post {
		t.Fatalf("ssotest: Trust: SP metadata for %s has no HTTP-POST AssertionConsumerService", md.EntityID)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sps[md.EntityID] = &md
}

// Login follows a redirect URL produced by the SP (an AuthnRequest to
// SSOURL, HTTP-Redirect binding) like a browser would and returns the
// auto-submit form the IdP answers with: the action (the SP's ACS URL),
// SAMLResponse and RelayState values.
//
// redirectURL must be on SSOURL: pass the Location the SP redirects to, not
// the SP's own start URL. The IdP needs no cookies and answers 200 with the
// form at once; anything else (say, because the SP is not trusted or the
// request does not validate) fails the test, with the IdP's reason in the
// log. The caller posts the form itself (application/x-www-form-urlencoded)
// to action, with whatever cookies the SP set when it redirected.
func (p *IdP) Login(t testing.TB, redirectURL string) (action, samlResponse, relayState string) {
	t.Helper()
	u, err := url.Parse(redirectURL)
	if err != nil || u.Scheme+"://"+u.Host+u.Path != p.SSOURL {
		t.Fatalf("ssotest: Login: %q is not a URL of the IdP SSO endpoint %s (pass the Location the SP redirects to)", redirectURL, p.SSOURL)
	}
	if u.Query().Get("SAMLRequest") == "" {
		t.Fatalf("ssotest: Login: %q has no SAMLRequest", redirectURL)
	}
	return p.fetchForm(t, redirectURL)
}

// IdPInitiated returns a form for an unsolicited (IdP-initiated) login to
// the SP with the given entity id, which must be trusted. The response
// answers no AuthnRequest (it has no InResponseTo) and goes to the SP's
// first HTTP-POST ACS. An optional state (at most one) is sent as the
// RelayState, as IdPs do that are configured with a default relay state;
// without it the RelayState is empty.
func (p *IdP) IdPInitiated(t testing.TB, spEntityID string, state ...string) (action, samlResponse, relayState string) {
	t.Helper()
	if len(state) > 1 {
		t.Fatalf("ssotest: IdPInitiated takes at most one relay state, not %d", len(state))
	}
	q := url.Values{"sp": {spEntityID}}
	if len(state) == 1 {
		q.Set("RelayState", state[0])
	}
	return p.fetchForm(t, p.URL+"/idp-initiated?"+q.Encode())
}

// formTag and formAttr read the IdP's form, which crewjam renders with
// html/template: double-quoted attributes, with <, >, " and & escaped.
var (
	formTag  = regexp.MustCompile(`(?i)<(form|input)\b([^>]*)>`)
	formAttr = regexp.MustCompile(`([A-Za-z-]+)="([^"]*)"`)
)

// fetchForm GETs u from the IdP without following redirects and reads the
// HTML form it answers with.
func (p *IdP) fetchForm(t testing.TB, u string) (action, samlResponse, relayState string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, u, nil)
	if err != nil {
		t.Fatalf("ssotest: %v", err)
	}
	client := &http.Client{
		Transport:     p.srv.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("ssotest: GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("ssotest: GET %s: %v", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ssotest: the IdP answered %s: %s (see its log above for the reason)", resp.Status, bytes.TrimSpace(body))
	}
	var method string
	var haveResponse bool
	for _, tag := range formTag.FindAllStringSubmatch(string(body), -1) {
		attrs := map[string]string{}
		for _, a := range formAttr.FindAllStringSubmatch(tag[2], -1) {
			attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2])
		}
		switch {
		case strings.EqualFold(tag[1], "form"):
			method, action = attrs["method"], attrs["action"]
		case attrs["name"] == "SAMLResponse":
			samlResponse, haveResponse = attrs["value"], true
		case attrs["name"] == "RelayState":
			relayState = attrs["value"]
		}
	}
	if !strings.EqualFold(method, "post") || action == "" || !haveResponse || samlResponse == "" {
		t.Fatalf("ssotest: the IdP page is not a form posting a SAMLResponse: %s", body)
	}
	return action, samlResponse, relayState
}

// serviceProviders, sessions and assertionMaker are the IdP in the roles
// crewjam asks of it.
type (
	serviceProviders IdP
	sessions         IdP
	assertionMaker   IdP
)

// GetServiceProvider implements saml.ServiceProviderProvider with the
// trusted providers.
func (p *serviceProviders) GetServiceProvider(r *http.Request, id string) (*saml.EntityDescriptor, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if md, ok := p.sps[id]; ok {
		return md, nil
	}
	return nil, os.ErrNotExist
}

// GetSession implements saml.SessionProvider: the current user is always
// signed in, in a fresh session.
func (p *sessions) GetSession(w http.ResponseWriter, r *http.Request, req *saml.IdpAuthnRequest) *saml.Session {
	p.mu.Lock()
	email, name := p.email, p.name
	p.mu.Unlock()
	now := saml.TimeNow()
	s := &saml.Session{
		ID:           "ssotest-session",
		CreateTime:   now,
		ExpireTime:   now.Add(time.Hour),
		Index:        "1",
		NameID:       email,
		NameIDFormat: string(saml.EmailAddressNameIDFormat),
	}
	if email != "" {
		s.CustomAttributes = append(s.CustomAttributes, basicAttribute("email", email))
	}
	if name != "" {
		s.CustomAttributes = append(s.CustomAttributes, basicAttribute("displayName", name))
	}
	return s
}

func basicAttribute(name, value string) saml.Attribute {
	return saml.Attribute{
		Name:       name,
		NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
		Values:     []saml.AttributeValue{{Type: "xs:string", Value: value}},
	}
}

// MakeAssertion implements saml.AssertionMaker: crewjam's assertion (with
// only the session's custom attributes, since the session sets no others),
// then the test's edit.
func (p *assertionMaker) MakeAssertion(req *saml.IdpAuthnRequest, session *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		return err
	}
	p.mu.Lock()
	edit := p.edit
	p.mu.Unlock()
	if edit != nil {
		edit(req.Assertion)
	}
	return nil
}

// logWriter sends the IdP's log lines to the test log.
type logWriter struct{ t testing.TB }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Logf("%s", bytes.TrimRight(b, "\n"))
	return len(b), nil
}

// The signing key every IdP shares.
var (
	keyOnce sync.Once
	keyRSA  *rsa.PrivateKey
	keyCert *x509.Certificate
	keyPEM  string // the certificate
	keyErr  error
)

func signingKey() (*rsa.PrivateKey, *x509.Certificate, string, error) {
	keyOnce.Do(func() {
		keyRSA, keyCert, keyPEM, keyErr = newSigningKey()
	})
	return keyRSA, keyCert, keyPEM, keyErr
}

func newSigningKey() (*rsa.PrivateKey, *x509.Certificate, string, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, "", fmt.Errorf("generate IdP key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, "", fmt.Errorf("generate serial: %w", err)
	}
	// A day back, so tests may judge responses at an earlier now.
	notBefore := time.Now().Add(-24 * time.Hour).UTC().Truncate(time.Second)
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "ssotest IdP"},
		NotBefore:             notBefore,
		NotAfter:              notBefore.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, "", fmt.Errorf("create IdP certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, "", fmt.Errorf("parse IdP certificate: %w", err)
	}
	return key, cert, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), nil
}
