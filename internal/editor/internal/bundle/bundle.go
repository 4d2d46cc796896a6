// Package bundle builds the editor's JavaScript and CSS from the sources
// in internal/editor/js with esbuild's Go API, so that no npm is needed.
// The same sources always give the same bytes: the build command writes
// them to internal/editor/static, and the editor's tests rebuild them in
// memory and compare.
package bundle

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Output is one build: the IIFE script (global FolioEditor) and its
// stylesheet.
type Output struct {
	JS  []byte
	CSS []byte
}

// Dir returns the editor package's folder (holding js/ and static/), found
// from this source file's path.
func Dir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("bundle: cannot locate the editor sources")
	}
	return filepath.Join(filepath.Dir(file), "..", ".."), nil
}

// bareImport matches a package name such as prosemirror-model.
var bareImport = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// vendorPlugin resolves package names to the vendored ESM builds, and
// refuses any other bare import, so the bundle can never reach outside
// the repository.
func vendorPlugin(vendor string) api.Plugin {
	return api.Plugin{
		Name: "folio-vendor",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `^[^./]`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				if !bareImport.MatchString(args.Path) {
					return api.OnResolveResult{}, fmt.Errorf("import %q is not a vendored package", args.Path)
				}
				p := filepath.Join(vendor, args.Path, "index.js")
				if _, err := os.Stat(p); err != nil {
					return api.OnResolveResult{}, fmt.Errorf("package %q is not vendored (add it to js/vendor/refresh.sh)", args.Path)
				}
				return api.OnResolveResult{Path: p}, nil
			})
		},
	}
}

// banner credits the vendored packages, read from js/vendor/VERSIONS.
func banner(dir string) (string, error) {
	f, err := os.ReadFile(filepath.Join(dir, "js", "vendor", "VERSIONS"))
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(f))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && !strings.HasPrefix(fields[0], "#") {
			names = append(names, fields[0]+"@"+fields[1])
		}
	}
	return "/*! Folio editor. Includes, under the MIT license (see the LICENSE file of each package under internal/editor/js/vendor): " +
		strings.Join(names, ", ") + " */", nil
}

// Build bundles the editor from the sources under dir (see Dir).
func Build(dir string) (Output, error) {
	ban, err := banner(dir)
	if err != nil {
		return Output{}, err
	}
	common := api.BuildOptions{
		AbsWorkingDir:     dir,
		Bundle:            true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		Target:            api.ES2020,
		Plugins:           []api.Plugin{vendorPlugin(filepath.Join(dir, "js", "vendor"))},
		Write:             false,
		LogLevel:          api.LogLevelSilent,
		Banner:            map[string]string{"js": ban, "css": ban},
	}
	js := common
	js.EntryPoints = []string{"js/main.js"}
	js.Format = api.FormatIIFE
	js.GlobalName = "FolioEditor"
	js.Outfile = "editor.js"
	js.Define = map[string]string{"process.env.NODE_ENV": `"production"`}
	css := common
	css.EntryPoints = []string{"js/editor.css"}
	css.Outfile = "editor.css"
	var out Output
	for _, b := range []struct {
		opts api.BuildOptions
		dst  *[]byte
	}{{js, &out.JS}, {css, &out.CSS}} {
		res := api.Build(b.opts)
		if len(res.Errors) > 0 {
			msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
			return Output{}, fmt.Errorf("bundle: %s", strings.Join(msgs, "\n"))
		}
		if len(res.OutputFiles) != 1 {
			return Output{}, fmt.Errorf("bundle: %d output files, want 1", len(res.OutputFiles))
		}
		*b.dst = res.OutputFiles[0].Contents
	}
	return out, nil
}
