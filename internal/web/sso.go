package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// ssoRoutes are the organization's single sign-on page (SAML and OpenID
// Connect providers, the SSO requirement) and the OpenID Connect sign-in.
// Every form calls the same app methods as the API, which allow admins only.
func (h *Handler) ssoRoutes() {
	h.handle("GET /o/{org}/sso", signedIn, h.ssoPage)
	h.handle("POST /o/{org}/sso/require", signedIn, ssoForm(h.ssoRequire))
	h.handle("POST /o/{org}/sso/saml", signedIn, ssoForm(h.samlCreate))
	h.handle("POST /o/{org}/sso/saml/{provider}", signedIn, ssoForm(h.samlUpdate))
	h.handle("POST /o/{org}/sso/saml/{provider}/delete", signedIn, ssoForm(h.samlDelete))
	h.handle("POST /o/{org}/sso/oidc", signedIn, ssoForm(h.oidcCreate))
	h.handle("POST /o/{org}/sso/oidc/{provider}", signedIn, ssoForm(h.oidcUpdate))
	h.handle("POST /o/{org}/sso/oidc/{provider}/delete", signedIn, ssoForm(h.oidcDelete))
	h.handle("GET /signin/oidc/{org}/{provider}", anyone, h.oidcStart)
	h.handle("GET /signin/oidc/{org}/{provider}/callback", anyone, h.oidcCallback)
}

// ssoForm reads the form of a POST before fn (the cross-site check has
// read it already, unless the request carried its token in a header).
func ssoForm(fn handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, q *req) error {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			return folio.Errorf(folio.Invalid, "the form could not be read")
		}
		return fn(w, r, q)
	}
}

// ssoView is the single sign-on page of an organization.
type ssoView struct {
	Frame    *orgFrame
	SAML     []samlRow
	OIDC     []app.OIDCProviderView
	Required bool
	Roles    []folio.Role
	// Error is why the last form was refused (nothing changed); Form is
	// what the refused add form (FormKind "saml" or "oidc") held.
	Error    string
	FormKind string
	Form     map[string]string
	Saved    string
}

// samlRow is a SAML provider with the values to give its identity provider.
type samlRow struct {
	app.SAMLProviderView
	Endpoints app.SAMLEndpoints
}

var ssoRoles = []folio.Role{folio.RoleRead, folio.RoleComment, folio.RoleEdit, folio.RoleReview, folio.RoleCreate, folio.RoleAdmin}

var ssoSaved = map[string]string{
	"required": "The single sign-on requirement was saved.", "added": "The provider was added.",
	"updated": "The provider was saved.", "removed": "The provider was removed.",
}

func (h *Handler) ssoPage(w http.ResponseWriter, r *http.Request, q *req) error {
	return h.renderSSO(w, r, q, http.StatusOK, ssoSaved[r.URL.Query().Get("saved")], "", "")
}

// renderSSO renders the page; with a refusal (status 400 and errMsg) it
// keeps the add form of kind as it was sent.
func (h *Handler) renderSSO(w http.ResponseWriter, r *http.Request, q *req, status int, saved, errMsg, kind string) error {
	ctx, org := r.Context(), r.PathValue("org")
	f, err := h.orgFrame(ctx, q, org, "sso")
	if err != nil {
		return err
	}
	v := ssoView{Frame: f, Required: f.Org.SSO, Roles: ssoRoles, Saved: saved, Error: errMsg, FormKind: kind, Form: map[string]string{}}
	opts := folio.ListOptions{Limit: folio.MaxLimit}
	for {
		l, err := h.app.ListSAMLProviders(ctx, q.caller, org, opts)
		if err != nil {
			return err
		}
		for _, p := range l.Items {
			v.SAML = append(v.SAML, samlRow{SAMLProviderView: p, Endpoints: h.app.SAMLEndpoints(&p.SAMLProvider)})
		}
		if l.Next == "" {
			break
		}
		if opts.After, err = folio.DecodeCursor(l.Next); err != nil {
			return err
		}
	}
	if v.OIDC, err = h.app.ListOIDCProviders(ctx, q.caller, org); err != nil {
		return err
	}
	if kind != "" && r.PostForm != nil {
		for k := range r.PostForm {
			if k != "csrf" && k != "clientSecret" {
				v.Form[k] = r.PostForm.Get(k)
			}
		}
	}
	h.renderPage(w, status, "sso", q, "Single sign-on · "+f.Org.Title, v, pageAssets{Scripts: []string{assetsByKey["copy.js"].url}})
	return nil
}

// ssoDone redirects back to the page after a change, or shows the page
// again with the refusal when the input was not valid.
func (h *Handler) ssoDone(w http.ResponseWriter, r *http.Request, q *req, err error, saved, kind string) error {
	if folio.KindOf(err) == folio.Invalid {
		return h.renderSSO(w, r, q, http.StatusBadRequest, "", folio.MessageOf(err)+". Nothing was changed.", kind)
	}
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/o/"+r.PathValue("org")+"/sso?saved="+saved, http.StatusSeeOther)
	return nil
}

func (h *Handler) ssoRequire(w http.ResponseWriter, r *http.Request, q *req) error {
	on := r.PostForm.Get("required") == "on"
	_, err := h.app.UpdateOrganization(r.Context(), q.caller, r.PathValue("org"), &folio.OrganizationUpdate{SSO: folio.Some(on)})
	return h.ssoDone(w, r, q, err, "required", "")
}

