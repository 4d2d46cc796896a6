package app

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/lru"
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
	var tok *folio.Token
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		tok, err = store.TokenOwner(ctx, tx, hash)
		return err
	})
	if folio.IsNotFound(err) {
		return folio.Caller{}, errUnauthenticated
	}
	if err != nil {
		return folio.Caller{}, err
	}
	c := folio.Caller{UserID: tok.UserID, TokenID: tok.ID, Org: tok.Org}
	a.tokens.put(hash, c, tok.ExpiresAt, now)
	return c, nil
}

// CreateToken creates an API token for the caller and returns it with its
// secret, which is shown only this once. A caller confined to one
// organization gets a token confined the same way, expiring no later.
// A token without a user (site, installation) gets Forbidden.
func (a *App) CreateToken(ctx context.Context, caller folio.Caller, label string) (*folio.Token, string, error) {
	if err := requireUser(caller); err != nil {
		return nil, "", err
	}
	label = strings.TrimSpace(label)
	if utf8.RuneCountInString(label) > 100 {
		return nil, "", folio.FieldErrorf("label", "label must be at most 100 characters")
	}
	var (
		tok    *folio.Token
		secret string
	)
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		tok = &folio.Token{UserID: caller.UserID, Label: label, Org: caller.Org}
		if caller.Org != "" {
			parent, err := store.TokenByID(ctx, tx, caller.UserID, caller.TokenID)
			if err != nil {
				return err
			}
			tok.ExpiresAt = parent.ExpiresAt
		}
		if secret, err = createToken(ctx, tx, tok); err != nil {
			return err
		}
		return auditToken(ctx, tx, caller, tok, "token.created")
	})
	return tok, secret, err
}

// auditToken records a change to a user's API token in the audit log of
// the organization it is confined to, or of every organization its user
// belongs to (the token acts in all of them). Never the secret.
func auditToken(ctx context.Context, tx *store.Tx, caller folio.Caller, tok *folio.Token, action string) error {
	orgs := []folio.ID{tok.Org}
	if tok.Org == "" {
		var err error
		if orgs, err = store.UserOrganizationIDs(ctx, tx, tok.UserID); err != nil {
			return err
		}
	}
	for _, org := range orgs {
		if err := audit(ctx, tx, caller, org, action, "token", tok.ID, map[string]any{"user": tok.UserID, "label": tok.Label}); err != nil {
			return err
		}
	}
	return nil
}

func createToken(ctx context.Context, tx *store.Tx, tok *folio.Token) (string, error) {
	secret, hash := folio.NewTokenSecret()
	return secret, store.CreateToken(ctx, tx, tok, hash)
}

// ListTokens lists the caller's API tokens (never their secrets);
// Forbidden to a token without a user.
func (a *App) ListTokens(ctx context.Context, caller folio.Caller, opts folio.ListOptions) (l folio.List[folio.Token], err error) {
	if err := requireUser(caller); err != nil {
		return folio.List[folio.Token]{}, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		l, err = store.ListTokens(ctx, tx, caller.UserID, opts)
		return err
	})
	return l, err
}

// RevokeToken deletes one of the caller's tokens. It takes effect at once
// on this server and within the token cache TTL on other servers sharing
// the database. Revoking an absent token is not an error; a token without
// a user gets Forbidden.
func (a *App) RevokeToken(ctx context.Context, caller folio.Caller, tokenID folio.ID) error {
	if err := requireUser(caller); err != nil {
		return err
	}
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		tok, err := store.TokenByID(ctx, tx, caller.UserID, tokenID)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := store.DeleteToken(ctx, tx, caller.UserID, tokenID); err != nil {
			return err
		}
		return auditToken(ctx, tx, caller, tok, "token.revoked")
	})
	if err == nil {
		a.tokens.revoke(tokenID, time.Now())
	}
	return err
}

// tokenCache remembers verified tokens for a short time, so the hot path
// does not query the database for every request. Only positive answers are
// kept, so a new token works at once everywhere.
type tokenCache struct {
	ttl     time.Duration
	m       *lru.Cache[string, cachedToken] // by token hash
	mu      sync.Mutex
	revoked map[folio.ID]time.Time // token id -> until when put must not cache it
}

type cachedToken struct {
	caller  folio.Caller
	expires time.Time
}

// maxCachedTokens bounds the cache; past it the least recently used go.
const maxCachedTokens = 10_000

func newTokenCache(ttl time.Duration) *tokenCache {
	return &tokenCache{ttl: ttl, m: lru.New(maxCachedTokens, one[string, cachedToken]), revoked: make(map[folio.ID]time.Time)}
}

func (c *tokenCache) get(hash string, now time.Time) (folio.Caller, bool) {
	if c.ttl < 0 {
		return folio.Caller{}, false
	}
	e, ok := c.m.Peek(hash)
	if !ok || now.After(e.expires) {
		c.m.CountMiss()
		return folio.Caller{}, false
	}
	c.m.CountHit()
	return e.caller, true
}

// put caches a verified token until the TTL or its own expiry, whichever
// comes first. A token revoked while it was being verified is not cached.
func (c *tokenCache) put(hash string, caller folio.Caller, tokenExpires *time.Time, now time.Time) {
	if c.ttl < 0 {
		return
	}
	until := now.Add(c.ttl)
	if tokenExpires != nil && tokenExpires.Before(until) {
		until = *tokenExpires
	}
	// The lock orders put against revoke: a revocation either sees the
	// entry and drops it, or is seen here.
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.revoked[caller.TokenID]; ok && now.Before(t) {
		return
	}
	c.m.Add(hash, cachedToken{caller: caller, expires: until})
}

// stats reports the cache's counters and occupancy.
func (c *tokenCache) stats() CacheStats { return cacheStats("tokens", "entries", c.m.Stats()) }

// revoke drops a token from the cache and keeps it out for one TTL, so a
// verification that read the database before the revocation cannot put
// it back.
func (c *tokenCache) revoke(tokenID folio.ID, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m.RemoveIf(func(_ string, e cachedToken) bool { return e.caller.TokenID == tokenID })
	for id, t := range c.revoked {
		if now.After(t) {
			delete(c.revoked, id)
		}
	}
	c.revoked[tokenID] = now.Add(c.ttl)
}

// FlushTokenCache forgets every cached token, so that the next request of
// each is checked against the database (tests move the clock past expiry).
func (a *App) FlushTokenCache() {
	a.tokens.m.Clear()
}
