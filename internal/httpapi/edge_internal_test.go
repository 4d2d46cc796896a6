package httpapi

import (
	"strings"
	"testing"
)

func TestJSONFieldAt(t *testing.T) {
	body := `{"a":1,"b":{"c":[true,{"d":"x\u0000"}],"e":"y"},"f":["p","q\u0000"]}`
	for _, c := range []struct {
		needle, want string
	}{
		{`"x\u0000"`, "b.c[1].d"},
		{`"y"`, "b.e"},
		{`"q\u0000"`, "f[1]"},
		{`"d"`, "b.c[1].d"},
	} {
		at := strings.Index(body, c.needle) + 1
		if got := jsonFieldAt([]byte(body), at); got != c.want {
			t.Errorf("field at %s = %q, want %q", c.needle, got, c.want)
		}
	}
}
