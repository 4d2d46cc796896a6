package store

import (
	"context"
	"database/sql"

	"github.com/foliodocs/folio"
)

const tokenColumns = `id, user_id, label, created_at, organization_id, expires_at`

func scanToken(row interface{ Scan(...any) error }, tok *folio.Token) error {
	var (
		created int64
		org     sql.NullString
		expires sql.NullInt64
	)
	if err := row.Scan(&tok.ID, &tok.UserID, &tok.Label, &created, &org, &expires); err != nil {
		return err
	}
	tok.CreatedAt, tok.Org, tok.ExpiresAt = fromMicros(created), org.String, nullMicros(expires)
	return nil
}

// CreateToken stores a new API token by its hash; tok.ID and CreatedAt are filled in.
func CreateToken(ctx context.Context, t *Tx, tok *folio.Token, hash string) error {
	tok.ID, tok.CreatedAt = folio.NewID(), t.Now
	var expires sql.NullInt64
	if tok.ExpiresAt != nil {
		expires = sql.NullInt64{Int64: micros(*tok.ExpiresAt), Valid: true}
	}
	_, err := t.exec(ctx, `INSERT INTO api_tokens (id, user_id, hash, label, created_at, organization_id, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, tok.ID, tok.UserID, hash, tok.Label, micros(t.Now), nullString(tok.Org), expires)
	return wrap(err, "create token")
}

// TokenOwner resolves a token hash to its token, or NotFound (expired
// tokens included).
func TokenOwner(ctx context.Context, t *Tx, hash string) (*folio.Token, error) {
	var tok folio.Token
	err := t.one(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE hash = ? AND (expires_at IS NULL OR expires_at > ?)`,
		[]any{hash, micros(t.Now)}, func(r *sql.Rows) error { return scanToken(r, &tok) })
	if err != nil {
		return nil, notFound(err, "resolve token", "unknown token")
	}
	return &tok, nil
}

// ListTokens lists a user's tokens, oldest first.
func ListTokens(ctx context.Context, t *Tx, userID folio.ID, opts folio.ListOptions) (folio.List[folio.Token], error) {
	q := listQuery{
		Query:     `SELECT ` + tokenColumns + ` FROM api_tokens WHERE user_id = ?`,
		Args:      []any{userID},
		Keys:      []string{"created_at", "id"},
		Shape:     "is",
		Count:     `SELECT COUNT(*) FROM api_tokens WHERE user_id = ?`,
		CountArgs: []any{userID},
	}
	return page(ctx, t, "list tokens", q, opts, func(r *sql.Rows) (folio.Token, []any, error) {
		var tok folio.Token
		err := scanToken(r, &tok)
		return tok, []any{micros(tok.CreatedAt), tok.ID}, err
	})
}

// DeleteToken revokes one of a user's tokens. Deleting an absent token is
// not an error.
func DeleteToken(ctx context.Context, t *Tx, userID, tokenID folio.ID) error {
	_, err := t.exec(ctx, `DELETE FROM api_tokens WHERE id = ? AND user_id = ?`, tokenID, userID)
	return wrap(err, "delete token")
}

// TokenByID returns one of a user's tokens, or NotFound.
func TokenByID(ctx context.Context, t *Tx, userID, tokenID folio.ID) (*folio.Token, error) {
	var tok folio.Token
	err := t.one(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE id = ? AND user_id = ?`, []any{tokenID, userID},
		func(r *sql.Rows) error { return scanToken(r, &tok) })
	if err != nil {
		return nil, notFound(err, "get token", "token not found")
	}
	return &tok, nil
}
