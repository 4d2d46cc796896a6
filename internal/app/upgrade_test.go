package app_test

import (
	"testing"

	"github.com/foliodocs/folio/internal/app"

	"github.com/foliodocs/folio/internal/content"
)

// TestEmptyTreeHashOfMigration checks the hash written by migration 00009
// (spaces created before content get an empty revision) against the codec.
func TestEmptyTreeHashOfMigration(t *testing.T) {
	objs := content.TreeObjects(nil, &content.Tree{Pages: []*content.Page{}})
	if len(objs) != 1 || objs[0].Hash.String() != "29f64ed45ce64c0f58391ba637c6104dbebe6477d4ada4bae8e04c0052ff33c2" ||
		string(objs[0].Data) != `{"pages":[]}` {
		t.Fatalf("the empty tree is %s %s; update migration 00009", objs[0].Hash, objs[0].Data)
	}
}

func TestPublicAddress(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"100.100.100.200": false, "100.64.0.1": false, "0.1.2.3": false, "198.18.0.1": false, "192.0.0.8": false,
		"::1": false, "fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false,
		"64:ff9b::a9fe:a9fe": false, "64:ff9b::5db8:d822": true, "2002:a9fe:a9fe::1": false, "2002:5db8:d822::1": true,
	} {
		if got := app.PublicAddressForTest(addr); got != want {
			t.Errorf("publicAddress(%s) = %v, want %v", addr, got, want)
		}
	}
}
