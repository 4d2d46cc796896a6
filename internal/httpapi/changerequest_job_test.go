package httpapi_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/store"
)

// An import into a change request is a job like a space import: when the
// server that started it stops, another runs it again, and it lands once,
// as the revision the job named, on the change request only.
func TestChangeRequestImportJobOfAStoppedServerRunsAgain(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		importInto(t, s, admin, space, "", "markdown", []byte("# Intro\n\nHello.\n"))
		cr := newCR(t, s, admin, space, "Recover")
		var me struct{ ID string }
		s.Do(t, admin, "GET", "/v1/user", nil).JSON(t, &me)
		var live revisionBody
		s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &live)

		// A server started this import and stopped: its job is claimed
		// but never finished.
		payload, _ := json.Marshal(map[string]any{"space": space, "changeRequest": cr.ID,
			"url": dataURL("text/markdown", []byte("# Recovered\n\nBody.\n")), "source": "markdown", "user": me.ID,
			"revision": "recoveredcrrevision01"})
		err := s.DB.Write(ctx, func(tx *store.Tx) error {
			_, err := store.StartJob(ctx, tx, folio.JobImportContent, string(payload), 30*time.Minute)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 0 {
			t.Fatalf("a held job ran: %d %v", n, err)
		}
		s.Clock.Set(time.Now().Add(31 * time.Minute))
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 1 {
			t.Fatalf("RunDue = %d, %v", n, err)
		}
		check := func(when string) {
			t.Helper()
			var got crBody
			s.Do(t, admin, "GET", crPath(space, cr), nil).WantStatus(t, 200).JSON(t, &got)
			if got.Revision != "recoveredcrrevision01" {
				t.Fatalf("%s: head %s, want the job's revision", when, got.Revision)
			}
			var head revisionBody
			s.Do(t, admin, "GET", crPath(space, cr)+"/content", nil).WantStatus(t, 200).JSON(t, &head)
			if len(head.Pages) != 2 || head.Pages[1].Title != "Recovered" || len(head.Parents) != 1 || head.Parents[0] != cr.Revision {
				t.Fatalf("%s: head %+v", when, head)
			}
			var contributors struct{ Count int }
			s.Do(t, admin, "GET", crPath(space, cr)+"/contributors", nil).WantStatus(t, 200).JSON(t, &contributors)
			if contributors.Count != 1 {
				t.Fatalf("%s: %d contributors", when, contributors.Count)
			}
			var now revisionBody
			s.Do(t, admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &now)
			if now.ID != live.ID || len(now.Pages) != 1 {
				t.Fatalf("%s: the import changed the live space: %+v", when, now)
			}
		}
		check("after recovery")
		// Running it once more changes nothing.
		s.Clock.Set(time.Now().Add(62 * time.Minute))
		s.Jobs.RunDue(ctx)
		check("after a second run")
	})
}

// An import into a change request answers 201 naming a head that exists,
// and its job is recorded as done: no server runs it again.
func TestChangeRequestImportIsAFinishedJob(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		ctx := context.Background()
		org, admin := s.Org(t)
		space := newSpace(t, s, admin, org, "Docs")
		cr := newCR(t, s, admin, space, "Import")
		res := importIntoCR(t, s, admin, space, cr, "", "# New\n\nText.\n")
		var got crBody
		s.Do(t, admin, "GET", crPath(space, cr), nil).WantStatus(t, 200).JSON(t, &got)
		if got.Revision != res.Revision {
			t.Fatalf("head %s, import answered %s", got.Revision, res.Revision)
		}
		s.Clock.Set(time.Now().Add(31 * time.Minute))
		if n, err := s.Jobs.RunDue(ctx); err != nil || n != 0 {
			t.Fatalf("the finished import ran again: %d %v", n, err)
		}
	})
}
