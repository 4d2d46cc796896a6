// Package archtest checks the import rules of the layout (the project's
// style guide, and each package's doc.go): each layer
// imports only the layers below it.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/foliodocs/folio"

// forbidden lists, per package, the project packages it must not import.
var forbidden = map[string][]string{
	"":                   {"internal/"}, // the domain package: standard library only
	"internal/store":     {"internal/app", "internal/httpapi", "internal/wire", "internal/jobs"},
	"internal/app":       {"internal/httpapi", "internal/wire", "internal/jobs"},
	"internal/wire":      {"internal/store", "internal/app", "internal/httpapi"},
	"internal/content":   {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/sso":       {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/jobs":      {"internal/app", "internal/httpapi", "internal/wire"},
	"internal/httpapi":   {"internal/store"},
	"internal/markdown":  {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/search":    {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/importer":  {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/gitsync":   {"internal/store", "internal/app", "internal/httpapi", "internal/wire", "internal/jobs"},
	"internal/templates": {"internal/store", "internal/app", "internal/httpapi", "internal/wire"},
	"internal/reader":    {"internal/store", "internal/httpapi", "internal/jobs"},
	"internal/web":       {"internal/store", "internal/httpapi", "internal/jobs", "internal/wire", "internal/markdown", "internal/sso"},
	"internal/pdf":       {"internal/store", "internal/httpapi", "internal/jobs", "internal/wire"},
	"internal/seal":      {"internal/"}, // standard library only
	"internal/sitetree":  {"internal/store", "internal/app", "internal/httpapi", "internal/wire", "internal/jobs", "internal/markdown"},
	"internal/buildinfo": {"internal/"}, // standard library only

	// git sync
	"internal/gitrepo":         {"internal/"}, // folio, go-git and the standard library
	"internal/gitrepo/gittest": {"internal/"}, // standard library only

	// OpenAPI specifications and translations
	"internal/openapi":   {"internal/"}, // folio, kin-openapi, yaml and the standard library
	"internal/translate": {"internal/store", "internal/app", "internal/httpapi", "internal/wire", "internal/jobs"},

	// integrations
	"internal/webhook": {"internal/store", "internal/app", "internal/httpapi", "internal/jobs"},
	"internal/scripts": {"internal/app", "internal/store", "internal/httpapi", "internal/content", "internal/wire", "internal/jobs"}, // QuickJS, esbuild, lru and the standard library
	"internal/lru":     {"internal/"},                                                                                                // golang.org/x/sync and the standard library
	"internal/editor":  {"internal/"},                                                                                                // the page editor's assets; the standard library only

	// outbound requests
	"internal/netguard": {"internal/"}, // standard library only
}

func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		rules, ok := forbidden[pkg]
		if !ok {
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module+"/") {
				if pkg == "" && strings.Contains(imp, ".") {
					t.Errorf("package folio imports %s; it may use the standard library only", imp)
				}
				continue
			}
			rel := strings.TrimPrefix(imp, module+"/")
			for _, f := range rules {
				if strings.HasPrefix(rel, f) {
					t.Errorf("%s imports %s, which the layering forbids", fields[0], imp)
				}
			}
		}
	}
}
