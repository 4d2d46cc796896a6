package templates

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/foliodocs/folio"
)

// FuzzAPIReference feeds arbitrary documents to api-reference: it must never
// panic, and must either fail with an Invalid error on params.contentRefs or
// build a snapshot that validates.
func FuzzAPIReference(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"tags":[""],"parameters":[{"name":"x","in":"query","required":true,"content":{"application/json":{"schema":{"type":"object"}}}}],"responses":{"default":{"description":"d"}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := Build(APIReference, Input{OpenAPI: data})
		if err != nil {
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != specField {
				t.Fatalf("error %v is not Invalid on %s", err, specField)
			}
			return
		}
		if err := check(snap); err != nil {
			t.Fatalf("snapshot does not validate: %v", err)
		}
	})
}
