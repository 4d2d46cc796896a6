package web

import (
	"net/http"
	"time"

	"github.com/foliodocs/folio"
)

// tokensView is the page of the user's personal API tokens.
type tokensView struct {
	Notice string
	Tokens []folio.Token
	// New is the secret of the token just created, shown this once.
	New      string
	NewLabel string
	Now      time.Time
}

func (h *Handler) tokens(w http.ResponseWriter, r *http.Request, q *req) error {
	return h.renderTokens(w, r, q, "", "")
}

func (h *Handler) renderTokens(w http.ResponseWriter, r *http.Request, q *req, secret, label string) error {
	l, err := h.app.ListTokens(r.Context(), q.caller, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	v := tokensView{Notice: notice(r), Tokens: l.Items, New: secret, NewLabel: label, Now: h.now()}
	h.renderPage(w, http.StatusOK, "tokens", q, "API tokens", v, pageAssets{Scripts: []string{assetsByKey["copy.js"].url}})
	return nil
}

// createToken makes a token and shows its secret in the answer itself (not
// after a redirect), so it is never in a URL or stored to show again.
func (h *Handler) createToken(w http.ResponseWriter, r *http.Request, q *req) error {
	label := r.PostForm.Get("label")
	tok, secret, err := h.app.CreateToken(r.Context(), q.caller, label)
	if err != nil {
		return err
	}
	return h.renderTokens(w, r, q, secret, tok.Label)
}

func (h *Handler) revokeToken(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.RevokeToken(r.Context(), q.caller, r.PathValue("token")); err != nil {
		return err
	}
	return back(w, r, "/account/tokens", "tokengone")
}
