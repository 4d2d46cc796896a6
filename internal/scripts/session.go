package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/quickjs"
	"modernc.org/quickjs/intl"
)

// session is one run of a script: a fresh VM, the event loop that drives its
// promises, timers and fetches, and the accounting of its limits. All its
// fields except the fetch channels are used only by the goroutine that calls
// run.
type session struct {
	r        *Runner
	limits   Limits
	parent   context.Context
	ctx      context.Context // parent bounded by the wall time
	cancel   context.CancelFunc
	deadline time.Time
	vm       *quickjs.VM
	busy     time.Duration // CPU time spent inside the engine (see enter)
	stopIntr func() bool   // stops the interrupt armed on ctx

	logList []Log
	dropped int

	response *Response
	done     bool
	failure  *ScriptError

	fetchCount int
	inflight   map[int]context.CancelFunc
	results    chan fetchResult
	fetchSlots chan struct{}
	wg         sync.WaitGroup
}

func newSession(parent context.Context, r *Runner, start time.Time) *session {
	deadline := start.Add(r.limits.WallTime)
	ctx, cancel := context.WithDeadline(parent, deadline)
	return &session{
		r:          r,
		limits:     r.limits,
		parent:     parent,
		ctx:        ctx,
		cancel:     cancel,
		deadline:   deadline,
		inflight:   make(map[int]context.CancelFunc),
		results:    make(chan fetchResult),
		fetchSlots: make(chan struct{}, r.limits.MaxConcurrentFetches),
	}
}

// run loads the prelude and the script into a new VM, calls the handler with
// req and drives the event loop until the handler's response and every
// waitUntil promise settle, or a limit ends the run.
func (s *session) run(bytecode []byte, req Request) (err error) {
	defer s.close()
	defer s.recoverEngine(&err)
	if err := s.load(bytecode); err != nil {
		return err
	}
	head, err := requestHead(req)
	if err != nil {
		return err
	}
	if err := s.call("__folio_rt.start", head, binaryString(req.Body)); err != nil {
		return err
	}
	return s.loop()
}

// check loads the prelude and the script into a new VM and checks that the
// script has a default export with a fetch function, without calling it.
func (s *session) check(bytecode []byte) (err error) {
	defer s.close()
	defer s.recoverEngine(&err)
	if err := s.load(bytecode); err != nil {
		return err
	}
	if err := s.call("__folio_rt.check"); err != nil {
		return err
	}
	if s.failure != nil {
		return s.failure
	}
	return nil
}

// recoverEngine turns a panic into err: a panic from the engine (or from
// this package) must not take the server down. The VM it went through is
// abandoned: close leaks its engine memory, which is the price of not
// crashing.
func (s *session) recoverEngine(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("scripts: engine failure: %v", p)
	}
}

// load creates the VM and evaluates the prelude and the script in it.
func (s *session) load(bytecode []byte) error {
	prelude, err := preludeBytecode()
	if err != nil {
		return err
	}
	vm, err := quickjs.NewVM()
	if err != nil {
		return fmt.Errorf("scripts: new VM: %w", err)
	}
	s.vm = vm
	vm.SetMemoryLimit(uintptr(s.limits.Memory))
	if err := vm.RegisterHostFunc(hostFunc, s.host); err != nil {
		return fmt.Errorf("scripts: register host function: %w", err)
	}
	// Interrupt the engine as soon as the context ends or the wall time is
	// up; the per-entry eval timeout (see enter) also covers both.
	s.stopIntr = context.AfterFunc(s.ctx, vm.Interrupt)

	if err := s.enter(func() error { _, err := vm.EvalBytecode(prelude); return err }); err != nil {
		return err
	}
	// Intl (en-US data only) in UTC, the time zone Workers run in.
	if err := s.enter(func() error { return intl.Register(vm, intl.TimeZone("UTC")) }); err != nil {
		return err
	}
	cfg, err := json.Marshal(map[string]any{
		"maxLogLine":  s.limits.MaxLogLine,
		"maxResponse": s.limits.MaxResponse,
	})
	if err != nil {
		return fmt.Errorf("scripts: encode config: %w", err)
	}
	if err := s.call("__folio_rt.configure", string(cfg)); err != nil {
		return err
	}
	return s.enter(func() error { _, err := vm.EvalBytecode(bytecode); return err })
}

