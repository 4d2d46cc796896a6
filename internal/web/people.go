package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// The people of an organization (people.go, teams.go), the permissions of
// spaces and collections (permissions.go), moving content and the trash
// (contentops.go), and personal API tokens (tokens.go). Every page and
// form goes through the same app methods as the API; what the caller may
// not do is left out of the page and refused by those methods.
func (h *Handler) peopleRoutes() {
	h.handle("GET /o/{org}/members", signedIn, h.members)
	h.handle("POST /o/{org}/members/{user}/role", signedIn, h.memberRole)
	h.handle("POST /o/{org}/members/{user}/disabled", signedIn, h.memberDisabled)
	h.handle("POST /o/{org}/members/{user}/remove", signedIn, h.memberRemove)
	h.handle("POST /o/{org}/invites", signedIn, h.createInvite)
	h.handle("POST /o/{org}/invites/{invite}/revoke", signedIn, h.revokeInvite)
	h.handle("POST /o/{org}/email-domains", signedIn, h.emailDomains)
	h.handle("GET /join/{org}/{invite}", anyone, h.joinPage)
	h.handle("POST /join/{org}/{invite}", signedIn, h.join)

	h.handle("GET /o/{org}/teams", signedIn, h.teams)
	h.handle("POST /o/{org}/teams", signedIn, h.createTeam)
	h.handle("GET /o/{org}/teams/{team}", signedIn, h.team)
	h.handle("POST /o/{org}/teams/{team}/rename", signedIn, h.renameTeam)
	h.handle("POST /o/{org}/teams/{team}/delete", signedIn, h.deleteTeam)
	h.handle("POST /o/{org}/teams/{team}/members", signedIn, h.addTeamMember)
	h.handle("POST /o/{org}/teams/{team}/members/{user}/role", signedIn, h.teamMemberRole)
	h.handle("POST /o/{org}/teams/{team}/members/{user}/remove", signedIn, h.removeTeamMember)

	h.handle("GET /s/{space}/~/permissions", signedIn, h.spacePermissions)
	h.handle("POST /s/{space}/~/permissions", signedIn, h.grant)
	h.handle("POST /s/{space}/~/permissions/revoke", signedIn, h.revoke)
	h.handle("POST /s/{space}/~/permissions/level", signedIn, h.defaultLevel)
	h.handle("GET /c/{collection}/~/permissions", signedIn, h.collectionPermissions)
	h.handle("POST /c/{collection}/~/permissions", signedIn, h.grant)
	h.handle("POST /c/{collection}/~/permissions/revoke", signedIn, h.revoke)
	h.handle("POST /c/{collection}/~/permissions/level", signedIn, h.defaultLevel)

	h.handle("GET /o/{org}/collections/new", signedIn, h.newCollection)
	h.handle("POST /o/{org}/collections", signedIn, h.createCollection)
	h.handle("POST /c/{collection}/~/move", signedIn, h.moveCollection)
	h.handle("POST /c/{collection}/~/transfer", signedIn, h.transferCollection)
	h.handle("POST /s/{space}/~/duplicate", signedIn, h.duplicateSpace)
	h.handle("POST /s/{space}/~/move", signedIn, h.moveSpace)
	h.handle("POST /s/{space}/~/transfer", signedIn, h.transferSpace)
	h.handle("POST /s/{space}/~/delete", signedIn, h.deleteSpace)
	h.handle("GET /o/{org}/trash", signedIn, h.trash)
	h.handle("POST /o/{org}/trash/{space}/restore", signedIn, h.restoreSpace)

	h.handle("GET /account/tokens", signedIn, h.tokens)
	h.handle("POST /account/tokens", signedIn, h.createToken)
	h.handle("POST /account/tokens/{token}/revoke", signedIn, h.revokeToken)
}

// roleOption is an option of a role select; Value "guest" stands for the
// guest role (null on the wire).
type roleOption struct {
	Value, Label string
	Selected     bool
}

var roleLabels = []roleOption{{"admin", "Admin", false}, {"create", "Create", false}, {"review", "Review", false},
	{"edit", "Edit", false}, {"comment", "Comment", false}, {"read", "Read", false}}

// roleOptions lists the roles with current selected; guest adds the guest
// role.
func roleOptions(current string, guest bool) []roleOption {
	out := slices.Clone(roleLabels)
	if guest {
		out = append(out, roleOption{Value: "guest", Label: "Guest"})
	}
	for i := range out {
		out[i].Selected = out[i].Value == current
	}
	return out
}

// roleValue is the form value of a role.
func roleValue(r folio.Role) string {
	if r == folio.RoleGuest {
		return "guest"
	}
	return string(r)
}

// roleLabel is how a page names a role.
func roleLabel(r folio.Role) string {
	for _, o := range roleLabels {
		if o.Value == string(r) {
			return o.Label
		}
	}
	return "Guest"
}

// formRole reads a role from a form as the app takes it from a client:
// "guest" is null, anything else is checked by the app.
func formRole(r *http.Request, field string) folio.Optional[string] {
	v := strings.TrimSpace(r.PostForm.Get(field))
	switch v {
	case "guest", "none":
		return folio.Null[string]()
	case "":
		return folio.Optional[string]{}
	}
	return folio.Some(v)
}

