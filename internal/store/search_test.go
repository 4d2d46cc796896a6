package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestSearchPlanSkipsRankingForCommonTerms indexes 1,500 sections that all
// hold "alpha" and a few that hold "beta": a query for the common word is
// not ranked (and its last word not a prefix), a query for the rare one is.
func TestSearchPlanSkipsRankingForCommonTerms(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sp := newSpace(t, db, "search@example.com")
		var rows []store.SearchSection
		for i := range 1500 {
			body := "alpha gamma"
			if i%100 == 0 {
				body = "alpha beta"
			}
			rows = append(rows, store.SearchSection{SpaceID: sp.ID, PageID: fmt.Sprint("p", i), Title: "T", Body: body,
				Terms: [3]string{"", "t", body}})
		}
		if err := db.Write(ctx, func(tx *store.Tx) error { return store.PutSearchSections(ctx, tx, rows) }); err != nil {
			t.Fatal(err)
		}
		if err := db.AnalyzeContentIndex(ctx); err != nil {
			t.Fatal(err)
		}
		query := func(term string) store.SearchQuery {
			if db.SearchDialect() == "tsquery" {
				return store.SearchQuery{All: term + ":*", AllExact: term, Terms: []string{term}}
			}
			return store.SearchQuery{All: `"` + term + `"*`, AllExact: `"` + term + `"`, Terms: []string{term}}
		}
		for _, tt := range []struct {
			term           string
			ranked, prefix bool
			hits           int
		}{
			{"alpha", false, false, store.SearchCandidates},
			{"beta", true, true, 15},
		} {
			var res *store.SearchResult
			err := db.Read(ctx, func(tx *store.Tx) (err error) {
				res, err = store.Search(ctx, tx, []string{sp.ID}, query(tt.term))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Ranked != tt.ranked || res.Prefix != tt.prefix || len(res.All) != tt.hits {
				t.Errorf("%s: ranked %v prefix %v, %d hits; want %v %v %d", tt.term, res.Ranked, res.Prefix, len(res.All),
					tt.ranked, tt.prefix, tt.hits)
			}
		}
	})
}

// TestMergeContentIndex indexes sections in many small commits, each of
// which leaves a full-text index segment on SQLite: merging them changes no
// search result.
func TestMergeContentIndex(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sp := newSpace(t, db, "tidy@example.com")
		for c := range 60 {
			var rows []store.SearchSection
			for i := range 10 {
				body := fmt.Sprintf("common word%d", c*10+i)
				rows = append(rows, store.SearchSection{SpaceID: sp.ID, PageID: fmt.Sprint("p", c*10+i), Title: "T", Body: body,
					Terms: [3]string{"", "t", body}})
			}
			if err := db.Write(ctx, func(tx *store.Tx) error { return store.PutSearchSections(ctx, tx, rows) }); err != nil {
				t.Fatal(err)
			}
		}
		search := func() []string {
			t.Helper()
			var out []string
			for _, term := range []string{"common", "word7", "word599"} {
				q := store.SearchQuery{All: `"` + term + `"`, AllExact: `"` + term + `"`, Terms: []string{term}}
				if db.SearchDialect() == "tsquery" {
					q = store.SearchQuery{All: term, AllExact: term, Terms: []string{term}}
				}
				err := db.Read(ctx, func(tx *store.Tx) error {
					res, err := store.Search(ctx, tx, []string{sp.ID}, q)
					if err == nil {
						out = append(out, fmt.Sprintf("%s: %d", term, len(res.All)))
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			return out
		}
		before, segsBefore := search(), segments(t, db)
		steps, err := db.MergeContentIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		after, segsAfter := search(), segments(t, db)
		// Once tidy, the index has nothing left to merge.
		again, err := db.MergeContentIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if db.SearchDialect() == "fts5" && (steps < 1 || steps > 20 || again != 0) {
			t.Fatalf("merge steps: %d, then %d; want a few, then none", steps, again)
		}
		if fmt.Sprint(before) != fmt.Sprint(after) || fmt.Sprint(after) != "[common: 150 word7: 1 word599: 1]" {
			t.Fatalf("results before tidying %v, after %v", before, after)
		}
		if segsBefore >= 0 && (segsAfter >= segsBefore || segsAfter > 4) {
			t.Fatalf("%d segments before tidying, %d after; want fewer, at most 4", segsBefore, segsAfter)
		}
		t.Logf("segments: %d before, %d after (%d merge steps)", segsBefore, segsAfter, steps)
	})
}

func segments(t *testing.T, db *store.DB) int {
	t.Helper()
	n, err := store.FTSSegments(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
