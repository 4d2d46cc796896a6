package web_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// withBlockText returns the document doc (JSON) with the text of its
// top-level block i replaced by text.
func withBlockText(t *testing.T, doc string, i int, text string) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	nodes := d["nodes"].([]any)
	b := nodes[i].(map[string]any)
	b["nodes"] = []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": text, "marks": []any{}}}}}
	return d
}

// TestConcurrentSavesMerge: two writers who opened the same page save one
// after the other. Changes to different blocks both survive (a three-way
// merge with the document they started from); changes to the same block
// are refused with 409, nothing changes, and the answer carries both
// versions: the page as saved meanwhile ("current", with the revision to
// build on) and the merge with the writer's text where they clash
// ("merged"). Saving that merge on the current revision keeps everyone's
// changes. The same holds inside a change request.
func TestConcurrentSavesMerge(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		w1, _ := member(t, s, org, folio.RoleEdit)
		w2, _ := member(t, s, org, folio.RoleEdit)
		sp := space(t, s, org, admin, "Handbook", "# Welcome\n\nFirst.\n\nSecond.\n\nThird.\n")
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: w1.ID}, sp, "")
		pageID := c.Tree.Pages[0].ID
		start := pageDoc(t, s, w1.ID, sp, pageID)
		if !strings.Contains(start, "Third.") {
			t.Fatalf("start document %s", start)
		}
		edit := "/s/" + sp + "/~/pages/" + pageID + "/edit"
		save := "/s/" + sp + "/~/pages/" + pageID + "/document"
		a, b := signIn(t, s, w1.Email), signIn(t, s, w2.Email)
		sinceA := sinceRE.FindStringSubmatch(a.get(t, edit).want(t, 200).Body)[1]
		sinceB := sinceRE.FindStringSubmatch(b.get(t, edit).want(t, 200).Body)[1]
		// The import's first block is the paragraph "First." when the
		// heading became the title, else the heading: find the indexes.
		idx := func(text string) int {
			var d struct{ Nodes []json.RawMessage }
			json.Unmarshal([]byte(start), &d)
			for i, n := range d.Nodes {
				if strings.Contains(string(n), `"`+text+`"`) {
					return i
				}
			}
			t.Fatalf("no block %q in %s", text, start)
			return -1
		}
		first, third := idx("First."), idx("Third.")

		a.postJSON(t, save, map[string]any{"document": withBlockText(t, start, first, "First, by A."), "since": sinceA}, a.csrf).want(t, 200)
		b.postJSON(t, save, map[string]any{"document": withBlockText(t, start, third, "Third, by B."), "since": sinceB}, b.csrf).want(t, 200)
		got := pageDoc(t, s, w1.ID, sp, pageID)
		for _, want := range []string{"First, by A.", "Second.", "Third, by B."} {
			if !strings.Contains(got, want) {
				t.Fatalf("after both saves the page lacks %q:\n%s", want, got)
			}
		}

		// B, still on the old revision, rewrites the block A changed.
		p := b.postJSON(t, save, map[string]any{"document": withBlockText(t, start, first, "First, by B."), "since": sinceB}, b.csrf).
			want(t, 409, `"code":409`, "changed by someone else", "in the same places as your changes", `First.`)
		if now := pageDoc(t, s, w1.ID, sp, pageID); now != got {
			t.Fatalf("a conflicting save changed the page:\n%s", now)
		}
		var conflict struct {
			Current struct {
				Revision string
				Document json.RawMessage
			}
			Merged json.RawMessage
		}
		if err := json.Unmarshal([]byte(p.Body), &conflict); err != nil {
			t.Fatal(err)
		}
		cur, merged := string(conflict.Current.Document), string(conflict.Merged)
		if !strings.Contains(cur, "First, by A.") || !strings.Contains(cur, "Third, by B.") || strings.Contains(cur, "First, by B.") {
			t.Fatalf("their version %s", cur)
		}
		if !strings.Contains(merged, "First, by B.") || !strings.Contains(merged, "Third, by B.") || strings.Contains(merged, "First, by A.") {
			t.Fatalf("the merge with B's text %s", merged)
		}
		// B saves the merge on the current revision: B's text where they
		// clashed, and every other change kept.
		b.postJSON(t, save, map[string]any{"document": conflict.Merged, "since": conflict.Current.Revision}, b.csrf).want(t, 200)
		got = pageDoc(t, s, w1.ID, sp, pageID)
		for _, want := range []string{"First, by B.", "Second.", "Third, by B."} {
			if !strings.Contains(got, want) {
				t.Fatalf("after the resolved save the page lacks %q:\n%s", want, got)
			}
		}

		// Inside a change request: the same merge of the head.
		var cr struct{ Number int }
		s.Do(t, admin, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Both"}).WantStatus(t, 201).JSON(t, &cr)
		crBase := "/s/" + sp + "/~/changes/" + strconv.Itoa(cr.Number) + "/pages/" + pageID
		sinceA = sinceRE.FindStringSubmatch(a.get(t, crBase+"/edit").want(t, 200).Body)[1]
		sinceB = sinceRE.FindStringSubmatch(b.get(t, crBase+"/edit").want(t, 200).Body)[1]
		a.postJSON(t, crBase+"/document", map[string]any{"document": withBlockText(t, got, first, "CR first."), "since": sinceA}, a.csrf).want(t, 200)
		b.postJSON(t, crBase+"/document", map[string]any{"document": withBlockText(t, got, third, "CR third."), "since": sinceB}, b.csrf).want(t, 200)
		b.postJSON(t, crBase+"/document", map[string]any{"document": withBlockText(t, got, first, "CR clash."), "since": sinceB}, b.csrf).
			want(t, 409, "in the same places", `"current"`, `"merged"`, "CR first.", "CR clash.")
		head, err := s.App.GetChangeRequest(context.Background(), folio.Caller{UserID: w1.ID}, sp, strconv.Itoa(cr.Number))
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.App.GetPageDocument(context.Background(), folio.Caller{UserID: w1.ID}, sp, head.Revision, pageID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(d), "CR first.") || !strings.Contains(string(d), "CR third.") || strings.Contains(string(d), "CR clash.") {
			t.Fatalf("change request page %s", d)
		}
		if live := pageDoc(t, s, w1.ID, sp, pageID); live != got {
			t.Fatalf("saves in a change request changed the live page:\n%s", live)
		}
	})
}
