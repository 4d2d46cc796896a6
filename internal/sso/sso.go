package sso

import (
	"bytes"
	"compress/flate"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/foliodocs/folio"
)

// Provider is one organization's IdP configuration plus the SP endpoints
// Folio serves for it. The IdP fields come from the organization's admin;
// the SP fields are Folio's own and are expected to be well formed.
type Provider struct {
	IDPEntityID    string // the IdP's entityID, expected as the Issuer of responses and assertions
	IDPSSOURL      string // the IdP's HTTP-Redirect SSO endpoint
	IDPCertificate string // PEM (or bare base64 DER) X.509 certificate the IdP signs with

	SPEntityID string // Folio's entity id for this provider, e.g. https://folio.example/v1/orgs/ORG/saml/PID/metadata
	ACSURL     string // Folio's assertion consumer service URL (HTTP-POST binding)

	// SPKeyPEM and SPCertPEM are Folio's SP key pair (see NewKeyPair). With
	// them, AuthnRequests are signed (RSA-SHA256) and the metadata offers the
	// certificate for encrypting assertions; both empty disables both.
	SPKeyPEM, SPCertPEM string
}

// serviceProvider builds the crewjam SP for Folio's side of p: entity id,
// ACS URL and key pair. IdP fields are added by the callers that need them.
// Errors are Internal, since Folio made these values itself.
func (p *Provider) serviceProvider() (*saml.ServiceProvider, error) {
	if p.SPEntityID == "" {
		return nil, errors.New("sso: provider has no SP entity id")
	}
	acs, err := url.Parse(p.ACSURL)
	if err != nil || !acs.IsAbs() || acs.Host == "" {
		return nil, fmt.Errorf("sso: ACS URL %q is not an absolute URL", p.ACSURL)
	}
	key, cert, err := parseSPKeyPair(p.SPKeyPEM, p.SPCertPEM)
	if err != nil {
		return nil, err
	}
	sp := &saml.ServiceProvider{
		EntityID: p.SPEntityID,
		AcsURL:   *acs,
		// crewjam asks for transient NameIDs by default, which change on
		// every sign-in; unspecified lets the IdP send its stable choice.
		AuthnNameIDFormat: saml.UnspecifiedNameIDFormat,
	}
	if key != nil {
		sp.Key = key
		sp.Certificate = cert
		sp.SignatureMethod = dsig.RSASHA256SignatureMethod
	}
	return sp, nil
}

// AuthnRedirect returns the URL to send the browser to for signing in (the
// IdP SSO URL with a deflated, base64 SAMLRequest, HTTP-Redirect binding,
// signed with RSA-SHA256 when the provider has an SP key pair) and the
// AuthnRequest id to remember for ParseResponse. relayState (any text) is
// passed through to the ACS unchanged (the SAML bindings cap it at 80 bytes,
// which most IdPs do not enforce). It returns Invalid when the IdP SSO URL
// is not an http(s) URL; other errors are Internal.
func (p *Provider) AuthnRedirect(relayState string) (redirectURL string, requestID string, err error) {
	ssoURL, err := url.Parse(p.IDPSSOURL)
	if err != nil || (ssoURL.Scheme != "https" && ssoURL.Scheme != "http") || ssoURL.Host == "" {
		e := folio.Errorf(folio.Invalid, "the SAML provider's SSO URL is not a valid http(s) URL")
		e.Err = err
		return "", "", e
	}
	sp, err := p.serviceProvider()
	if err != nil {
		return "", "", err
	}
	req, err := sp.MakeAuthenticationRequest(p.IDPSSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return "", "", fmt.Errorf("sso: make AuthnRequest: %w", err)
	}
	u, err := encodeRedirect(ssoURL, req, relayState, sp)
	if err != nil {
		return "", "", err
	}
	return u, req.ID, nil
}

