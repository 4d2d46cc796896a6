package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// permsView is the permissions page of a space (in the space's frame, as
// its Body) or of a collection (in the organization's frame): who has
// which role on it, its default level, and what its admins can do with it
// (move, transfer; duplicate and delete for spaces).
type permsView struct {
	Frame  *orgFrame // collections only
	Notice string
	Kind   string // folio.TargetSpace or folio.TargetCollection
	ID     folio.ID
	Title  string
	Href   string // the space's or collection's page
	Base   string // Href + "/~"
	CSRF   string
	// Grants are the people, then the teams, given a role here.
	Grants []grantRow
	// The members and teams to grant a role to, as "user:ID"/"team:ID".
	Principals []roleOption
	Roles      []roleOption
	Levels     []roleOption
	// Actions.
	Parents []roleOption // collections to move into, "" the top level
	Orgs    []roleOption // organizations the caller administers, to transfer to
	Space   bool
}

type grantRow struct {
	Principal, Name, Detail string
	Roles                   []roleOption
}

func levelOptions(l folio.Level) []roleOption {
	cur := l.String()
	out := []roleOption{{"inherit", "As the collection above", cur == "inherit"},
		{"none", "No access (only those given a role)", cur == "none"}}
	for _, o := range roleOptions(cur, false) {
		o.Label = "Every member: " + o.Label
		out = append(out, o)
	}
	return out
}

