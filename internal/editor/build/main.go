// Command build rebuilds the editor's bundle (internal/editor/static) from
// its sources in internal/editor/js:
//
//	go run ./internal/editor/build
//
// Commit the result; TestBundleUpToDate fails when the committed files
// differ from what the sources build to.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/foliodocs/folio/internal/editor/internal/bundle"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := bundle.Dir()
	if err != nil {
		return err
	}
	out, err := bundle.Build(dir)
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{"editor.js": out.JS, "editor.css": out.CSS} {
		p := filepath.Join(dir, "static", name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d bytes\n", p, len(b))
	}
	return nil
}
