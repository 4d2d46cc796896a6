package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/markdown"
	"github.com/foliodocs/folio/internal/store"
)

// CommentScope names a thread set: a space's main content, or one of its
// change requests when ChangeRequest is set.
type CommentScope struct {
	Space         folio.ID
	ChangeRequest folio.ID
}

// commentThread is a space the caller may view, and the change request
// of the scope if any, with what comment reads need from them.
type commentThread struct {
	sv    *folio.SpaceView
	cr    *folio.ChangeRequest // nil for the space's main content
	scope CommentScope         // the change request by id
	perms folio.SpacePermissions
	// content is the content comments' page targets are read against,
	// loaded on first use.
	content *Content
}

// thread loads the space of a scope, and its change request (named by id
// or number), for the caller: NotFound when they may not view the space.
// Its scope names the change request by id, which callers use from then on.
func (a *App) thread(ctx context.Context, tx *store.Tx, caller folio.Caller, scope CommentScope) (*commentThread, error) {
	sv, _, err := space(ctx, tx, caller, scope.Space)
	if err != nil {
		return nil, err
	}
	th := &commentThread{sv: sv, scope: CommentScope{Space: sv.ID}, perms: sv.Permissions()}
	if scope.ChangeRequest != "" {
		if th.cr, err = store.GetChangeRequest(ctx, tx, sv.ID, scope.ChangeRequest); err != nil {
			return nil, err
		}
		th.scope.ChangeRequest = th.cr.ID
	}
	return th, nil
}

// currentContent returns the content page targets are checked against:
// the space's current revision, or a change request's head.
func (a *App) currentContent(ctx context.Context, tx *store.Tx, th *commentThread) (*Content, error) {
	if th.content == nil {
		var head folio.ID
		if th.cr != nil {
			head = th.cr.Revision
		}
		c, err := a.contentOf(ctx, tx, th.sv, head)
		if err != nil {
			return nil, err
		}
		th.content = c
	}
	return th.content, nil
}

// commentMarkdown turns a sent body into the Markdown that is stored: the
// Markdown itself, or a Document written as Markdown. field names the
// body in errors.
func commentMarkdown(body *folio.CommentBody, field string) (string, error) {
	if body == nil {
		return "", folio.FieldErrorf(field, "%s is required", field)
	}
	var md string
	switch {
	case body.Markdown != nil:
		md = *body.Markdown
		if err := folio.ValidateMarkdown(field+".markdown", md); err != nil {
			return "", err
		}
	case len(body.Document) > 0 && string(body.Document) != "null":
		var doc content.Document
		if err := json.Unmarshal(body.Document, &doc); err != nil {
			return "", folio.FieldErrorf(field+".document", "%s.document is not a valid document", field)
		}
		var err error
		if md, err = documentMarkdown(&doc, field+".document"); err != nil {
			return "", err
		}
	default:
		return "", folio.FieldErrorf(field+".markdown", "%s.markdown is required", field)
	}
	// The body must also read as a Document, for the document format.
	if _, err := markdown.ToDocument([]byte(md), nil); err != nil {
		return "", folio.FieldErrorf(field+".markdown", "%s.markdown cannot be read as a document", field)
	}
	return md, nil
}

// documentMarkdown writes a sent Document as the Markdown of a comment;
// field names it in errors.
func documentMarkdown(doc *content.Document, field string) (string, error) {
	if err := doc.Validate(field); err != nil {
		return "", err
	}
	b, err := markdown.FromDocument(doc, nil)
	if err != nil {
		return "", folio.FieldErrorf(field, "%s cannot be written as Markdown", field)
	}
	md := string(b)
	if err := folio.ValidateMarkdown(field, md); err != nil {
		return "", err
	}
	// The body must also read back as a Document, for the document format.
	if _, err := markdown.ToDocument(b, nil); err != nil {
		return "", folio.FieldErrorf(field, "%s cannot be read as a document", field)
	}
	return md, nil
}