// requestHead encodes the method, URL and headers of req for the prelude.
func requestHead(req Request) (string, error) {
	method := req.Method
	if method == "" {
		method = "GET"
		if req.Body != nil {
			method = "POST"
		}
	}
	head := struct {
		Method  string      `json:"method"`
		URL     string      `json:"url"`
		Headers [][2]string `json:"headers"`
		HasBody bool        `json:"hasBody"`
	}{method, req.URL, headerPairs(req.Header), req.Body != nil}
	b, err := json.Marshal(head)
	if err != nil {
		return "", fmt.Errorf("scripts: encode request: %w", err)
	}
	return string(b), nil
}

// loop is the event loop: run the microtasks, stop when the script is done
// or failed, else wait for the next timer or fetch and deliver it.
func (s *session) loop() error {
	for {
		if err := s.drain(); err != nil {
			return err
		}
		if s.failure != nil {
			return s.failure
		}
		if s.done {
			return nil
		}
		next, err := s.nextTimer()
		if err != nil {
			return err
		}
		if next < 0 && len(s.inflight) == 0 {
			what := "the fetch handler's promise"
			if s.response != nil {
				what = "a promise passed to ctx.waitUntil"
			}
			return scriptErrorf(KindTimeout, "%s never settles: nothing is left to wait for (no timer, no fetch in flight)", what)
		}
		if err := s.wait(next); err != nil {
			return err
		}
	}
}

// drain runs pending jobs (promise reactions) until there are none.
func (s *session) drain() error {
	for {
		var n int
		err := s.enter(func() (err error) {
			n, err = s.vm.ExecutePendingJobs()
			return err
		})
		if err != nil {
			return err
		}
		if n == 0 || s.failure != nil {
			return nil
		}
	}
}

// nextTimer asks the prelude how long until its next timer is due: -1 when
// none is set.
func (s *session) nextTimer() (time.Duration, error) {
	var v any
	err := s.enter(func() (err error) {
		v, err = s.vm.Call("__folio_rt.nextTimer")
		return err
	})
	if err != nil {
		return 0, err
	}
	ms := toFloat(v)
	if ms < 0 {
		return -1, nil
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// wait blocks until a fetch completes, the next timer is due (next >= 0) or
// the run's context ends, and delivers what happened to the script.
func (s *session) wait(next time.Duration) error {
	var timerC <-chan time.Time
	if next >= 0 {
		t := time.NewTimer(next)
		defer t.Stop()
		timerC = t.C
	}
	select {
	case res := <-s.results:
		if _, ok := s.inflight[res.id]; !ok {
			return nil // aborted: the script already rejected it
		}
		delete(s.inflight, res.id)
		return s.call("__folio_rt.fetchDone", res.id, res.err, res.status, res.statusText,
			res.headers, res.body, res.url, res.redirected)
	case <-timerC:
		return s.call("__folio_rt.runTimers")
	case <-s.ctx.Done():
		return s.contextError()
	}
}

// call calls the global JavaScript function fn within the run's budget.
func (s *session) call(fn string, args ...any) error {
	return s.enter(func() error {
		_, err := s.vm.Call(fn, args...)
		return err
	})
}

// enter runs f, which enters the engine, within what is left of the CPU
// and wall budgets, and adds the CPU time it took to the CPU used. Where
// the OS keeps a CPU clock per thread (Linux), the CPU budget counts the
// CPU time of the engine's thread, which a busy machine does not inflate:
// a watchdog interrupts the engine once the budget is spent, and the eval
// timeout stands for the wall budget. Elsewhere the CPU budget is the time
// spent inside the engine.
func (s *session) enter(f func() error) error {
	if err := s.ctx.Err(); err != nil {
		return s.contextError()
	}
	left := s.limits.CPUTime - s.busy
	if left <= 0 {
		return s.cpuError()
	}
	wall := time.Until(s.deadline)
	if wall <= 0 {
		return s.contextError()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, perThread := threadClock()
	var (
		start   time.Duration
		overCPU atomic.Bool
		done    chan struct{}
	)
	if perThread {
		start, _ = clock.now()
		done = make(chan struct{})
		go s.watch(clock, start+left, &overCPU, done)
		_ = s.vm.SetEvalTimeout(wall)
	} else {
		_ = s.vm.SetEvalTimeout(min(left, wall))
	}
	t := time.Now()
	err := f()
	if perThread {
		close(done)
		end, _ := clock.now()
		s.busy += end - start
	} else {
		s.busy += time.Since(t)
	}
	if err == nil {
		return nil
	}
	se := classify(err)
	if se.Kind == KindTimeout {
		if overCPU.Load() || (!perThread && s.busy >= s.limits.CPUTime) {
			return s.cpuError()
		}
		if s.ctx.Err() != nil || !time.Now().Before(s.deadline) {
			return s.contextError()
		}
		return s.cpuError()
	}
	return se
}

// watch interrupts the engine once clock reaches limit, until done.
func (s *session) watch(clock cpuClock, limit time.Duration, over *atomic.Bool, done <-chan struct{}) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if now, ok := clock.now(); ok && now >= limit {
				over.Store(true)
				s.vm.Interrupt()
				return
			}
		}
	}
}

