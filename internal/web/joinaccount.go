package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// Joining by invite link without an account yet: the join page, signed
// out, offers a form that creates the account and joins in one step
// (app.JoinWithInvite), then starts a session.
func (h *Handler) inviteRoutes() {
	h.handle("POST /join/{org}/{invite}/account", anyone, h.joinAccount)
}

// errDeadInvite answers a link that was revoked, never existed, or belongs
// to another organization: one message for all.
var errDeadInvite = folio.Errorf(folio.NotFound, "this invite link does not work: it was revoked, or the address is not complete")

// joinAccount creates an account from the join page's form and joins. It
// counts against the sign-in budgets (the client address and the email),
// since it answers whether an email has an account. Refused input shows the
// join page again with the message and what was typed, password aside.
func (h *Handler) joinAccount(w http.ResponseWriter, r *http.Request, q *req) error {
	org, invite := r.PathValue("org"), r.PathValue("invite")
	join := "/join/" + url.PathEscape(org) + "/" + url.PathEscape(invite)
	if q.secret != "" {
		// Signed in already: join with that account, from the join page.
		http.Redirect(w, r, join, http.StatusSeeOther)
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return folio.Errorf(folio.Invalid, "the form could not be read")
	}
	name, email, password := r.PostForm.Get("name"), strings.TrimSpace(r.PostForm.Get("email")), r.PostForm.Get("password")
	if err := h.limitSignIn(w, r, email); err != nil {
		return err
	}
	secret, _, err := h.app.JoinWithInvite(r.Context(), org, invite, name, email, password)
	if err != nil {
		status, ok := map[folio.Kind]int{folio.Invalid: http.StatusBadRequest, folio.Conflict: http.StatusConflict,
			folio.Forbidden: http.StatusForbidden}[folio.KindOf(err)]
		if folio.KindOf(err) == folio.NotFound {
			return errDeadInvite
		}
		if !ok {
			return err
		}
		v := joinView{Action: join, SignIn: "/signin?next=" + url.QueryEscape(join), Account: join + "/account",
			Name: name, Email: email, Error: folio.MessageOf(err), MinLength: app.MinPasswordLength}
		if err := h.joinOffer(r, &v); err != nil {
			return err
		}
		var fe *folio.Error
		if errors.As(err, &fe) {
			v.ErrorField = fe.Field
		}
		h.render(w, status, "join", q, "Join an organization", v)
		return nil
	}
	h.setSession(w, secret, app.SessionLifetime)
	http.Redirect(w, r, "/o/"+url.PathEscape(org), http.StatusSeeOther)
	return nil
}

// joinOffer fills what a live invite link offers; a dead link is
// errDeadInvite, and links turned off say so.
func (h *Handler) joinOffer(r *http.Request, v *joinView) error {
	offer, err := h.app.CheckInviteLink(r.Context(), r.PathValue("org"), r.PathValue("invite"))
	if folio.KindOf(err) == folio.NotFound {
		return errDeadInvite
	}
	if err != nil {
		return err
	}
	v.Org, v.Role = offer.Organization, roleLabel(offer.Role)
	return nil
}
