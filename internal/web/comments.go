package web

import (
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/reader"
)

// Comment threads in the app: on a space's live content (the Comments tab
// and under the blocks of a page) and on a change request (under the
// blocks of its page diff, and its discussion). Every form posts to the
// thread set's base URL, /s/{space}/~/comments or
// /s/{space}/~/changes/{n}/comments, and goes back to the page it came
// from (a local path of the same space, sent in "back").

// commentsRoutes are the forms of comment threads.
func (h *Handler) commentsRoutes() {
	// POST /s/{space}/~/comments (postComment) is in routes().
	h.handle("POST /s/{space}/~/changes/{number}/comments", signedIn, h.postComment)
	for _, base := range []string{"/s/{space}/~/comments", "/s/{space}/~/changes/{number}/comments"} {
		h.handle("POST "+base+"/{comment}/{action}", signedIn, h.commentAction)
		h.handle("POST "+base+"/{comment}/replies/{reply}/{action}", signedIn, h.replyAction)
	}
	h.handle("POST /s/{space}/~/changes/{number}/reviewers", signedIn, h.requestReviewer)
	h.handle("POST /s/{space}/~/changes/{number}/reviewers/{user}/remove", signedIn, h.removeReviewer)
}

// reactions are the emoji the app offers as buttons; others that were
// chosen through the API show with their counts and toggle the same way.
var reactions = []struct{ emoji, name string }{
	{"👍", "thumbs up"}, {"🎉", "hooray"}, {"❤️", "heart"}, {"👀", "eyes"},
}

// maxThreads bounds the threads one view loads (then their replies, in one
// call: app.MaxRepliesPerThread each, app.MaxRepliesOf in all).
const maxThreads = 500

// thread is a comment with its replies, as one caller sees it.
type thread struct {
	ID, Anchor string // Anchor: the element id, "c-{id}"
	Author     string
	When       time.Time
	Body       template.HTML
	Resolved   bool
	ResolvedBy string
	Review     bool   // posted with a review of its change request
	PageID     string // the page it targets, if any
	PageTitle  string
	PageHref   string
	Node       string // the block key it targets, if any
	Replies    []*threadReply
	Reactions  reactionBar
	Href       string // the comment's form base
	CanReply   bool   // reply, react, resolve, reopen
	CSRF, Back string
	Own        ownControls
}

type threadReply struct {
	ID, Anchor, Author string
	When               time.Time
	Body               template.HTML
	Reactions          reactionBar
	Own                ownControls
}

// ownControls are the Edit and Delete controls of a comment or reply, as
// far as the caller may use them (the author edits; the author or an
// admin of the space deletes).
type ownControls struct {
	Href               string // the comment's or reply's form base
	Anchor             string // its element id, for the controls' ids
	Kind               string // "comment" or "reply", for labels
	Author             string // for labels
	Markdown           string // the body to edit
	Edited             bool
	CanEdit, CanDelete bool
	CSRF, Back         string
}

func newOwnControls(ts *threadSet, c *folio.CommentView, href, anchor, kind string) ownControls {
	return ownControls{Href: href, Anchor: anchor, Kind: kind, Author: c.User(c.AuthorID).DisplayName, Markdown: c.Markdown, Edited: c.EditedAt != nil,
		CanEdit: c.Permissions.Edit, CanDelete: c.Permissions.Delete, CSRF: ts.CSRF, Back: ts.Back}
}

// reactionBar is the reactions of a comment or reply: one button per
// offered or chosen emoji; each toggles the caller's own reaction.
type reactionBar struct {
	Href       string // the comment's or reply's form base
	CanReact   bool
	CSRF, Back string
	Buttons    []reactionButton
}

type reactionButton struct {
	Emoji, Name string
	Count       int
	Mine        bool
}

// threadSet is where a set of threads lives and what the caller may do.
type threadSet struct {
	scope      app.CommentScope
	Base       string // form base of the set
	Back       string // the page forms go back to
	CSRF       string
	CanComment bool
	spaceHref  string
}

func (h *Handler) newThreadSet(q *req, v *spaceView, crID folio.ID, crNumber int64, back string) *threadSet {
	ts := &threadSet{scope: app.CommentScope{Space: v.Space.ID, ChangeRequest: crID}, Base: v.Href + "/~/comments",
		Back: back, CSRF: q.csrf, CanComment: v.Perms.Comment, spaceHref: v.Href}
	if crID != "" {
		ts.Base = v.Href + "/~/changes/" + strconv.FormatInt(crNumber, 10) + "/comments"
	}
	return ts
}