// formField is an Optional of a form field: set when the form has it.
func formField(r *http.Request, name string) folio.Optional[string] {
	if _, ok := r.PostForm[name]; !ok {
		return folio.Optional[string]{}
	}
	return folio.Some(strings.TrimSpace(r.PostForm.Get(name)))
}

func samlInput(r *http.Request) *folio.SAMLProviderInput {
	in := &folio.SAMLProviderInput{Label: formField(r, "label"), EntityID: formField(r, "entityID"),
		SSOURL: formField(r, "ssoURL"), Certificate: formField(r, "certificate"), DefaultRole: formField(r, "defaultRole")}
	// An empty SSO URL is a provider not configured yet, as over the API.
	if in.SSOURL.Set && in.SSOURL.Value == "" {
		in.SSOURL = folio.Optional[string]{}
	}
	return in
}

func (h *Handler) samlCreate(w http.ResponseWriter, r *http.Request, q *req) error {
	_, err := h.app.CreateSAMLProvider(r.Context(), q.caller, r.PathValue("org"), samlInput(r))
	return h.ssoDone(w, r, q, err, "added", "saml")
}

func (h *Handler) samlUpdate(w http.ResponseWriter, r *http.Request, q *req) error {
	_, err := h.app.UpdateSAMLProvider(r.Context(), q.caller, r.PathValue("org"), r.PathValue("provider"), samlInput(r))
	return h.ssoDone(w, r, q, err, "updated", "")
}

func (h *Handler) samlDelete(w http.ResponseWriter, r *http.Request, q *req) error {
	err := h.app.DeleteSAMLProvider(r.Context(), q.caller, r.PathValue("org"), r.PathValue("provider"))
	return h.ssoDone(w, r, q, err, "removed", "")
}

func oidcInput(r *http.Request) *folio.OIDCProviderInput {
	return &folio.OIDCProviderInput{Label: formField(r, "label"), Issuer: formField(r, "issuer"),
		ClientID: formField(r, "clientID"), ClientSecret: formField(r, "clientSecret"), Scopes: formField(r, "scopes"),
		DefaultRole: formField(r, "defaultRole")}
}

func (h *Handler) oidcCreate(w http.ResponseWriter, r *http.Request, q *req) error {
	_, err := h.app.CreateOIDCProvider(r.Context(), q.caller, r.PathValue("org"), oidcInput(r))
	return h.ssoDone(w, r, q, err, "added", "oidc")
}

func (h *Handler) oidcUpdate(w http.ResponseWriter, r *http.Request, q *req) error {
	_, err := h.app.UpdateOIDCProvider(r.Context(), q.caller, r.PathValue("org"), r.PathValue("provider"), oidcInput(r))
	return h.ssoDone(w, r, q, err, "updated", "")
}

func (h *Handler) oidcDelete(w http.ResponseWriter, r *http.Request, q *req) error {
	err := h.app.DeleteOIDCProvider(r.Context(), q.caller, r.PathValue("org"), r.PathValue("provider"))
	return h.ssoDone(w, r, q, err, "removed", "")
}

// oidcCookie is the cookie that ties an OpenID Connect sign-in to the
// browser that began it: it holds the state the provider must send back,
// so a callback URL handed to another browser (login CSRF) does nothing.
func (h *Handler) oidcCookie() string {
	if h.secure {
		return "__Host-folio_oidc"
	}
	return "folio_oidc"
}

// oidcStartTTL is how long the browser keeps a started sign-in's state.
const oidcStartTTL = 10 * time.Minute

// oidcStart sends the browser to the organization's OpenID Connect
// provider. Starting asks the provider for its discovery document, so it
// counts against the sign-in rate limit.
func (h *Handler) oidcStart(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.limitSignIn(w, r, ""); err != nil {
		return err
	}
	u, state, err := h.app.OIDCStart(r.Context(), r.PathValue("org"), r.PathValue("provider"))
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: h.oidcCookie(), Value: state, Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(oidcStartTTL.Seconds())})
	http.Redirect(w, r, u, http.StatusFound)
	return nil
}

// oidcCallback finishes a sign-in: the provider's answer must carry the
// state this browser's cookie holds; the app checks the rest.
func (h *Handler) oidcCallback(w http.ResponseWriter, r *http.Request, q *req) error {
	http.SetCookie(w, &http.Cookie{Name: h.oidcCookie(), Value: "", Path: "/", HttpOnly: true, Secure: h.secure,
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
	query := r.URL.Query()
	if e := query.Get("error"); e != "" {
		return folio.Errorf(folio.Invalid, "the identity provider did not sign you in (%.100s): start again", e)
	}
	state := query.Get("state")
	c, err := r.Cookie(h.oidcCookie())
	if err != nil || !equalToken(c.Value, state) {
		return folio.Errorf(folio.Invalid, "this sign-in was not started in this browser or has expired: start again")
	}
	login, err := h.app.OIDCSignIn(r.Context(), r.PathValue("org"), r.PathValue("provider"), state, query.Get("code"))
	if err != nil {
		return err
	}
	h.StartSSOSession(w, r, login)
	return nil
}

// oidcLinks adds the organization's OpenID Connect providers to the
// sign-in page's single sign-on links.
func (h *Handler) oidcLinks(r *http.Request, org string, v *signInView) {
	ps, err := h.app.ListOIDCLogins(r.Context(), org)
	if err != nil {
		return
	}
	for _, p := range ps {
		v.SSO = append(v.SSO, ssoLink{Label: p.Label, Href: "/signin/oidc/" + org + "/" + p.ID})
	}
}
