package folio

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// Comment statuses. The reference shows these two; a comment is open until
// someone resolves it.
const (
	CommentOpen     = "open"
	CommentResolved = "resolved"
)

// Limits of comments and replies (docs/decisions.md).
const (
	// MaxCommentBody bounds the Markdown of a comment or reply, in characters.
	MaxCommentBody = 20_000
	// MaxReactionEmoji bounds one reaction's emoji, in characters.
	MaxReactionEmoji = 50
	// MaxReactionsPerRequest bounds addedReactions and removedReactions.
	MaxReactionsPerRequest = 20
	// MaxCommentTargetID bounds the node, page and table cell ids a comment
	// targets.
	MaxCommentTargetID = 100
	// MaxCommentAuthors bounds the authors filter of a comment list.
	MaxCommentAuthors = 100
)

// Comment is a discussion thread on a space's content or on a change
// request; replies are Comments too, with Parent set.
type Comment struct {
	ID            ID
	SpaceID       ID
	ChangeRequest ID // empty: a comment on the space's main content
	Parent        ID // empty for a comment, the comment of a reply
	AuthorID      ID
	Markdown      string
	Revision      ID // the revision the target was found in when posting
	Target        CommentTarget
	Status        string // CommentOpen or CommentResolved; replies are open
	ResolvedAt    *time.Time
	ResolvedBy    ID
	PostedAt      time.Time
	EditedAt      *time.Time
}

// CommentTarget is what a comment points at. PageTitle and PagePath are
// kept from when it was posted, so the comment still reads well after a
// later revision removes the page. Review is set on the comment posted
// with a review of its change request.
type CommentTarget struct {
	Review          ID
	Node            string
	Page            string
	PageTitle       string
	PagePath        string
	TableRecord     string
	TableDefinition string
}

// Reaction is one emoji of a comment or reply with the users who chose it,
// in the order they reacted.
type Reaction struct {
	Emoji string
	Users []Reactor
}

// Reactor is one user's reaction.
type Reactor struct {
	UserID    ID
	ReactedAt time.Time
}

// Replier is one user who replied to a comment: how many replies they
// posted and when the last one was.
type Replier struct {
	UserID    ID
	Count     int
	UpdatedAt time.Time
}

// CommentDetails is a comment or reply with what is computed around it:
// its reactions, its replies and repliers (comments only), and the users
// they name.
type CommentDetails struct {
	Comment
	Reactions []Reaction
	Replies   int
	Repliers  []Replier
}

// CommentPermissions is what a caller may do with a comment or reply.
type CommentPermissions struct {
	View   bool
	Edit   bool
	Reply  bool
	Delete bool
}

// CommentPerms derives a caller's permissions on a comment or reply from
// their permissions on its space and whether they wrote it: anyone who may
// comment on the space replies and reacts, only the author edits, and the
// author or a space admin deletes.
func CommentPerms(space SpacePermissions, author bool) CommentPermissions {
	return CommentPermissions{
		View:   space.View,
		Edit:   author && space.Comment,
		Reply:  space.Comment,
		Delete: (author && space.Comment) || space.Admin,
	}
}

// CommentBody is the body of a comment or reply as sent: Markdown, or a
// Document (which is stored as its Markdown).
type CommentBody struct {
	Markdown *string         `json:"markdown"`
	Document json.RawMessage `json:"document"`
}

// ValidateMarkdown checks the Markdown of a body (field names the body's
// field): not blank, at most MaxCommentBody characters.
func ValidateMarkdown(field, md string) error {
	if strings.TrimSpace(md) == "" {
		return FieldErrorf(field, "%s must not be blank", field)
	}
	if utf8.RuneCountInString(md) > MaxCommentBody {
		return FieldErrorf(field, "%s must be at most %d characters", field, MaxCommentBody)
	}
	return nil
}

// TableCell is a comment's table cell target.
type TableCell struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

// NewComment is the body of a comment post.
type NewComment struct {
	Body      *CommentBody `json:"body"`
	Node      string       `json:"node"`
	Page      string       `json:"page"`
	TableCell *TableCell   `json:"tableCell"`
}