// fillPerms loads the grants of the target (refused to non-admins of it by
// the app) and what the forms offer.
func (h *Handler) fillPerms(ctx context.Context, q *req, v *permsView, orgID, parent folio.ID, level folio.Level) error {
	users, err := h.app.ListUserGrants(ctx, q.caller, v.Kind, v.ID, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	teams, err := h.app.ListTeamGrants(ctx, q.caller, v.Kind, v.ID, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	v.CSRF = q.csrf
	granted := map[string]bool{}
	for _, g := range users.Items {
		p := folio.PrincipalUser + ":" + g.User.ID
		granted[p] = true
		v.Grants = append(v.Grants, grantRow{Principal: p, Name: g.User.DisplayName, Detail: g.User.Email, Roles: roleOptions(string(g.Role), false)})
	}
	for _, g := range teams.Items {
		p := folio.PrincipalTeam + ":" + g.Team.ID
		granted[p] = true
		v.Grants = append(v.Grants, grantRow{Principal: p, Name: g.Team.Title, Detail: "team", Roles: roleOptions(string(g.Role), false)})
	}
	// Guests cannot list members or teams: they grant nothing new here.
	if ms, err := h.app.ListMembers(ctx, q.caller, orgID, folio.MemberFilter{}, folio.ListOptions{Limit: folio.MaxLimit}); err == nil {
		for _, m := range ms.Items {
			if p := folio.PrincipalUser + ":" + m.UserID; !granted[p] {
				v.Principals = append(v.Principals, roleOption{Value: p, Label: m.User.DisplayName + " (" + m.User.Email + ")"})
			}
		}
	}
	if ts, err := h.app.ListTeams(ctx, q.caller, orgID, folio.TeamFilter{}, folio.ListOptions{Limit: folio.MaxLimit}); err == nil {
		for _, t := range ts.Items {
			if p := folio.PrincipalTeam + ":" + t.ID; !granted[p] {
				v.Principals = append(v.Principals, roleOption{Value: p, Label: "Team: " + t.Title})
			}
		}
	}
	v.Roles = roleOptions("read", false)
	v.Levels = levelOptions(level)
	// Move: into any collection the caller can see (the app refuses those
	// they may not create in, and a collection into itself).
	cols, err := h.app.ListCollections(ctx, q.caller, orgID, true, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	v.Parents = []roleOption{{Value: "", Label: "The organization's top level", Selected: parent == ""}}
	for _, c := range cols.Items {
		if c.ID != v.ID && c.Permissions().Create {
			v.Parents = append(v.Parents, roleOption{Value: c.ID, Label: c.Title, Selected: c.ID == parent})
		}
	}
	orgs, err := h.app.ListOrganizations(ctx, q.caller, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	for _, o := range orgs.Items {
		if o.ID != orgID && o.Permissions().Admin {
			v.Orgs = append(v.Orgs, roleOption{Value: o.ID, Label: o.Title})
		}
	}
	return nil
}

func (h *Handler) spacePermissions(w http.ResponseWriter, r *http.Request, q *req) error {
	sv, _, err := h.spaceFrame(r, q, "permissions")
	if err != nil {
		return err
	}
	s := &sv.Space
	v := &permsView{Notice: notice(r), Kind: folio.TargetSpace, ID: s.ID, Title: s.Title, Href: sv.Href, Base: sv.Href + "/~", Space: true}
	if err := h.fillPerms(r.Context(), q, v, s.OrganizationID, s.Parent, s.DefaultLevel); err != nil {
		return err
	}
	sv.Body = v
	h.renderPage(w, http.StatusOK, "permissions", q, "Permissions · "+s.Title, sv, pageAssets{})
	return nil
}

// collectionPage is the data of the collection permissions page: the
// organization's frame around permsView.
type collectionPage struct {
	Frame *orgFrame
	Body  *permsView
}

func (h *Handler) collectionPermissions(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	c, err := h.app.GetCollection(ctx, q.caller, r.PathValue("collection"))
	if err != nil {
		return err
	}
	f, err := h.orgFrame(ctx, q, c.OrganizationID, "spaces")
	if err != nil {
		return err
	}
	v := &permsView{Frame: f, Notice: notice(r), Kind: folio.TargetCollection, ID: c.ID, Title: c.Title, Href: "/c/" + c.ID, Base: "/c/" + c.ID + "/~"}
	if err := h.fillPerms(ctx, q, v, c.OrganizationID, c.Parent, c.DefaultLevel); err != nil {
		return err
	}
	h.render(w, http.StatusOK, "collectionperms", q, "Permissions · "+c.Title, collectionPage{Frame: f, Body: v})
	return nil
}

// target is the space or collection a permissions form is about.
func target(r *http.Request) (kind string, id folio.ID, base string) {
	if id := r.PathValue("space"); id != "" {
		return folio.TargetSpace, id, "/s/" + url.PathEscape(id) + "/~/permissions"
	}
	id = r.PathValue("collection")
	return folio.TargetCollection, id, "/c/" + url.PathEscape(id) + "/~/permissions"
}

// principal reads "user:ID" or "team:ID".
func principal(r *http.Request) (string, folio.ID, error) {
	kind, id, _ := strings.Cut(r.PostForm.Get("principal"), ":")
	if id == "" || kind != folio.PrincipalUser && kind != folio.PrincipalTeam {
		return "", "", folio.FieldErrorf("principal", "choose a member or a team")
	}
	return kind, id, nil
}

func (h *Handler) grant(w http.ResponseWriter, r *http.Request, q *req) error {
	kind, id, path := target(r)
	pk, pid, err := principal(r)
	if err != nil {
		return err
	}
	role := formRole(r, "role")
	if !role.Set || role.Null {
		return folio.FieldErrorf("role", "choose a role")
	}
	if err := h.app.SetGrant(r.Context(), q.caller, kind, id, pk, pid, role); err != nil {
		return err
	}
	return back(w, r, path, "granted")
}

func (h *Handler) revoke(w http.ResponseWriter, r *http.Request, q *req) error {
	kind, id, path := target(r)
	pk, pid, err := principal(r)
	if err != nil {
		return err
	}
	if err := h.app.RemoveGrant(r.Context(), q.caller, kind, id, pk, pid); err != nil {
		return err
	}
	return back(w, r, path, "ungranted")
}

func (h *Handler) defaultLevel(w http.ResponseWriter, r *http.Request, q *req) error {
	kind, id, path := target(r)
	level := formRole(r, "level")
	if !level.Set {
		return folio.FieldErrorf("level", "choose the default access")
	}
	var err error
	if kind == folio.TargetSpace {
		_, err = h.app.UpdateSpace(r.Context(), q.caller, id, &folio.SpaceUpdate{DefaultLevel: level})
	} else {
		_, err = h.app.UpdateCollection(r.Context(), q.caller, id, &app.CollectionUpdate{DefaultLevel: level})
	}
	if err != nil {
		return err
	}
	return back(w, r, path, "level")
}
