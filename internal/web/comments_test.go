package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/apitest"
	"github.com/foliodocs/folio/internal/app"
)

// threadState summarises every comment of a scope as an admin sees it:
// body, status, reactions and replies (with theirs), oldest first, so a
// refused form can be checked to change nothing.
func threadState(t *testing.T, s *apitest.Server, admin folio.ID, scope app.CommentScope) string {
	t.Helper()
	ctx, caller := context.Background(), folio.Caller{UserID: admin}
	l, err := s.App.ListComments(ctx, caller, scope, folio.CommentFilter{}, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	react := func(c folio.CommentView) string {
		var out []string
		for _, r := range c.Reactions {
			out = append(out, fmt.Sprintf("%s%d", r.Emoji, len(r.Users)))
		}
		return strings.Join(out, " ")
	}
	var out []string
	for _, c := range l.Items {
		line := fmt.Sprintf("%q %s page=%s node=%s [%s]", strings.TrimSpace(c.Markdown), c.Status, c.Target.Page, c.Target.Node, react(c))
		rs, err := s.App.ListReplies(ctx, caller, scope, c.ID, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs.Items {
			line += fmt.Sprintf(" / reply %q [%s]", strings.TrimSpace(r.Markdown), react(r))
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// onlyComment returns the id of the single comment of a scope.
func onlyComment(t *testing.T, s *apitest.Server, admin folio.ID, scope app.CommentScope) (comment folio.ID, replies []folio.ID) {
	t.Helper()
	ctx, caller := context.Background(), folio.Caller{UserID: admin}
	l, err := s.App.ListComments(ctx, caller, scope, folio.CommentFilter{}, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 1 {
		t.Fatalf("%d comments, want 1", len(l.Items))
	}
	rs, err := s.App.ListReplies(ctx, caller, scope, l.Items[0].ID, folio.FormatMarkdown, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Items {
		replies = append(replies, r.ID)
	}
	return l.Items[0].ID, replies
}

var blockLinkRE = regexp.MustCompile(`href="([^"]*\?comment=([A-Za-z0-9]+)[^"]*)#c-form" aria-label="Comment on this block"`)

// blockKeys lists the block keys a page offers "Comment on this block" for.
func blockKeys(t *testing.T, body string) []string {
	t.Helper()
	var out []string
	for _, m := range blockLinkRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[2])
	}
	return out
}

func wantState(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("comments:\n%s\nwant:\n%s", got, want)
	}
}

// TestBlockCommentThreadsOnLivePage walks one thread on a block of a
// live page through every form: post, reply, react and unreact (on the
// comment and on a reply), resolve, reopen; and the Comments tab's
// filters.
func TestBlockCommentThreadsOnLivePage(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		u, _ := member(t, s, org, folio.RoleComment)
		sp := space(t, s, org, adminTok, "Handbook", "# Guide\n\nFirst paragraph.\n\nSecond paragraph.\n")
		scope := app.CommentScope{Space: sp}
		c, _ := s.App.GetContent(context.Background(), folio.Caller{UserID: admin}, sp, "")
		pageID := c.Tree.Pages[0].ID
		b := signIn(t, s, u.Email)
		pagePath := "/s/" + sp + "/guide"

		p := b.get(t, pagePath).want(t, 200, "First paragraph.", "Second paragraph.")
		keys := blockKeys(t, p.Body)
		if len(keys) != 2 {
			t.Fatalf("blocks offering a comment: %v\n%s", keys, p.Body)
		}
		if strings.Contains(p.Body, `id="c-form"`) {
			t.Fatal("the block form shows before it is asked for")
		}
		// The control opens the form beside its block, without JavaScript.
		p = b.get(t, pagePath+"?comment="+keys[1]).want(t, 200,
			`<form method="post" action="/s/`+sp+`/~/comments" class="stack card comment-form" id="c-form">`,
			`<input type="hidden" name="page" value="`+pageID+`"><input type="hidden" name="node" value="`+keys[1]+`">`,
			`<label for="c-form-body">Comment on this block</label>`)
		if i, j := strings.Index(p.Body, "Second paragraph."), strings.Index(p.Body, `id="c-form"`); i < 0 || j < i {
			t.Fatal("the form is not after its block")
		}

		// Blank: refused, nothing posted.
		b.post(t, "/s/"+sp+"/~/comments", url.Values{"markdown": {"  "}, "page": {pageID}, "node": {keys[1]}, "back": {pagePath}}).
			want(t, 400, "the comment is empty")
		wantState(t, threadState(t, s, admin, scope), "")

		b.post(t, "/s/"+sp+"/~/comments", url.Values{"markdown": {"Is this **still** true?"}, "page": {pageID}, "node": {keys[1]},
			"back": {pagePath}})
		id, _ := onlyComment(t, s, admin, scope)
		wantState(t, threadState(t, s, admin, scope), `"Is this **still** true?" open page=`+pageID+` node=`+keys[1]+` []`)
		p = b.get(t, pagePath).want(t, 200, `<p>Second paragraph.</p>
<div class="block-comments" id="b-`+keys[1]+`">`,
			`<a class="badge" href="#c-`+id+`">1 comment</a>`, `<article class="card comment thread" id="c-`+id+`"`,
			"Is this <strong>still</strong> true?", `<label for="c-`+id+`-reply">Reply to `+u.DisplayName+`</label>`)
		if i, j := strings.Index(p.Body, "Second paragraph."), strings.Index(p.Body, `id="c-`+id+`"`); j < i {
			t.Fatal("the thread is not under its block")
		}

		base := "/s/" + sp + "/~/comments/" + id
		b.post(t, base+"/reply", url.Values{"markdown": {"Yes, checked today."}, "back": {pagePath}})
		_, replies := onlyComment(t, s, admin, scope)
		if len(replies) != 1 {
			t.Fatalf("replies %v", replies)
		}
		b.post(t, base+"/react", url.Values{"emoji": {"👍"}, "back": {pagePath}}).redirect(t, pagePath+"#c-"+id)
		b.post(t, base+"/replies/"+replies[0]+"/react", url.Values{"emoji": {"🎉"}, "back": {pagePath}}).
			redirect(t, pagePath+"#c-"+replies[0])
		wantState(t, threadState(t, s, admin, scope), `"Is this **still** true?" open page=`+pageID+` node=`+keys[1]+
			` [👍1] / reply "Yes, checked today." [🎉1]`)
		b.get(t, pagePath).want(t, 200, "Yes, checked today.",
			`formaction="`+base+`/unreact" aria-pressed="true" aria-label="thumbs up: 1, including you"`,
			`formaction="`+base+`/replies/`+replies[0]+`/unreact" aria-pressed="true" aria-label="hooray: 1, including you"`,
			`formaction="`+base+`/react" aria-pressed="false" aria-label="heart: 0"`)
		b.post(t, base+"/unreact", url.Values{"emoji": {"👍"}, "back": {pagePath}}).redirect(t, pagePath+"#c-"+id)
		b.post(t, base+"/replies/"+replies[0]+"/unreact", url.Values{"emoji": {"🎉"}, "back": {pagePath}})
		wantState(t, threadState(t, s, admin, scope), `"Is this **still** true?" open page=`+pageID+` node=`+keys[1]+
			` [] / reply "Yes, checked today." []`)

		// Resolved, the thread folds away under its block and leaves the
		// Comments tab's open list for its resolved one.
		b.post(t, base+"/resolve", url.Values{"back": {pagePath}}).redirect(t, pagePath+"#c-"+id)
		if st := threadState(t, s, admin, scope); !strings.Contains(st, " resolved ") {
			t.Fatalf("after resolve: %s", st)
		}
		p = b.get(t, pagePath).want(t, 200, `<details class="resolved-threads"><summary>1 resolved comment</summary>`,
			`Resolved by `+u.DisplayName, `action="`+base+`/reopen"`)
		if strings.Contains(p.Body, `class="badge" href="#c-`) {
			t.Fatal("a resolved thread still counts on its block")
		}
		b.get(t, "/s/"+sp+"/~/comments").want(t, 200, `<a href="/s/`+sp+`/~/comments?status=open" aria-current="page">Open</a>`,
			"No open comments.")
		b.get(t, "/s/"+sp+"/~/comments?status=resolved").want(t, 200, `id="c-`+id+`"`, "Yes, checked today.",
			`<a href="/s/`+sp+`/guide">Guide</a>`)
		b.get(t, "/s/"+sp+"/~/comments?status=resolved&page=nope").want(t, 200, "No resolved comments.")
		b.get(t, "/s/"+sp+"/~/comments?status=nope").want(t, 400, "status must be open, resolved or all")
		back := "/s/" + sp + "/~/comments?status=resolved"
		b.post(t, base+"/reopen", url.Values{"back": {back}}).redirect(t, back+"#c-"+id)
		if st := threadState(t, s, admin, scope); !strings.Contains(st, " open ") {
			t.Fatalf("after reopen: %s", st)
		}
		b.get(t, "/s/"+sp+"/~/comments?status=open&page="+pageID).want(t, 200, `id="c-`+id+`"`)

		// A general comment from the tab; a "back" outside the space is
		// not followed.
		b.post(t, "/s/"+sp+"/~/comments", url.Values{"markdown": {"General remark"}, "back": {"https://evil.example/"}}).
			redirect(t, "/s/"+sp+"/~/comments#c-"+firstID(t, s, admin, scope, "General remark"))
		b.post(t, base+"/frobnicate", url.Values{}).want(t, 404)
		b.post(t, base+"/replies/"+replies[0]+"/resolve", url.Values{}).want(t, 404)
	})
}

// firstID returns the id of the comment of a scope with this body.
func firstID(t *testing.T, s *apitest.Server, admin folio.ID, scope app.CommentScope, md string) folio.ID {
	t.Helper()
	l, err := s.App.ListComments(context.Background(), folio.Caller{UserID: admin}, scope, folio.CommentFilter{},
		folio.FormatMarkdown, folio.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Items {
		if strings.TrimSpace(c.Markdown) == md {
			return c.ID
		}
	}
	t.Fatalf("no comment %q", md)
	return ""
}

// crFixture makes a space whose change request #1 rewrites one paragraph
// of its page: the diff shows "Keep this." kept, "Old line." removed and
// "New line." added.
func crFixture(t *testing.T, s *apitest.Server, org folio.ID, adminTok string) (sp folio.ID, pageID string, crID folio.ID) {
	t.Helper()
	sp = space(t, s, org, adminTok, "Handbook", "# Guide\n\nKeep this.\n\nOld line.\n")
	var cr struct{ ID, Number any }
	s.Do(t, adminTok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Rewrite"}).WantStatus(t, 201).JSON(t, &cr)
	c, err := s.App.GetContent(context.Background(), folio.Caller{UserID: userOf(t, s, adminTok)}, sp, "")
	if err != nil {
		t.Fatal(err)
	}
	pageID = c.Tree.Pages[0].ID
	md := "# Guide\n\nKeep this.\n\nNew line.\n"
	s.Do(t, adminTok, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/1/content/page/%s/import", sp, pageID),
		map[string]any{"source": "markdown", "url": "data:text/markdown;base64," + base64.StdEncoding.EncodeToString([]byte(md))}).WantStatus(t, 201)
	return sp, pageID, cr.ID.(string)
}

// TestChangeRequestBlockComments comments on a block of a change
// request's page diff and runs the thread's forms under /~/changes/1.
func TestChangeRequestBlockComments(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		u, _ := member(t, s, org, folio.RoleReview)
		sp, pageID, crID := crFixture(t, s, org, adminTok)
		scope := app.CommentScope{Space: sp, ChangeRequest: crID}
		b := signIn(t, s, u.Email)
		crPath := "/s/" + sp + "/~/changes/1"
		p := b.get(t, crPath).want(t, 200, `<div class="blk blk-same"><p>Keep this.</p>`)
		keys := blockKeys(t, p.Body)
		if len(keys) != 2 { // kept and added; a removed block takes no comment
			t.Fatalf("blocks offering a comment: %v", keys)
		}
		if !strings.Contains(p.Body, `href="`+crPath+`?comment=`+keys[1]+`&amp;page=`+pageID+`#c-form"`) {
			t.Fatalf("the added block's control:\n%s", p.Body)
		}
		p = b.get(t, crPath+"?comment="+keys[1]+"&page="+pageID).want(t, 200,
			`<form method="post" action="`+crPath+`/comments" class="stack card comment-form" id="c-form">`)
		if i, j := strings.Index(p.Body, "New line."), strings.Index(p.Body, `id="c-form"`); i < 0 || j < i {
			t.Fatal("the form is not after its block")
		}
		b.post(t, crPath+"/comments", url.Values{"markdown": {"Why new?"}, "page": {pageID}, "node": {keys[1]}, "back": {crPath}})
		id, _ := onlyComment(t, s, admin, scope)
		base := crPath + "/comments/" + id
		b.post(t, base+"/reply", url.Values{"markdown": {"Because."}, "back": {crPath}})
		_, replies := onlyComment(t, s, admin, scope)
		b.post(t, base+"/react", url.Values{"emoji": {"👀"}, "back": {crPath}}).redirect(t, crPath+"#c-"+id)
		b.post(t, base+"/replies/"+replies[0]+"/react", url.Values{"emoji": {"❤️"}, "back": {crPath}})
		wantState(t, threadState(t, s, admin, scope), `"Why new?" open page=`+pageID+` node=`+keys[1]+` [👀1] / reply "Because." [❤️1]`)
		p = b.get(t, crPath).want(t, 200, `<a class="badge" href="#c-`+id+`">1 comment</a>`, "Why new?", "Because.")
		if i, j, k := strings.Index(p.Body, "New line."), strings.Index(p.Body, `id="c-`+id+`"`), strings.Index(p.Body, `id="discussion"`); !(i < j && j < k) {
			t.Fatal("the thread is not under its block in the diff")
		}
		// The live space's comments are another set.
		wantState(t, threadState(t, s, admin, app.CommentScope{Space: sp}), "")
		b.post(t, base+"/unreact", url.Values{"emoji": {"👀"}, "back": {crPath}})
		b.post(t, base+"/replies/"+replies[0]+"/unreact", url.Values{"emoji": {"❤️"}, "back": {crPath}})
		b.post(t, base+"/resolve", url.Values{"back": {crPath}}).redirect(t, crPath+"#c-"+id)
		wantState(t, threadState(t, s, admin, scope), `"Why new?" resolved page=`+pageID+` node=`+keys[1]+` [] / reply "Because." []`)
		b.get(t, crPath).want(t, 200, "1 resolved comment", `action="`+base+`/reopen"`)
		b.post(t, base+"/reopen", url.Values{"back": {crPath}}).redirect(t, crPath+"#c-"+id)
		wantState(t, threadState(t, s, admin, scope), `"Why new?" open page=`+pageID+` node=`+keys[1]+` [] / reply "Because." []`)

		// A general comment goes to the discussion; a change request of
		// another number is 404.
		b.post(t, crPath+"/comments", url.Values{"markdown": {"Looks fine overall."}, "back": {crPath}})
		p = b.get(t, crPath).want(t, 200, "Looks fine overall.")
		if strings.Index(p.Body, "Looks fine overall.") < strings.Index(p.Body, `id="discussion"`) {
			t.Fatal("the general comment is not in the discussion")
		}
		b.post(t, "/s/"+sp+"/~/changes/9/comments", url.Values{"markdown": {"x"}}).want(t, 404)
	})
}

// TestCommentFormsRefused: a reader sees no comment control and every
// forged form is refused with nothing changed; so are members of another
// organization.
func TestCommentFormsRefused(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, pageID, crID := crFixture(t, s, org, adminTok)
		live, crScope := app.CommentScope{Space: sp}, app.CommentScope{Space: sp, ChangeRequest: crID}
		ctx := context.Background()
		md := "A question"
		var ids [2]folio.ID
		for i, sc := range []app.CommentScope{live, crScope} {
			v, err := s.App.PostComment(ctx, folio.Caller{UserID: admin}, sc, folio.NewComment{Body: &folio.CommentBody{Markdown: &md}, Page: pageID})
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = v.ID
			rmd := "An answer"
			if _, err := s.App.PostReply(ctx, folio.Caller{UserID: admin}, sc, v.ID, &folio.CommentBody{Markdown: &rmd}, folio.FormatMarkdown); err != nil {
				t.Fatal(err)
			}
			if _, err := s.App.UpdateComment(ctx, folio.Caller{UserID: admin}, sc, v.ID, &folio.CommentUpdate{AddedReactions: []string{"👍"}}); err != nil {
				t.Fatal(err)
			}
		}
		_, liveReplies := onlyComment(t, s, admin, live)
		_, crReplies := onlyComment(t, s, admin, crScope)
		before := [2]string{threadState(t, s, admin, live), threadState(t, s, admin, crScope)}

		reader, _ := member(t, s, org, folio.RoleRead)
		b := signIn(t, s, reader.Email)
		for _, path := range []string{"/s/" + sp + "/guide", "/s/" + sp + "/guide?comment=x", "/s/" + sp + "/~/comments?status=all",
			"/s/" + sp + "/~/changes/1", "/s/" + sp + "/~/changes/1?comment=x&page=" + pageID} {
			p := b.get(t, path).want(t, 200, "A question", "An answer")
			for _, no := range []string{"Comment on this block", "comment-form", `name="markdown"`, ">Resolve<", ">Reply<",
				`formaction=`, "Request review", `name="status" value="approved"`} {
				if strings.Contains(p.Body, no) {
					t.Fatalf("%s offers a reader %q", path, no)
				}
			}
			// The reactions show, as counts only.
			if !strings.Contains(p.Body, `<span class="reaction" role="img" aria-label="thumbs up: 1">`) {
				t.Fatalf("%s lacks the reaction count:\n%s", path, p.Body)
			}
		}
		forge := func(b *browser, status int, msg string) {
			t.Helper()
			for i, base := range []string{"/s/" + sp + "/~/comments", "/s/" + sp + "/~/changes/1/comments"} {
				replies := liveReplies
				if i == 1 {
					replies = crReplies
				}
				c := base + "/" + ids[i]
				for _, f := range []struct {
					path string
					form url.Values
				}{
					{base, url.Values{"markdown": {"Forged"}, "page": {pageID}, "node": {"abc"}}},
					{c + "/reply", url.Values{"markdown": {"Forged"}}},
					{c + "/react", url.Values{"emoji": {"🎉"}}},
					{c + "/unreact", url.Values{"emoji": {"👍"}}},
					{c + "/resolve", nil},
					{c + "/replies/" + replies[0] + "/react", url.Values{"emoji": {"🎉"}}},
				} {
					b.post(t, f.path, f.form).want(t, status, msg)
				}
			}
			if got := [2]string{threadState(t, s, admin, live), threadState(t, s, admin, crScope)}; got != before {
				t.Fatalf("a refused form changed the comments:\n%v\nwant\n%v", got, before)
			}
		}
		forge(b, 403, "you cannot")

		// A member of another organization is told the space does not exist.
		org2, _ := s.Org(t)
		stranger, _ := member(t, s, org2, folio.RoleAdmin)
		sb := signIn(t, s, stranger.Email)
		sb.get(t, "/s/"+sp+"/~/comments").want(t, 404)
		forge(sb, 404, "")
	})
}

