package scripts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Runner compiles scripts (caching them by content hash, within a byte
// budget) and runs them, each run in a fresh engine. It is safe for
// concurrent use.
type Runner struct {
	client *http.Client
	limits Limits
	cache  *programCache
	slots  chan struct{}
}

// Option configures a Runner.
type Option func(*Runner)

// DefaultCacheBytes bounds the compiled scripts a Runner keeps unless
// WithCacheBytes says otherwise: Folio's 70 KB integration bundles compile
// to about 350 KB, so it holds about 45.
const DefaultCacheBytes = 16 << 20

// WithCacheBytes bounds the compiled scripts a Runner keeps.
func WithCacheBytes(n int64) Option {
	return func(r *Runner) { r.cache = newProgramCache(n) }
}

// NewRunner returns a Runner whose scripts reach the network only through
// client, Folio's guarded outbound client; with a nil client every fetch
// fails. Zero fields of limits take their DefaultLimits value.
func NewRunner(client *http.Client, limits Limits, opts ...Option) *Runner {
	limits = limits.withDefaults()
	r := &Runner{
		client: client,
		limits: limits,
		cache:  newProgramCache(DefaultCacheBytes),
		slots:  make(chan struct{}, limits.MaxConcurrent),
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Limits returns the limits the Runner applies, defaults filled in.
func (r *Runner) Limits() Limits { return r.limits }

// Run runs script's fetch handler on req and returns what it responded and
// logged. When the script fails or breaks a limit the error is a
// *ScriptError and the Result still holds the logs written until then. Other
// errors (a malformed req, an engine failure) are plain errors. Run waits
// for a free slot (Limits.MaxConcurrent) as long as ctx allows.
func (r *Runner) Run(ctx context.Context, script string, req Request) (*Result, error) {
	start := time.Now()
	res := &Result{}
	if err := checkRequest(req); err != nil {
		return res, err
	}
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	case <-ctx.Done():
		return res, &ScriptError{Kind: KindTimeout, Message: "the run was canceled before it started", Err: ctx.Err()}
	}

	bytecode, err := r.program(script)
	if err != nil {
		res.Duration = time.Since(start)
		return res, err
	}
	s := newSession(ctx, r, start)
	err = s.run(bytecode, req)
	res.Response = s.response
	res.Logs = s.logs()
	res.Duration = time.Since(start)
	return res, err
}

// Check loads script as Run does (compiles it, evaluates its top level)
// and checks that it exports a handler with a fetch function, within the
// same limits, without calling the handler. The error is a *ScriptError
// when the script is at fault: KindInvalidScript (it does not parse, or
// has no handler), KindException (its top level threw), KindTimeout or
// KindMemory. Check waits for a free slot as Run does.
func (r *Runner) Check(ctx context.Context, script string) error {
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	case <-ctx.Done():
		return &ScriptError{Kind: KindTimeout, Message: "the check was canceled before it started", Err: ctx.Err()}
	}
	bytecode, err := r.program(script)
	if err != nil {
		return err
	}
	return newSession(ctx, r, time.Now()).check(bytecode)
}

// program returns the bytecode of script, from the cache or compiled.
func (r *Runner) program(script string) ([]byte, error) {
	if len(script) > r.limits.MaxScript {
		return nil, scriptErrorf(KindInvalidScript, "the script is %d bytes, over the limit of %d", len(script), r.limits.MaxScript)
	}
	return r.cache.get(script, func(source string) ([]byte, error) {
		code, err := toScript(source)
		if err != nil {
			return nil, scriptErrorf(KindInvalidScript, "%s", err.Error())
		}
		bc, err := compileScript(code, r.limits.Memory)
		if err != nil {
			se := classify(err)
			if se.Kind == KindException {
				se.Kind = KindInvalidScript
			}
			return nil, se
		}
		return bc, nil
	})
}

func checkRequest(req Request) error {
	u, err := url.Parse(req.URL)
	if err != nil {
		return fmt.Errorf("scripts: request URL: %w", err)
	}
	if !u.IsAbs() {
		return errors.New("scripts: request URL must be absolute")
	}
	return nil
}
