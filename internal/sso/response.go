package sso

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/foliodocs/folio"
)

// Identity is what a verified assertion says about the user.
type Identity struct {
	NameID string
	// Email comes from a NameID of format emailAddress, else from the
	// attributes email, mail, emailaddress or their claim and OID names,
	// else from a NameID of another format that looks like an address.
	Email string
	// DisplayName comes from displayName, name or cn, else from givenName
	// and sn/surname joined by a space; it is empty when none is given.
	DisplayName string
	// Attributes holds every attribute value by attribute Name (or
	// FriendlyName when the Name is empty), as the IdP sent them.
	Attributes          map[string][]string
	SessionNotOnOrAfter time.Time // zero if absent
}

// The time limits, after crewjam's defaults (which match Shibboleth's).
const (
	clockSkew     = 3 * time.Minute  // allowance on NotBefore and NotOnOrAfter
	maxIssueDelay = 90 * time.Second // longest accepted age of an assertion's IssueInstant
)

// maxResponseLen bounds the base64 SAMLResponse; real ones are a few KiB.
const maxResponseLen = 1 << 20

const bearerMethod = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

// ParseResponse verifies a base64 SAMLResponse posted to the ACS and returns
// the identity it asserts. It checks the signature against IDPCertificate
// (response or assertion signed; the certificate must be valid at now), the
// issuer, the audience (SPEntityID), the destination and recipient
// (ACSURL), the validity times against now with a 3-minute skew, and
// InResponseTo against possibleRequestIDs; nil possibleRequestIDs accepts
// IdP-initiated responses, while a non-nil empty slice accepts none.
// Encrypted assertions are decrypted with the SP key. Every failure is
// Invalid with a short safe message and crewjam's detailed reason in Err.
func (p *Provider) ParseResponse(samlResponse string, possibleRequestIDs []string, now time.Time) (*Identity, error) {
	sp, err := p.serviceProvider()
	if err != nil {
		return nil, err
	}
	idp, err := p.idpMetadata()
	if err != nil {
		return nil, err
	}
	sp.IDPMetadata = idp
	sp.AllowIDPInitiated = possibleRequestIDs == nil
	sp.SignatureVerifier = clockVerifier{now: now}
	audience := p.SPEntityID
	sp.ValidateAudienceRestriction = func(a *saml.Assertion) error { return checkAudience(a, audience) }

	if strings.TrimSpace(samlResponse) == "" {
		return nil, invalid("it is empty", errors.New("no SAMLResponse"))
	}
	if len(samlResponse) > maxResponseLen {
		return nil, invalid("it is too large", fmt.Errorf("SAMLResponse of %d bytes", len(samlResponse)))
	}
	// Some IdPs wrap the base64 text in lines.
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(samlResponse), ""))
	if err != nil {
		return nil, invalid("it is not base64-encoded", err)
	}
	assertion, err := parseXMLResponse(sp, raw, possibleRequestIDs)
	if err != nil {
		return nil, err
	}
	if reason, err := checkAssertion(assertion, now); err != nil {
		return nil, invalid(reason, err)
	}
	return identityOf(assertion), nil
}

// invalid returns the error ParseResponse reports for any rejected response.
func invalid(reason string, cause error) error {
	return &folio.Error{Kind: folio.Invalid, Message: "the SAML response is not valid: " + reason, Err: cause}
}

// parseXMLResponse runs crewjam's verification and turns its failures into
// Invalid errors carrying the private reason.
func parseXMLResponse(sp *saml.ServiceProvider, raw []byte, possibleRequestIDs []string) (a *saml.Assertion, err error) {
	// crewjam dereferences optional elements (Subject, Conditions,
	// SubjectConfirmationData) of a verified assertion without checking them.
	defer func() {
		if r := recover(); r != nil {
			a, err = nil, invalid("it lacks required elements", fmt.Errorf("crewjam/saml panicked: %v", r))
		}
	}()
	a, err = sp.ParseXMLResponse(raw, possibleRequestIDs, sp.AcsURL)
	if err != nil {
		cause := err
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) && ire.PrivateErr != nil {
			// Its Error() is a fixed "Authentication failed"; the reason is here.
			cause = ire.PrivateErr
		}
		return nil, invalid(reasonOf(cause), fmt.Errorf("crewjam/saml: %w", cause))
	}
	return a, nil
}

