package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// Organization settings (/o/{org}/settings, admins only): title, logo,
// default role, email domains, merge rules and the AI flag, saved with
// app.UpdateOrganization in one update.

// mergeRuleChoices are the merge rules the form offers as check boxes:
// those that take no users and no expression. The others (specific
// reviewers, custom expressions) are kept as they are and listed.
var mergeRuleChoices = []struct{ Rule, Label string }{
	{"require_at_least_one_review", "At least one approving review"},
	{"require_all_reviews_approved", "Every requested review approved"},
	{"require_up_to_date_change_request", "Up to date with the space's content"},
	{"require_change_request_subject", "A subject"},
	{"require_change_request_description", "A description"},
	{"require_agent_review", "A review by the AI agent"},
}

// roleChoices are the default roles offered, guests first.
var roleChoices = []struct{ Value, Label string }{
	{"", "Guest: sees only what is shared with them"},
	{"read", "Read"}, {"comment", "Comment"}, {"edit", "Edit"}, {"review", "Review"}, {"create", "Create"}, {"admin", "Admin"},
}

// orgSettingsForm is what the settings form shows and posts.
type orgSettingsForm struct {
	Title        string
	Logo         string
	DefaultRole  string
	EmailDomains string // one per line
	MergeRules   bool   // type "rules"
	Rules        map[string]bool
	AI           bool
}

// ruleChoice is a merge rule's check box.
type ruleChoice struct {
	Rule, Label string
	Checked     bool
}

// orgSettingsView is the settings page.
type orgSettingsView struct {
	Frame      *orgFrame
	Form       orgSettingsForm
	Roles      []struct{ Value, Label string }
	Rules      []ruleChoice
	Kept       []string // rules the form does not edit, kept as they are
	LogoSrc    string   // the logo as a path of this origin, when it is an uploaded one
	Error      string
	Saved      bool
	MaxImageKB int
}

func settingsForm(o *folio.Organization) orgSettingsForm {
	f := orgSettingsForm{Title: o.Title, Logo: o.Logo, DefaultRole: string(o.DefaultRole),
		EmailDomains: strings.Join(o.EmailDomains, "\n"), MergeRules: o.MergeRules.Type == "rules", Rules: map[string]bool{}, AI: o.AI}
	for _, r := range o.MergeRules.Rules {
		f.Rules[r.Rule] = true
	}
	return f
}

// keptRules are the rules of a configuration that the form shows no box
// for.
func keptRules(m folio.MergeRules) []folio.MergeRule {
	var out []folio.MergeRule
	for _, r := range m.Rules {
		if !slices.ContainsFunc(mergeRuleChoices, func(c struct{ Rule, Label string }) bool { return c.Rule == r.Rule }) {
			out = append(out, r)
		}
	}
	return out
}

// adminFrame loads the organization's frame for its settings, refusing
// members who are not admins (the navigation does not offer it to them).
func (h *Handler) adminFrame(r *http.Request, q *req) (*orgFrame, error) {
	f, err := h.orgFrame(r.Context(), q, r.PathValue("org"), "settings")
	if err != nil {
		return nil, err
	}
	if !f.Admin {
		return nil, folio.Errorf(folio.Forbidden, "only organization admins can change its settings")
	}
	return f, nil
}

func (h *Handler) orgSettings(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.adminFrame(r, q)
	if err != nil {
		return err
	}
	h.renderSettings(w, q, http.StatusOK, f, settingsForm(&f.Org.Organization), "", r.URL.Query().Get("saved") == "1")
	return nil
}

func (h *Handler) renderSettings(w http.ResponseWriter, q *req, status int, f *orgFrame, form orgSettingsForm, msg string, saved bool) {
	v := orgSettingsView{Frame: f, Form: form, Roles: roleChoices, Error: msg, Saved: saved, MaxImageKB: app.MaxCustomImageBytes >> 10}
	if strings.HasPrefix(form.Logo, h.public+app.CustomImagePath) {
		v.LogoSrc = strings.TrimPrefix(form.Logo, h.public)
	}
	for _, c := range mergeRuleChoices {
		v.Rules = append(v.Rules, ruleChoice{Rule: c.Rule, Label: c.Label, Checked: form.Rules[c.Rule]})
	}
	for _, r := range keptRules(f.Org.MergeRules) {
		s := strings.ReplaceAll(r.Rule, "_", " ")
		if len(r.Users) > 0 {
			s += " (" + countOf(len(r.Users), "person", "people") + ")"
		}
		v.Kept = append(v.Kept, s)
	}
	h.render(w, status, "orgsettings", q, "Settings · "+f.Org.Title, v)
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// saveOrgSettings saves the form in one UpdateOrganization (which checks
// the caller is an admin again, and every value). A mistake shows the
// form again as posted, with what to fix; nothing changes then.
func (h *Handler) saveOrgSettings(w http.ResponseWriter, r *http.Request, q *req) error {
	f, err := h.adminFrame(r, q)
	if err != nil {
		return err
	}
	p := r.PostForm
	form := orgSettingsForm{Title: strings.TrimSpace(p.Get("title")), Logo: f.Org.Logo, DefaultRole: p.Get("default_role"),
		EmailDomains: p.Get("email_domains"), MergeRules: p.Get("merge_rules") == "rules", Rules: map[string]bool{}, AI: p.Get("ai") == "on"}
	for _, c := range mergeRuleChoices {
		form.Rules[c.Rule] = p.Get("rule_"+c.Rule) == "on"
	}
	fail := func(err error) error {
		k := folio.KindOf(err)
		if k != folio.Invalid && k != folio.TooLarge && k != folio.Conflict {
			return err
		}
		h.renderSettings(w, q, statusOf(k), f, form, folio.MessageOf(err), false)
		return nil
	}
	if p.Get("logo_remove") == "on" {
		form.Logo = ""
	}
	data, ok, err := formUpload(r, "logo", "Logo")
	if err != nil {
		return fail(err)
	}
	if ok {
		if form.Logo, err = h.app.AddCustomImage(r.Context(), q.caller, f.Org.ID, "", "Logo", data); err != nil {
			return fail(err)
		}
	}
	u := &folio.OrganizationUpdate{Title: folio.Some(form.Title), AI: folio.Some(form.AI)}
	if form.Logo != f.Org.Logo {
		u.Logo = folio.Some(form.Logo)
		if form.Logo == "" {
			u.Logo = folio.Null[string]()
		}
	}
	u.DefaultRole = folio.Some(form.DefaultRole)
	if form.DefaultRole == "" {
		u.DefaultRole = folio.Null[string]()
	}
	domains := []string{}
	for _, d := range strings.FieldsFunc(form.EmailDomains, func(r rune) bool { return r == '\n' || r == ',' || r == ' ' || r == '\r' || r == '\t' }) {
		domains = append(domains, strings.TrimPrefix(d, "@"))
	}
	u.EmailDomains = folio.Some(domains)
	rules := folio.MergeRules{Type: "none"}
	if form.MergeRules {
		rules.Type = "rules"
		for _, c := range mergeRuleChoices {
			if form.Rules[c.Rule] {
				rules.Rules = append(rules.Rules, folio.MergeRule{Rule: c.Rule})
			}
		}
		rules.Rules = append(rules.Rules, keptRules(f.Org.MergeRules)...)
	}
	u.MergeRules = folio.Some(rules)
	if _, err := h.app.UpdateOrganization(r.Context(), q.caller, f.Org.ID, u); err != nil {
		return fail(err)
	}
	http.Redirect(w, r, "/o/"+f.Org.ID+"/settings?saved=1", http.StatusSeeOther)
	return nil
}