// TestChangeRequestReviewers asks for reviews, withdraws a request, and
// reviews: "Request changes" with a comment, then "Approve"; what a
// reviewer may not do is neither offered nor accepted.
func TestChangeRequestReviewers(t *testing.T) {
	apitest.Run(t, func(t *testing.T, s *apitest.Server) {
		org, adminTok := s.Org(t)
		admin := userOf(t, s, adminTok)
		sp, _, crID := crFixture(t, s, org, adminTok)
		editor, _ := member(t, s, org, folio.RoleEdit)
		reviewer, _ := member(t, s, org, folio.RoleReview)
		commenter, _ := member(t, s, org, folio.RoleComment)
		org2, _ := s.Org(t)
		outsider, _ := member(t, s, org2, folio.RoleAdmin)
		ctx := context.Background()
		requested := func() string {
			t.Helper()
			l, err := s.App.ListRequestedReviewers(ctx, folio.Caller{UserID: admin}, sp, crID, folio.ListOptions{Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range l.Items {
				out = append(out, r.User.DisplayName)
			}
			return strings.Join(out, ",")
		}
		crPath := "/s/" + sp + "/~/changes/1"

		// A commenter granted review on the space may review it.
		granted, _ := member(t, s, org, folio.RoleComment)
		s.Do(t, adminTok, "POST", "/v1/spaces/"+sp+"/permissions", `{"role":"review","users":["`+granted.ID+`"]}`).WantStatus(t, 204)

		eb := signIn(t, s, editor.Email)
		p := eb.get(t, crPath).want(t, 200, `<h2 id="reviewers-h">Reviewers</h2>`, "No reviews yet.",
			`<form method="post" action="`+crPath+`/reviewers" class="row wrap request-review">`,
			`<label for="reviewer">Ask for a review</label>`,
			`<option value="`+reviewer.ID+`">`+reviewer.DisplayName+` (`+reviewer.Email+`)</option>`,
			`<option value="`+granted.ID+`">`+granted.DisplayName+` (`+granted.Email+`)</option>`)
		// The picker offers the members who may review (role review and
		// up): not an editor or a commenter.
		for _, no := range []*folio.User{editor, commenter} {
			if strings.Contains(p.Body, `<option value="`+no.ID+`"`) {
				t.Fatalf("the picker offers %s, who may not review", no.DisplayName)
			}
		}
		// An editor may ask for reviews, not review.
		if strings.Contains(p.Body, `name="status" value="approved"`) {
			t.Fatal("an editor is offered a review")
		}
		eb.post(t, crPath+"/review", url.Values{"status": {"approved"}}).want(t, 403, "you cannot review")
		eb.post(t, crPath+"/reviewers", url.Values{"user": {reviewer.ID}}).redirect(t, crPath+"#reviewers")
		if got := requested(); got != reviewer.DisplayName {
			t.Fatalf("requested %q", got)
		}
		p = eb.get(t, crPath).want(t, 200, "Asked to review", reviewer.DisplayName+` <span class="muted">asked by `+editor.DisplayName,
			`action="`+crPath+`/reviewers/`+reviewer.ID+`/remove"`, `aria-label="Remove `+reviewer.DisplayName+` from the reviewers"`)
		if strings.Contains(p.Body, `<option value="`+reviewer.ID+`"`) {
			t.Fatal("the picker still offers a member already asked")
		}
		// Bad input changes nothing.
		eb.post(t, crPath+"/reviewers", url.Values{"user": {""}}).want(t, 400, "choose a member")
		eb.post(t, crPath+"/reviewers", url.Values{"user": {outsider.ID}}).want(t, 400, "is not a member of the organization")
		eb.post(t, crPath+"/reviewers/"+commenter.ID+"/remove", nil).want(t, 404, "was not asked to review")
		if got := requested(); got != reviewer.DisplayName {
			t.Fatalf("requested %q", got)
		}
		eb.post(t, crPath+"/reviewers/"+reviewer.ID+"/remove", nil).redirect(t, crPath+"#reviewers")
		if got := requested(); got != "" {
			t.Fatalf("requested after removal %q", got)
		}
		eb.post(t, crPath+"/reviewers", url.Values{"user": {reviewer.ID}}).redirect(t, crPath+"#reviewers")

		// The reviewer reviews: "Request changes" with a comment, then
		// "Approve".
		rb := signIn(t, s, reviewer.Email)
		rb.get(t, crPath).want(t, 200, `<button type="submit" name="status" value="changes-requested">Request changes</button>`,
			`<button type="submit" name="status" value="approved" class="primary">Approve</button>`)
		rb.post(t, crPath+"/review", url.Values{"status": {"changes-requested"}, "comment": {"Please fix the typo."}}).redirect(t, crPath)
		if got := requested(); got != "" {
			t.Fatalf("a review leaves the request: %q", got)
		}
		rb.get(t, crPath).want(t, 200, `<strong>`+reviewer.DisplayName+`</strong> <span class="badge review-changes-requested">Changes requested</span>`,
			"Please fix the typo.")
		rb.post(t, crPath+"/review", url.Values{"status": {"approved"}}).redirect(t, crPath)
		p = rb.get(t, crPath).want(t, 200, `<span class="badge review-approved">Approved</span>`, "· outdated")
		if strings.Index(p.Body, "Approved</span>") > strings.Index(p.Body, "Changes requested</span>") {
			t.Fatal("the latest review is not listed first")
		}
		l, err := s.App.ListReviews(ctx, folio.Caller{UserID: admin}, sp, crID, nil, folio.ListOptions{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 2 || l.Items[0].Status != folio.ReviewChangesRequested || l.Items[1].Status != folio.ReviewApproved ||
			l.Items[0].Comment == nil || strings.TrimSpace(l.Items[0].Comment.Markdown) != "Please fix the typo." {
			t.Fatalf("reviews %+v", l.Items)
		}

		// A commenter may neither review nor ask for reviews: not offered,
		// refused, nothing changed.
		eb.post(t, crPath+"/reviewers", url.Values{"user": {reviewer.ID}}).redirect(t, crPath+"#reviewers")
		cb := signIn(t, s, commenter.Email)
		p = cb.get(t, crPath).want(t, 200, "Asked to review", reviewer.DisplayName)
		for _, no := range []string{`name="status" value="approved"`, `value="changes-requested"`, "request-review", "/remove", "Request review"} {
			if strings.Contains(p.Body, no) {
				t.Fatalf("a commenter is offered %q", no)
			}
		}
		cb.post(t, crPath+"/review", url.Values{"status": {"approved"}}).want(t, 403, "you cannot review")
		cb.post(t, crPath+"/reviewers", url.Values{"user": {admin}}).want(t, 403, "you cannot edit")
		cb.post(t, crPath+"/reviewers/"+reviewer.ID+"/remove", nil).want(t, 403, "you cannot edit")
		if got := requested(); got != reviewer.DisplayName {
			t.Fatalf("requested after refused forms %q", got)
		}
		if l2, _ := s.App.ListReviews(ctx, folio.Caller{UserID: admin}, sp, crID, nil, folio.ListOptions{Limit: 10}); len(l2.Items) != 2 {
			t.Fatalf("a refused review was recorded: %d reviews", len(l2.Items))
		}
	})
}
