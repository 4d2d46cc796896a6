package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/foliodocs/folio"
)

// WebSession is a signed-in browser session of the web application, found
// by the hash of its secret.
type WebSession struct {
	UserID     folio.ID
	Org        folio.ID // set for a session confined to one organization (SAML)
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	// Memberships counts the user's organizations (only Org's for a
	// confined session) whose membership is not disabled.
	Memberships int
}

// PasswordHash returns a user's stored password hash, or NotFound when the
// user has none.
func PasswordHash(ctx context.Context, t *Tx, userID folio.ID) (string, error) {
	var h string
	if err := t.get(ctx, `SELECT hash FROM user_passwords WHERE user_id = ?`, []any{userID}, &h); err != nil {
		return "", notFound(err, "get password", "no password")
	}
	return h, nil
}

// SetPasswordHash stores a user's password hash, replacing any other.
func SetPasswordHash(ctx context.Context, t *Tx, userID folio.ID, hash string) error {
	_, err := t.exec(ctx, `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
		userID, hash, micros(t.Now))
	return wrap(err, "set password")
}

// CreateWebSession records a session by the hash of its secret, and drops
// the user's sessions that have expired.
func CreateWebSession(ctx context.Context, t *Tx, hash string, s *WebSession) error {
	if _, err := t.exec(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND expires_at <= ?`, s.UserID, micros(t.Now)); err != nil {
		return wrap(err, "drop expired sessions")
	}
	s.CreatedAt, s.LastSeenAt = t.Now, t.Now
	_, err := t.exec(ctx, `INSERT INTO web_sessions (hash, user_id, organization_id, created_at, last_seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, hash, s.UserID, nullString(s.Org), micros(t.Now), micros(t.Now), micros(s.ExpiresAt))
	return wrap(err, "create session")
}

// WebSessionByHash returns a live session: not past its absolute expiry,
// and seen after idleSince. NotFound otherwise.
func WebSessionByHash(ctx context.Context, t *Tx, hash string, idleSince time.Time) (*WebSession, error) {
	var (
		s                      WebSession
		org                    sql.NullString
		created, seen, expires int64
	)
	err := t.get(ctx, `SELECT s.user_id, s.organization_id, s.created_at, s.last_seen_at, s.expires_at,
			(SELECT COUNT(*) FROM members m WHERE m.user_id = s.user_id AND m.disabled = FALSE
				AND (s.organization_id IS NULL OR m.organization_id = s.organization_id))
		FROM web_sessions s WHERE s.hash = ? AND s.expires_at > ? AND s.last_seen_at > ?`,
		[]any{hash, micros(t.Now), micros(idleSince)}, &s.UserID, &org, &created, &seen, &expires, &s.Memberships)
	if err != nil {
		return nil, notFound(err, "get session", "no session")
	}
	s.Org, s.CreatedAt, s.LastSeenAt, s.ExpiresAt = org.String, fromMicros(created), fromMicros(seen), fromMicros(expires)
	return &s, nil
}

// TouchWebSession records that a session was used now.
func TouchWebSession(ctx context.Context, t *Tx, hash string) error {
	_, err := t.exec(ctx, `UPDATE web_sessions SET last_seen_at = ? WHERE hash = ?`, micros(t.Now), hash)
	return wrap(err, "touch session")
}

// DeleteWebSession ends one session; an absent one is not an error.
func DeleteWebSession(ctx context.Context, t *Tx, hash string) error {
	_, err := t.exec(ctx, `DELETE FROM web_sessions WHERE hash = ?`, hash)
	return wrap(err, "delete session")
}

// DeleteUserWebSessions ends every session of a user.
func DeleteUserWebSessions(ctx context.Context, t *Tx, userID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM web_sessions WHERE user_id = ?`, userID)
	return wrap(err, "delete user sessions")
}

// CreateSignInLink records a one-time sign-in link by the hash of its token.
func CreateSignInLink(ctx context.Context, t *Tx, hash string, userID folio.ID, expires time.Time) error {
	_, err := t.exec(ctx, `INSERT INTO sign_in_links (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		hash, userID, micros(t.Now), micros(expires))
	return wrap(err, "create sign-in link")
}

// TakeSignInLink consumes a live sign-in link and returns its user; a used,
// expired or unknown one is NotFound.
func TakeSignInLink(ctx context.Context, t *Tx, hash string) (folio.ID, error) {
	var user folio.ID
	err := t.get(ctx, `DELETE FROM sign_in_links WHERE hash = ? AND expires_at > ? RETURNING user_id`,
		[]any{hash, micros(t.Now)}, &user)
	if err != nil {
		return "", notFound(err, "take sign-in link", "no sign-in link")
	}
	return user, nil
}

// ActiveMemberships counts the organizations a user is an enabled member of.
func ActiveMemberships(ctx context.Context, t *Tx, userID folio.ID) (int, error) {
	var n int
	err := t.get(ctx, `SELECT COUNT(*) FROM members WHERE user_id = ? AND disabled = FALSE`, []any{userID}, &n)
	return n, wrap(err, "count memberships")
}
