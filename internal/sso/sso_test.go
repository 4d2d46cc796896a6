package sso

import (
	"bytes"
	"compress/flate"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"errors"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	"github.com/google/go-cmp/cmp"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/sso/ssotest"
)

// keySet holds PEM key pairs made by NewKeyPair. idpKey and idpCert stand
// in for an IdP's where no IdP runs; a running one (newIdP) signs with
// ssotest's key.
type keySet struct {
	spKey, spCert       string
	idpKey, idpCert     string
	otherKey, otherCert string
}

// Key pairs are slow to make under -race, so the tests share three.
var (
	testKeysOnce sync.Once
	testKeys     keySet
	testKeysErr  error
)

func keys(t *testing.T) keySet {
	t.Helper()
	testKeysOnce.Do(func() {
		k := &testKeys
		if k.spKey, k.spCert, testKeysErr = NewKeyPair("folio-sp"); testKeysErr != nil {
			return
		}
		if k.idpKey, k.idpCert, testKeysErr = NewKeyPair("test-idp"); testKeysErr != nil {
			return
		}
		k.otherKey, k.otherCert, testKeysErr = NewKeyPair("other")
	})
	if testKeysErr != nil {
		t.Fatal(testKeysErr)
	}
	return testKeys
}

// newIdP starts a test IdP (see package ssotest) and returns it with
// Folio's side of a provider for it, which the IdP trusts. With encrypt
// false the IdP imports the metadata without the encryption key, so
// assertions arrive in plain text.
func newIdP(t *testing.T, encrypt bool) (*ssotest.IdP, *Provider) {
	t.Helper()
	k := keys(t)
	idp := ssotest.New(t)
	p := &Provider{
		IDPEntityID:    idp.EntityID,
		IDPSSOURL:      idp.SSOURL,
		IDPCertificate: idp.CertPEM,
		SPEntityID:     "https://folio.example/v1/orgs/org1/saml/prov1/metadata",
		ACSURL:         "https://folio.example/v1/orgs/org1/saml/prov1/acs",
		SPKeyPEM:       k.spKey,
		SPCertPEM:      k.spCert,
	}
	md, err := p.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	if !encrypt {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(md); err != nil {
			t.Fatal(err)
		}
		for _, kd := range doc.FindElements("//KeyDescriptor[@use='encryption']") {
			kd.Parent().RemoveChild(kd)
		}
		if md, err = doc.WriteToBytes(); err != nil {
			t.Fatal(err)
		}
	}
	idp.Trust(t, md)
	return idp, p
}

// postForm is what the IdP's auto-submitting form would post to the ACS.
type postForm struct {
	Action, SAMLResponse, RelayState string
}

// login runs an SP-initiated sign-in and returns the posted form and the
// AuthnRequest id.
func login(t *testing.T, idp *ssotest.IdP, p *Provider, relayState string) (postForm, string) {
	t.Helper()
	u, id, err := p.AuthnRedirect(relayState)
	if err != nil {
		t.Fatal(err)
	}
	var f postForm
	f.Action, f.SAMLResponse, f.RelayState = idp.Login(t, u)
	return f, id
}

