package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/store/storetest"
)

// BenchmarkChangeRequestMerge merges a change request that edits 10 pages
// (one block each) of a space of n pages of about 500 words (ten
// paragraphs of 50) into which one other page was edited meanwhile, on
// each store. Only the merge is timed; p50-ms and p90-ms report the
// median and 90th percentile of the merges (bench/merge-tree.sh times git
// on the same shape).
func BenchmarkChangeRequestMerge(b *testing.B) {
	for _, kind := range storetest.Stores(b) {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("store=%s/pages=%d", kind, n), func(b *testing.B) { benchmarkMerge(b, kind, n) })
		}
	}
}

// benchParagraphs returns a page's ten paragraphs of 50 words, the last
// one text.
func benchParagraphs(id, text string) []string {
	ps := make([]string, 10)
	for i := range ps {
		words := make([]string, 50)
		for w := range words {
			words[w] = fmt.Sprintf("%s-w%d-%d", id, i, w)
		}
		ps[i] = strings.Join(words, " ")
	}
	if text != "" {
		ps[len(ps)-1] = text
	}
	return ps
}

func benchmarkMerge(b *testing.B, kind string, n int) {
	ctx := context.Background()
	a := New(Config{DB: storetest.Open(b, kind, store.Config{})})
	acc, err := a.CreateAccount(ctx, NewAccount{Email: "bench@example.com", Name: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	caller := folio.Caller{UserID: acc.User.ID}
	org, _ := a.CreateOrganization(ctx, caller, folio.NewOrganization{Title: "Org"})
	sv, err := a.CreateSpace(ctx, caller, org.ID, folio.NewSpace{Title: "Big"})
	if err != nil {
		b.Fatal(err)
	}
	fan := 100
	_, err = a.commit(ctx, caller, sv.ID, edit{check: requireEditable, typ: folio.RevisionEdits,
		build: func(base *Content) (*content.Snapshot, error) {
			docs := map[content.Hash]*content.Document{}
			mk := func(id string, kids []*content.Page) *content.Page {
				d := doc(benchParagraphs(id, "")...)
				h := content.HashDocument(d)
				docs[h] = d
				return &content.Page{ID: id, Type: content.PageDocument, Title: id, Document: h, Pages: kids}
			}
			tr := &content.Tree{}
			for i := range n / fan {
				var kids []*content.Page
				for j := range fan - 1 {
					kids = append(kids, mk(fmt.Sprintf("p%d-%d", i, j), nil))
				}
				tr.Pages = append(tr.Pages, mk(fmt.Sprintf("p%d", i), kids))
			}
			return &content.Snapshot{Tree: tr, Documents: docs}, nil
		}})
	if err != nil {
		b.Fatal(err)
	}
	edits := func(ids []string, text string) func(*Content) (*content.Snapshot, error) {
		return func(base *Content) (*content.Snapshot, error) {
			tr := base.Tree
			docs := map[content.Hash]*content.Document{}
			for _, id := range ids {
				d := doc(benchParagraphs(id, text)...)
				h := content.HashDocument(d)
				docs[h] = d
				var err error
				if tr, err = tr.EditAt(base.chain(id), id, func(p *content.Page) { p.Document = h }); err != nil {
					return nil, err
				}
			}
			return &content.Snapshot{Tree: tr, Documents: docs}, nil
		}
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		v, err := a.CreateChangeRequest(ctx, caller, sv.ID, folio.NewChangeRequest{})
		if err != nil {
			b.Fatal(err)
		}
		var ids []string
		for k := range 10 {
			ids = append(ids, fmt.Sprintf("p%d-%d", (k*7+i)%(n/fan), k))
		}
		if _, err := a.commitChangeRequest(ctx, caller, sv.ID, v.ID, "", edits(ids, fmt.Sprint("cr ", i))); err != nil {
			b.Fatal(err)
		}
		if _, err := a.commit(ctx, caller, sv.ID, edit{check: requireEditable, typ: folio.RevisionEdits,
			build: edits([]string{fmt.Sprintf("p%d-50", i%(n/fan))}, fmt.Sprint("live ", i))}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := a.MergeChangeRequest(ctx, caller, sv.ID, v.ID); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(times[len(times)*9/10])/1e6, "p90-ms")
}
