package scripts

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// The prelude is the JavaScript half of the runtime: Request, Response,
// Headers, URL, timers and the rest, written over a single host function.
// Its files are concatenated, in name order, into one function body, so they
// share private helpers without putting them on the global object.
//
//go:embed js/*.js
var preludeFiles embed.FS

// hostFunc is the one Go function the prelude calls (see host.go). The
// prelude takes it into its closure and deletes the global.
const hostFunc = "__folio_host"

func preludeSource() (string, error) {
	names, err := fs.Glob(preludeFiles, "js/*.js")
	if err != nil {
		return "", fmt.Errorf("scripts: list prelude: %w", err)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("(function (host) {\n'use strict';\n")
	for _, name := range names {
		src, err := preludeFiles.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("scripts: read prelude %s: %w", name, err)
		}
		fmt.Fprintf(&b, "// --- %s\n", name)
		b.Write(src)
		b.WriteString("\n")
	}
	b.WriteString("})(globalThis." + hostFunc + ");\n")
	return b.String(), nil
}
