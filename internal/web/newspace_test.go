package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
)

// spaceTitles lists the titles of the spaces of org the user sees, with
// the collection of each ("title@collection").
func spaceTitles(t *testing.T, s *apitest.Server, user, org folio.ID) string {
	t.Helper()
	l, err := s.App.ListSpaces(context.Background(), folio.Caller{UserID: user}, org, "", folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sp := range l.Items {
		out = append(out, sp.Title+"@"+sp.Parent)
	}
	return strings.Join(out, ",")
}

// TestNewSpace: members who may create content get a "New space" form on
// the organization's page (title, collection) and on a collection's page;
// it creates the space through app.CreateSpace and lands on it, which
// offers "New page". Others get no form and are refused.
func TestNewSpace(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, admin := s.Org(t)
		creator, _ := member(t, s, org, folio.RoleCreate)
		ed, _ := member(t, s, org, folio.RoleEdit)
		var guides, inner struct{ ID string }
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}).WantStatus(t, 201).JSON(t, &guides)
		s.Do(t, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Inner", "parent": guides.ID}).WantStatus(t, 201).JSON(t, &inner)

		// The organization's page: title and collection, nested ones indented.
		b := signIn(t, s, creator.Email)
		b.get(t, "/o/"+org).want(t, 200, "<summary>New space</summary>", `action="/o/`+org+`/spaces"`,
			`<label for="space-title">Title</label>`, `<label for="space-parent">Collection</label>`,
			`<option value="">No collection (top level)</option>`, `<option value="`+guides.ID+`">Guides</option>`,
			`<option value="`+inner.ID+`">– Inner</option>`)
		p := b.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Runbooks"}})
		loc := p.Header.Get("Location")
		if p.Status != 303 || !strings.HasPrefix(loc, "/s/") {
			t.Fatalf("create: %d to %q", p.Status, loc)
		}
		b.get(t, loc).want(t, 200, "Runbooks", `<label for="new-title">New page</label>`, "This space has no pages yet")
		// A page added there: the new space works like any other.
		b.post(t, loc+"/~/pages", url.Values{"title": {"First"}}).want(t, 303)
		b.get(t, loc+"/first").want(t, 200, "First")
		b.post(t, "/o/"+org+"/spaces", url.Values{"title": {"API"}, "parent": {inner.ID}}).want(t, 303)
		if got, want := spaceTitles(t, s, creator.ID, org), "Runbooks@,API@"+inner.ID; got != want {
			t.Fatalf("spaces %q, want %q", got, want)
		}

		// A collection's page posts into that collection.
		b.get(t, "/c/"+guides.ID).want(t, 200, "<summary>New space</summary>", `<input type="hidden" name="parent" value="`+guides.ID+`">`)
		b.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Tutorials"}, "parent": {guides.ID}}).want(t, 303)

		// Bad input: a message, nothing created.
		before := spaceTitles(t, s, creator.ID, org)
		b.post(t, "/o/"+org+"/spaces", url.Values{"title": {"   "}}).want(t, 400, "title must be 1 to 50 characters")
		b.post(t, "/o/"+org+"/spaces", url.Values{"title": {strings.Repeat("x", 51)}}).want(t, 400, "title must be 1 to 50 characters")
		b.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Lost"}, "parent": {"nosuchcollection"}}).want(t, 400, "not found")

		// An editor may create nothing: no form, refused.
		e := signIn(t, s, ed.Email)
		for _, path := range []string{"/o/" + org, "/c/" + guides.ID} {
			if p := e.get(t, path).want(t, 200, "Guides"); strings.Contains(p.Body, "New space") {
				t.Fatalf("an editor is offered New space on %s", path)
			}
		}
		e.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Forged"}}).want(t, 403, "create role")
		e.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Forged"}, "parent": {guides.ID}}).want(t, 403)
		// Granted create on one collection: offered that one only.
		s.Do(t, admin, "POST", "/v1/collections/"+inner.ID+"/permissions", map[string]any{"role": "create", "users": []string{ed.ID}}).WantStatus(t, 204)
		p = e.get(t, "/o/"+org).want(t, 200, "<summary>New space</summary>", `<input type="hidden" name="parent" value="`+inner.ID+`">`)
		if strings.Contains(p.Body, "top level") || strings.Contains(p.Body, `<option value="`+guides.ID) {
			t.Fatalf("an editor with create on one collection is offered more:\n%s", p.Body)
		}
		e.post(t, "/o/"+org+"/spaces", url.Values{"title": {"Forged"}}).want(t, 403)
		// Another organization's admin does not learn it exists.
		other, _ := s.Org(t)
		stranger, _ := member(t, s, other, folio.RoleAdmin)
		signIn(t, s, stranger.Email).post(t, "/o/"+org+"/spaces", url.Values{"title": {"Forged"}}).want(t, 404)
		if got := spaceTitles(t, s, creator.ID, org); got != before {
			t.Fatalf("refused creations changed the spaces: %q, was %q", got, before)
		}
	})
}