// encodeRedirect encodes req for the HTTP-Redirect binding (SAML bindings
// 3.4.4). crewjam's AuthnRequest.Redirect appends RelayState unescaped and
// signs the IdP URL's own query parameters too (Google's ?idpid=...), which
// IdPs that check the signature reject, so the query is built here: the
// signature covers exactly SAMLRequest, RelayState and SigAlg.
func encodeRedirect(ssoURL *url.URL, req *saml.AuthnRequest, relayState string, sp *saml.ServiceProvider) (string, error) {
	doc := etree.NewDocument()
	doc.SetRoot(req.Element())
	var deflated bytes.Buffer
	fw, err := flate.NewWriter(&deflated, flate.BestCompression)
	if err != nil {
		return "", fmt.Errorf("sso: deflate AuthnRequest: %w", err)
	}
	if _, err := doc.WriteTo(fw); err != nil {
		return "", fmt.Errorf("sso: deflate AuthnRequest: %w", err)
	}
	if err := fw.Close(); err != nil {
		return "", fmt.Errorf("sso: deflate AuthnRequest: %w", err)
	}
	query := "SAMLRequest=" + url.QueryEscape(base64.StdEncoding.EncodeToString(deflated.Bytes()))
	if relayState != "" {
		query += "&RelayState=" + url.QueryEscape(relayState)
	}
	if key, ok := sp.Key.(*rsa.PrivateKey); ok {
		query += "&SigAlg=" + url.QueryEscape(dsig.RSASHA256SignatureMethod)
		digest := sha256.Sum256([]byte(query))
		sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
		if err != nil {
			return "", fmt.Errorf("sso: sign AuthnRequest: %w", err)
		}
		query += "&Signature=" + url.QueryEscape(base64.StdEncoding.EncodeToString(sig))
	}
	u := *ssoURL
	if u.RawQuery != "" {
		query = u.RawQuery + "&" + query
	}
	u.RawQuery = query
	return u.String(), nil
}

// Metadata returns the SP metadata XML for this provider: an
// EntityDescriptor with the HTTP-POST ACS endpoint and, when there is a key
// pair, the SP certificate for signing and encryption, for the IdP admin to
// import. Errors are Internal.
func (p *Provider) Metadata() ([]byte, error) {
	sp, err := p.serviceProvider()
	if err != nil {
		return nil, err
	}
	md := sp.Metadata()
	md.CacheDuration = 0
	for i := range md.SPSSODescriptors {
		d := &md.SPSSODescriptors[i]
		d.ValidUntil = nil
		// ParseResponse takes HTTP-POST only; crewjam also lists an
		// HTTP-Artifact endpoint, which an IdP could otherwise choose.
		var acs []saml.IndexedEndpoint
		for _, e := range d.AssertionConsumerServices {
			if e.Binding == saml.HTTPPostBinding {
				acs = append(acs, e)
			}
		}
		d.AssertionConsumerServices = acs
	}
	out, err := xml.Marshal(md)
	if err != nil {
		return nil, fmt.Errorf("sso: marshal metadata: %w", err)
	}
	// crewjam stamps validUntil two days ahead, after which IdPs that honour
	// it drop the imported configuration; state none. (encoding/xml cannot
	// omit the attribute, so it is removed from the tree.)
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml.Header + string(out)); err != nil {
		return nil, fmt.Errorf("sso: reread metadata: %w", err)
	}
	doc.Root().RemoveAttr("validUntil")
	doc.Indent(2)
	return doc.WriteToBytes()
}

// idpMetadata describes the IdP from p as crewjam expects it: entity id,
// SSO endpoint and signing certificate. It returns Invalid (field
// "certificate") when the certificate does not parse.
func (p *Provider) idpMetadata() (*saml.EntityDescriptor, error) {
	cert, err := ParseCertificate(p.IDPCertificate)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.IDPEntityID) == "" {
		return nil, folio.Errorf(folio.Invalid, "the SAML provider has no entity ID")
	}
	return &saml.EntityDescriptor{
		EntityID: p.IDPEntityID,
		IDPSSODescriptors: []saml.IDPSSODescriptor{{
			SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
				KeyDescriptors: []saml.KeyDescriptor{{
					Use: "signing",
					KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
						X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(cert.Raw)}},
					}},
				}},
			}},
			SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.IDPSSOURL}},
		}},
	}, nil
}