// notices are the messages a page shows after a form's redirect (?done=),
// a fixed table so that a link cannot make a page say anything else.
var notices = map[string]string{
	"role":       "The role was changed.",
	"disabled":   "The member was disabled: their sessions and tokens no longer work here.",
	"enabled":    "The member was enabled again.",
	"removed":    "The member was removed.",
	"link":       "The invite link was created. Copy it and send it to the people you invite.",
	"revoked":    "The invite link was revoked: it no longer works.",
	"domains":    "The email domains were saved.",
	"team":       "The team was created.",
	"renamed":    "The team was renamed.",
	"deleted":    "The team was deleted.",
	"added":      "The member was added to the team.",
	"teamrole":   "The team role was changed.",
	"left":       "The member left the team.",
	"granted":    "Access was granted.",
	"ungranted":  "Access was removed.",
	"level":      "The default access was saved.",
	"moved":      "It was moved.",
	"restored":   "The space was restored.",
	"spacegone":  "The space was deleted. You can restore it from the trash for 7 days.",
	"tokengone":  "The token was revoked: it no longer works.",
	"collection": "The collection was created.",
}

func notice(r *http.Request) string { return notices[r.URL.Query().Get("done")] }

// back redirects after a form to path with a notice.
func back(w http.ResponseWriter, r *http.Request, path, done string) error {
	path, frag, _ := strings.Cut(path, "#")
	if done != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "done=" + done
	}
	if frag != "" {
		path += "#" + frag
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
	return nil
}

// membersView is the members page of an organization.
type membersView struct {
	Frame   *orgFrame
	Notice  string
	Admin   bool
	Members []memberRow
	Count   int    // members matching the filters, on every page
	Next    string // the next page's address, "" on the last
	First   string // the first page's address, "" on the first
	// The filters.
	Role, Query, State string
	Roles              []roleOption
	States             []roleOption
	// Invite links (admins), with the address each one opens.
	LinksOn  bool
	Links    []inviteRow
	NewRoles []roleOption
	NewLink  string // the id of the link just made, to show first
	Domains  string
}

type memberRow struct {
	ID, Name, Email, Role, RoleValue string
	Disabled, Self                   bool
	Joined                           time.Time
	Roles                            []roleOption
}

type inviteRow struct {
	ID, Role, URL string
	Created       time.Time
	New           bool
}

// membersPage is how many members a page of the members list shows.
const membersPage = 100

func (h *Handler) members(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "members")
	if err != nil {
		return err
	}
	qs := r.URL.Query()
	v := membersView{Frame: f, Notice: notice(r), Admin: f.Admin, Role: qs.Get("role"), Query: strings.TrimSpace(qs.Get("q")),
		State: qs.Get("state"), Domains: strings.Join(f.Org.EmailDomains, ", "), LinksOn: f.Org.InviteLinks}
	filter := folio.MemberFilter{Search: v.Query}
	if filter.Role, err = folio.ParseMemberRoleFilter(v.Role); err != nil {
		return err
	}
	v.Roles = append([]roleOption{{Value: "", Label: "Any role", Selected: v.Role == ""}}, roleOptions(v.Role, true)...)
	v.States = []roleOption{{"", "All", v.State == ""}, {"enabled", "Enabled", v.State == "enabled"},
		{"disabled", "Disabled", v.State == "disabled"}}
	switch v.State {
	case "":
	case "enabled", "disabled":
		d := v.State == "disabled"
		filter.Disabled = &d
	default:
		return folio.Errorf(folio.Invalid, "the state filter must be enabled or disabled")
	}
	opts, err := pageOptions(r)
	if err != nil {
		return err
	}
	opts.Limit = membersPage
	l, err := h.app.ListMembers(ctx, q.caller, f.Org.ID, filter, opts)
	if err != nil {
		return err
	}
	v.Count = l.Count
	v.Next = nextHref(r, l.Next)
	if qs.Get("page") != "" {
		first := r.URL.Query()
		first.Del("page")
		v.First = r.URL.Path
		if len(first) > 0 {
			v.First += "?" + first.Encode()
		}
	}
	for _, m := range l.Items {
		v.Members = append(v.Members, memberRow{ID: m.UserID, Name: m.User.DisplayName, Email: m.User.Email,
			Role: roleLabel(m.Role), RoleValue: roleValue(m.Role), Disabled: m.Disabled, Self: m.UserID == q.caller.UserID,
			Joined: m.JoinedAt, Roles: roleOptions(roleValue(m.Role), true)})
	}
	if v.Admin && v.LinksOn {
		links, _, err := h.app.ListInviteLinks(ctx, q.caller, f.Org.ID, folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		v.NewLink = qs.Get("link")
		for _, inv := range links.Items {
			row := inviteRow{ID: inv.ID, Role: roleLabel(inv.Role), URL: h.inviteURL(r, f.Org.ID, inv.ID), Created: inv.CreatedAt,
				New: inv.ID == v.NewLink}
			if row.New {
				v.Links = append([]inviteRow{row}, v.Links...)
			} else {
				v.Links = append(v.Links, row)
			}
		}
		v.NewRoles = roleOptions("read", true)
	}
	h.renderPage(w, http.StatusOK, "members", q, "Members · "+f.Org.Title, v, pageAssets{Scripts: []string{assetsByKey["copy.js"].url}})
	return nil
}