// views builds the caller's views of a page of comments or replies: three
// queries for their reactions, repliers and users, and at most one tree
// read for their page targets.
func (a *App) views(ctx context.Context, tx *store.Tx, caller folio.Caller, th *commentThread, items []folio.Comment, format string) ([]folio.CommentView, error) {
	x, err := store.LoadCommentExtras(ctx, tx, items, len(items) > 0 && items[0].Parent == "")
	if err != nil {
		return nil, err
	}
	out := make([]folio.CommentView, len(items))
	for i, c := range items {
		v := folio.CommentView{
			CommentDetails: folio.CommentDetails{Comment: c, Reactions: x.Reactions[c.ID], Replies: x.Replies[c.ID],
				Repliers: x.Repliers[c.ID]},
			Permissions: folio.CommentPerms(th.perms, c.AuthorID == caller.UserID),
			Users:       x.Users,
		}
		if c.Target.Page != "" {
			cc, err := a.currentContent(ctx, tx, th)
			if err != nil {
				return nil, err
			}
			pt := &folio.PageTarget{ID: c.Target.Page, Title: c.Target.PageTitle, Path: c.Target.PagePath, Outdated: true}
			if n, ok := cc.Node(c.Target.Page); ok {
				pt.Title, pt.Path, pt.Outdated = n.Page.Title, cc.Paths()[n.Page.ID], false
			}
			v.Page = pt
		}
		if format == folio.FormatDocument {
			doc, err := markdown.ToDocument([]byte(c.Markdown), nil)
			if err != nil {
				return nil, err
			}
			if v.Document, err = json.Marshal(doc); err != nil {
				return nil, err
			}
		}
		out[i] = v
	}
	return out, nil
}

func (a *App) view(ctx context.Context, tx *store.Tx, caller folio.Caller, th *commentThread, c *folio.Comment, format string) (*folio.CommentView, error) {
	vs, err := a.views(ctx, tx, caller, th, []folio.Comment{*c}, format)
	if err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// ListComments lists the comments of a space's main content (or of a
// change request) that the caller may view, filtered, in the format asked
// for.
func (a *App) ListComments(ctx context.Context, caller folio.Caller, scope CommentScope, f folio.CommentFilter, format string, opts folio.ListOptions) (l folio.List[folio.CommentView], err error) {
	if err := f.Validate(); err != nil {
		return l, err
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		cs, err := store.ListComments(ctx, tx, scope.Space, scope.ChangeRequest, f, opts)
		if err != nil {
			return err
		}
		items, err := a.views(ctx, tx, caller, th, cs.Items, format)
		if err != nil {
			return err
		}
		l = folio.List[folio.CommentView]{Items: items, Count: cs.Count, Next: cs.Next}
		return nil
	})
	return l, err
}

// PostComment posts a comment. The caller needs the space's comment
// permission; a page target must be a page of the current content.
func (a *App) PostComment(ctx context.Context, caller folio.Caller, scope CommentScope, in folio.NewComment) (v *folio.CommentView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		if err := require(th.perms.Comment, "you cannot comment on this space"); err != nil {
			return err
		}
		if err := in.Validate(); err != nil {
			return err
		}
		md, err := commentMarkdown(in.Body, "body")
		if err != nil {
			return err
		}
		cc, err := a.currentContent(ctx, tx, th)
		if err != nil {
			return err
		}
		c := folio.Comment{ID: folio.NewID(), SpaceID: scope.Space, ChangeRequest: scope.ChangeRequest,
			AuthorID: caller.UserID, Markdown: md, Revision: cc.Revision.ID, Status: folio.CommentOpen, PostedAt: tx.Now,
			Target: folio.CommentTarget{Node: in.Node, Page: in.Page}}
		if in.TableCell != nil {
			c.Target.TableRecord, c.Target.TableDefinition = in.TableCell.Record, in.TableCell.Definition
		}
		if in.Page != "" {
			n, ok := cc.Node(in.Page)
			if !ok {
				return folio.FieldErrorf("page", "page %s is not in the current content", in.Page)
			}
			c.Target.PageTitle, c.Target.PagePath = n.Page.Title, cc.Paths()[n.Page.ID]
		}
		if err := store.CreateComment(ctx, tx, &c); err != nil {
			return err
		}
		if err := emitComment(ctx, tx, th, &c); err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, &c, folio.FormatMarkdown)
		return err
	})
	return v, err
}

