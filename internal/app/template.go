package app

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/templates"
)

// TemplateInput is the body of POST /spaces/{spaceId}/content/template.
type TemplateInput struct {
	ID     string `json:"id"`
	Params struct {
		ContentRefs map[string]json.RawMessage `json:"contentRefs"`
	} `json:"params"`
	ChangeRequestID string `json:"changeRequestId"`
}

// ApplyTemplate replaces a space's content with a built-in template, as a
// new revision; the previous revision stays readable. api-reference builds
// its pages from an OpenAPI document given as a url content reference in
// params.contentRefs (a map of names to references). With changeRequestId,
// the template replaces the change request's head instead, as a new head
// that records the caller as a contributor; the live space does not change
// and the content returned is nil.
func (a *App) ApplyTemplate(ctx context.Context, caller folio.Caller, spaceID folio.ID, in TemplateInput) (*Content, error) {
	var sv *folio.SpaceView
	var crID folio.ID
	if in.ChangeRequestID != "" {
		b, err := a.loadChangeRequestHead(ctx, caller, spaceID, in.ChangeRequestID)
		if err != nil {
			return nil, err
		}
		if err := requireChangeRequestWritable(b.head.Space, b.cr); err != nil {
			return nil, err
		}
		sv, crID = b.head.Space, b.cr.ID
	} else {
		base, err := a.GetContent(ctx, caller, spaceID, "")
		if err != nil {
			return nil, err
		}
		if err := requireEditable(base.Space); err != nil {
			return nil, err
		}
		sv = base.Space
	}
	if in.ID == "" {
		return nil, folio.FieldErrorf("id", "id is required")
	}
	tin := templates.Input{Title: sv.Title}
	specSlug := ""
	for _, name := range slices.Sorted(maps.Keys(in.Params.ContentRefs)) {
		raw := in.Params.ContentRefs[name]
		var ref struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
		}
		if err := json.Unmarshal(raw, &ref); err != nil || ref.Kind == "" {
			return nil, folio.FieldErrorf("params.contentRefs", "contentRefs.%s must be a content reference with a kind", name)
		}
		switch ref.Kind {
		case "url":
			u, err := url.Parse(ref.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "data") {
				return nil, folio.FieldErrorf("params.contentRefs", "contentRefs.%s.url must be an http, https or data URL", name)
			}
			body, _, err := a.fetch(ctx, u, maxImportDocument)
			if err != nil {
				return nil, err
			}
			tin.OpenAPI = body
		case "openapi":
			var spec struct {
				Spec string `json:"spec"`
			}
			if json.Unmarshal(raw, &spec) != nil || spec.Spec == "" {
				return nil, folio.FieldErrorf("params.contentRefs", "contentRefs.%s of kind openapi needs the spec's slug in spec", name)
			}
			specSlug = spec.Spec
		default:
			return nil, folio.FieldErrorf("params.contentRefs", "contentRefs.%s of kind %s is not used by templates", name, ref.Kind)
		}
	}
	var snap *content.Snapshot
	var err error
	if specSlug != "" && in.ID == "api-reference" {
		if err := a.db.Read(ctx, func(tx *store.Tx) error {
			_, err := openAPIRights(ctx, tx, caller, sv.OrganizationID, false)
			return err
		}); err != nil {
			return nil, err
		}
		// Pages computed from the organization's specification: they
		// follow its new versions.
		snap, err = a.computedOpenAPIPages(ctx, sv.OrganizationID, specSlug)
	} else {
		snap, err = templates.Build(in.ID, tin)
	}
	if err != nil {
		return nil, err
	}
	replace := func(*Content) (*content.Snapshot, error) { return snap, nil }
	if crID != "" {
		_, err := a.commitChangeRequest(ctx, caller, sv.ID, crID, "", replace)
		return nil, err
	}
	return a.commit(ctx, caller, spaceID, edit{check: requireEditable, typ: folio.RevisionEdits, build: replace})
}
