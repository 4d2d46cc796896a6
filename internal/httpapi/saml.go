package httpapi

import (
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/wire"
)

func (s *Server) samlProvider(v *app.SAMLProviderView) wire.SAMLProvider {
	e := s.app.SAMLEndpoints(&v.SAMLProvider)
	return s.urls.NewSAMLProvider(&v.SAMLProvider, v.Team, wire.SAMLSP{ACSURL: e.ACSURL, StartURL: e.StartURL, EntityID: e.EntityID})
}

func (s *Server) listSAMLProvidersInOrganizationByID(w http.ResponseWriter, r *http.Request) error {
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	l, err := s.app.ListSAMLProviders(r.Context(), caller(r), r.PathValue("organizationId"), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.NewList(l, s.samlProvider))
	return nil
}

func (s *Server) createOrganizationSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	var in folio.SAMLProviderInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.CreateSAMLProvider(r.Context(), caller(r), r.PathValue("organizationId"), &in)
	if err != nil {
		return err
	}
	out := s.samlProvider(v)
	w.Header().Set("Location", out.URLs.Location)
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) getOrganizationSAMLProviderByID(w http.ResponseWriter, r *http.Request) error {
	v, err := s.app.GetSAMLProvider(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.samlProvider(v))
	return nil
}

func (s *Server) updateOrganizationSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	var in folio.SAMLProviderInput
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := s.app.UpdateSAMLProvider(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("samlProviderId"), &in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.samlProvider(v))
	return nil
}

func (s *Server) deleteOrganizationSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.DeleteSAMLProvider(r.Context(), caller(r), r.PathValue("organizationId"), r.PathValue("samlProviderId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listSSOProviderLoginsInOrganization needs no token: a login page shows it
// before anyone is signed in.
func (s *Server) listSSOProviderLoginsInOrganization(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.app.ListSSOLogins(r.Context(), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	items := make([]wire.SSOLogin, len(ps))
	for i := range ps {
		items[i] = wire.SSOLogin{ID: ps[i].ID, Label: ps[i].Label, StartURL: s.app.SAMLEndpoints(&ps[i]).StartURL}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

// samlStart redirects the browser to the identity provider.
func (s *Server) samlStart(w http.ResponseWriter, r *http.Request) error {
	u, state, err := s.app.SAMLStart(r.Context(), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return err
	}
	if s.web != nil {
		s.web.BindSAMLStart(w, state) // a browser's answer lands in the web application
	}
	http.Redirect(w, r, u, http.StatusFound)
	return nil
}

// samlMetadata serves the service-provider metadata for the IdP admin.
func (s *Server) samlMetadata(w http.ResponseWriter, r *http.Request) error {
	b, err := s.app.SAMLMetadata(r.Context(), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	w.Write(b)
	return nil
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in to Folio</title>
<meta name="referrer" content="no-referrer"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>Signed in as {{.Email}}</h1>
<p>Folio created an API token for you. It works only in this organization and until {{.Expires}}.
It is shown only this once; keep it somewhere safe.</p>
<pre style="padding: 1rem; background: #f4f4f4; overflow-x: auto">{{.Token}}</pre>
<p>Use it as <code>Authorization: Bearer &lt;token&gt;</code>. You can list and revoke your tokens
with <code>GET</code> and <code>DELETE /v1/user/tokens</code>.</p>
</body></html>
`))

// samlACS receives the identity provider's response (HTTP-POST binding)
// and answers the new API token as JSON when the client asks for JSON; a
// browser instead gets a web application session and lands on the
// organization's page (the token page remains for a server without the
// web application).
func (s *Server) samlACS(w http.ResponseWriter, r *http.Request) error {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return folio.Errorf(folio.UnsupportedMedia, "the assertion consumer service takes a form post (SAMLResponse, RelayState)")
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
	if err := r.ParseForm(); err != nil {
		var maxErr *http.MaxBytesError
		switch {
		case errors.As(err, &maxErr):
			return errTooLarge(maxErr.Limit)
		case isTimeout(err):
			return errBodyTimeout
		}
		return folio.Errorf(folio.Invalid, "the form could not be read")
	}
	if err := checkValues(r.PostForm, "form field"); err != nil {
		return err
	}
	org, provider := r.PathValue("organizationId"), r.PathValue("samlProviderId")
	resp, state := r.PostForm.Get("SAMLResponse"), r.PostForm.Get("RelayState")
	w.Header().Set("Cache-Control", "no-store")
	if !strings.Contains(r.Header.Get("Accept"), "application/json") && s.web != nil {
		// A browser lands in the web application, signed in, if it is the
		// browser that started the sign-in.
		if err := s.web.CheckSAMLState(w, r, state); err != nil {
			return err
		}
		login, err := s.app.SAMLSignIn(r.Context(), org, provider, resp, state)
		if err != nil {
			return err
		}
		s.web.StartSSOSession(w, r, login)
		return nil
	}
	login, err := s.app.SAMLLogin(r.Context(), org, provider, resp, state)
	if err != nil {
		return err
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		writeJSON(w, http.StatusOK, map[string]any{"user": s.urls.NewUser(login.User), "organization": login.Organization,
			"token": login.Token, "expiresAt": wire.Time(login.ExpiresAt)})
		return nil
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	return loginPage.Execute(w, map[string]string{"Email": login.User.Email, "Token": login.Token, "Expires": wire.Time(login.ExpiresAt)})
}

func (s *Server) getOrganizationAgentInstructions(w http.ResponseWriter, r *http.Request) error {
	ai, err := s.app.GetAgentInstructions(r.Context(), caller(r), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewAgentInstructions(ai))
	return nil
}

func (s *Server) updateOrganizationAgentInstructions(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Instructions *content.Document `json:"instructions"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	ai, err := s.app.PutAgentInstructions(r.Context(), caller(r), r.PathValue("organizationId"), in.Instructions)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.urls.NewAgentInstructions(ai))
	return nil
}
