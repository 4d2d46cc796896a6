package wire

import "github.com/foliodocs/folio"

// level converts a default level: "inherit", a role, or null.
func level(l folio.Level) *string {
	if l.Inherit {
		s := "inherit"
		return &s
	}
	return role(l.Role)
}

// Space is the GitBook Space object.
type Space struct {
	Object              string           `json:"object"`
	ID                  string           `json:"id"`
	Title               string           `json:"title"`
	Emoji               string           `json:"emoji"`
	Visibility          string           `json:"visibility"`
	CreatedAt           string           `json:"createdAt"`
	UpdatedAt           string           `json:"updatedAt"`
	DeletedAt           *string          `json:"deletedAt,omitempty"`
	EditMode            string           `json:"editMode"`
	MergeRules          MergeRules       `json:"mergeRules"`
	URLs                ContentURLs      `json:"urls"`
	Organization        string           `json:"organization"`
	Parent              string           `json:"parent,omitempty"`
	Language            string           `json:"language,omitempty"`
	Revision            string           `json:"revision"`
	DefaultLevel        *string          `json:"defaultLevel"`
	Comments            int              `json:"comments"`
	ChangeRequests      int              `json:"changeRequests"`
	ChangeRequestsOpen  int              `json:"changeRequestsOpen"`
	ChangeRequestsDraft int              `json:"changeRequestsDraft"`
	GitSync             *GitSyncState    `json:"gitSync,omitempty"`
	Permissions         SpacePermissions `json:"permissions"`
}

// ContentURLs are the URLs of a space or collection.
type ContentURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

// SpacePermissions are the caller's permissions on a space.
type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// NewSpace converts a space as seen by a caller.
func (u URLs) NewSpace(v *folio.SpaceView) Space {
	p := v.Permissions()
	return Space{
		Object: "space", ID: v.ID, Title: v.Title, Emoji: v.Emoji, Visibility: v.Visibility,
		CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt), DeletedAt: TimePtr(v.DeletedAt),
		EditMode: v.EditMode, MergeRules: NewMergeRules(v.MergeRules),
		URLs:         ContentURLs{Location: u.API("/spaces/" + v.ID), App: u.App("/s/" + v.ID)},
		Organization: v.OrganizationID, Parent: v.Parent, Language: v.Language, Revision: v.Revision,
		DefaultLevel: level(v.DefaultLevel), Comments: v.Comments,
		ChangeRequests: v.ChangeRequests, ChangeRequestsOpen: v.ChangeRequestsOpen, ChangeRequestsDraft: v.ChangeRequestsDraft,
		Permissions: SpacePermissions{View: p.View, Access: p.Access, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks,
			Edit: p.Edit, TriggerGitSync: p.TriggerGitSync, Comment: p.Comment, Merge: p.Merge, Review: p.Review,
			InstallIntegration: p.InstallIntegration},
		GitSync: NewGitSyncState(v.GitSync),
	}
}

// Collection is the GitBook Collection object.
type Collection struct {
	Object       string                `json:"object"`
	ID           string                `json:"id"`
	Title        string                `json:"title"`
	Description  string                `json:"description,omitempty"`
	Organization string                `json:"organization"`
	Parent       string                `json:"parent,omitempty"`
	DefaultLevel *string               `json:"defaultLevel"`
	URLs         ContentURLs           `json:"urls"`
	Permissions  CollectionPermissions `json:"permissions"`
}

// CollectionPermissions are the caller's permissions on a collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// NewCollection converts a collection as seen by a caller.
func (u URLs) NewCollection(v *folio.CollectionView) Collection {
	p := v.Permissions()
	return Collection{Object: "collection", ID: v.ID, Title: v.Title, Description: v.Description,
		Organization: v.OrganizationID, Parent: v.Parent, DefaultLevel: level(v.DefaultLevel),
		URLs:        ContentURLs{Location: u.API("/collections/" + v.ID), App: u.App("/c/" + v.ID)},
		Permissions: CollectionPermissions{View: p.View, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Create: p.Create}}
}

// UserPermission is a user's role on a space or collection.
type UserPermission struct {
	Permission string `json:"permission"`
	User       User   `json:"user"`
}

// TeamPermission is a team's role on a space or collection.
type TeamPermission struct {
	Permission string `json:"permission"`
	Team       Team   `json:"team"`
}
