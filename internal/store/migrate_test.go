package store

import (
	"io/fs"
	"slices"
	"testing"
)

// TestMigrationsPairUp checks that both dialects have the same numbered
// migrations, so the two stores always report the same schema version.
func TestMigrationsPairUp(t *testing.T) {
	names := func(dir string) []string {
		entries, err := fs.ReadDir(migrations, "migrations/"+dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	sqlite, postgres := names("sqlite"), names("postgres")
	if len(sqlite) == 0 || !slices.Equal(sqlite, postgres) {
		t.Fatalf("migrations differ:\nsqlite:   %v\npostgres: %v", sqlite, postgres)
	}
}
