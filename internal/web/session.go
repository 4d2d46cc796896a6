package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// cookieName is the session cookie's name: with the __Host- prefix when
// the cookie is Secure, so no subdomain can set or shadow it.
func (h *Handler) cookieName() string {
	if h.secure {
		return "__Host-folio_session"
	}
	return "folio_session"
}

// setSession gives the browser a session's cookie: HttpOnly, SameSite=Lax,
// Secure when the public URL is https. It lives as long as the session
// can; the server ends it sooner when idle.
func (h *Handler) setSession(w http.ResponseWriter, secret string, lifetime time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(), Value: secret, Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(lifetime.Seconds())})
}

func (h *Handler) clearCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(), Value: "", Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// csrfToken derives a session's CSRF token from its secret: one-way, so the
// token in a page tells nothing of the cookie, and nothing more to store.
func csrfToken(secret string) string {
	sum := sha256.Sum256([]byte("folio web csrf\x00" + secret))
	return hex.EncodeToString(sum[:16])
}

func equalToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// StartSSOSession is how the API's SAML ACS lands a browser in the app: it
// sets the session cookie of a SAML sign-in and redirects to the
// organization's page.
func (h *Handler) StartSSOSession(w http.ResponseWriter, r *http.Request, login *app.SSOLogin) {
	h.setSession(w, login.Session, app.SSOTokenTTL)
	http.Redirect(w, r, "/o/"+login.Organization, http.StatusSeeOther)
}

// localPath returns next when it is a path on this server, "/" otherwise,
// so that sign-in cannot be made to redirect elsewhere. Browsers drop tabs
// and newlines from a URL and read a backslash as a slash, so "/\t/evil" and
// "/\\evil" are other hosts: any control character or backslash refuses
// next, as does anything that does not parse as a bare path.
func localPath(next string) string {
	for i := 0; i < len(next); i++ {
		if c := next[i]; c < 0x20 || c == 0x7f || c == '\\' {
			return "/"
		}
	}
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	return next
}

// signInView is the sign-in page.
type signInView struct {
	Next    string
	Email   string
	Error   string
	Org     string
	SSO     []ssoLink
	SSOFail string
}

type ssoLink struct {
	Label, Href string
}

func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request, q *req) error {
	next := localPath(r.URL.Query().Get("next"))
	if q.secret != "" {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return nil
	}
	v := signInView{Next: next}
	h.ssoLinks(r, &v)
	h.render(w, http.StatusOK, "signin", q, "Sign in", v)
	return nil
}

// ssoLinks fills the organization's SAML and OpenID Connect providers: from ?org=, or from the
// organization page the user was going to.
func (h *Handler) ssoLinks(r *http.Request, v *signInView) {
	org := strings.TrimSpace(r.URL.Query().Get("org"))
	if org == "" && strings.HasPrefix(v.Next, "/o/") {
		org, _, _ = strings.Cut(strings.TrimPrefix(v.Next, "/o/"), "/")
		org, _, _ = strings.Cut(org, "?")
	}
	if org == "" {
		return
	}
	v.Org = org
	ps, err := h.app.ListSSOLogins(r.Context(), org)
	if err == nil {
		for _, p := range ps {
			v.SSO = append(v.SSO, ssoLink{Label: p.Label, Href: "/signin/sso/" + org + "/" + p.ID})
		}
		h.oidcLinks(r, org, v)
	}
	if len(v.SSO) == 0 {
		v.SSOFail = "This organization has no single sign-on."
	}
}

// signIn checks an email and password. Every failure shows the same page
// with the same message, whether the email has an account or not.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request, q *req) error {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return folio.Errorf(folio.Invalid, "the form could not be read")
	}
	email, password := strings.TrimSpace(r.PostForm.Get("email")), r.PostForm.Get("password")
	next := localPath(r.PostForm.Get("next"))
	if err := h.limitSignIn(w, r, email); err != nil {
		return err
	}
	secret, err := h.app.SignIn(r.Context(), email, password)
	if folio.KindOf(err) == folio.Unauthenticated {
		h.render(w, http.StatusUnauthorized, "signin", q, "Sign in",
			signInView{Next: next, Email: email, Error: folio.MessageOf(err)})
		return nil
	}
	if err != nil {
		return err
	}
	h.setSession(w, secret, app.SessionLifetime)
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// limitSignIn counts an attempt against the client address's budget and,
// for a password sign-in, the email's.
func (h *Handler) limitSignIn(w http.ResponseWriter, r *http.Request, email string) error {
	now := h.now()
	keys := []string{"addr:" + clientAddress(r)}
	if email != "" {
		keys = append(keys, "email:"+strings.ToLower(email))
	}
	for _, key := range keys {
		if res := h.signIns.Allow(key, now); !res.Allowed {
			return &retryError{folio.Errorf(folio.TooManyRequests, "too many sign-in attempts: wait a minute and try again"), res.RetryAfter}
		}
	}
	return nil
}

type retryError struct {
	error
	after time.Duration
}

func (e *retryError) Unwrap() error             { return e.error }
func (e *retryError) RetryAfter() time.Duration { return e.after }

func (h *Handler) signOut(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.SignOut(r.Context(), q.secret); err != nil {
		return err
	}
	h.clearCookie(w)
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
	return nil
}

// linkView is the page of a one-time sign-in link: a button, so that link
// previews and mail scanners, which only GET, cannot use the link up.
type linkView struct{ Token string }