// GetComment returns one comment of a thread set.
func (a *App) GetComment(ctx context.Context, caller folio.Caller, scope CommentScope, id folio.ID, format string) (v *folio.CommentView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		c, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", id)
		if err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, c, format)
		return err
	})
	return v, err
}

// applyUpdate applies the parts of a comment or reply update: a new body
// (author only), reactions (whoever may comment). Resolving is left to
// UpdateComment.
func applyUpdate(ctx context.Context, tx *store.Tx, caller folio.Caller, th *commentThread, c *folio.Comment, u *folio.CommentUpdate) error {
	if err := u.Validate(); err != nil {
		return err
	}
	if u.Body != nil {
		if err := require(folio.CommentPerms(th.perms, c.AuthorID == caller.UserID).Edit, "only the author can edit it"); err != nil {
			return err
		}
		md, err := commentMarkdown(u.Body, "body")
		if err != nil {
			return err
		}
		if err := store.SetCommentBody(ctx, tx, c.ID, md); err != nil {
			return err
		}
	}
	if len(u.AddedReactions)+len(u.RemovedReactions) > 0 {
		if err := require(th.perms.Comment, "you cannot react to comments in this space"); err != nil {
			return err
		}
	}
	// Added first, then removed: an emoji in both lists ends removed.
	for _, e := range u.AddedReactions {
		if err := store.AddReaction(ctx, tx, c.ID, caller.UserID, e); err != nil {
			return err
		}
	}
	for _, e := range u.RemovedReactions {
		if err := store.RemoveReaction(ctx, tx, c.ID, caller.UserID, e); err != nil {
			return err
		}
	}
	return nil
}

// UpdateComment resolves or reopens a comment (whoever may comment),
// changes its body (its author) and adds or removes the caller's
// reactions. Nothing changes when any part is refused.
func (a *App) UpdateComment(ctx context.Context, caller folio.Caller, scope CommentScope, id folio.ID, u *folio.CommentUpdate) (v *folio.CommentView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		c, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", id)
		if err != nil {
			return err
		}
		if err := applyUpdate(ctx, tx, caller, th, c, u); err != nil {
			return err
		}
		if u.Resolved != nil {
			if err := require(th.perms.Comment, "you cannot resolve comments in this space"); err != nil {
				return err
			}
			// Resolving a resolved comment keeps who resolved it and when.
			switch {
			case *u.Resolved && c.Status != folio.CommentResolved:
				err = store.SetCommentResolved(ctx, tx, c.ID, caller.UserID)
			case !*u.Resolved && c.Status != folio.CommentOpen:
				err = store.SetCommentResolved(ctx, tx, c.ID, "")
			}
			if err != nil {
				return err
			}
		}
		if c, err = store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", id); err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, c, folio.FormatMarkdown)
		return err
	})
	return v, err
}

// DeleteComment deletes a comment with its replies: its author or a space
// admin. A comment that does not exist answers as deleted, once the caller
// may view the space.
func (a *App) DeleteComment(ctx context.Context, caller folio.Caller, scope CommentScope, id folio.ID) error {
	return a.deleteComment(ctx, caller, scope, "", id)
}

func (a *App) deleteComment(ctx context.Context, caller folio.Caller, scope CommentScope, parent, id folio.ID) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		// A reply whose comment is gone went with it: both answer as deleted.
		c, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, parent, id)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := require(folio.CommentPerms(th.perms, c.AuthorID == caller.UserID).Delete,
			"only the author or an admin of the space can delete it"); err != nil {
			return err
		}
		return store.DeleteComment(ctx, tx, id)
	})
}

