package folio_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

func TestOIDCProviderInputValidate(t *testing.T) {
	s := folio.Some[string]
	valid := func() folio.OIDCProviderInput {
		return folio.OIDCProviderInput{Label: s("Acme"), Issuer: s("https://id.example.com"), ClientID: s("folio")}
	}
	cases := []struct {
		name   string
		edit   func(in *folio.OIDCProviderInput)
		create bool
		field  string // "" when valid
	}{
		{"create/valid", func(*folio.OIDCProviderInput) {}, true, ""},
		{"label/required on create", func(in *folio.OIDCProviderInput) { in.Label = folio.Optional[string]{} }, true, "label"},
		{"label/absent on change", func(in *folio.OIDCProviderInput) { in.Label = folio.Optional[string]{} }, false, ""},
		{"label/30 characters", func(in *folio.OIDCProviderInput) { in.Label = s(strings.Repeat("é", 30)) }, true, ""},
		{"label/31 characters", func(in *folio.OIDCProviderInput) { in.Label = s(strings.Repeat("é", 31)) }, true, "label"},
		{"issuer/required on create", func(in *folio.OIDCProviderInput) { in.Issuer = s(" ") }, true, "issuer"},
		{"issuer/not a URL", func(in *folio.OIDCProviderInput) { in.Issuer = s("id.example.com") }, false, "issuer"},
		{"issuer/with a query", func(in *folio.OIDCProviderInput) { in.Issuer = s("https://id.example.com/?a=b") }, false, "issuer"},
		{"issuer/with credentials", func(in *folio.OIDCProviderInput) { in.Issuer = s("https://u:p@id.example.com") }, false, "issuer"},
		{"issuer/http on loopback", func(in *folio.OIDCProviderInput) { in.Issuer = s("http://127.0.0.1:8080/realms/x") }, false, ""},
		{"clientID/required on create", func(in *folio.OIDCProviderInput) { in.ClientID = folio.Optional[string]{} }, true, "clientID"},
		{"clientID/255 bytes", func(in *folio.OIDCProviderInput) { in.ClientID = s(strings.Repeat("c", 255)) }, false, ""},
		{"clientID/256 bytes", func(in *folio.OIDCProviderInput) { in.ClientID = s(strings.Repeat("c", 256)) }, false, "clientID"},
		{"clientSecret/1024 bytes", func(in *folio.OIDCProviderInput) { in.ClientSecret = s(strings.Repeat("x", 1024)) }, false, ""},
		{"clientSecret/1025 bytes", func(in *folio.OIDCProviderInput) { in.ClientSecret = s(strings.Repeat("x", 1025)) }, false, "clientSecret"},
		{"scopes/20", func(in *folio.OIDCProviderInput) { in.Scopes = s(strings.Repeat("a ", 20)) }, false, ""},
		{"scopes/21", func(in *folio.OIDCProviderInput) { in.Scopes = s(strings.Repeat("a ", 21)) }, false, "scopes"},
		{"scopes/quote", func(in *folio.OIDCProviderInput) { in.Scopes = s(`a"b`) }, false, "scopes"},
		{"defaultRole/unknown", func(in *folio.OIDCProviderInput) { in.DefaultRole = s("owner") }, false, "defaultRole"},
		{"defaultRole/edit", func(in *folio.OIDCProviderInput) { in.DefaultRole = s("edit") }, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := valid()
			c.edit(&in)
			err := in.Validate(c.create)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var fe *folio.Error
			if e, ok := err.(*folio.Error); ok {
				fe = e
			}
			if fe == nil || fe.Kind != folio.Invalid || fe.Field != c.field {
				t.Fatalf("got %v, want Invalid on %s", err, c.field)
			}
		})
	}
}
