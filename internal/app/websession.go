package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"golang.org/x/crypto/argon2"
)

// Web application sessions (internal/web): a browser signs in with an
// email and password, a one-time link or SAML, and gets a session whose
// secret its cookie carries. A session resolves to the same folio.Caller
// an API token does, so the app's pages go through the same methods and
// authorization as the API.
const (
	// SessionIdle ends a session unused for this long.
	SessionIdle = 7 * 24 * time.Hour
	// SessionLifetime ends a session this long after sign-in, used or not.
	SessionLifetime = 30 * 24 * time.Hour
	// SignInLinkTTL is how long a one-time sign-in link works.
	SignInLinkTTL = time.Hour
	// sessionTouchEvery bounds the writes that record a session's use: at
	// most one per session in this time (idle expiry is this much coarse).
	sessionTouchEvery = 5 * time.Minute
)

// Password bounds.
const (
	MinPasswordLength = 10
	MaxPasswordBytes  = 1024
)

// errSignIn is the one answer to every failed password sign-in, so that it
// never tells whether an email has an account.
var errSignIn = folio.Errorf(folio.Unauthenticated, "the email or password is not right")

// errNoSession is the answer for a missing, ended or expired session.
var errNoSession = folio.Errorf(folio.Unauthenticated, "sign in to continue")

// argon2id parameters (OWASP's second recommended set): 19 MiB, two passes,
// one lane. They are written into every hash, so they can change later
// without invalidating stored passwords.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// HashPassword returns the argon2id hash of a password in the PHC string
// format ($argon2id$v=19$m=...,t=...,p=...$salt$key).
func HashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// CheckPassword reports whether a password matches an argon2id hash made
// by HashPassword (with whatever parameters the hash records).
func CheckPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var (
		version      int
		mem, t       uint32
		threads      uint8
		b64          = base64.RawStdEncoding
		salt, expect []byte
		err          error
	)
	if _, err = fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err = fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &t, &threads); err != nil || mem == 0 || t == 0 || threads == 0 || mem > 1<<22 {
		return false
	}
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return false
	}
	if expect, err = b64.DecodeString(parts[5]); err != nil || len(expect) == 0 || len(expect) > 128 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, mem, threads, uint32(len(expect)))
	return subtle.ConstantTimeCompare(got, expect) == 1
}

// dummyHash is checked against when there is no account or no password,
// so a failed sign-in costs the same time either way. It is made on the
// first such sign-in, not at start: hashing costs about 20 MB and 0.4 s,
// which every folio command, and every server that never sees a failed
// sign-in, would pay.
var dummyHash = sync.OnceValue(func() string { return HashPassword("folio: no such account") })

func validatePassword(pw string) error {
	if utf8.RuneCountInString(pw) < MinPasswordLength {
		return folio.FieldErrorf("password", "the password must be at least %d characters", MinPasswordLength)
	}
	if len(pw) > MaxPasswordBytes {
		return folio.FieldErrorf("password", "the password must be at most %d bytes", MaxPasswordBytes)
	}
	return nil
}

// newSecret returns a random secret of 256 bits and the hash to store.
func newSecret() (secret, hash string) {
	b := make([]byte, 32)
	rand.Read(b)
	secret = base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret)
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// createSession starts a session for a user in tx and returns its secret.
func createSession(ctx context.Context, tx *store.Tx, userID, org folio.ID, lifetime time.Duration) (string, error) {
	secret, hash := newSecret()
	s := &store.WebSession{UserID: userID, Org: org, ExpiresAt: tx.Now.Add(lifetime)}
	return secret, store.CreateWebSession(ctx, tx, hash, s)
}

// SetPassword sets the password of the user with an email, for operators
// (folio users password), and ends every session of the user. It returns
// Invalid (password rules) or NotFound.
func (a *App) SetPassword(ctx context.Context, email, password string) (*folio.User, error) {
	nu := folio.NewUser{Email: email}
	if err := nu.Normalize(); err != nil {
		return nil, err
	}
	if err := validatePassword(password); err != nil {
		return nil, err
	}
	hash := HashPassword(password)
	var u *folio.User
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		if u, err = store.GetUserByEmail(ctx, tx, nu.Email); err != nil {
			return err
		}
		if err := store.SetPasswordHash(ctx, tx, u.ID, hash); err != nil {
			return err
		}
		return store.DeleteUserWebSessions(ctx, tx, u.ID)
	})
	return u, err
}

// HasPassword reports whether the caller's user has a password.
func (a *App) HasPassword(ctx context.Context, caller folio.Caller) (has bool, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		_, err := store.PasswordHash(ctx, tx, caller.UserID)
		if folio.IsNotFound(err) {
			return nil
		}
		has = err == nil
		return err
	})
	return has, err
}

