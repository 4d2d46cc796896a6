package app

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

var errUnauthenticated = folio.Errorf(folio.Unauthenticated, "a valid API token is required: send Authorization: Bearer <token>")

// Authenticate resolves an API token to its caller. It returns
// Unauthenticated for a malformed, unknown or revoked token.
func (a *App) Authenticate(ctx context.Context, secret string) (folio.Caller, error) {
	if !folio.LooksLikeToken(secret) {
		return folio.Caller{}, errUnauthenticated
	}
	hash := folio.HashToken(secret)
	now := time.Now()
	if c, ok := a.tokens.get(hash, now); ok {
		return c, nil
	}
	var c folio.Caller
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		c.TokenID, c.UserID, err = store.TokenOwner(ctx, tx, hash)
		return err
	})
	if folio.IsNotFound(err) {
		return folio.Caller{}, errUnauthenticated
	}
	if err != nil {
		return folio.Caller{}, err
	}
	a.tokens.put(hash, c, now)
	return c, nil
}

// CreateToken creates an API token for the caller and returns it with its
// secret, which is shown only this once.
func (a *App) CreateToken(ctx context.Context, caller folio.Caller, label string) (*folio.Token, string, error) {
	label = strings.TrimSpace(label)
	if utf8.RuneCountInString(label) > 100 {
		return nil, "", folio.FieldErrorf("label", "label must be at most 100 characters")
	}
	var (
		tok    *folio.Token
		secret string
	)
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		tok, secret, err = createToken(ctx, tx, caller.UserID, label)
		return err
	})
	return tok, secret, err
}

func createToken(ctx context.Context, tx *store.Tx, userID folio.ID, label string) (*folio.Token, string, error) {
	secret, hash := folio.NewTokenSecret()
	tok, err := store.CreateToken(ctx, tx, userID, label, hash)
	return tok, secret, err
}

// ListTokens lists the caller's API tokens (never their secrets).
func (a *App) ListTokens(ctx context.Context, caller folio.Caller, opts folio.ListOptions) (l folio.List[folio.Token], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		l, err = store.ListTokens(ctx, tx, caller.UserID, opts)
		return err
	})
	return l, err
}

// RevokeToken deletes one of the caller's tokens. It takes effect at once
// on this server and within the token cache TTL on other servers sharing
// the database. Revoking an absent token is not an error.
func (a *App) RevokeToken(ctx context.Context, caller folio.Caller, tokenID folio.ID) error {
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		return store.DeleteToken(ctx, tx, caller.UserID, tokenID)
	})
	if err == nil {
		a.tokens.forgetToken(tokenID)
	}
	return err
}

// tokenCache remembers verified tokens for a short time, so the hot path
// does not query the database for every request. Only positive answers are
// kept, so a new token works at once everywhere.
type tokenCache struct {
	ttl time.Duration
	mu  sync.RWMutex
	m   map[string]cachedToken // by token hash
}

type cachedToken struct {
	caller  folio.Caller
	expires time.Time
}

// maxCachedTokens bounds the cache; when full it starts over.
const maxCachedTokens = 10_000

func newTokenCache(ttl time.Duration) *tokenCache {
	return &tokenCache{ttl: ttl, m: make(map[string]cachedToken)}
}

func (c *tokenCache) get(hash string, now time.Time) (folio.Caller, bool) {
	if c.ttl < 0 {
		return folio.Caller{}, false
	}
	c.mu.RLock()
	e, ok := c.m[hash]
	c.mu.RUnlock()
	if !ok || now.After(e.expires) {
		return folio.Caller{}, false
	}
	return e.caller, true
}

func (c *tokenCache) put(hash string, caller folio.Caller, now time.Time) {
	if c.ttl < 0 {
		return
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedTokens {
		clear(c.m)
	}
	c.m[hash] = cachedToken{caller: caller, expires: now.Add(c.ttl)}
	c.mu.Unlock()
}

func (c *tokenCache) forgetToken(tokenID folio.ID) {
	c.mu.Lock()
	for h, e := range c.m {
		if e.caller.TokenID == tokenID {
			delete(c.m, h)
		}
	}
	c.mu.Unlock()
}
