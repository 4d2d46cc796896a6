package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/foliodocs/folio"
)

// teamsView is the teams page of an organization.
type teamsView struct {
	Frame  *orgFrame
	Notice string
	Admin  bool
	Teams  []folio.TeamView
}

func (h *Handler) teams(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.orgFrame(r.Context(), q, r.PathValue("org"), "teams")
	if err != nil {
		return err
	}
	l, err := h.app.ListTeams(r.Context(), q.caller, f.Org.ID, folio.TeamFilter{}, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	h.render(w, http.StatusOK, "teams", q, "Teams · "+f.Org.Title, teamsView{Frame: f, Notice: notice(r), Admin: f.Admin, Teams: l.Items})
	return nil
}

func teamsPath(r *http.Request) string { return "/o/" + url.PathEscape(r.PathValue("org")) + "/teams" }

func teamPath(r *http.Request) string {
	return teamsPath(r) + "/" + url.PathEscape(r.PathValue("team"))
}

func (h *Handler) createTeam(w http.ResponseWriter, r *http.Request, q *req) error {
	t, err := h.app.CreateTeam(r.Context(), q.caller, r.PathValue("org"), strings.TrimSpace(r.PostForm.Get("title")), nil)
	if err != nil {
		return err
	}
	return back(w, r, teamsPath(r)+"/"+url.PathEscape(t.ID), "team")
}

// teamView is a team's page: its members and, for those who manage it,
// the forms to change them.
type teamView struct {
	Frame   *orgFrame
	Notice  string
	Team    folio.TeamView
	Admin   bool // organization admin: rename and delete
	Members []teamMemberRow
	// Others are the organization's members not in the team, to add.
	Others []memberRow
}

type teamMemberRow struct {
	ID, Name, Email string
	Owner           bool
}

func (h *Handler) team(w http.ResponseWriter, r *http.Request, q *req) error {
	ctx := r.Context()
	f, err := h.orgFrame(ctx, q, r.PathValue("org"), "teams")
	if err != nil {
		return err
	}
	t, err := h.app.GetTeam(ctx, q.caller, f.Org.ID, r.PathValue("team"))
	if err != nil {
		return err
	}
	v := teamView{Frame: f, Notice: notice(r), Team: *t, Admin: f.Admin}
	ms, err := h.app.ListTeamMembers(ctx, q.caller, f.Org.ID, t.ID, folio.ListOptions{Limit: folio.MaxLimit})
	if err != nil {
		return err
	}
	in := map[folio.ID]bool{}
	for _, m := range ms.Items {
		in[m.Member.UserID] = true
		v.Members = append(v.Members, teamMemberRow{ID: m.Member.UserID, Name: m.Member.User.DisplayName, Email: m.Member.User.Email,
			Owner: m.Role == folio.TeamOwner})
	}
	if t.CanAdmin {
		all, err := h.app.ListMembers(ctx, q.caller, f.Org.ID, folio.MemberFilter{}, folio.ListOptions{Limit: folio.MaxLimit})
		if err != nil {
			return err
		}
		for _, m := range all.Items {
			if !in[m.UserID] {
				v.Others = append(v.Others, memberRow{ID: m.UserID, Name: m.User.DisplayName, Email: m.User.Email})
			}
		}
	}
	h.render(w, http.StatusOK, "team", q, t.Title+" · "+f.Org.Title, v)
	return nil
}

func (h *Handler) renameTeam(w http.ResponseWriter, r *http.Request, q *req) error {
	if _, err := h.app.RenameTeam(r.Context(), q.caller, r.PathValue("org"), r.PathValue("team"), strings.TrimSpace(r.PostForm.Get("title"))); err != nil {
		return err
	}
	return back(w, r, teamPath(r), "renamed")
}

func (h *Handler) deleteTeam(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.DeleteTeam(r.Context(), q.caller, r.PathValue("org"), r.PathValue("team")); err != nil {
		return err
	}
	return back(w, r, teamsPath(r), "deleted")
}

func (h *Handler) addTeamMember(w http.ResponseWriter, r *http.Request, q *req) error {
	user := r.PostForm.Get("user")
	if user == "" {
		return folio.FieldErrorf("user", "choose a member to add")
	}
	if err := h.app.SetTeamMember(r.Context(), q.caller, r.PathValue("org"), r.PathValue("team"), user, r.PostForm.Get("role")); err != nil {
		return err
	}
	return back(w, r, teamPath(r), "added")
}

func (h *Handler) teamMemberRole(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.SetTeamMember(r.Context(), q.caller, r.PathValue("org"), r.PathValue("team"), r.PathValue("user"), r.PostForm.Get("role")); err != nil {
		return err
	}
	return back(w, r, teamPath(r), "teamrole")
}

func (h *Handler) removeTeamMember(w http.ResponseWriter, r *http.Request, q *req) error {
	if err := h.app.RemoveTeamMember(r.Context(), q.caller, r.PathValue("org"), r.PathValue("team"), r.PathValue("user")); err != nil {
		return err
	}
	return back(w, r, teamPath(r), "left")
}