// ChangePassword changes the caller's password: current must be right
// when the user has one. Every session of the user ends; the caller gets a
// new one, whose secret is returned. Invalid when current is wrong or the
// new password breaks the rules; Forbidden for a session confined to one
// organization by SAML.
func (a *App) ChangePassword(ctx context.Context, caller folio.Caller, current, password string) (string, error) {
	if caller.UserID == "" || caller.Site != nil || caller.Installation != nil {
		return "", folio.Errorf(folio.Forbidden, "only a signed-in user can change their password")
	}
	if caller.Org != "" {
		// An organization's identity provider speaks for that organization
		// only: a password would give a session outside it.
		return "", folio.Errorf(folio.Forbidden, "a single sign-on session cannot set a password: sign in with your password or a sign-in link")
	}
	if err := validatePassword(password); err != nil {
		return "", err
	}
	var old string
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		old, err = store.PasswordHash(ctx, tx, caller.UserID)
		if folio.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return "", err
	}
	if old != "" && !CheckPassword(old, current) {
		return "", folio.FieldErrorf("current", "the current password is not right")
	}
	hash := HashPassword(password)
	var secret string
	err = a.db.Write(ctx, func(tx *store.Tx) (err error) {
		if err := store.SetPasswordHash(ctx, tx, caller.UserID, hash); err != nil {
			return err
		}
		if err := store.DeleteUserWebSessions(ctx, tx, caller.UserID); err != nil {
			return err
		}
		secret, err = createSession(ctx, tx, caller.UserID, "", SessionLifetime)
		return err
	})
	return secret, err
}

// SignIn checks an email and password and starts a session, returning its
// secret. Every failure (unknown email, no password, wrong password, no
// organization left) is the same Unauthenticated error, after the same
// work: a password hash is always checked.
func (a *App) SignIn(ctx context.Context, email, password string) (string, error) {
	nu := folio.NewUser{Email: email}
	normErr := nu.Normalize()
	var (
		userID folio.ID
		hash   string
		n      int
	)
	if normErr == nil && len(password) <= MaxPasswordBytes {
		err := a.db.Read(ctx, func(tx *store.Tx) error {
			u, err := store.GetUserByEmail(ctx, tx, nu.Email)
			if err != nil {
				return err
			}
			if hash, err = store.PasswordHash(ctx, tx, u.ID); err != nil {
				return err
			}
			userID = u.ID
			n, err = store.ActiveMemberships(ctx, tx, u.ID)
			return err
		})
		if err != nil && !folio.IsNotFound(err) {
			return "", err
		}
	}
	if hash == "" {
		CheckPassword(dummyHash(), password)
		return "", errSignIn
	}
	if !CheckPassword(hash, password) || n == 0 {
		return "", errSignIn
	}
	var secret string
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		secret, err = createSession(ctx, tx, userID, "", SessionLifetime)
		return err
	})
	return secret, err
}

// AuthenticateSession resolves a session secret to its caller. The session
// must be live (SessionIdle, SessionLifetime) and its user still an
// enabled member of an organization (of its organization, for a confined
// session): the database is asked on every request, so a removed member or
// a changed password ends the session at once, on every server.
// Unauthenticated otherwise.
func (a *App) AuthenticateSession(ctx context.Context, secret string) (folio.Caller, error) {
	if secret == "" || len(secret) > 64 {
		return folio.Caller{}, errNoSession
	}
	hash := hashSecret(secret)
	var s *store.WebSession
	now := a.clock.Now()
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		s, err = store.WebSessionByHash(ctx, tx, hash, tx.Now.Add(-SessionIdle))
		return err
	})
	if folio.IsNotFound(err) {
		return folio.Caller{}, errNoSession
	}
	if err != nil {
		return folio.Caller{}, err
	}
	if s.Memberships == 0 {
		return folio.Caller{}, errNoSession
	}
	if now.Sub(s.LastSeenAt) >= sessionTouchEvery {
		if err := a.db.Write(ctx, func(tx *store.Tx) error { return store.TouchWebSession(ctx, tx, hash) }); err != nil {
			return folio.Caller{}, err
		}
	}
	return folio.Caller{UserID: s.UserID, Org: s.Org}, nil
}

// SignOut ends a session; an unknown one is not an error.
func (a *App) SignOut(ctx context.Context, secret string) error {
	if secret == "" || len(secret) > 64 {
		return nil
	}
	return a.db.Write(ctx, func(tx *store.Tx) error { return store.DeleteWebSession(ctx, tx, hashSecret(secret)) })
}

// CreateSignInLink makes a one-time sign-in token for a user, for
// operators (the first admin that serve creates). It works once, within
// SignInLinkTTL; only its hash is stored.
func (a *App) CreateSignInLink(ctx context.Context, userID folio.ID) (string, error) {
	secret, hash := newSecret()
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		return store.CreateSignInLink(ctx, tx, hash, userID, tx.Now.Add(SignInLinkTTL))
	})
	return secret, err
}

// SignInWithLink consumes a one-time sign-in token and starts a session,
// returning its secret. Unauthenticated when the token is unknown, used or
// expired.
func (a *App) SignInWithLink(ctx context.Context, token string) (string, error) {
	if token == "" || len(token) > 64 {
		return "", errBadLink
	}
	var secret string
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		userID, err := store.TakeSignInLink(ctx, tx, hashSecret(token))
		if folio.IsNotFound(err) {
			return errBadLink
		}
		if err != nil {
			return err
		}
		secret, err = createSession(ctx, tx, userID, "", SessionLifetime)
		return err
	})
	return secret, err
}

var errBadLink = folio.Errorf(folio.Unauthenticated, "this sign-in link is not valid: it was used already or has expired")