// Validate checks a new comment's target; the body is checked when it is
// turned into Markdown. It returns Invalid errors.
func (n *NewComment) Validate() error {
	if n.Body == nil {
		return FieldErrorf("body", "body is required")
	}
	for _, f := range []struct{ name, v string }{{"node", n.Node}, {"page", n.Page}} {
		if utf8.RuneCountInString(f.v) > MaxCommentTargetID {
			return FieldErrorf(f.name, "%s must be at most %d characters", f.name, MaxCommentTargetID)
		}
	}
	if c := n.TableCell; c != nil {
		if c.Record == "" || c.Definition == "" {
			return FieldErrorf("tableCell", "tableCell needs a record and a definition")
		}
		if utf8.RuneCountInString(c.Record) > MaxCommentTargetID || utf8.RuneCountInString(c.Definition) > MaxCommentTargetID {
			return FieldErrorf("tableCell", "tableCell record and definition must be at most %d characters", MaxCommentTargetID)
		}
	}
	return nil
}

// CommentUpdate is the body of a comment or reply PUT; every field is
// optional. Resolved applies to comments only.
type CommentUpdate struct {
	Resolved         *bool        `json:"resolved"`
	Body             *CommentBody `json:"body"`
	AddedReactions   []string     `json:"addedReactions"`
	RemovedReactions []string     `json:"removedReactions"`
}

// Validate checks the reaction lists. It returns Invalid errors.
func (u *CommentUpdate) Validate() error {
	for _, l := range []struct {
		field string
		list  []string
	}{{"addedReactions", u.AddedReactions}, {"removedReactions", u.RemovedReactions}} {
		if len(l.list) > MaxReactionsPerRequest {
			return FieldErrorf(l.field, "%s may hold at most %d reactions", l.field, MaxReactionsPerRequest)
		}
		for _, e := range l.list {
			if strings.TrimSpace(e) == "" || utf8.RuneCountInString(e) > MaxReactionEmoji || !utf8.ValidString(e) {
				return FieldErrorf(l.field, "each of %s must be 1 to %d characters", l.field, MaxReactionEmoji)
			}
		}
	}
	return nil
}

// CommentFilter narrows a comment list.
type CommentFilter struct {
	Status     string // "" or "all", CommentOpen, CommentResolved
	TargetPage string
	Authors    []ID
}

// Validate checks the filter. It returns Invalid errors naming the query
// parameter.
func (f *CommentFilter) Validate() error {
	switch f.Status {
	case "", "all":
		f.Status = ""
	case CommentOpen, CommentResolved:
	default:
		return FieldErrorf("status", "status must be all, open or resolved")
	}
	if len(f.Authors) > MaxCommentAuthors {
		return FieldErrorf("authors", "authors may name at most %d users", MaxCommentAuthors)
	}
	return nil
}

// ParseCommentFormat validates the format query parameter of comment reads:
// markdown (the default) or document.
func ParseCommentFormat(s string) (string, error) {
	switch s {
	case "", FormatMarkdown:
		return FormatMarkdown, nil
	case FormatDocument:
		return FormatDocument, nil
	}
	return "", FieldErrorf("format", "format must be markdown or document")
}

// PageTarget is the page a comment targets as read now: its current title
// and path, or, when the current content no longer holds it (Outdated),
// those it had when the comment was posted.
type PageTarget struct {
	ID       string
	Title    string
	Path     string
	Outdated bool
}

// CommentView is a comment or reply as seen by one caller, with the users
// it names and its body in the format asked for.
type CommentView struct {
	CommentDetails
	Permissions CommentPermissions
	Users       map[ID]User
	Page        *PageTarget     // nil when the comment targets no page
	Document    json.RawMessage // the body as a Document for FormatDocument; nil: Markdown
}

// User returns a user the comment names, or one with only its id when the
// user cannot be found.
func (v *CommentView) User(id ID) User {
	if u, ok := v.Users[id]; ok {
		return u
	}
	return User{ID: id}
}