// ListReplies lists the replies of a comment, oldest first.
func (a *App) ListReplies(ctx context.Context, caller folio.Caller, scope CommentScope, commentID folio.ID, format string, opts folio.ListOptions) (l folio.List[folio.CommentView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		if _, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", commentID); err != nil {
			return err
		}
		rs, err := store.ListReplies(ctx, tx, commentID, opts)
		if err != nil {
			return err
		}
		items, err := a.views(ctx, tx, caller, th, rs.Items, format)
		if err != nil {
			return err
		}
		l = folio.List[folio.CommentView]{Items: items, Count: rs.Count, Next: rs.Next}
		return nil
	})
	return l, err
}

// PostReply replies to a comment; the caller needs the space's comment
// permission.
func (a *App) PostReply(ctx context.Context, caller folio.Caller, scope CommentScope, commentID folio.ID, body *folio.CommentBody, format string) (v *folio.CommentView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		parent, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", commentID)
		if err != nil {
			return err
		}
		if err := require(th.perms.Comment, "you cannot comment on this space"); err != nil {
			return err
		}
		md, err := commentMarkdown(body, "body")
		if err != nil {
			return err
		}
		r := folio.Comment{ID: folio.NewID(), SpaceID: scope.Space, ChangeRequest: scope.ChangeRequest, Parent: parent.ID,
			AuthorID: caller.UserID, Markdown: md, Revision: parent.Revision, Status: folio.CommentOpen, PostedAt: tx.Now}
		if err := store.CreateComment(ctx, tx, &r); err != nil {
			return err
		}
		if err := emitComment(ctx, tx, th, &r); err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, &r, format)
		return err
	})
	return v, err
}

// reply loads a reply of a comment of the scope: NotFound names the
// comment when it is gone, the reply otherwise.
func reply(ctx context.Context, tx *store.Tx, scope CommentScope, commentID, id folio.ID) (*folio.Comment, error) {
	if _, err := store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, "", commentID); err != nil {
		return nil, err
	}
	return store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, commentID, id)
}

// GetReply returns one reply of a comment.
func (a *App) GetReply(ctx context.Context, caller folio.Caller, scope CommentScope, commentID, id folio.ID, format string) (v *folio.CommentView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		r, err := reply(ctx, tx, scope, commentID, id)
		if err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, r, format)
		return err
	})
	return v, err
}

// UpdateReply changes a reply's body (its author) and the caller's
// reactions to it.
func (a *App) UpdateReply(ctx context.Context, caller folio.Caller, scope CommentScope, commentID, id folio.ID, u *folio.CommentUpdate) (v *folio.CommentView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		r, err := reply(ctx, tx, scope, commentID, id)
		if err != nil {
			return err
		}
		if err := applyUpdate(ctx, tx, caller, th, r, u); err != nil {
			return err
		}
		if r, err = store.GetComment(ctx, tx, scope.Space, scope.ChangeRequest, commentID, id); err != nil {
			return err
		}
		v, err = a.view(ctx, tx, caller, th, r, folio.FormatMarkdown)
		return err
	})
	return v, err
}

// DeleteReply deletes a reply: its author or a space admin. A reply that
// does not exist answers as deleted.
func (a *App) DeleteReply(ctx context.Context, caller folio.Caller, scope CommentScope, commentID, id folio.ID) error {
	return a.deleteComment(ctx, caller, scope, commentID, id)
}

// ListCommenters lists the members who posted a comment or reply in a
// thread set.
func (a *App) ListCommenters(ctx context.Context, caller folio.Caller, scope CommentScope, opts folio.ListOptions) (l folio.List[folio.MemberView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		th, err := a.thread(ctx, tx, caller, scope)
		if err != nil {
			return err
		}
		scope = th.scope
		l, err = store.ListCommenters(ctx, tx, th.sv.OrganizationID, scope.Space, scope.ChangeRequest, opts)
		return err
	})
	return l, err
}
