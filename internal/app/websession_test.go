package app_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/app"
	"golang.org/x/crypto/argon2"
)

func TestPasswordHashes(t *testing.T) {
	h := app.HashPassword("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not record argon2id and its parameters", h)
	}
	if h == app.HashPassword("correct horse battery") {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	// A hash made with other parameters verifies with the ones it records.
	salt := []byte("0123456789abcdef")
	key := argon2.IDKey([]byte("old password"), salt, 3, 8*1024, 2, 32)
	b64 := base64.RawStdEncoding
	old := fmt.Sprintf("$argon2id$v=19$m=%d,t=3,p=2$%s$%s", 8*1024, b64.EncodeToString(salt), b64.EncodeToString(key))
	for _, c := range []struct {
		name, hash, password string
		want                 bool
	}{
		{"right", h, "correct horse battery", true},
		{"wrong", h, "correct horse batterY", false},
		{"empty", h, "", false},
		{"other parameters", old, "old password", true},
		{"other parameters wrong", old, "old passwort", false},
		{"not argon2id", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse battery", false},
		{"other version", strings.Replace(h, "v=19", "v=16", 1), "correct horse battery", false},
		{"bad parameters", strings.Replace(h, "m=19456", "m=0", 1), "correct horse battery", false},
		{"huge memory", strings.Replace(h, "m=19456", "m=99999999", 1), "correct horse battery", false},
		{"truncated", h[:len(h)-10], "correct horse battery", false},
		{"garbage", "$argon2id$", "x", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := app.CheckPassword(c.hash, c.password); got != c.want {
				t.Fatalf("CheckPassword = %v, want %v", got, c.want)
			}
		})
	}
}
