package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// TestSearchPlanSkipsRankingForCommonTerms indexes 1,500 sections that all
// hold "alpha" and a few that hold "beta": a query for the common word is
// not ranked (and its last word not a prefix), a query for the rare one is.
func TestSearchPlanSkipsRankingForCommonTerms(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := newUser(t, db, "search@example.com")
		o := newOrg(t, db, u.ID, "")
		sp := folio.Space{ID: folio.NewID(), OrganizationID: o.ID, Title: "S", EditMode: "live", Visibility: "private",
			Revision: folio.NewID(), MergeRules: folio.MergeRules{Type: "inherit"}, DefaultLevel: folio.Level{Inherit: true}}
		var rows []store.SearchSection
		for i := range 1500 {
			body := "alpha gamma"
			if i%100 == 0 {
				body = "alpha beta"
			}
			rows = append(rows, store.SearchSection{SpaceID: sp.ID, PageID: fmt.Sprint("p", i), Title: "T", Body: body,
				Terms: [3]string{"", "t", body}})
		}
		err := db.Write(ctx, func(tx *store.Tx) error {
			sp.CreatedAt, sp.UpdatedAt = tx.Now, tx.Now
			if err := store.CreateSpace(ctx, tx, &sp); err != nil {
				return err
			}
			return store.PutSearchSections(ctx, tx, rows)
		})
		if err != nil {
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