// load lists the set's threads (oldest first) with their replies.
func (h *Handler) loadThreads(r *http.Request, q *req, ts *threadSet, f folio.CommentFilter, paths map[string]string) ([]*thread, error) {
	ctx := r.Context()
	l, err := h.app.ListComments(ctx, q.caller, ts.scope, f, folio.FormatDocument, folio.ListOptions{Limit: maxThreads})
	if err != nil {
		return nil, err
	}
	out := make([]*thread, 0, len(l.Items))
	var withReplies []folio.ID
	for i := range l.Items {
		c := &l.Items[i]
		t := &thread{ID: c.ID, Anchor: "c-" + c.ID, Author: c.User(c.AuthorID).DisplayName, When: c.PostedAt,
			Body: commentBody(c), Resolved: c.Status == folio.CommentResolved, Review: c.Target.Review != "",
			Node: c.Target.Node, Href: ts.Base + "/" + c.ID, CanReply: c.Permissions.Reply, CSRF: ts.CSRF, Back: ts.Back}
		if c.ResolvedBy != "" {
			t.ResolvedBy = c.User(c.ResolvedBy).DisplayName
		}
		if c.Page != nil {
			t.PageID, t.PageTitle = c.Page.ID, c.Page.Title
			if p, ok := paths[c.Page.ID]; ok && !c.Page.Outdated {
				t.PageHref = ts.spaceHref + "/" + escapePath(p)
			}
		}
		t.Reactions = h.reactionBar(q, c, t.Href, t.CanReply, ts.Back)
		t.Own = newOwnControls(ts, c, t.Href, t.Anchor, "comment")
		if c.Replies > 0 {
			withReplies = append(withReplies, c.ID)
		}
		out = append(out, t)
	}
	if len(withReplies) == 0 {
		return out, nil
	}
	// The replies of every thread, in one call.
	replies, err := h.app.ListRepliesOf(ctx, q.caller, ts.scope, withReplies, folio.FormatDocument, app.MaxRepliesPerThread)
	if err != nil {
		return nil, err
	}
	for _, t := range out {
		for j := range replies[t.ID] {
			rc := &replies[t.ID][j]
			href := t.Href + "/replies/" + rc.ID
			t.Replies = append(t.Replies, &threadReply{ID: rc.ID, Anchor: "c-" + rc.ID, Author: rc.User(rc.AuthorID).DisplayName,
				When: rc.PostedAt, Body: commentBody(rc), Reactions: h.reactionBar(q, rc, href, t.CanReply, ts.Back),
				Own: newOwnControls(ts, rc, href, "c-"+rc.ID, "reply")})
		}
	}
	return out, nil
}

// commentBody renders a comment's body as the reader renders documents;
// its Markdown as text when it cannot.
func commentBody(c *folio.CommentView) template.HTML {
	if len(c.Document) > 0 {
		var d content.Document
		if err := json.Unmarshal(c.Document, &d); err == nil {
			if h, err := reader.RenderDocument(&d, func(string) string { return "" }, func(string, string) string { return "" }); err == nil {
				return h
			}
		}
	}
	return template.HTML("<p class=\"pre\">" + template.HTMLEscapeString(c.Markdown) + "</p>") //nolint:gosec // escaped
}

func (h *Handler) reactionBar(q *req, c *folio.CommentView, href string, can bool, back string) reactionBar {
	b := reactionBar{Href: href, CanReact: can, CSRF: q.csrf, Back: back}
	seen := map[string]bool{}
	count := func(emoji string) (n int, mine bool) {
		for _, r := range c.Reactions {
			if r.Emoji == emoji {
				for _, u := range r.Users {
					mine = mine || u.UserID == q.caller.UserID
				}
				return len(r.Users), mine
			}
		}
		return 0, false
	}
	for _, r := range reactions {
		seen[r.emoji] = true
		n, mine := count(r.emoji)
		b.Buttons = append(b.Buttons, reactionButton{Emoji: r.emoji, Name: r.name, Count: n, Mine: mine})
	}
	for _, r := range c.Reactions {
		if !seen[r.Emoji] {
			n, mine := count(r.Emoji)
			b.Buttons = append(b.Buttons, reactionButton{Emoji: r.Emoji, Name: r.Emoji, Count: n, Mine: mine})
		}
	}
	return b
}

// blockThreads is what shows under one top-level block: the control that
// opens the comment form, the block's threads and, when open, the form.
type blockThreads struct {
	Key         string
	Anchor      string // its element id: "b-{key}", "b-{page}-{key}" in a diff of several pages
	CommentHref string // "" when the caller may not comment here
	Open        []*thread
	Resolved    []*thread
	Form        *commentForm
}