func (s *session) cpuError() *ScriptError {
	return scriptErrorf(KindTimeout, "the script ran for more than its CPU time limit of %s", s.limits.CPUTime)
}

// contextError tells why the run's context ended: the caller's context, or
// the wall time.
func (s *session) contextError() *ScriptError {
	if err := s.parent.Err(); err != nil {
		return &ScriptError{Kind: KindTimeout, Message: "the run was stopped: " + err.Error(), Err: context.Cause(s.parent)}
	}
	return &ScriptError{
		Kind:    KindTimeout,
		Message: fmt.Sprintf("the run took more than its wall time limit of %s", s.limits.WallTime),
		Err:     context.DeadlineExceeded,
	}
}

// close stops the fetches, waits for their goroutines and frees the VM.
func (s *session) close() {
	if s.stopIntr != nil {
		s.stopIntr()
	}
	s.cancel()
	s.wg.Wait()
	if s.vm != nil {
		closeVM(s.vm)
	}
}

// classify maps an error from the engine to a ScriptError.
func classify(err error) *ScriptError {
	var se *ScriptError
	if errors.As(err, &se) {
		return se
	}
	var qe *quickjs.Error
	if errors.As(err, &qe) {
		if qe.Name == "" && qe.Message == "" {
			if qe.Error() == "null" {
				// QuickJS throws null when it cannot even allocate its
				// "out of memory" error (a script's own `throw null` is
				// reported the same way).
				return errorFromJS("InternalError", "out of memory", "")
			}
			return &ScriptError{Kind: KindException, Message: "Uncaught " + qe.Error()}
		}
		return errorFromJS(qe.Name, qe.Message, qe.Stack)
	}
	if strings.Contains(err.Error(), "OOM") {
		return &ScriptError{Kind: KindMemory, Message: "out of memory"}
	}
	return &ScriptError{Kind: KindException, Message: err.Error()}
}

// errorFromJS builds the ScriptError of a JavaScript error.
func errorFromJS(name, message, stack string) *ScriptError {
	switch {
	case name == "InternalError" && message == "interrupted":
		return &ScriptError{Kind: KindTimeout, Message: "interrupted"}
	case name == "InternalError" && message == "out of memory":
		return &ScriptError{Kind: KindMemory, Message: "the script ran out of memory", Stack: stack}
	}
	msg := message
	if name != "" {
		msg = name + ": " + message
	}
	return &ScriptError{Kind: KindException, Message: msg, Stack: strings.TrimRight(stack, "\n")}
}

// logs returns the kept console lines, with one more telling how many were
// dropped, if any.
func (s *session) logs() []Log {
	out := s.logList
	if s.dropped > 0 {
		out = append(out, Log{
			Level:   "warn",
			Message: fmt.Sprintf("[folio] %d more console lines were dropped (limit %d per run)", s.dropped, s.limits.MaxLogs),
			At:      time.Now(),
		})
	}
	return out
}