// reasonOf turns crewjam's private error into a short, safe phrase. crewjam
// has no error types for these, so this reads its messages; a phrase it
// does not know becomes the generic one, and the kind is Invalid regardless.
func reasonOf(err error) string {
	var status saml.ErrBadStatus
	if errors.As(err, &status) {
		code := status.Status
		if i := strings.LastIndexByte(code, ':'); i >= 0 {
			code = code[i+1:]
		}
		return "the identity provider answered with status " + code
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "decrypt"):
		return "its encrypted assertion cannot be decrypted with this provider's key"
	case strings.Contains(msg, "signature element not present"):
		return "it is not signed"
	case strings.Contains(msg, "signature"):
		return "its signature does not verify with the configured certificate"
	case strings.Contains(msg, "inresponseto"), strings.Contains(msg, "possible request ids"):
		return "it does not answer a sign-in started here"
	case strings.Contains(msg, "destination"), strings.Contains(msg, "recipient"):
		return "it is addressed to another URL"
	case strings.Contains(msg, "issuer"):
		return "it comes from another identity provider"
	case strings.Contains(msg, "audience"):
		return "it is meant for another service provider"
	case strings.Contains(msg, "expired"):
		return "it has expired"
	case strings.Contains(msg, "not yet valid"):
		return "it is not valid yet"
	case strings.Contains(msg, "xml"), strings.Contains(msg, "unmarshal"), strings.Contains(msg, "expected"):
		return "it is not a well-formed SAML response"
	}
	return "it failed verification"
}

// clockVerifier checks XML signatures as crewjam does, but with the IdP
// certificate's validity period judged at now rather than by the global
// saml.Clock.
type clockVerifier struct{ now time.Time }

// VerifySignature implements saml.SignatureVerifier.
func (v clockVerifier) VerifySignature(ctx *dsig.ValidationContext, el *etree.Element) error {
	ctx.Clock = dsig.NewFakeClockAt(v.now)
	if _, err := ctx.Validate(el); err != nil {
		return fmt.Errorf("cannot validate signature on %s: %w", el.Tag, err)
	}
	return nil
}

// checkAudience requires an AudienceRestriction and that every one names
// the SP (SAML core 2.5.1.4: all restrictions must hold). crewjam's default
// accepts an assertion with no restriction at all.
func checkAudience(a *saml.Assertion, audience string) error {
	if a.Conditions == nil || len(a.Conditions.AudienceRestrictions) == 0 {
		return errors.New("assertion has no AudienceRestriction")
	}
	for _, r := range a.Conditions.AudienceRestrictions {
		if got := strings.TrimSpace(r.Audience.Value); got != audience {
			return fmt.Errorf("assertion AudienceRestriction is %q, not %q", got, audience)
		}
	}
	return nil
}

// checkAssertion applies the Web SSO profile rules crewjam leaves out and
// checks every time in the verified assertion against now (crewjam checked
// them against the wall clock). It returns a safe reason and the detail.
func checkAssertion(a *saml.Assertion, now time.Time) (string, error) {
	if a.Subject == nil || a.Subject.NameID == nil || strings.TrimSpace(a.Subject.NameID.Value) == "" {
		return "it names no user", errors.New("assertion has no Subject NameID")
	}
	// crewjam checks Recipient and InResponseTo on each confirmation there
	// is, but accepts an assertion with none.
	bearer := false
	for _, c := range a.Subject.SubjectConfirmations {
		if c.Method != bearerMethod || c.SubjectConfirmationData == nil {
			continue
		}
		bearer = true
		d := c.SubjectConfirmationData
		if !now.Before(d.NotOnOrAfter.Add(clockSkew)) {
			return "it has expired", fmt.Errorf("SubjectConfirmationData NotOnOrAfter %s is past at %s", d.NotOnOrAfter, now)
		}
		if !d.NotBefore.IsZero() && d.NotBefore.Add(-clockSkew).After(now) {
			return "it is not valid yet", fmt.Errorf("SubjectConfirmationData NotBefore %s is ahead of %s", d.NotBefore, now)
		}
	}
	if !bearer {
		return "it has no bearer subject confirmation", errors.New("assertion has no bearer SubjectConfirmation with data")
	}
	if a.IssueInstant.Add(maxIssueDelay).Before(now) {
		return "it has expired", fmt.Errorf("assertion IssueInstant %s is older than %s at %s", a.IssueInstant, maxIssueDelay, now)
	}
	if a.IssueInstant.After(now.Add(clockSkew)) {
		return "it is not valid yet", fmt.Errorf("assertion IssueInstant %s is ahead of %s", a.IssueInstant, now)
	}
	if a.Conditions == nil {
		return "it has no conditions", errors.New("assertion has no Conditions")
	}
	if !now.Before(a.Conditions.NotOnOrAfter.Add(clockSkew)) {
		return "it has expired", fmt.Errorf("assertion Conditions NotOnOrAfter %s is past at %s", a.Conditions.NotOnOrAfter, now)
	}
	if a.Conditions.NotBefore.Add(-clockSkew).After(now) {
		return "it is not valid yet", fmt.Errorf("assertion Conditions NotBefore %s is ahead of %s", a.Conditions.NotBefore, now)
	}
	for _, s := range a.AuthnStatements {
		if s.SessionNotOnOrAfter != nil && !now.Before(s.SessionNotOnOrAfter.Add(clockSkew)) {
			return "it has expired", fmt.Errorf("AuthnStatement SessionNotOnOrAfter %s is past at %s", *s.SessionNotOnOrAfter, now)
		}
	}
	return "", nil
}