// inviteURL is the address of the page that joins with an invite link.
func (h *Handler) inviteURL(r *http.Request, orgID, id folio.ID) string {
	base := h.public
	if base == "" {
		base = requestOrigin(r)
	}
	return base + "/join/" + url.PathEscape(orgID) + "/" + url.PathEscape(id)
}

func membersPath(r *http.Request) string {
	return "/o/" + url.PathEscape(r.PathValue("org")) + "/members"
}

func (h *Handler) memberRole(w http.ResponseWriter, r *http.Request, q *req) error {
	role := formRole(r, "role")
	if !role.Set {
		return folio.FieldErrorf("role", "choose a role")
	}
	if _, err := h.app.UpdateMember(r.Context(), q.caller, r.PathValue("org"), r.PathValue("user"), &folio.MemberUpdate{Role: role}); err != nil {
		return err
	}
	return back(w, r, membersPath(r), "role")
}

func (h *Handler) memberDisabled(w http.ResponseWriter, r *http.Request, q *req) error {
	var disabled bool
	switch r.PostForm.Get("disabled") {
	case "true":
		disabled = true
	case "false":
	default:
		return folio.FieldErrorf("disabled", "disabled must be true or false")
	}
	if _, err := h.app.UpdateMember(r.Context(), q.caller, r.PathValue("org"), r.PathValue("user"),
		&folio.MemberUpdate{Disabled: folio.Some(disabled)}); err != nil {
		return err
	}
	done := "enabled"
	if disabled {
		done = "disabled"
	}
	return back(w, r, membersPath(r), done)
}

func (h *Handler) memberRemove(w http.ResponseWriter, r *http.Request, q *req) error {
	user := r.PathValue("user")
	if err := h.app.RemoveMember(r.Context(), q.caller, r.PathValue("org"), user); err != nil {
		return err
	}
	if user == q.caller.UserID {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return nil
	}
	return back(w, r, membersPath(r), "removed")
}

func (h *Handler) createInvite(w http.ResponseWriter, r *http.Request, q *req) error {
	role := formRole(r, "role")
	if !role.Set {
		return folio.FieldErrorf("role", "choose the role the link gives")
	}
	inv, _, err := h.app.CreateInviteLink(r.Context(), q.caller, r.PathValue("org"), &app.InviteLinkInput{Role: role})
	if err != nil {
		return err
	}
	return back(w, r, membersPath(r)+"?link="+url.QueryEscape(inv.ID)+"#invites", "link")
}

func (h *Handler) revokeInvite(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.DeleteInviteLink(r.Context(), q.caller, r.PathValue("org"), r.PathValue("invite")); err != nil {
		return err
	}
	return back(w, r, membersPath(r), "revoked")
}

func (h *Handler) emailDomains(w http.ResponseWriter, r *http.Request, q *req) error {
	domains := append([]string{}, strings.FieldsFunc(r.PostForm.Get("domains"), func(c rune) bool {
		return c == ',' || c == ' ' || c == '\n' || c == '\r'
	})...)
	if _, err := h.app.UpdateOrganization(r.Context(), q.caller, r.PathValue("org"),
		&folio.OrganizationUpdate{EmailDomains: folio.Some(domains)}); err != nil {
		return err
	}
	return back(w, r, membersPath(r), "domains")
}

// joinView is the page an invite link opens: a button joins, so that link
// previews and mail scanners, which only GET, join no one.
type joinView struct {
	Action string
	SignIn string // signed out: where signing in leads back here
	// Signed out, a form creates an account and joins (joinaccount.go).
	Account           string
	Name, Email       string
	Error, ErrorField string
	MinLength         int
	Org, Role         string // what a live link offers, signed out
}

func (h *Handler) joinPage(w http.ResponseWriter, r *http.Request, q *req) error {
	v := joinView{Action: "/join/" + url.PathEscape(r.PathValue("org")) + "/" + url.PathEscape(r.PathValue("invite"))}
	if q.user == nil {
		v.SignIn = "/signin?next=" + url.QueryEscape(v.Action)
		v.Account, v.MinLength = v.Action+"/account", app.MinPasswordLength
		if err := h.joinOffer(r, &v); err != nil {
			return err
		}
	}
	h.render(w, http.StatusOK, "join", q, "Join an organization", v)
	return nil
}

func (h *Handler) join(w http.ResponseWriter, r *http.Request, q *req) error {
	org := r.PathValue("org")
	if err := h.app.JoinWithInviteLink(r.Context(), q.caller, org, r.PathValue("invite")); err != nil {
		if folio.KindOf(err) == folio.NotFound {
			return folio.Errorf(folio.NotFound, "this invite link does not work: it was revoked, or the address is not complete")
		}
		return err
	}
	http.Redirect(w, r, "/o/"+url.PathEscape(org), http.StatusSeeOther)
	return nil
}
