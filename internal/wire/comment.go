package wire

import (
	"encoding/json"

	"github.com/foliodocs/folio"
)

// Comment is the GitBook Comment object. Status is open or resolved;
// resolvedAt and resolvedBy are present only when it is resolved.
type Comment struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    User               `json:"postedBy"`
	PostedAt    string             `json:"postedAt"`
	EditedAt    *string            `json:"editedAt,omitempty"`
	Reactions   []Reaction         `json:"reactions"`
	Replies     int                `json:"replies"`
	Repliers    []Replier          `json:"repliers"`
	Body        json.RawMessage    `json:"body"`
	Target      CommentTarget      `json:"target"`
	URLs        UserURLs           `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
	Status      string             `json:"status"`
	ResolvedAt  *string            `json:"resolvedAt,omitempty"`
	ResolvedBy  *User              `json:"resolvedBy,omitempty"`
}

// CommentReply is the GitBook CommentReply object.
type CommentReply struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	PostedBy    User               `json:"postedBy"`
	PostedAt    string             `json:"postedAt"`
	EditedAt    *string            `json:"editedAt,omitempty"`
	Reactions   []Reaction         `json:"reactions"`
	Body        json.RawMessage    `json:"body"`
	URLs        UserURLs           `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
}

// Reaction is the GitBook EmojiReaction object.
type Reaction struct {
	Emoji string    `json:"emoji"`
	Count int       `json:"count"`
	Users []Reactor `json:"users"`
}

// Reactor is one user of a Reaction.
type Reactor struct {
	User      User   `json:"user"`
	ReactedAt string `json:"reactedAt"`
}

// Replier is one user who replied to a comment.
type Replier struct {
	UpdatedAt string `json:"updatedAt"`
	Count     int    `json:"count"`
	User      User   `json:"user"`
}

// CommentTarget is what a comment points at.
type CommentTarget struct {
	Node          *NodeTarget `json:"node,omitempty"`
	TableCell     *TableCell  `json:"tableCell,omitempty"`
	ChangeRequest string      `json:"changeRequest,omitempty"`
	Review        string      `json:"review,omitempty"`
	Page          *PageTarget `json:"page,omitempty"`
	Space         string      `json:"space"`
	Revision      string      `json:"revision"`
}

// NodeTarget names a block of a page.
type NodeTarget struct {
	ID string `json:"id"`
}

// TableCell names a cell of a table block.
type TableCell struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

// PageTarget is a comment's page: outdated when the content no longer
// holds it.
type PageTarget struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Path     string `json:"path"`
	Outdated bool   `json:"outdated"`
}

// CommentPermissions are the caller's permissions on a comment or reply.
type CommentPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// commentBase is the API path of a thread set's comments.
func commentBase(c *folio.Comment) string {
	if c.ChangeRequest != "" {
		return "/spaces/" + c.SpaceID + "/change-requests/" + c.ChangeRequest + "/comments/"
	}
	return "/spaces/" + c.SpaceID + "/comments/"
}

// commentBody is the body as Markdown, or as a Document when one was made.
func commentBody(v *folio.CommentView) json.RawMessage {
	if v.Document != nil {
		b, _ := json.Marshal(struct {
			Document json.RawMessage `json:"document"`
		}{v.Document})
		return b
	}
	b, _ := json.Marshal(struct {
		Markdown string `json:"markdown"`
	}{v.Markdown})
	return b
}

func (u URLs) reactions(v *folio.CommentView) []Reaction {
	out := make([]Reaction, len(v.Reactions))
	for i, r := range v.Reactions {
		users := make([]Reactor, len(r.Users))
		for j, x := range r.Users {
			usr := v.User(x.UserID)
			users[j] = Reactor{User: u.NewUser(&usr), ReactedAt: Time(x.ReactedAt)}
		}
		out[i] = Reaction{Emoji: r.Emoji, Count: len(users), Users: users}
	}
	return out
}

func newCommentPermissions(p folio.CommentPermissions) CommentPermissions {
	return CommentPermissions{View: p.View, Edit: p.Edit, Reply: p.Reply, Delete: p.Delete}
}

// NewComment converts a comment as seen by a caller.
func (u URLs) NewComment(v *folio.CommentView) Comment {
	author := v.User(v.AuthorID)
	out := Comment{Object: "comment", ID: v.ID, PostedBy: u.NewUser(&author), PostedAt: Time(v.PostedAt),
		EditedAt: TimePtr(v.EditedAt), Reactions: u.reactions(v), Replies: v.Replies, Repliers: make([]Replier, len(v.Repliers)),
		Body: commentBody(v), URLs: UserURLs{Location: u.API(commentBase(&v.Comment) + v.ID)},
		Permissions: newCommentPermissions(v.Permissions), Status: v.Status,
		Target: CommentTarget{ChangeRequest: v.ChangeRequest, Review: v.Target.Review, Space: v.SpaceID, Revision: v.Revision}}
	for i, r := range v.Repliers {
		usr := v.User(r.UserID)
		out.Repliers[i] = Replier{UpdatedAt: Time(r.UpdatedAt), Count: r.Count, User: u.NewUser(&usr)}
	}
	if v.Target.Node != "" {
		out.Target.Node = &NodeTarget{ID: v.Target.Node}
	}
	if v.Target.TableRecord != "" {
		out.Target.TableCell = &TableCell{Record: v.Target.TableRecord, Definition: v.Target.TableDefinition}
	}
	if p := v.Page; p != nil {
		out.Target.Page = &PageTarget{ID: p.ID, Title: p.Title, Path: p.Path, Outdated: p.Outdated}
	}
	if v.Status == folio.CommentResolved && v.ResolvedAt != nil {
		by := v.User(v.ResolvedBy)
		rb := u.NewUser(&by)
		out.ResolvedAt, out.ResolvedBy = TimePtr(v.ResolvedAt), &rb
	}
	return out
}

// NewCommentReply converts a reply as seen by a caller.
func (u URLs) NewCommentReply(v *folio.CommentView) CommentReply {
	author := v.User(v.AuthorID)
	return CommentReply{Object: "comment-reply", ID: v.ID, PostedBy: u.NewUser(&author), PostedAt: Time(v.PostedAt),
		EditedAt: TimePtr(v.EditedAt), Reactions: u.reactions(v), Body: commentBody(v),
		URLs:        UserURLs{Location: u.API(commentBase(&v.Comment) + v.Parent + "/replies/" + v.ID)},
		Permissions: newCommentPermissions(v.Permissions)}
}