// Attribute names, lower case, matched against an attribute's Name and
// FriendlyName, in order of preference.
var (
	emailNames = []string{"email", "mail", "emailaddress",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
		"urn:oid:0.9.2342.19200300.100.1.3"}
	displayNames = []string{"displayname", "http://schemas.microsoft.com/identity/claims/displayname",
		"urn:oid:2.16.840.1.113730.3.1.241", "name", "cn", "urn:oid:2.5.4.3"}
	givenNames = []string{"givenname", "firstname",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "urn:oid:2.5.4.42"}
	surnames = []string{"sn", "surname", "lastname",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "urn:oid:2.5.4.4"}
)

// identityOf reads the user out of a verified assertion.
func identityOf(a *saml.Assertion) *Identity {
	id := &Identity{Attributes: map[string][]string{}}
	var format string
	if a.Subject != nil && a.Subject.NameID != nil {
		id.NameID = strings.TrimSpace(a.Subject.NameID.Value)
		format = a.Subject.NameID.Format
	}
	var attrs []saml.Attribute
	for _, st := range a.AttributeStatements {
		for _, at := range st.Attributes {
			attrs = append(attrs, at)
			key := at.Name
			if key == "" {
				key = at.FriendlyName
			}
			for _, v := range at.Values {
				id.Attributes[key] = append(id.Attributes[key], v.Value)
			}
		}
	}

	// An unspecified or persistent NameID can be a login name that merely
	// looks like an address (Azure's UPN), so an email attribute wins there.
	switch {
	case format == string(saml.EmailAddressNameIDFormat) && isEmail(id.NameID):
		id.Email = id.NameID
	default:
		id.Email = attribute(attrs, emailNames, isEmail)
		if id.Email == "" && isEmail(id.NameID) {
			id.Email = id.NameID
		}
	}

	id.DisplayName = attribute(attrs, displayNames, nil)
	if id.DisplayName == "" {
		given, sur := attribute(attrs, givenNames, nil), attribute(attrs, surnames, nil)
		id.DisplayName = strings.TrimSpace(given + " " + sur)
	}

	for _, s := range a.AuthnStatements {
		if s.SessionNotOnOrAfter != nil {
			id.SessionNotOnOrAfter = *s.SessionNotOnOrAfter
			break
		}
	}
	return id
}

// attribute returns the first non-empty value (accepted by ok, when given)
// of the first name in names that some attribute carries.
func attribute(attrs []saml.Attribute, names []string, ok func(string) bool) string {
	for _, name := range names {
		for _, at := range attrs {
			if !strings.EqualFold(at.Name, name) && !strings.EqualFold(at.FriendlyName, name) {
				continue
			}
			for _, v := range at.Values {
				if s := strings.TrimSpace(v.Value); s != "" && (ok == nil || ok(s)) {
					return s
				}
			}
		}
	}
	return ""
}

// isEmail reports whether s is a bare email address such as ada@example.com.
func isEmail(s string) bool {
	if !strings.Contains(s, "@") || strings.ContainsAny(s, " <>") {
		return false
	}
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s
}
