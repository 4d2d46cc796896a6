package apitest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// errorRecorder keeps the errors a matrix reports instead of failing.
type errorRecorder struct {
	testing.TB
	errs []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Fatalf records the error and stops the goroutine, as testing.T does.
func (r *errorRecorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// recordMatrix runs a matrix and returns the errors it reports, the last
// one fatal or not.
func recordMatrix(t *testing.T, s *Server, a *Actors, cases []Case) []string {
	r := &errorRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		matrix(r, s, a, cases)
	}()
	<-done
	return r.errs
}

func TestMatrixWantsAStateForWrites(t *testing.T) {
	Run(t, func(t *testing.T, s *Server) {
		a := s.Actors(t)
		org := func(a *Actors) string { return "/v1/orgs/" + a.Org }
		want := Want(map[string]int{Outsider: 404, OtherOrg: 404}, Admin, 200, AnyActor, 403)
		for _, c := range []struct {
			name  string
			c     Case
			fatal string // "" for none
		}{
			{"write without a State", Case{Method: "PATCH", Path: org, Body: `{"ai":true}`, Want: want},
				"a PATCH without a State"},
			{"write with NoState", Case{Method: "PATCH", Path: org, Body: `{"ai":true}`, Want: want,
				NoState: "the test of NoState itself"}, ""},
			{"write with both", Case{Method: "PATCH", Path: org, Body: `{"ai":true}`, Want: want, State: Self,
				NoState: "a reason that contradicts the State"}, "both a State and NoState"},
			{"read without a State", Case{Method: "GET", Path: org, Want: Want(map[string]int{Outsider: 404, OtherOrg: 404},
				AnyActor, 200)}, ""},
		} {
			c.c.Name = c.name
			errs := recordMatrix(t, s, a, []Case{c.c})
			switch {
			case c.fatal == "" && len(errs) != 0:
				t.Errorf("%s: errors %q, want none", c.name, errs)
			case c.fatal != "" && (len(errs) != 1 || !strings.Contains(errs[0], c.fatal)):
				t.Errorf("%s: errors %q, want one saying %q", c.name, errs, c.fatal)
			}
		}
	})
}

func TestMatrixChecksRefusedWritesChangeNothing(t *testing.T) {
	Run(t, func(t *testing.T, s *Server) {
		a := s.Actors(t)
		org := func(a *Actors) string { return "/v1/orgs/" + a.Org }
		resetAI := func(a *Actors) { s.Do(t, a.Tokens[Admin], "PATCH", org(a), `{"ai":false}`).WantStatus(t, 200) }
		link := func(a *Actors) string {
			var inv struct{ ID string }
			s.Do(t, a.Tokens[Admin], "POST", org(a)+"/link-invites", `{"role":"read"}`).WantStatus(t, 201).JSON(t, &inv)
			return org(a) + "/link-invites/" + inv.ID
		}
		hidden := map[string]int{Outsider: 404, OtherOrg: 404}

		// Statuses and states as the server answers: nothing to report.
		r := &errorRecorder{TB: t}
		matrix(r, s, a, []Case{
			{Name: "patch", Method: "PATCH", Path: org, Body: `{"ai":true}`, Reset: resetAI, State: Self,
				Want: Want(hidden, Admin, 200, AnyActor, 403)},
			{Name: "delete", Method: "DELETE", Path: link, State: Self, Want: Want(hidden, Admin, 204, AnyActor, 403)},
		})
		if len(r.errs) != 0 {
			t.Fatalf("errors for a correct matrix: %q", r.errs)
		}

		// A write that is let through where the matrix expects a refusal
		// is reported twice: for its status and for the change it made.
		// Refused makes the same check for a success status.
		r = &errorRecorder{TB: t}
		matrix(r, s, a, []Case{
			{Name: "patch", Method: "PATCH", Path: org, Body: `{"ai":true}`, Reset: resetAI, State: Self,
				Want: Want(hidden, AnyActor, 403)},
			{Name: "delete", Method: "DELETE", Path: link, State: Self, Refused: []string{Admin},
				Want: Want(hidden, Admin, 204, AnyActor, 403)},
		})
		want := []string{"patch as admin: status 200, want 403", "patch as admin: refused with 200 but changed the state",
			"delete as admin: refused with 204 but changed the state"}
		if len(r.errs) != len(want) {
			t.Fatalf("errors %q, want %q", r.errs, want)
		}
		for i, w := range want {
			if !strings.HasPrefix(r.errs[i], w) {
				t.Errorf("error %d: %q, want it to start with %q", i, r.errs[i], w)
			}
		}
		if !strings.Contains(r.errs[1], `"ai"`) {
			t.Errorf("the diff does not name the changed field: %s", r.errs[1])
		}
	})
}
