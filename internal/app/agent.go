package app

import (
	"context"
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
)

// GetAgentInstructions returns the organization's docs-agent instructions.
// Members (not guests) may read them. An organization that never set any
// has empty instructions (an empty document dated from the organization's
// creation, updatedBy empty): the GitBook reference declares only 200.
func (a *App) GetAgentInstructions(ctx context.Context, caller folio.Caller, orgID folio.ID) (ai *folio.AgentInstructions, err error) {
	err = a.read(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Role != folio.RoleGuest, "guests cannot read the agent instructions"); err != nil {
			return err
		}
		ai, err = store.GetAgentInstructions(ctx, tx, orgID)
		if !folio.IsNotFound(err) {
			return err
		}
		org, err := store.GetOrganization(ctx, tx, orgID)
		if err != nil {
			return err
		}
		doc, err := json.Marshal(content.NewDocument())
		if err != nil {
			return err
		}
		ai = &folio.AgentInstructions{OrganizationID: orgID, Document: doc, UpdatedAt: org.CreatedAt}
		return nil
	})
	return ai, err
}

// PutAgentInstructions replaces the instructions with a validated Document.
// Admins only.
func (a *App) PutAgentInstructions(ctx context.Context, caller folio.Caller, orgID folio.ID, doc *content.Document) (ai *folio.AgentInstructions, err error) {
	err = a.write(ctx, caller, orgID, func(tx *store.Tx, acc folio.Access) error {
		if err := require(acc.Permissions().Admin, "only organization admins can change the agent instructions"); err != nil {
			return err
		}
		if doc == nil {
			return folio.FieldErrorf("instructions", "instructions is required")
		}
		if err := doc.Validate("instructions"); err != nil {
			return err
		}
		doc.Normalize()
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		ai = &folio.AgentInstructions{OrganizationID: orgID, Document: b, UpdatedAt: tx.Now, UpdatedBy: caller.UserID}
		if err := store.PutAgentInstructions(ctx, tx, ai); err != nil {
			return err
		}
		return audit(ctx, tx, caller, orgID, "organization.agent_instructions.updated", "organization", orgID,
			map[string]any{"bytes": len(b)})
	})
	return ai, err
}