// FirstOpen is the anchor the count badge links to.
func (b *blockThreads) FirstOpen() string {
	if len(b.Open) == 0 {
		return ""
	}
	return b.Open[0].Anchor
}

// commentForm is a new comment's form, on a block, a page or the whole
// thread set.
type commentForm struct {
	Action, CSRF, Back string
	Page, Node         string
	Label, Cancel      string
	ID                 string // the textarea's id
}

// byTarget groups threads by page and block key.
func byTarget(ts []*thread) map[[2]string][]*thread {
	m := map[[2]string][]*thread{}
	for _, t := range ts {
		if t.PageID != "" && t.Node != "" {
			k := [2]string{t.PageID, t.Node}
			m[k] = append(m[k], t)
		}
	}
	return m
}

// blockFor builds a block's threads and controls; taken marks the threads
// placed. openKey is the block whose form is open ("?comment="), of the
// page openPage in a diff (diff: a change request's pages, where block
// keys are unique per page only).
func blockFor(ts *threadSet, groups map[[2]string][]*thread, taken map[string]bool, pageID, key string, diff bool, openPage, openKey, here string) *blockThreads {
	if key == "" {
		return nil
	}
	b := &blockThreads{Key: key, Anchor: "b-" + key}
	if diff {
		b.Anchor = "b-" + pageID + "-" + key
	}
	for _, t := range groups[[2]string{pageID, key}] {
		taken[t.ID] = true
		if t.Resolved {
			b.Resolved = append(b.Resolved, t)
		} else {
			b.Open = append(b.Open, t)
		}
	}
	if ts.CanComment {
		qs := url.Values{"comment": {key}}
		if diff {
			qs.Set("page", pageID)
		}
		b.CommentHref = here + "?" + qs.Encode() + "#c-form"
		if key == openKey && (!diff || openPage == pageID) {
			b.Form = &commentForm{Action: ts.Base, CSRF: ts.CSRF, Back: ts.Back, Page: pageID, Node: key,
				Label: "Comment on this block", Cancel: ts.Back + "#" + b.Anchor, ID: "c-form-body"}
		}
	}
	return b
}

// docView is a page's blocks with their threads (the Pages tab).
type docView struct {
	Blocks []docBlock
	Other  []*thread // the page's threads on no block shown
	Form   *commentForm
	Set    *threadSet
}

type docBlock struct {
	HTML template.HTML
	C    *blockThreads
}

// pageThreads builds the page view's blocks with their threads.
func (h *Handler) pageThreads(r *http.Request, q *req, v *spaceView, c *app.Content, pv *pageView) (*docView, error) {
	ts := h.newThreadSet(q, v, "", 0, pv.Href)
	threads, err := h.loadThreads(r, q, ts, folio.CommentFilter{TargetPage: pv.ID}, c.Paths())
	if err != nil {
		return nil, err
	}
	dv := &docView{Set: ts}
	groups, taken := byTarget(threads), map[string]bool{}
	openKey := r.URL.Query().Get("comment")
	for i, html := range pv.blocks {
		dv.Blocks = append(dv.Blocks, docBlock{HTML: html, C: blockFor(ts, groups, taken, pv.ID, pv.keys[i], false, "", openKey, pv.Href)})
	}
	for _, t := range threads {
		if !taken[t.ID] {
			dv.Other = append(dv.Other, t)
		}
	}
	if ts.CanComment {
		dv.Form = &commentForm{Action: ts.Base, CSRF: ts.CSRF, Back: ts.Back, Page: pv.ID, Label: "Comment on this page",
			ID: "page-comment"}
	}
	return dv, nil
}

// discussion is a change request's threads that are on no block shown:
// its general comments, review comments, and those on other pages.
type discussion struct {
	Open, Resolved []*thread
	Form           *commentForm
}

