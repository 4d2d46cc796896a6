package folio

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// TokenPrefix starts every API token, so that a leaked token is easy to
// recognise (and to find with secret scanners).
const TokenPrefix = "folio_"

// tokenLength is the number of random characters after the prefix:
// 43 characters of 62 symbols carry just over 256 bits.
const tokenLength = 43

// Token is an API token. Only its hash is stored; the plain text is shown
// once, when the token is created.
type Token struct {
	ID        ID
	UserID    ID
	Label     string
	CreatedAt time.Time
	Org       ID         // set for tokens confined to one organization
	ExpiresAt *time.Time // nil: never
}

// NewTokenSecret returns a new random API token and the hash to store.
func NewTokenSecret() (secret, hash string) {
	secret = TokenPrefix + randomString(tokenLength)
	return secret, HashToken(secret)
}

// HashToken returns the stored form of a token. A fast hash is enough: the
// token carries 256 random bits, so it cannot be guessed from its hash.
func HashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// LooksLikeToken reports whether s has the shape of a Folio API token, so
// that malformed credentials are refused without a lookup.
func LooksLikeToken(s string) bool {
	return len(s) == len(TokenPrefix)+tokenLength && strings.HasPrefix(s, TokenPrefix)
}