// uriAttribute makes an attribute named by URI, as IdPs send LDAP ones.
func uriAttribute(name, friendly string, values ...string) saml.Attribute {
	a := saml.Attribute{Name: name, FriendlyName: friendly, NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri"}
	for _, v := range values {
		a.Values = append(a.Values, saml.AttributeValue{Type: "xs:string", Value: v})
	}
	return a
}

// decode and encode turn a SAMLResponse into its XML and back.
func decode(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func encode(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func wantInvalid(t *testing.T, err error, reason string) {
	t.Helper()
	if err == nil {
		t.Fatal("ParseResponse succeeded, want an Invalid error")
	}
	if k := folio.KindOf(err); k != folio.Invalid {
		t.Fatalf("kind = %v, want invalid (err: %v)", k, err)
	}
	msg := folio.MessageOf(err)
	if !strings.HasPrefix(msg, "the SAML response is not valid: ") || !strings.Contains(msg, reason) {
		t.Fatalf("message = %q, want the SAML response prefix and %q (err: %v)", msg, reason, err)
	}
	var fe *folio.Error
	if errors.As(err, &fe); fe.Err == nil {
		t.Fatalf("no wrapped cause in %v", err)
	}
	t.Logf("rejected: %v", err)
}

func TestLoginEndToEnd(t *testing.T) {
	t.Parallel()
	for _, encrypt := range []bool{true, false} {
		name := map[bool]string{true: "EncryptedAssertion", false: "PlainAssertion"}[encrypt]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ti, p := newIdP(t, encrypt)
			// LDAP attributes besides the IdP's own email and displayName.
			ti.EditAssertion(func(a *saml.Assertion) {
				st := &a.AttributeStatements[0]
				st.Attributes = append(st.Attributes,
					uriAttribute("urn:oid:0.9.2342.19200300.100.1.3", "mail", "ada@example.com"),
					uriAttribute("urn:oid:1.3.6.1.4.1.5923.1.1.1.1", "eduPersonAffiliation", "writers"))
			})
			// Folio's signed state is base64 with characters that need escaping.
			state := "st+a/te=&x y"
			form, reqID := login(t, ti, p, state)

			if form.Action != p.ACSURL {
				t.Errorf("form posts to %q, want %q", form.Action, p.ACSURL)
			}
			if form.RelayState != state {
				t.Errorf("RelayState = %q, want %q", form.RelayState, state)
			}
			xmlText := decode(t, form.SAMLResponse)
			if got := strings.Contains(xmlText, "EncryptedAssertion"); got != encrypt {
				t.Fatalf("response encrypted = %v, want %v", got, encrypt)
			}

			id, err := p.ParseResponse(form.SAMLResponse, []string{"id-other", reqID}, time.Now())
			if err != nil {
				t.Fatalf("ParseResponse: %v", err)
			}
			if id.Email != "ada@example.com" || id.DisplayName != "Ada Lovelace" || id.NameID != "ada@example.com" {
				t.Errorf("identity = %+v, want ada@example.com / Ada Lovelace", id)
			}
			if diff := cmp.Diff([]string{"writers"}, id.Attributes["urn:oid:1.3.6.1.4.1.5923.1.1.1.1"]); diff != "" {
				t.Errorf("group attribute (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"ada@example.com"}, id.Attributes["urn:oid:0.9.2342.19200300.100.1.3"]); diff != "" {
				t.Errorf("mail attribute (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoginEmailFromAttributes(t *testing.T) {
	t.Parallel()
	ti, p := newIdP(t, true)
	// A persistent NameID and LDAP attributes: no email or display name as such.
	ti.EditAssertion(func(a *saml.Assertion) {
		a.Subject.NameID.Format = string(saml.PersistentNameIDFormat)
		a.Subject.NameID.Value = "u-7f3a9c"
		a.AttributeStatements[0].Attributes = []saml.Attribute{
			uriAttribute("urn:oid:0.9.2342.19200300.100.1.3", "mail", "ada@example.com"),
			uriAttribute("urn:oid:2.5.4.42", "givenName", "Ada"),
			uriAttribute("urn:oid:2.5.4.4", "sn", "Lovelace"),
		}
	})
	form, reqID := login(t, ti, p, "")

	id, err := p.ParseResponse(form.SAMLResponse, []string{reqID}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// mail attribute for the email, givenName + sn for the name.
	if id.NameID != "u-7f3a9c" || id.Email != "ada@example.com" || id.DisplayName != "Ada Lovelace" {
		t.Errorf("identity = %+v", id)
	}
}

func TestLoginIdPInitiated(t *testing.T) {
	t.Parallel()
	ti, p := newIdP(t, true)
	var form postForm
	form.Action, form.SAMLResponse, form.RelayState = ti.IdPInitiated(t, p.SPEntityID, "home")
	if form.RelayState != "home" {
		t.Errorf("RelayState = %q", form.RelayState)
	}

	id, err := p.ParseResponse(form.SAMLResponse, nil, time.Now())
	if err != nil {
		t.Fatalf("IdP-initiated with nil request ids: %v", err)
	}
	if id.Email != "ada@example.com" {
		t.Errorf("email = %q", id.Email)
	}
	t.Run("ErrUnsolicitedWhenRequestIDsGiven", func(t *testing.T) {
		_, err := p.ParseResponse(form.SAMLResponse, []string{"id-1"}, time.Now())
		wantInvalid(t, err, "does not answer a sign-in started here")
	})
	t.Run("ErrUnsolicitedWhenRequestIDsEmpty", func(t *testing.T) {
		_, err := p.ParseResponse(form.SAMLResponse, []string{}, time.Now())
		wantInvalid(t, err, "does not answer a sign-in started here")
	})
}

func TestClockSkewAllowed(t *testing.T) {
	t.Parallel()
	ti, p := newIdP(t, true)
	form, reqID := login(t, ti, p, "")
	for _, d := range []time.Duration{-2 * time.Minute, 0, time.Minute} {
		if _, err := p.ParseResponse(form.SAMLResponse, []string{reqID}, time.Now().Add(d)); err != nil {
			t.Errorf("SP clock off by %v: %v", d, err)
		}
	}
}

func TestParseResponseRejects(t *testing.T) {
	t.Parallel()
	k := keys(t)
	ti, p := newIdP(t, false)
	form, reqID := login(t, ti, p, "")
	ids := []string{reqID}
	idpCert, err := ParseCertificate(ti.CertPEM)
	if err != nil {
		t.Fatal(err)
	}
	plain := decode(t, form.SAMLResponse)

	// Sanity: the untouched response passes.
	if _, err := p.ParseResponse(form.SAMLResponse, ids, time.Now()); err != nil {
		t.Fatalf("untouched response: %v", err)
	}

	withProvider := func(edit func(*Provider)) *Provider {
		q := *p
		edit(&q)
		return &q
	}
	removeSignature := func(t *testing.T, xmlText string, path string) string {
		doc := etree.NewDocument()
		if err := doc.ReadFromString(xmlText); err != nil {
			t.Fatal(err)
		}
		el := doc.Root()
		if path != "" {
			el = el.FindElement(path)
		}
		el.RemoveChild(el.SelectElement("Signature"))
		out, err := doc.WriteToString()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	tests := []struct {
		name     string
		p        *Provider
		response func(t *testing.T) string
		ids      []string
		now      time.Time
		reason   string
	}{{
		name: "ErrTamperedAssertion",
		response: func(t *testing.T) string {
			return encode(strings.Replace(plain, "ada@example.com", "eve@example.com", 1))
		},
		reason: "signature does not verify",
	}, {
		name: "ErrTamperedAssertionInUnsignedResponse",
		response: func(t *testing.T) string {
			unsigned := removeSignature(t, plain, "")
			return encode(strings.Replace(unsigned, "ada@example.com", "eve@example.com", 1))
		},
		reason: "signature does not verify",
	}, {
		name: "ErrNoSignatureAtAll",
		response: func(t *testing.T) string {
			return encode(removeSignature(t, removeSignature(t, plain, ""), "Assertion"))
		},
		reason: "it is not signed",
	}, {
		name:   "ErrExpired",
		now:    time.Now().Add(time.Hour),
		reason: "it has expired",
	}, {
		name:   "ErrNotYetValid",
		now:    time.Now().Add(-time.Hour),
		reason: "it is not valid yet",
	}, {
		name:   "ErrWrongIdPCertificate",
		p:      withProvider(func(q *Provider) { q.IDPCertificate = k.otherCert }),
		reason: "signature does not verify",
	}, {
		name:   "ErrIdPCertificateExpiredAtNow",
		now:    idpCert.NotAfter.Add(time.Hour),
		reason: "signature does not verify",
	}, {
		name:   "ErrWrongIssuer",
		p:      withProvider(func(q *Provider) { q.IDPEntityID = "https://idp.other.example/metadata" }),
		reason: "comes from another identity provider",
	}, {
		name:   "ErrWrongAudience",
		p:      withProvider(func(q *Provider) { q.SPEntityID = "https://folio.example/v1/orgs/org2/saml/prov9/metadata" }),
		reason: "meant for another service provider",
	}, {
		name:   "ErrWrongACSURL",
		p:      withProvider(func(q *Provider) { q.ACSURL = "https://folio.example/v1/orgs/org2/saml/prov9/acs" }),
		reason: "addressed to another URL",
	}, {
		name:   "ErrInResponseToUnknown",
		ids:    []string{"id-someone-else"},
		reason: "does not answer a sign-in started here",
	}, {
		name:     "ErrNotBase64",
		response: func(t *testing.T) string { return "not base64 !!" },
		reason:   "not base64-encoded",
	}, {
		name:     "ErrNotXML",
		response: func(t *testing.T) string { return encode("<Response") },
		reason:   "not a well-formed SAML response",
	}, {
		name:     "ErrEmpty",
		response: func(t *testing.T) string { return " " },
		reason:   "it is empty",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := p
			if tt.p != nil {
				q = tt.p
			}
			resp := form.SAMLResponse
			if tt.response != nil {
				resp = tt.response(t)
			}
			reqIDs := ids
			if tt.ids != nil {
				reqIDs = tt.ids
			}
			now := tt.now
			if now.IsZero() {
				now = time.Now()
			}
			_, err := q.ParseResponse(resp, reqIDs, now)
			wantInvalid(t, err, tt.reason)
		})
	}

	t.Run("ErrWrongSPKeyForEncryptedAssertion", func(t *testing.T) {
		ti, p := newIdP(t, true)
		form, reqID := login(t, ti, p, "")
		q := *p
		q.SPKeyPEM, q.SPCertPEM = k.otherKey, k.otherCert
		_, err := q.ParseResponse(form.SAMLResponse, []string{reqID}, time.Now())
		wantInvalid(t, err, "cannot be decrypted")
	})
}

// TestParseResponseRejectsIncompleteAssertions has the IdP sign assertions
// that lack what the Web SSO profile requires.
func TestParseResponseRejectsIncompleteAssertions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(*saml.Assertion)
		reason string
	}{
		{"ErrNoAudienceRestriction", func(a *saml.Assertion) { a.Conditions.AudienceRestrictions = nil }, "meant for another service provider"},
		{"ErrNoConditions", func(a *saml.Assertion) { a.Conditions = nil }, "lacks required elements"},
		{"ErrNoSubjectConfirmation", func(a *saml.Assertion) { a.Subject.SubjectConfirmations = nil }, "no bearer subject confirmation"},
		{"ErrNoNameID", func(a *saml.Assertion) { a.Subject.NameID.Value = "" }, "names no user"},
		{"ErrSecondAudienceRestriction", func(a *saml.Assertion) {
			a.Conditions.AudienceRestrictions = append(a.Conditions.AudienceRestrictions,
				saml.AudienceRestriction{Audience: saml.Audience{Value: "https://elsewhere.example"}})
		}, "meant for another service provider"},
		{"ErrSessionOver", func(a *saml.Assertion) {
			past := time.Now().Add(-time.Hour)
			a.AuthnStatements[0].SessionNotOnOrAfter = &past
		}, "it has expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ti, p := newIdP(t, true)
			ti.EditAssertion(tt.edit)
			form, reqID := login(t, ti, p, "")
			_, err := p.ParseResponse(form.SAMLResponse, []string{reqID}, time.Now())
			wantInvalid(t, err, tt.reason)
		})
	}
}

func TestParseResponseProviderErrors(t *testing.T) {
	t.Parallel()
	k := keys(t)
	base := Provider{
		IDPEntityID: "https://idp.example/metadata", IDPSSOURL: "https://idp.example/sso", IDPCertificate: k.idpCert,
		SPEntityID: "https://folio.example/sp", ACSURL: "https://folio.example/acs", SPKeyPEM: k.spKey, SPCertPEM: k.spCert,
	}
	t.Run("ErrBadIdPCertificate", func(t *testing.T) {
		p := base
		p.IDPCertificate = "nope"
		_, err := p.ParseResponse(encode("<x/>"), nil, time.Now())
		var fe *folio.Error
		if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "certificate" {
			t.Fatalf("err = %v, want Invalid on field certificate", err)
		}
	})
	t.Run("ErrBadSSOURL", func(t *testing.T) {
		p := base
		p.IDPSSOURL = "javascript:alert(1)"
		if _, _, err := p.AuthnRedirect(""); folio.KindOf(err) != folio.Invalid {
			t.Fatalf("err = %v, want Invalid", err)
		}
	})
	t.Run("ErrBrokenSPKeyIsInternal", func(t *testing.T) {
		p := base
		p.SPKeyPEM = k.otherKey // does not match SPCertPEM
		if _, err := p.Metadata(); err == nil || folio.KindOf(err) != folio.Internal {
			t.Fatalf("err = %v, want Internal", err)
		}
	})
}

func TestAuthnRedirect(t *testing.T) {
	t.Parallel()
	k := keys(t)
	p := &Provider{
		IDPEntityID: "https://idp.example/metadata", IDPSSOURL: "https://idp.example/sso?tenant=t1", IDPCertificate: k.idpCert,
		SPEntityID: "https://folio.example/sp", ACSURL: "https://folio.example/acs", SPKeyPEM: k.spKey, SPCertPEM: k.spCert,
	}
	u, id, err := p.AuthnRedirect("a+b&c")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := parsed.Query()
	if parsed.Host != "idp.example" || parsed.Path != "/sso" || q.Get("tenant") != "t1" || q.Get("RelayState") != "a+b&c" {
		t.Errorf("redirect URL = %s", u)
	}

	// The request inflates to an AuthnRequest for this SP.
	deflated, err := base64.StdEncoding.DecodeString(q.Get("SAMLRequest"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(deflated)))
	if err != nil {
		t.Fatal(err)
	}
	var req saml.AuthnRequest
	if err := xml.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	if req.ID != id || req.Issuer.Value != p.SPEntityID || req.AssertionConsumerServiceURL != p.ACSURL ||
		req.Destination != p.IDPSSOURL || req.ProtocolBinding != saml.HTTPPostBinding {
		t.Errorf("AuthnRequest = %+v", req)
	}
	if f := req.NameIDPolicy.Format; f != nil && *f != "" {
		t.Errorf("NameIDPolicy Format = %q, want unspecified (absent)", *f)
	}

	// The redirect binding signs the raw query up to SigAlg with the SP key.
	if q.Get("SigAlg") != dsig.RSASHA256SignatureMethod {
		t.Fatalf("SigAlg = %q", q.Get("SigAlg"))
	}
	i := strings.Index(parsed.RawQuery, "SAMLRequest=")
	j := strings.Index(parsed.RawQuery, "&Signature=")
	sig, err := base64.StdEncoding.DecodeString(q.Get("Signature"))
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := ParseCertificate(k.spCert)
	if err := cert.CheckSignature(x509.SHA256WithRSA, []byte(parsed.RawQuery[i:j]), sig); err != nil {
		t.Errorf("signature over %q: %v", parsed.RawQuery[i:j], err)
	}

	t.Run("UnsignedWithoutKeyPair", func(t *testing.T) {
		unsigned := *p
		unsigned.SPKeyPEM, unsigned.SPCertPEM = "", ""
		u, _, err := unsigned.AuthnRedirect("")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(u, "Signature=") || strings.Contains(u, "RelayState=") {
			t.Errorf("redirect URL = %s, want no signature or relay state", u)
		}
	})
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	k := keys(t)
	p := &Provider{SPEntityID: "https://folio.example/v1/orgs/o/saml/p/metadata", ACSURL: "https://folio.example/v1/orgs/o/saml/p/acs",
		SPKeyPEM: k.spKey, SPCertPEM: k.spCert}
	buf, err := p.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	text := string(buf)
	for _, want := range []string{`entityID="` + p.SPEntityID + `"`, `Location="` + p.ACSURL + `"`, saml.HTTPPostBinding} {
		if !strings.Contains(text, want) {
			t.Errorf("metadata lacks %s:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"validUntil", "cacheDuration", saml.HTTPArtifactBinding} {
		if strings.Contains(text, unwanted) {
			t.Errorf("metadata has %s:\n%s", unwanted, text)
		}
	}
	var md saml.EntityDescriptor
	if err := xml.Unmarshal(buf, &md); err != nil {
		t.Fatal(err)
	}
	d := md.SPSSODescriptors[0]
	cert, _ := ParseCertificate(k.spCert)
	var uses []string
	for _, kd := range d.KeyDescriptors {
		uses = append(uses, kd.Use)
		if kd.KeyInfo.X509Data.X509Certificates[0].Data != base64.StdEncoding.EncodeToString(cert.Raw) {
			t.Errorf("%s key is not the SP certificate", kd.Use)
		}
	}
	if diff := cmp.Diff([]string{"encryption", "signing"}, uses); diff != "" {
		t.Errorf("key uses (-want +got):\n%s", diff)
	}
	if d.AuthnRequestsSigned == nil || !*d.AuthnRequestsSigned || len(d.AssertionConsumerServices) != 1 {
		t.Errorf("SPSSODescriptor = %+v", d)
	}

	t.Run("WithoutKeyPair", func(t *testing.T) {
		bare := &Provider{SPEntityID: p.SPEntityID, ACSURL: p.ACSURL}
		buf, err := bare.Metadata()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(buf), "KeyDescriptor") || !strings.Contains(string(buf), p.ACSURL) {
			t.Errorf("metadata:\n%s", buf)
		}
	})
}

func TestParseCertificate(t *testing.T) {
	t.Parallel()
	k := keys(t)
	block, _ := pem.Decode([]byte(k.idpCert))
	body := base64.StdEncoding.EncodeToString(block.Bytes)
	wrapped := ""
	for i := 0; i < len(body); i += 64 {
		wrapped += body[i:min(i+64, len(body))] + "\n"
	}
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"pem", k.idpCert, true},
		{"pem/chain with key first", k.idpKey + k.idpCert + k.otherCert, true},
		{"pem/indented", "\n  " + k.idpCert + "  \n", true},
		{"base64 DER", body, true},
		{"base64 DER/wrapped lines", wrapped, true},
		{"garbage", "hello, certificate", false},
		{"empty", "   ", false},
		{"pem/key only", k.idpKey, false},
		{"base64 of non-certificate", base64.StdEncoding.EncodeToString([]byte("not DER")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cert, err := ParseCertificate(tt.in)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(cert.Raw, block.Bytes) {
					t.Error("parsed another certificate")
				}
				return
			}
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "certificate" || fe.Message == "" {
				t.Fatalf("err = %#v, want Invalid on field certificate", err)
			}
		})
	}
}

func TestNewKeyPair(t *testing.T) {
	t.Parallel()
	k := keys(t)
	key, cert, err := parseSPKeyPair(k.spKey, k.spCert)
	if err != nil {
		t.Fatal(err)
	}
	if key.N.BitLen() != 2048 || cert.Subject.CommonName != "folio-sp" {
		t.Errorf("key bits %d, CN %q", key.N.BitLen(), cert.Subject.CommonName)
	}
	if life := cert.NotAfter.Sub(cert.NotBefore); life < 3650*24*time.Hour {
		t.Errorf("certificate valid for %v, want 10 years", life)
	}
	if err := cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature); err != nil {
		t.Errorf("not self-signed: %v", err)
	}
}

func TestIdentityOf(t *testing.T) {
	t.Parallel()
	attr := func(name, friendly string, values ...string) saml.Attribute {
		a := saml.Attribute{Name: name, FriendlyName: friendly}
		for _, v := range values {
			a.Values = append(a.Values, saml.AttributeValue{Value: v})
		}
		return a
	}
	session := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		format saml.NameIDFormat
		nameID string
		attrs  []saml.Attribute
		want   Identity
	}{{
		name: "email/from emailAddress NameID before attributes", format: saml.EmailAddressNameIDFormat, nameID: "ada@example.com",
		attrs: []saml.Attribute{attr("email", "", "other@example.com")},
		want:  Identity{NameID: "ada@example.com", Email: "ada@example.com"},
	}, {
		name: "email/attribute before unspecified NameID that looks like one", format: saml.UnspecifiedNameIDFormat, nameID: "ada@corp.onmicrosoft.com",
		attrs: []saml.Attribute{attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "", "ada@example.com")},
		want:  Identity{NameID: "ada@corp.onmicrosoft.com", Email: "ada@example.com"},
	}, {
		name: "email/NameID that looks like one when no attribute", format: saml.UnspecifiedNameIDFormat, nameID: "ada@example.com",
		want: Identity{NameID: "ada@example.com", Email: "ada@example.com"},
	}, {
		name: "email/mail by friendly name", format: saml.PersistentNameIDFormat, nameID: "u1",
		attrs: []saml.Attribute{attr("urn:oid:0.9.2342.19200300.100.1.3", "mail", "ada@example.com")},
		want:  Identity{NameID: "u1", Email: "ada@example.com"},
	}, {
		name: "email/skips values that are not addresses", format: saml.PersistentNameIDFormat, nameID: "u1",
		attrs: []saml.Attribute{attr("Email", "", "n/a", "ada@example.com")},
		want:  Identity{NameID: "u1", Email: "ada@example.com"},
	}, {
		name: "email/none", format: saml.TransientNameIDFormat, nameID: "_x1",
		want: Identity{NameID: "_x1"},
	}, {
		name: "displayName/before cn and given names", format: saml.PersistentNameIDFormat, nameID: "u1",
		attrs: []saml.Attribute{attr("givenName", "", "A"), attr("cn", "", "Ada L."), attr("DisplayName", "", "Ada Lovelace")},
		want:  Identity{NameID: "u1", DisplayName: "Ada Lovelace"},
	}, {
		name: "displayName/given name and surname claims", format: saml.PersistentNameIDFormat, nameID: "u1",
		attrs: []saml.Attribute{
			attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "", "Ada"),
			attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "", "Lovelace"),
		},
		want: Identity{NameID: "u1", DisplayName: "Ada Lovelace"},
	}, {
		name: "displayName/given name only", format: saml.PersistentNameIDFormat, nameID: "u1",
		attrs: []saml.Attribute{attr("firstName", "", "Ada")},
		want:  Identity{NameID: "u1", DisplayName: "Ada"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &saml.Assertion{
				Subject:             &saml.Subject{NameID: &saml.NameID{Format: string(tt.format), Value: tt.nameID}},
				AttributeStatements: []saml.AttributeStatement{{Attributes: tt.attrs}},
				AuthnStatements:     []saml.AuthnStatement{{SessionNotOnOrAfter: &session}},
			}
			tt.want.SessionNotOnOrAfter = session
			tt.want.Attributes = map[string][]string{}
			for _, at := range tt.attrs {
				for _, v := range at.Values {
					tt.want.Attributes[at.Name] = append(tt.want.Attributes[at.Name], v.Value)
				}
			}
			if diff := cmp.Diff(&tt.want, identityOf(a)); diff != "" {
				t.Errorf("identity (-want +got):\n%s", diff)
			}
		})
	}
}
