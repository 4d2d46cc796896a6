package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

// CreateToken stores a new API token by its hash.
func CreateToken(ctx context.Context, t *Tx, userID folio.ID, label, hash string) (*folio.Token, error) {
	tok := &folio.Token{ID: folio.NewID(), UserID: userID, Label: label, CreatedAt: t.Now}
	_, err := t.exec(ctx, `INSERT INTO api_tokens (id, user_id, hash, label, created_at) VALUES (?, ?, ?, ?, ?)`,
		tok.ID, userID, hash, label, micros(t.Now))
	if err != nil {
		return nil, wrap(err, "create token")
	}
	return tok, nil
}

// TokenOwner resolves a token hash to the token and user ids, or NotFound.
func TokenOwner(ctx context.Context, t *Tx, hash string) (tokenID, userID folio.ID, err error) {
	err = t.get(ctx, `SELECT id, user_id FROM api_tokens WHERE hash = ?`, []any{hash}, &tokenID, &userID)
	if err != nil {
		return "", "", notFound(err, "resolve token", "unknown token")
	}
	return tokenID, userID, nil
}

// ListTokens lists a user's tokens, oldest first.
func ListTokens(ctx context.Context, t *Tx, userID folio.ID, opts folio.ListOptions) (folio.List[folio.Token], error) {
	q := listQuery{
		Query:     `SELECT id, user_id, label, created_at FROM api_tokens WHERE user_id = ?`,
		Args:      []any{userID},
		Keys:      []string{"created_at", "id"},
		Shape:     "is",
		Count:     `SELECT COUNT(*) FROM api_tokens WHERE user_id = ?`,
		CountArgs: []any{userID},
	}
	return page(ctx, t, "list tokens", q, opts, func(r *sql.Rows) (folio.Token, []any, error) {
		var (
			tok     folio.Token
			created int64
		)
		err := r.Scan(&tok.ID, &tok.UserID, &tok.Label, &created)
		tok.CreatedAt = fromMicros(created)
		return tok, []any{created, tok.ID}, err
	})
}

// DeleteToken revokes one of a user's tokens. Deleting an absent token is
// not an error.
func DeleteToken(ctx context.Context, t *Tx, userID, tokenID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM api_tokens WHERE id = ? AND user_id = ?`, tokenID, userID)
	return wrap(err, "delete token")
}
