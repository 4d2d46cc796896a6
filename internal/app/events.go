package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// emit records an event in the caller's transaction, with a delivery for
// every webhook subscribed to it (an outbox): every event goes through it,
// so a change and the news of it commit or roll back together.
func emit(ctx context.Context, tx *store.Tx, orgID, spaceID folio.ID, typ string, payload map[string]any) error {
	e := &folio.Event{ID: folio.NewID(), OrgID: orgID, SpaceID: spaceID, Type: typ}
	payload["eventId"] = e.ID
	payload["type"] = typ
	e.Payload, _ = json.Marshal(payload)
	if err := store.CreateEvent(ctx, tx, e); err != nil {
		return err
	}
	if err := fanOutToIntegrations(ctx, tx, e, payload); err != nil {
		return err
	}
	return fanOut(ctx, tx, e)
}

// emitContentUpdated records that a space has a new current revision.
func emitContentUpdated(ctx context.Context, tx *store.Tx, s *folio.Space, revision folio.ID) error {
	return emit(ctx, tx, s.OrganizationID, s.ID, folio.EventSpaceContentUpdated,
		map[string]any{"spaceId": s.ID, "revisionId": revision})
}

// emitComment records a new comment or reply.
func emitComment(ctx context.Context, tx *store.Tx, th *commentThread, c *folio.Comment) error {
	p := map[string]any{"spaceId": c.SpaceID, "commentId": c.ID, "authorId": c.AuthorID}
	if c.ChangeRequest != "" {
		p["changeRequestId"] = c.ChangeRequest
	}
	typ := folio.EventCommentCreated
	if c.Parent != "" {
		typ = folio.EventCommentReplyCreated
		p["commentId"], p["replyId"] = c.Parent, c.ID
	}
	return emit(ctx, tx, th.sv.OrganizationID, c.SpaceID, typ, p)
}

// addMember adds a member unless the user already is one, and records
// member_added when it did.
func addMember(ctx context.Context, tx *store.Tx, caller folio.Caller, m *folio.Member) (bool, error) {
	added, err := store.AddMemberIfAbsent(ctx, tx, m)
	if err != nil || !added {
		return added, err
	}
	if err := audit(ctx, tx, caller, m.OrganizationID, "member.added", "member", m.UserID,
		map[string]any{"role": roleName(m.Role), "sso": m.SSO}); err != nil {
		return false, err
	}
	return true, emit(ctx, tx, m.OrganizationID, "", folio.EventMemberAdded,
		map[string]any{"organizationId": m.OrganizationID, "userId": m.UserID, "role": roleName(m.Role)})
}

// roleName is a role as the wire shows it: a guest's is null.
func roleName(r folio.Role) any {
	if r == folio.RoleGuest {
		return nil
	}
	return string(r)
}
