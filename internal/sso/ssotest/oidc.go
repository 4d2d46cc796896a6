package ssotest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// OIDC is an OpenID Connect provider on a loopback httptest server, for
// tests: discovery, a JWKS with one RSA key, an authorization endpoint
// that signs User in at once and redirects back with a code, and a token
// endpoint that checks the client, the redirect URI and the PKCE (S256)
// verifier and answers with an RS256 ID token.
type OIDC struct {
	// URL is the issuer.
	URL                    string
	ClientID, ClientSecret string
	// Now is the time ID tokens are issued at (the server's clock).
	Now func() time.Time

	mu    sync.Mutex
	user  OIDCUser
	nonce string // replaces the ID token's nonce when set
	codes map[string]oidcCode
	key   *rsa.PrivateKey
	// Authorized lists the query of every authorization request.
	authorized []url.Values
}

// OIDCUser is who signs in at the provider.
type OIDCUser struct {
	Subject, Email, Name string
	EmailVerified        bool
}

type oidcCode struct {
	challenge, nonce, redirect string
	user                       OIDCUser
}

// NewOIDC starts a provider with a client and closes it when t ends.
func NewOIDC(t testing.TB) *OIDC {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &OIDC{ClientID: "folio-client", ClientSecret: "s3cret-" + rand.Text(), Now: time.Now, key: key,
		codes: map[string]oidcCode{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// SignIn sets who the next authorization signs in.
func (p *OIDC) SignIn(u OIDCUser) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if u.Subject == "" {
		u.Subject = "sub-" + u.Email
	}
	p.user = u
}

// ForgeNonce makes the ID tokens carry nonce instead of the one asked for
// ("" to stop).
func (p *OIDC) ForgeNonce(nonce string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nonce = nonce
}

// Authorizations returns the queries of the authorization requests so far.
func (p *OIDC) Authorizations() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]url.Values(nil), p.authorized...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (p *OIDC) discovery(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"issuer": p.URL, "authorization_endpoint": p.URL + "/authorize", "token_endpoint": p.URL + "/token",
		"jwks_uri": p.URL + "/jwks", "response_types_supported": []string{"code"},
		"subject_types_supported": []string{"public"}, "id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{"openid", "email", "profile"},
	})
}

func (p *OIDC) jwks(w http.ResponseWriter, r *http.Request) {
	b64 := base64.RawURLEncoding
	writeJSON(w, 200, map[string]any{"keys": []map[string]any{{
		"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
		"n": b64.EncodeToString(p.key.N.Bytes()), "e": b64.EncodeToString(big.NewInt(int64(p.key.E)).Bytes()),
	}}})
}

// authorize checks the request of a code flow with PKCE and redirects back
// with a code at once (the user is always signed in).
func (p *OIDC) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.authorized = append(p.authorized, q)
	if q.Get("client_id") != p.ClientID || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" ||
		q.Get("code_challenge") == "" || q.Get("redirect_uri") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := rand.Text()
	p.codes[code] = oidcCode{challenge: q.Get("code_challenge"), nonce: q.Get("nonce"), redirect: q.Get("redirect_uri"), user: p.user}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token redeems a code once, for the client, with the verifier of its
// challenge.
func (p *OIDC) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != p.ClientID || secret != p.ClientSecret {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	p.mu.Lock()
	c, found := p.codes[r.PostForm.Get("code")]
	delete(p.codes, r.PostForm.Get("code"))
	forged := p.nonce
	p.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if !found || r.PostForm.Get("grant_type") != "authorization_code" || r.PostForm.Get("redirect_uri") != c.redirect ||
		base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge {
		writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
		return
	}
	nonce := c.nonce
	if forged != "" {
		nonce = forged
	}
	now := p.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": p.URL, "sub": c.user.Subject, "aud": p.ClientID, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"nonce": nonce, "email": c.user.Email, "email_verified": c.user.EmailVerified, "name": c.user.Name,
	})
	tok.Header["kid"] = "k1"
	signed, err := tok.SignedString(p.key)
	if err != nil {
		writeJSON(w, 500, map[string]string{"error": "server_error"})
		return
	}
	writeJSON(w, 200, map[string]any{"access_token": rand.Text(), "token_type": "Bearer", "expires_in": 300, "id_token": signed})
}
