package wire

import "github.com/foliodocs/folio"

// User is the GitBook User object.
type User struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Email       string   `json:"email,omitempty"`
	PhotoURL    string   `json:"photoURL,omitempty"`
	URLs        UserURLs `json:"urls"`
}

// UserURLs are the URLs of a user.
type UserURLs struct {
	Location string `json:"location"`
}

// NewUser converts a user.
func (u URLs) NewUser(x *folio.User) User {
	return User{Object: "user", ID: x.ID, DisplayName: x.DisplayName, Email: x.Email, PhotoURL: x.PhotoURL,
		URLs: UserURLs{Location: u.API("/users/" + x.ID)}}
}

// Token is an API token as listed (never with its secret).
type Token struct {
	Object    string   `json:"object"`
	ID        string   `json:"id"`
	Label     string   `json:"label"`
	CreatedAt string   `json:"createdAt"`
	Token     string   `json:"token,omitempty"` // only in the creation response
	URLs      UserURLs `json:"urls"`
}

// NewToken converts a token; secret is empty except right after creation.
func (u URLs) NewToken(t *folio.Token, secret string) Token {
	return Token{Object: "api-token", ID: t.ID, Label: t.Label, CreatedAt: Time(t.CreatedAt), Token: secret,
		URLs: UserURLs{Location: u.API("/user/tokens/" + t.ID)}}
}
