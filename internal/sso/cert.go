package sso

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/foliodocs/folio"
)

// ParseCertificate parses an X.509 certificate given as PEM, or as the bare
// base64 DER body that IdP metadata and admin consoles often show. When the
// PEM holds a chain, the first certificate is returned. It returns Invalid
// with field "certificate" when the text is not such a certificate.
func ParseCertificate(pemText string) (*x509.Certificate, error) {
	if strings.TrimSpace(pemText) == "" {
		return nil, folio.FieldErrorf("certificate", "certificate is required")
	}
	cert, err := decodeCertificate(pemText)
	if err != nil {
		e := folio.FieldErrorf("certificate", "certificate must be an X.509 certificate in PEM form or as base64 DER")
		e.Err = err
		return nil, e
	}
	return cert, nil
}

// decodeCertificate does the work of ParseCertificate with plain errors.
func decodeCertificate(text string) (*x509.Certificate, error) {
	text = strings.TrimSpace(text)
	var der []byte
	if strings.Contains(text, "-----BEGIN") {
		rest := []byte(text)
		for {
			var block *pem.Block
			block, rest = pem.Decode(rest)
			if block == nil {
				return nil, errors.New("no CERTIFICATE block in the PEM text")
			}
			if block.Type == "CERTIFICATE" {
				der = block.Bytes
				break
			}
		}
	} else {
		// Bodies copied from XML or consoles carry line breaks and spaces.
		var err error
		der, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return nil, fmt.Errorf("decode base64: %w", err)
		}
	}
	return x509.ParseCertificate(der)
}

// keyBits and certValidity fix the shape of the SP key pairs NewKeyPair makes.
const (
	keyBits      = 2048
	certValidity = 10 * 365 * 24 * time.Hour
)

// NewKeyPair makes a fresh RSA-2048 key (PKCS #8 PEM) and a self-signed
// certificate for it (PEM, valid for 10 years, subject CN commonName) for
// Folio's side of one provider. Errors are Internal.
func NewKeyPair(commonName string) (keyPEM, certPEM string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, keyBits)
	if err != nil {
		return "", "", fmt.Errorf("sso: generate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return "", "", fmt.Errorf("sso: generate serial: %w", err)
	}
	// Backdated a little so an IdP whose clock runs behind accepts it at once.
	notBefore := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: commonName},
		NotBefore:             notBefore,
		NotAfter:              notBefore.Add(certValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", fmt.Errorf("sso: create certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", fmt.Errorf("sso: marshal key: %w", err)
	}
	keyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	return keyPEM, certPEM, nil
}

// parseSPKeyPair decodes Folio's own key pair. Both empty means none
// (unsigned AuthnRequests, no encrypted assertions); anything broken is an
// Internal error because Folio generated these values itself.
func parseSPKeyPair(keyPEM, certPEM string) (*rsa.PrivateKey, *x509.Certificate, error) {
	if strings.TrimSpace(keyPEM) == "" && strings.TrimSpace(certPEM) == "" {
		return nil, nil, nil
	}
	block, _ := pem.Decode([]byte(keyPEM))
	if block == nil {
		return nil, nil, errors.New("sso: SP key is not PEM")
	}
	var key *rsa.PrivateKey
	switch block.Type {
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("sso: parse SP key: %w", err)
		}
		key = k
	default:
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("sso: parse SP key: %w", err)
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			// crewjam decrypts assertions with RSA keys only.
			return nil, nil, fmt.Errorf("sso: SP key is %T, want RSA", k)
		}
		key = rk
	}
	cert, err := decodeCertificate(certPEM)
	if err != nil {
		return nil, nil, fmt.Errorf("sso: parse SP certificate: %w", err)
	}
	if !key.PublicKey.Equal(cert.PublicKey) {
		return nil, nil, errors.New("sso: SP key and certificate do not match")
	}
	return key, cert, nil
}
