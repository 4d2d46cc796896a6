package web_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

var replyRE = regexp.MustCompile(`<li class="reply" id="c-([A-Za-z0-9]+)">`)

// shownReplies lists, in page order, the ids of the replies a page shows.
func shownReplies(body string) []string {
	var out []string
	for _, m := range replyRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestCommentRepliesOnEveryView posts threads with replies on a live page
// (on a block and on the page), in a change request's diff and discussion,
// and checks that the page, the change request and the Comments tab show
// each thread's replies as ListReplies lists them, to a reader and an
// editor; and that a member of another organization gets 404 from each.
func TestCommentRepliesOnEveryView(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, pageID, crID := crFixture(t, s, org, adminTok)
		ctx, ac := context.Background(), folio.Caller{UserID: admin}
		live, crScope := app.CommentScope{Space: sp}, app.CommentScope{Space: sp, ChangeRequest: crID}
		editor, _ := member(t, s, org, folio.RoleEdit)
		reader, _ := member(t, s, org, folio.RoleRead)
		ec := folio.Caller{UserID: editor.ID}
		md := func(s string) *folio.CommentBody { return &folio.CommentBody{Markdown: &s} }
		for _, sc := range []app.CommentScope{live, crScope} {
			for i := range 4 {
				in := folio.NewComment{Body: md(fmt.Sprint("Thread ", i))}
				if i%2 == 0 {
					in.Page = pageID
				}
				c, err := s.App.PostComment(ctx, ac, sc, in)
				if err != nil {
					t.Fatal(err)
				}
				for j := range i {
					by := ac
					if j%2 == 1 {
						by = ec
					}
					if _, err := s.App.PostReply(ctx, by, sc, c.ID, md(fmt.Sprintf("Reply %d.%d", i, j)), folio.FormatMarkdown); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		// want lists a scope's replies thread by thread, as ListReplies
		// gives them, in the order the page shows threads (oldest first).
		want := func(sc app.CommentScope, f folio.CommentFilter) []string {
			l, err := s.App.ListComments(ctx, ac, sc, f, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, c := range l.Items {
				rs, err := s.App.ListReplies(ctx, ac, sc, c.ID, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rs.Items {
					out = append(out, r.ID)
				}
			}
			return out
		}
		views := []struct {
			path string
			want []string
		}{
			{"/s/" + sp + "/~/comments?status=all", want(live, folio.CommentFilter{})},
			{"/s/" + sp + "/~/comments?status=open&page=" + pageID, want(live, folio.CommentFilter{TargetPage: pageID})},
			{"/s/" + sp + "/guide", want(live, folio.CommentFilter{TargetPage: pageID})},
			{"/s/" + sp + "/~/changes/1", want(crScope, folio.CommentFilter{})},
		}
		for _, who := range []string{reader.Email, editor.Email} {
			b := signIn(t, s, who)
			for _, v := range views {
				if len(v.want) == 0 {
					t.Fatalf("%s: no replies to show: the fixture tests nothing", v.path)
				}
				p := b.get(t, v.path).want(t, 200)
				if got := shownReplies(p.Body); strings.Join(got, " ") != strings.Join(v.want, " ") {
					t.Errorf("%s as %s: replies %v, want %v", v.path, who, got, v.want)
				}
				for _, r := range []string{"Reply 1.0", "Reply 3.2"} {
					if !strings.Contains(p.Body, r) && v.path != "/s/"+sp+"/guide" && !strings.Contains(v.path, "page=") {
						t.Errorf("%s as %s lacks %q", v.path, who, r)
					}
				}
			}
		}
		org2, _ := s.Org(t)
		stranger, _ := member(t, s, org2, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		for _, v := range views {
			if p := sb.get(t, v.path).want(t, 404); strings.Contains(p.Body, "Reply 1.0") {
				t.Errorf("%s shows a reply to another organization's member", v.path)
			}
		}
	})
}

// TestEditAndDeleteComments edits and deletes comments and replies through
// the app's forms, on the live content and in a change request: their
// author may edit and delete them, an admin of the space may delete them
// but not edit them, and another member's or organization's attempts are
// refused with nothing changed and no control offered.
func TestEditAndDeleteComments(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, pageID, crID := crFixture(t, s, org, adminTok)
		author, _ := member(t, s, org, folio.RoleComment)
		other, _ := member(t, s, org, folio.RoleComment)
		ab, ob := signIn(t, s, author.Email), signIn(t, s, other.Email)
		for _, tc := range []struct {
			name  string
			scope app.CommentScope
			page  string // where the thread shows
			base  string
		}{
			{"live", app.CommentScope{Space: sp}, "/s/" + sp + "/~/comments", "/s/" + sp + "/~/comments"},
			{"change request", app.CommentScope{Space: sp, ChangeRequest: crID}, "/s/" + sp + "/~/changes/1", "/s/" + sp + "/~/changes/1/comments"},
		} {
			ab.post(t, tc.base, url.Values{"markdown": {"First *draft*"}, "page": {pageID}, "back": {tc.page}})
			id, _ := onlyComment(t, s, admin, tc.scope)
			c := tc.base + "/" + id
			ab.post(t, c+"/reply", url.Values{"markdown": {"A reply"}, "back": {tc.page}})
			ob.post(t, c+"/reply", url.Values{"markdown": {"Their reply"}, "back": {tc.page}})
			_, replies := onlyComment(t, s, admin, tc.scope)
			mine, theirs := replies[0], replies[1]
			wantState(t, threadState(t, s, admin, tc.scope), `"First *draft*" open page=`+pageID+` node= [] / reply "A reply" [] / reply "Their reply" []`)

			// The author is offered Edit and Delete on their own comment
			// and reply, labelled, with the body to edit; not on others'.
			p := ab.get(t, tc.page).want(t, 200,
				`<summary aria-label="Edit comment by `+author.DisplayName+`">Edit</summary>`,
				`<form method="post" action="`+c+`/edit" class="stack">`,
				`<label for="c-`+id+`-edit">Edit your comment</label>`,
				`<textarea id="c-`+id+`-edit" name="markdown" rows="3" required maxlength="20000">First *draft*</textarea>`,
				`<summary aria-label="Delete comment by `+author.DisplayName+`">Delete</summary>`,
				`<form method="post" action="`+c+`/delete" class="stack">`,
				`Delete this comment and its replies? This cannot be undone.`,
				`<form method="post" action="`+c+`/replies/`+mine+`/edit" class="stack">`,
				`<label for="c-`+mine+`-edit">Edit your reply</label>`,
				`<form method="post" action="`+c+`/replies/`+mine+`/delete" class="stack">`)
			if strings.Contains(p.Body, c+"/replies/"+theirs+"/edit") || strings.Contains(p.Body, c+"/replies/"+theirs+"/delete") {
				t.Fatalf("%s: the author is offered controls on another member's reply", tc.name)
			}
			p = ob.get(t, tc.page).want(t, 200, `action="`+c+`/replies/`+theirs+`/edit"`)
			for _, no := range []string{c + "/edit", c + "/delete", c + "/replies/" + mine + "/edit", c + "/replies/" + mine + "/delete"} {
				if strings.Contains(p.Body, `action="`+no+`"`) {
					t.Fatalf("%s: another member is offered %s", tc.name, no)
				}
			}

			// Another member's forged attempts are refused; nothing changes.
			before := threadState(t, s, admin, tc.scope)
			for _, f := range []struct {
				path string
				form url.Values
				msg  string
			}{
				{c + "/edit", url.Values{"markdown": {"Hijacked"}}, "only the author can edit it"},
				{c + "/delete", nil, "only the author or an admin of the space can delete it"},
				{c + "/replies/" + mine + "/edit", url.Values{"markdown": {"Hijacked"}}, "only the author can edit it"},
				{c + "/replies/" + mine + "/delete", nil, "only the author or an admin of the space can delete it"},
			} {
				ob.post(t, f.path, f.form).want(t, 403, f.msg)
			}
			// A blank edit is refused too; so is a form without the CSRF token.
			ab.post(t, c+"/edit", url.Values{"markdown": {"  "}}).want(t, 400, "the comment is empty")
			ab.post(t, c+"/delete", url.Values{"csrf": {"forged"}}).want(t, 403)
			org2, _ := s.Org(t)
			stranger, _ := member(t, s, org2, folio.RoleAdmin)
			sb := signIn(t, s, stranger.Email)
			sb.post(t, c+"/edit", url.Values{"markdown": {"Hijacked"}}).want(t, 404)
			sb.post(t, c+"/delete", nil).want(t, 404)
			wantState(t, threadState(t, s, admin, tc.scope), before)

			// The author edits their comment and reply.
			ab.post(t, c+"/edit", url.Values{"markdown": {"Second **version**"}, "back": {tc.page}}).redirect(t, tc.page+"#c-"+id)
			ab.post(t, c+"/replies/"+mine+"/edit", url.Values{"markdown": {"An edited reply"}, "back": {tc.page}}).
				redirect(t, tc.page+"#c-"+mine)
			wantState(t, threadState(t, s, admin, tc.scope), `"Second **version**" open page=`+pageID+` node= [] / reply "An edited reply" [] / reply "Their reply" []`)
			ab.get(t, tc.page).want(t, 200, "Second <strong>version</strong>", "An edited reply", " · edited</p>")

			// An admin of the space may delete, not edit: they see Delete only.
			adm := newAdminBrowser(t, s, admin)
			p = adm.get(t, tc.page).want(t, 200, `action="`+c+`/delete"`, `action="`+c+`/replies/`+theirs+`/delete"`)
			if strings.Contains(p.Body, `action="`+c+`/edit"`) {
				t.Fatalf("%s: an admin is offered to edit another's comment", tc.name)
			}
			adm.post(t, c+"/edit", url.Values{"markdown": {"By the admin"}}).want(t, 403, "only the author can edit it")
			adm.post(t, c+"/replies/"+theirs+"/delete", url.Values{"back": {tc.page}}).redirect(t, tc.page+"#c-"+id)
			wantState(t, threadState(t, s, admin, tc.scope), `"Second **version**" open page=`+pageID+` node= [] / reply "An edited reply" []`)

			// The author deletes their reply, then the comment.
			ab.post(t, c+"/replies/"+mine+"/delete", url.Values{"back": {tc.page}}).redirect(t, tc.page+"#c-"+id)
			wantState(t, threadState(t, s, admin, tc.scope), `"Second **version**" open page=`+pageID+` node= []`)
			ab.post(t, c+"/delete", url.Values{"back": {tc.page}}).redirect(t, tc.page)
			wantState(t, threadState(t, s, admin, tc.scope), "")
			if p := ab.get(t, tc.page).want(t, 200); strings.Contains(p.Body, "Second <strong>version</strong>") {
				t.Fatalf("%s: the deleted comment still shows", tc.name)
			}
		}
	})
}

// newAdminBrowser signs in the organization's admin (made by s.Org, with no
// password yet).
func newAdminBrowser(t *testing.T, s *apitest.Server, admin folio.ID) *browser {
	t.Helper()
	u, err := s.App.GetUser(context.Background(), folio.Caller{UserID: admin}, admin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.App.SetPassword(context.Background(), u.Email, password); err != nil {
		t.Fatal(err)
	}
	return signIn(t, s, u.Email)
}
