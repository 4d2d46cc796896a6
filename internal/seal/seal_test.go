package seal_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foliodocs/folio/internal/seal"
)

func newSealer(t *testing.T) *seal.Sealer {
	t.Helper()
	key, err := seal.ParseKey(seal.NewKeyText())
	if err != nil {
		t.Fatal(err)
	}
	s, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealOpen(t *testing.T) {
	s, other := newSealer(t), newSealer(t)
	a, err := s.Seal([]byte("hello"), "site:1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Seal([]byte("hello"), "site:1")
	if a == b || strings.Contains(a, "hello") {
		t.Fatalf("sealed values %q %q: want distinct and opaque", a, b)
	}
	if got, err := s.Open(a, "site:1"); err != nil || string(got) != "hello" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	flipped := []byte(a)
	flipped[len(flipped)-3] ^= 1
	for name, c := range map[string]struct {
		s          *seal.Sealer
		value, ctx string
	}{
		"other context": {s, a, "site:2"},
		"other key":     {other, a, "site:1"},
		"altered":       {s, string(flipped), "site:1"},
		"no prefix":     {s, strings.TrimPrefix(a, "s1."), "site:1"},
		"garbage":       {s, "s1.!!", "site:1"},
	} {
		if _, err := c.s.Open(c.value, c.ctx); !errors.Is(err, seal.ErrOpen) {
			t.Errorf("%s: err %v, want ErrOpen", name, err)
		}
	}
	var none *seal.Sealer
	if _, err := none.Seal([]byte("x"), ""); !errors.Is(err, seal.ErrNoKey) {
		t.Errorf("nil sealer: %v", err)
	}
	if _, err := seal.New([]byte("short")); err == nil {
		t.Error("short key accepted")
	}
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "secret.key")
	k1, created, err := seal.LoadOrCreateKeyFile(path)
	if err != nil || !created || len(k1) != seal.KeySize {
		t.Fatalf("create: %v %v %d", err, created, len(k1))
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", fi.Mode().Perm())
	}
	k2, created, err := seal.LoadOrCreateKeyFile(path)
	if err != nil || created || string(k1) != string(k2) {
		t.Fatalf("reload: %v %v", err, created)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := seal.ReadKeyFile(path); err == nil {
		t.Fatal("a key file readable by others is accepted")
	}
	if _, err := seal.ParseKey("too short"); err == nil {
		t.Fatal("bad key text accepted")
	}
}
