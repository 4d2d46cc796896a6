package scripts

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"modernc.org/quickjs"
)

// moduleGlobal is the global variable the compiled script assigns its module
// namespace to.
const moduleGlobal = "__folio_module"

// toScript turns an ES module into a classic script that stores the module's
// exports in moduleGlobal. QuickJS runs modules natively, but a module's
// bytecode is evaluated through a path that cannot wait for top-level await
// (it crashes on a promise still pending), so Folio caches script bytecode
// instead. Imports are refused: integration scripts are bundles, and the
// node:* and cloudflare:* modules they may name do not exist here.
func toScript(source string) (string, error) {
	refuseImports := api.Plugin{
		Name: "folio-no-imports",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{}, fmt.Errorf("the script imports %q: scripts must be self-contained bundles (node:* and cloudflare:* modules are not available)", a.Path)
			})
		},
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   source,
			Sourcefile: "script.js",
			Loader:     api.LoaderJS,
		},
		Bundle:     true,
		Write:      false,
		Format:     api.FormatIIFE,
		GlobalName: moduleGlobal,
		Platform:   api.PlatformNeutral,
		Target:     api.ESNext,
		Charset:    api.CharsetUTF8,
		LogLevel:   api.LogLevelSilent,
		Plugins:    []api.Plugin{refuseImports},
	})
	if len(res.Errors) > 0 {
		return "", errors.New(esbuildMessages(res.Errors))
	}
	if len(res.OutputFiles) != 1 {
		return "", fmt.Errorf("esbuild produced %d files", len(res.OutputFiles))
	}
	return string(res.OutputFiles[0].Contents), nil
}

// esbuildMessages renders at most three esbuild errors as one line each.
func esbuildMessages(msgs []api.Message) string {
	var parts []string
	for i, m := range msgs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(msgs)-3))
			break
		}
		text := m.Text
		if m.Location != nil {
			text = fmt.Sprintf("%d:%d: %s", m.Location.Line, m.Location.Column+1, text)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "; ")
}

// compileScript compiles a classic script to QuickJS bytecode in a scratch
// VM bounded by memory. Bytecode is tied to the QuickJS version linked in,
// so it lives only in memory.
func compileScript(code string, memory int64) (bc []byte, err error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, fmt.Errorf("scripts: new VM: %w", err)
	}
	defer closeVM(vm)
	vm.SetMemoryLimit(uintptr(memory))
	return vm.Compile(code, quickjs.EvalGlobal)
}

// closeVM closes vm, never panicking: a VM that a panic went through
// ("abandoned") can panic again on Close.
func closeVM(vm *quickjs.VM) {
	defer func() { _ = recover() }()
	_ = vm.Close()
}

var prelude struct {
	once     sync.Once
	bytecode []byte
	err      error
}

// preludeBytecode returns the compiled web-API prelude (js/*.js), compiled
// once per process.
func preludeBytecode() ([]byte, error) {
	prelude.once.Do(func() {
		src, err := preludeSource()
		if err != nil {
			prelude.err = err
			return
		}
		prelude.bytecode, prelude.err = compileScript(src, 256<<20)
		if prelude.err != nil {
			prelude.err = fmt.Errorf("scripts: compile prelude: %w", prelude.err)
		}
	})
	return prelude.bytecode, prelude.err
}
