package folio_test

import (
	"strings"
	"testing"

	"github.com/foliodocs/folio"
)

func TestCommentPerms(t *testing.T) {
	for _, tt := range []struct {
		role   folio.Role
		locked bool
		author bool
		want   folio.CommentPermissions
	}{
		{folio.RoleAdmin, false, false, folio.CommentPermissions{View: true, Reply: true, Delete: true}},
		{folio.RoleAdmin, true, true, folio.CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
		{folio.RoleEdit, false, false, folio.CommentPermissions{View: true, Reply: true}},
		{folio.RoleComment, false, true, folio.CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
		// A locked space still takes comments.
		{folio.RoleComment, true, true, folio.CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
		// An author who may no longer comment neither edits nor deletes.
		{folio.RoleRead, false, true, folio.CommentPermissions{View: true}},
		{folio.RoleRead, false, false, folio.CommentPermissions{View: true}},
		{folio.RoleGuest, false, true, folio.CommentPermissions{}},
	} {
		mode := folio.EditModeLive
		if tt.locked {
			mode = folio.EditModeLocked
		}
		if got := folio.CommentPerms(folio.SpacePerms(tt.role, mode), tt.author); got != tt.want {
			t.Errorf("%q locked=%v author=%v: %+v, want %+v", tt.role, tt.locked, tt.author, got, tt.want)
		}
	}
}

func TestCommentValidate(t *testing.T) {
	body := &folio.CommentBody{}
	for _, tt := range []struct {
		name string
		err  error
		want string // "" for valid
	}{
		{"body/missing", (&folio.NewComment{}).Validate(), "body is required"},
		{"body/present", (&folio.NewComment{Body: body}).Validate(), ""},
		{"node/longest", (&folio.NewComment{Body: body, Node: strings.Repeat("n", 100)}).Validate(), ""},
		{"node/too long", (&folio.NewComment{Body: body, Node: strings.Repeat("n", 101)}).Validate(), "node must be at most 100"},
		{"page/too long", (&folio.NewComment{Body: body, Page: strings.Repeat("p", 101)}).Validate(), "page must be at most 100"},
		{"tableCell/no definition", (&folio.NewComment{Body: body, TableCell: &folio.TableCell{Record: "r"}}).Validate(), "needs a record and a definition"},
		{"tableCell/too long", (&folio.NewComment{Body: body, TableCell: &folio.TableCell{Record: "r", Definition: strings.Repeat("d", 101)}}).Validate(), "at most 100"},
		{"markdown/blank", folio.ValidateMarkdown("body.markdown", " \n"), "body.markdown must not be blank"},
		{"markdown/longest", folio.ValidateMarkdown("body.markdown", strings.Repeat("é", folio.MaxCommentBody)), ""},
		{"markdown/too long", folio.ValidateMarkdown("body.markdown", strings.Repeat("é", folio.MaxCommentBody+1)), "at most 20000"},
		{"reactions/most", (&folio.CommentUpdate{AddedReactions: make20("👍")}).Validate(), ""},
		{"reactions/too many", (&folio.CommentUpdate{AddedReactions: append(make20("👍"), "x")}).Validate(), "at most 20"},
		{"reactions/removed too many", (&folio.CommentUpdate{RemovedReactions: append(make20("👍"), "x")}).Validate(), "removedReactions may hold"},
		{"reactions/emoji longest", (&folio.CommentUpdate{AddedReactions: []string{strings.Repeat("x", 50)}}).Validate(), ""},
		{"reactions/emoji too long", (&folio.CommentUpdate{AddedReactions: []string{strings.Repeat("x", 51)}}).Validate(), "1 to 50"},
		{"reactions/emoji empty", (&folio.CommentUpdate{RemovedReactions: []string{""}}).Validate(), "1 to 50"},
		{"filter/status all", (&folio.CommentFilter{Status: "all"}).Validate(), ""},
		{"filter/status resolved", (&folio.CommentFilter{Status: "resolved"}).Validate(), ""},
		{"filter/status unknown", (&folio.CommentFilter{Status: "closed"}).Validate(), "status must be"},
		{"filter/authors most", (&folio.CommentFilter{Authors: make([]folio.ID, 100)}).Validate(), ""},
		{"filter/authors too many", (&folio.CommentFilter{Authors: make([]folio.ID, 101)}).Validate(), "at most 100"},
	} {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%s: %v", tt.name, tt.err)
		case tt.want != "" && (tt.err == nil || folio.KindOf(tt.err) != folio.Invalid || !strings.Contains(tt.err.Error(), tt.want)):
			t.Errorf("%s: %v, want an Invalid error with %q", tt.name, tt.err, tt.want)
		}
	}
}

func make20(e string) []string {
	out := make([]string, 20)
	for i := range out {
		out[i] = e
	}
	return out
}

func TestParseCommentFormat(t *testing.T) {
	for in, want := range map[string]string{"": "markdown", "markdown": "markdown", "document": "document"} {
		if got, err := folio.ParseCommentFormat(in); err != nil || got != want {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	if _, err := folio.ParseCommentFormat("html"); folio.KindOf(err) != folio.Invalid {
		t.Errorf("html: %v", err)
	}
}
