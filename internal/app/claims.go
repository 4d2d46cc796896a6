package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/golang-jwt/jwt/v5"
)

// visitorClaims are the claims Folio attaches to a member who visits the
// organization's published content (returned by ping). docs/decisions.md
// lists them.
type visitorClaims struct {
	jwt.RegisteredClaims
	Email string   `json:"email"`
	Name  string   `json:"name"`
	Role  string   `json:"role,omitempty"`
	Teams []string `json:"teams,omitempty"`
}

// memberClaims returns the caller's visitor claims, or nil when they have
// none to attach: a guest in no team.
func memberClaims(ctx context.Context, tx *store.Tx, acc folio.Access) (*visitorClaims, error) {
	m, err := store.GetMember(ctx, tx, acc.OrganizationID, acc.UserID)
	if err != nil {
		return nil, err
	}
	teams, err := store.MemberTeamIDs(ctx, tx, acc.OrganizationID, acc.UserID)
	if err != nil {
		return nil, err
	}
	if m.Role == folio.RoleGuest && len(teams) == 0 {
		return nil, nil
	}
	return &visitorClaims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: m.UserID, Audience: jwt.ClaimStrings{acc.OrganizationID}},
		Email:            m.User.Email, Name: m.User.DisplayName, Role: string(m.Role), Teams: teams,
	}, nil
}

// signVisitorClaims signs claims with HS256, valid for ttl from now.
func signVisitorClaims(c *visitorClaims, secret, issuer string, now time.Time, ttl time.Duration) (string, error) {
	c.Issuer = issuer
	c.IssuedAt = jwt.NewNumericDate(now)
	c.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(secret))
	if err != nil {
		return "", fmt.Errorf("sign visitor claims: %w", err)
	}
	return s, nil
}

// secret returns a named server-wide secret, created on first use in a
// transaction of its own and kept in memory once committed (secrets never
// change once stored).
func (a *App) secret(ctx context.Context, name string) (string, error) {
	a.secretsMu.Lock()
	v, ok := a.secrets[name]
	a.secretsMu.Unlock()
	if ok {
		return v, nil
	}
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		v, err = store.Secret(ctx, tx, name, func() string {
			b := make([]byte, 32)
			rand.Read(b)
			return base64.RawURLEncoding.EncodeToString(b)
		})
		return err
	})
	if err != nil {
		return "", err
	}
	a.secretsMu.Lock()
	a.secrets[name] = v
	a.secretsMu.Unlock()
	return v, nil
}
