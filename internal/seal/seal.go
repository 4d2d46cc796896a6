// Package seal encrypts the secrets Folio keeps in its database (a site's
// visitor signing key, later integration secrets) with the server key:
// AES-256-GCM, a random nonce per value, and the value's context (which
// row and column it belongs to) as additional data, so a sealed value
// copied to another row does not open there.
//
// The server key comes from FOLIO_SECRET_KEY or --secret-key-file; with
// SQLite and neither set, a key file is created in the data folder on the
// first start (LoadOrCreateKeyFile). docs/decisions.md explains the choice.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length of a server key in bytes (AES-256).
const KeySize = 32

// prefix marks the format of a sealed value, so a later format (a key
// rotation with key ids) can be told apart.
const prefix = "s1."

// ErrNoKey is what a nil Sealer answers: the server has no key.
var ErrNoKey = errors.New("seal: the server has no secret key (set FOLIO_SECRET_KEY or --secret-key-file)")

// ErrOpen is the error of a value that does not open: another key,
// another context, or altered bytes.
var ErrOpen = errors.New("seal: the value does not open with this key and context")

// Sealer seals and opens values with one key. A nil *Sealer has no key:
// its methods answer ErrNoKey.
type Sealer struct {
	aead   cipher.AEAD
	derive []byte // the key of Derive, itself derived from the server key
}

// New returns a Sealer for a KeySize-byte key.
func New(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("seal: the key must be %d bytes, not %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("folio seal: derive v1"))
	return &Sealer{aead: aead, derive: m.Sum(nil)}, nil
}

// Derive returns a 32-byte secret for context, the same on every server
// with the same key and different for every context: secrets Folio hands
// out but need not store (an integration's signing secrets).
func (s *Sealer) Derive(context string) ([]byte, error) {
	if s == nil {
		return nil, ErrNoKey
	}
	m := hmac.New(sha256.New, s.derive)
	m.Write([]byte(context))
	return m.Sum(nil), nil
}

// Seal encrypts plain for context and returns printable text.
func (s *Sealer) Seal(plain []byte, context string) (string, error) {
	if s == nil {
		return "", ErrNoKey
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	out := s.aead.Seal(nonce, nonce, plain, []byte(context))
	return prefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts what Seal returned for the same context.
func (s *Sealer) Open(sealed, context string) ([]byte, error) {
	if s == nil {
		return nil, ErrNoKey
	}
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return nil, ErrOpen
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) < s.aead.NonceSize()+s.aead.Overhead() {
		return nil, ErrOpen
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, b[:n], b[n:], []byte(context))
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}

// ParseKey reads a key written as base64 (standard or URL alphabet, with
// or without padding) of KeySize bytes, surrounding space ignored.
func ParseKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(text); err == nil && len(b) == KeySize {
			return b, nil
		}
	}
	return nil, fmt.Errorf("seal: a key is %d random bytes in base64 (for example: openssl rand -base64 32)", KeySize)
}

// NewKeyText returns a new random key as ParseKey reads it.
func NewKeyText() string {
	b := make([]byte, KeySize)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// ReadKeyFile reads a key file (ParseKey's format). It refuses a file
// that others than its owner may read.
func ReadKeyFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("seal: key file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("seal: key file %s is open to others (mode %v): chmod 600 it", path, fi.Mode().Perm())
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("seal: key file: %w", err)
	}
	key, err := ParseKey(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return key, nil
}

// LoadOrCreateKeyFile reads the key file at path, creating it (mode 0600,
// a new random key) when it does not exist yet. Two processes creating it
// at once agree: the file is created exclusively and the loser reads it.
func LoadOrCreateKeyFile(path string) (key []byte, created bool, err error) {
	if _, err := os.Stat(path); err == nil {
		key, err := ReadKeyFile(path)
		return key, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("seal: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".secret-key-*")
	if err != nil {
		return nil, false, fmt.Errorf("seal: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(NewKeyText() + "\n"); err != nil {
		tmp.Close()
		return nil, false, fmt.Errorf("seal: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, false, fmt.Errorf("seal: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, false, fmt.Errorf("seal: %w", err)
	}
	// A hard link fails when the file exists: the first writer wins.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, false, fmt.Errorf("seal: create key file: %w", err)
	} else if err == nil {
		created = true
	}
	key, err = ReadKeyFile(path)
	return key, created, err
}
