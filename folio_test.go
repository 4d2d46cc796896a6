package folio_test

import (
	"encoding/json"
	"testing"

	"github.com/foliodocs/folio"
)

func TestNewIDAndTokenShape(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := folio.NewID()
		if len(id) != 20 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	secret, hash := folio.NewTokenSecret()
	if !folio.LooksLikeToken(secret) || folio.HashToken(secret) != hash || len(hash) != 64 {
		t.Fatalf("token %q hash %q", secret, hash)
	}
	if folio.LooksLikeToken(secret[:len(secret)-1]) || folio.LooksLikeToken("x"+secret[1:]) {
		t.Fatal("malformed tokens look valid")
	}
}

func TestCursorRoundTripAndRejects(t *testing.T) {
	s := folio.EncodeCursor(int64(1700000000123456), "abc")
	c, err := folio.DecodeCursor(s)
	if err != nil || !c.Matches("is") || c[0] != int64(1700000000123456) || c[1] != "abc" {
		t.Fatalf("decoded %v, %v", c, err)
	}
	if c.Matches("si") || c.Matches("i") {
		t.Fatal("cursor matches the wrong shape")
	}
	for _, bad := range []string{"!!", "bnVsbA", "W10", "WzEuNV0", "W3RydWVd", "WzFdWzFd"} { // null, [], [1.5], [true], [1][1]
		if _, err := folio.DecodeCursor(bad); folio.KindOf(err) != folio.Invalid {
			t.Errorf("DecodeCursor(%q) = %v, want Invalid", bad, err)
		}
	}
}

func TestParseListOptions(t *testing.T) {
	for _, c := range []struct {
		limit string
		want  int
		ok    bool
	}{{"", folio.DefaultLimit, true}, {"1", 1, true}, {"1000", 1000, true}, {"0", 0, false}, {"1001", 0, false}, {"x", 0, false}} {
		o, err := folio.ParseListOptions("", c.limit)
		if (err == nil) != c.ok || (c.ok && o.Limit != c.want) {
			t.Errorf("limit %q: %v, %v", c.limit, o.Limit, err)
		}
	}
}

func TestOptionalTellsAbsentNullAndValue(t *testing.T) {
	var v struct {
		A folio.Optional[string] `json:"a"`
		B folio.Optional[string] `json:"b"`
		C folio.Optional[string] `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"b":null,"c":"x"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A.Set || !v.B.Set || !v.B.Null || !v.C.Present() || v.C.Value != "x" {
		t.Fatalf("%+v", v)
	}
}

func TestRoleOrder(t *testing.T) {
	order := []folio.Role{folio.RoleAdmin, folio.RoleCreate, folio.RoleReview, folio.RoleEdit, folio.RoleComment, folio.RoleRead, folio.RoleGuest}
	for i := 1; i < len(order); i++ {
		if !order[i-1].AtLeast(order[i]) || order[i].AtLeast(order[i-1]) {
			t.Errorf("%q should outrank %q", order[i-1], order[i])
		}
	}
	if folio.Role("owner").Valid() {
		t.Error("owner is not an organization role")
	}
}