// crThreads places a change request's threads under the blocks of its
// diff and returns the rest.
func (h *Handler) crThreads(r *http.Request, q *req, v *spaceView, cr *app.ChangeRequestView, cv *crView, head *app.Content) error {
	href := v.Href + "/~/changes/" + strconv.FormatInt(cr.Number, 10)
	ts := h.newThreadSet(q, v, cr.ID, cr.Number, href)
	var paths map[string]string
	if head != nil {
		paths = head.Paths()
	}
	threads, err := h.loadThreads(r, q, ts, folio.CommentFilter{}, paths)
	if err != nil {
		return err
	}
	for _, t := range threads {
		t.PageHref = "" // the live page may differ from the change request's
	}
	groups, taken := byTarget(threads), map[string]bool{}
	openPage, openKey := r.URL.Query().Get("page"), r.URL.Query().Get("comment")
	for i := range cv.Changes {
		pc := &cv.Changes[i]
		for j := range pc.Blocks {
			b := &pc.Blocks[j]
			if b.Op == "removed" || pc.PageID == "" {
				continue
			}
			b.C = blockFor(ts, groups, taken, pc.PageID, b.Key, true, openPage, openKey, href)
		}
	}
	d := &discussion{}
	for _, t := range threads {
		if taken[t.ID] {
			continue
		}
		if t.Resolved {
			d.Resolved = append(d.Resolved, t)
		} else {
			d.Open = append(d.Open, t)
		}
	}
	if ts.CanComment {
		d.Form = &commentForm{Action: ts.Base, CSRF: ts.CSRF, Back: ts.Back, Label: "New comment", ID: "comment"}
	}
	cv.Discussion = d
	return nil
}

// commentsView is the Comments tab: the threads of the live content,
// filtered by status and page.
type commentsView struct {
	Status   string
	Statuses []statusTab
	Page     string
	Pages    []pageOption
	Threads  []*thread
	Form     *commentForm
}

var commentStatuses = []struct{ status, label string }{
	{folio.CommentOpen, "Open"}, {folio.CommentResolved, "Resolved"}, {"all", "All"},
}

func (h *Handler) comments(w http.ResponseWriter, r *http.Request, q *req) error {
	v, c, err := h.spaceFrame(r, q, "comments")
	if err != nil {
		return err
	}
	qs := r.URL.Query()
	cv := commentsView{Status: qs.Get("status"), Page: qs.Get("page")}
	if cv.Status == "" {
		cv.Status = folio.CommentOpen
	}
	known := false
	for _, s := range commentStatuses {
		u := url.Values{"status": {s.status}}
		if cv.Page != "" {
			u.Set("page", cv.Page)
		}
		cv.Statuses = append(cv.Statuses, statusTab{Status: s.status, Label: s.label, Href: v.Href + "/~/comments?" + u.Encode(),
			Current: s.status == cv.Status})
		known = known || s.status == cv.Status
	}
	if !known {
		return folio.FieldErrorf("status", "status must be open, resolved or all")
	}
	content.Walk(c.Tree, func(n content.PageNode) bool {
		if n.Page.Type == content.PageDocument {
			cv.Pages = append(cv.Pages, pageOption{ID: n.Page.ID, Title: strings.Repeat("– ", n.Depth-1) + n.Page.Title})
		}
		return true
	})
	back := v.Href + "/~/comments?" + url.Values{"status": {cv.Status}, "page": {cv.Page}}.Encode()
	ts := h.newThreadSet(q, v, "", 0, back)
	if cv.Threads, err = h.loadThreads(r, q, ts, folio.CommentFilter{Status: cv.Status, TargetPage: cv.Page}, c.Paths()); err != nil {
		return err
	}
	if ts.CanComment {
		cv.Form = &commentForm{Action: ts.Base, CSRF: ts.CSRF, Back: back, Page: cv.Page, Label: "New comment", ID: "comment"}
	}
	v.Body = cv
	h.render(w, http.StatusOK, "comments", q, "Comments · "+v.Space.Title, v)
	return nil
}

// backTo is the page a form goes back to: its "back" when it is a path of
// the same space, else the thread set's own page.
func backTo(r *http.Request) string {
	spaceID := r.PathValue("space")
	home := "/s/" + spaceID + "/~/comments"
	if n := r.PathValue("number"); n != "" {
		home = "/s/" + spaceID + "/~/changes/" + n
	}
	back := r.PostForm.Get("back")
	if b := localPath(back); b != back || !(b == "/s/"+spaceID || strings.HasPrefix(b, "/s/"+spaceID+"/") || strings.HasPrefix(b, "/s/"+spaceID+"?")) {
		back = home
	}
	if i := strings.IndexByte(back, '#'); i >= 0 {
		back = back[:i]
	}
	return back
}

// formText reads a comment or reply body from a form: not blank.
func formText(r *http.Request) (*folio.CommentBody, error) {
	md := strings.ReplaceAll(r.PostForm.Get("markdown"), "\r\n", "\n")
	if strings.TrimSpace(md) == "" {
		return nil, folio.FieldErrorf("markdown", "the comment is empty: write something first")
	}
	return &folio.CommentBody{Markdown: &md}, nil
}

