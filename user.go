package folio

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// User is a person who can sign in and call the API.
type User struct {
	ID            ID
	Email         string
	DisplayName   string
	PhotoURL      string
	EmailVerified bool
	CreatedAt     time.Time
}

// NewUser describes a user to create.
type NewUser struct {
	Email         string
	DisplayName   string
	EmailVerified bool
}

// Normalize lowercases the email and derives a display name when none is
// given, then validates. It returns Invalid errors.
func (u *NewUser) Normalize() error {
	u.Email = strings.ToLower(strings.TrimSpace(u.Email))
	addr, err := mail.ParseAddress(u.Email)
	if err != nil || addr.Address != u.Email || len(u.Email) > 254 {
		return FieldErrorf("email", "email must be a valid email address")
	}
	u.DisplayName = strings.TrimSpace(u.DisplayName)
	if u.DisplayName == "" {
		u.DisplayName, _, _ = strings.Cut(u.Email, "@")
	}
	if utf8.RuneCountInString(u.DisplayName) > 255 {
		return FieldErrorf("displayName", "displayName must be at most 255 characters")
	}
	return nil
}

// EmailDomain returns the part of an email address after the @.
func EmailDomain(email string) string {
	_, d, _ := strings.Cut(email, "@")
	return strings.ToLower(d)
}