func (h *Handler) linkPage(w http.ResponseWriter, r *http.Request, q *req) error {
	h.render(w, http.StatusOK, "link", q, "Sign in", linkView{Token: r.PathValue("token")})
	return nil
}

func (h *Handler) signInWithLink(w http.ResponseWriter, r *http.Request, q *req) error {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return folio.Errorf(folio.Invalid, "the form could not be read")
	}
	if err := h.limitSignIn(w, r, ""); err != nil {
		return err
	}
	secret, err := h.app.SignInWithLink(r.Context(), r.PostForm.Get("token"))
	if err != nil {
		return err
	}
	h.setSession(w, secret, app.SessionLifetime)
	http.Redirect(w, r, "/account?welcome=1", http.StatusSeeOther)
	return nil
}

// ssoStart sends the browser to the organization's identity provider; its
// answer comes back to the API's ACS, which lands here with a session.
// Each start records a login, so it counts against the sign-in rate limit.
func (h *Handler) ssoStart(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.limitSignIn(w, r, ""); err != nil {
		return err
	}
	u, state, err := h.app.SAMLStart(r.Context(), r.PathValue("org"), r.PathValue("provider"))
	if err != nil {
		return err
	}
	h.BindSAMLStart(w, state)
	http.Redirect(w, r, u, http.StatusFound)
	return nil
}

// samlCookie is the cookie that ties a SAML sign-in to the browser that
// began it, as oidcCookie does for OpenID Connect: it holds the RelayState
// the identity provider must post back, so a response captured in one
// browser and posted from another (login CSRF, session replacement) is
// refused.
func (h *Handler) samlCookie() string {
	if h.secure {
		return "__Host-folio_saml"
	}
	return "folio_saml"
}

// samlStartTTL is how long the browser keeps a started SAML sign-in's
// state (the app's own record lasts as long).
const samlStartTTL = 10 * time.Minute

// BindSAMLStart sets the cookie of a SAML sign-in started with state, in
// the answer that sends the browser to the identity provider.
func (h *Handler) BindSAMLStart(w http.ResponseWriter, state string) {
	// The identity provider posts to the ACS from its own site: on https
	// the cookie is SameSite=None (with Secure); on http, where None needs
	// Secure, it has no SameSite, which browsers still send on a top-level
	// cross-site POST shortly after it was set.
	c := &http.Cookie{Name: h.samlCookie(), Value: state, Path: "/", HttpOnly: true, MaxAge: int(samlStartTTL.Seconds())}
	if h.secure {
		c.Secure, c.SameSite = true, http.SameSiteNoneMode
	}
	http.SetCookie(w, c)
}

// CheckSAMLState is the ACS's check, before it signs a browser in, that
// this browser started the sign-in whose RelayState is state; it clears
// the cookie either way. Invalid when the browser did not.
func (h *Handler) CheckSAMLState(w http.ResponseWriter, r *http.Request, state string) error {
	c := &http.Cookie{Name: h.samlCookie(), Value: "", Path: "/", HttpOnly: true, MaxAge: -1}
	if h.secure {
		c.Secure, c.SameSite = true, http.SameSiteNoneMode
	}
	http.SetCookie(w, c)
	got, err := r.Cookie(h.samlCookie())
	if err != nil || !equalToken(got.Value, state) {
		return folio.Errorf(folio.Invalid, "this sign-in was not started in this browser or has expired: start again")
	}
	return nil
}

// accountView is the account page.
type accountView struct {
	Welcome     bool
	HasPassword bool
	Changed     bool
	Error       string
	MinLength   int
	SSO         bool // a single sign-on session, which cannot set a password
}

func (h *Handler) account(w http.ResponseWriter, r *http.Request, q *req) error {
	has, err := h.app.HasPassword(r.Context(), q.caller)
	if err != nil {
		return err
	}
	h.render(w, http.StatusOK, "account", q, "Your account", accountView{Welcome: r.URL.Query().Get("welcome") != "",
		HasPassword: has, Changed: r.URL.Query().Get("changed") != "", MinLength: app.MinPasswordLength, SSO: q.caller.Org != ""})
	return nil
}

// changePassword sets the signed-in user's password; every other session
// of the user ends and this browser gets a new one.
func (h *Handler) changePassword(w http.ResponseWriter, r *http.Request, q *req) error {
	// Checking the current password is a guess at it, as a sign-in is: it
	// is charged to the same budgets (the address's and the account's).
	email := ""
	if q.user != nil {
		email = q.user.Email
	}
	if err := h.limitSignIn(w, r, email); err != nil {
		return err
	}
	current, password := r.PostForm.Get("current"), r.PostForm.Get("password")
	if password != r.PostForm.Get("confirm") {
		return h.passwordError(w, r, q, "the new password and its confirmation differ")
	}
	secret, err := h.app.ChangePassword(r.Context(), q.caller, current, password)
	if folio.KindOf(err) == folio.Invalid {
		return h.passwordError(w, r, q, folio.MessageOf(err))
	}
	if err != nil {
		return err
	}
	h.setSession(w, secret, app.SessionLifetime)
	http.Redirect(w, r, "/account?changed=1", http.StatusSeeOther)
	return nil
}

func (h *Handler) passwordError(w http.ResponseWriter, r *http.Request, q *req, msg string) error {
	has, err := h.app.HasPassword(r.Context(), q.caller)
	if err != nil {
		return err
	}
	h.render(w, http.StatusBadRequest, "account", q, "Your account",
		accountView{HasPassword: has, Error: msg, MinLength: app.MinPasswordLength})
	return nil
}