// postComment posts a comment on the live content or a change request,
// on a block (page and node), a page, or neither.
func (h *Handler) postComment(w http.ResponseWriter, r *http.Request, q *req) error {
	sc, back, err := h.commentScope(r, q)
	if err != nil {
		return err
	}
	body, err := formText(r)
	if err != nil {
		return err
	}
	in := folio.NewComment{Body: body, Page: r.PostForm.Get("page"), Node: r.PostForm.Get("node")}
	if in.Node != "" && in.Page == "" {
		return folio.FieldErrorf("page", "a block comment needs its page")
	}
	c, err := h.app.PostComment(r.Context(), q.caller, sc, in)
	if err != nil {
		return err
	}
	http.Redirect(w, r, back+"#c-"+c.ID, http.StatusSeeOther)
	return nil
}

// commentScope reads the thread set a form posts to (the change request
// named by id), and the page to go back to (backTo).
func (h *Handler) commentScope(r *http.Request, q *req) (app.CommentScope, string, error) {
	sc, back := app.CommentScope{Space: r.PathValue("space")}, backTo(r)
	if n := r.PathValue("number"); n != "" {
		cr, err := h.app.GetChangeRequest(r.Context(), q.caller, sc.Space, n)
		if err != nil {
			return sc, back, err
		}
		sc.ChangeRequest = cr.ID
	}
	return sc, back, nil
}

// reactionUpdate reads the emoji of a react or unreact form.
func reactionUpdate(r *http.Request, action string) (*folio.CommentUpdate, error) {
	e := r.PostForm.Get("emoji")
	if strings.TrimSpace(e) == "" {
		return nil, folio.FieldErrorf("emoji", "choose a reaction")
	}
	if action == "react" {
		return &folio.CommentUpdate{AddedReactions: []string{e}}, nil
	}
	return &folio.CommentUpdate{RemovedReactions: []string{e}}, nil
}

// commentAction runs one action of a thread: reply, react, unreact,
// edit, delete (commentedit.go), resolve, reopen.
func (h *Handler) commentAction(w http.ResponseWriter, r *http.Request, q *req) error {
	sc, back, err := h.commentScope(r, q)
	if err != nil {
		return err
	}
	ctx, id := r.Context(), r.PathValue("comment")
	anchor := "#c-" + id
	switch action := r.PathValue("action"); action {
	case "reply":
		body, err := formText(r)
		if err != nil {
			return err
		}
		rc, err := h.app.PostReply(ctx, q.caller, sc, id, body, folio.FormatMarkdown)
		if err != nil {
			return err
		}
		anchor = "#c-" + rc.ID
	case "react", "unreact":
		u, err := reactionUpdate(r, action)
		if err != nil {
			return err
		}
		if _, err := h.app.UpdateComment(ctx, q.caller, sc, id, u); err != nil {
			return err
		}
	case "edit":
		return h.editComment(w, r, q, sc, back, id, "")
	case "delete":
		return h.deleteComment(w, r, q, sc, back, id, "")
	case "resolve", "reopen":
		resolved := action == "resolve"
		if _, err := h.app.UpdateComment(ctx, q.caller, sc, id, &folio.CommentUpdate{Resolved: &resolved}); err != nil {
			return err
		}
	default:
		return folio.Errorf(folio.NotFound, "no such comment action")
	}
	http.Redirect(w, r, back+anchor, http.StatusSeeOther)
	return nil
}

// replyAction reacts to a reply or takes the caller's reaction back, or
// edits or deletes the reply (commentedit.go).
func (h *Handler) replyAction(w http.ResponseWriter, r *http.Request, q *req) error {
	action := r.PathValue("action")
	if action != "react" && action != "unreact" && action != "edit" && action != "delete" {
		return folio.Errorf(folio.NotFound, "no such reply action")
	}
	sc, back, err := h.commentScope(r, q)
	if err != nil {
		return err
	}
	comment, id := r.PathValue("comment"), r.PathValue("reply")
	switch action {
	case "edit":
		return h.editComment(w, r, q, sc, back, comment, id)
	case "delete":
		return h.deleteComment(w, r, q, sc, back, comment, id)
	}
	u, err := reactionUpdate(r, action)
	if err != nil {
		return err
	}
	if _, err := h.app.UpdateReply(r.Context(), q.caller, sc, comment, id, u); err != nil {
		return err
	}
	http.Redirect(w, r, back+"#c-"+id, http.StatusSeeOther)
	return nil
}

// Any reports whether anyone reacted.
func (b reactionBar) Any() bool {
	for _, x := range b.Buttons {
		if x.Count > 0 {
			return true
		}
	}
	return false
}
