package app_test

import (
	"testing"

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
