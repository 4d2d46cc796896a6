package templates

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/foliodocs/folio/internal/content"
	"github.com/getkin/kin-openapi/openapi3"
)

// generator writes the Markdown of the api-reference pages for one document.
type generator struct {
	doc   *openapi3.T
	order specOrder
}

// operation is one method of one path.
type operation struct {
	method string // upper case for the standard methods, as kin-openapi names them
	path   string
	item   *openapi3.PathItem
	op     *openapi3.Operation
}

// tagGroup is the operations one page lists.
type tagGroup struct {
	name        string // the tag as operations name it
	title       string // x-displayName when set, else the name
	description string
	ops         []operation
	page        *content.Page
}

// usualMethods is the order of methods within a path when the source order
// is unknown.
var usualMethods = []string{"get", "put", "post", "patch", "delete", "query", "options", "head", "trace", "connect"}

func (g *generator) operations() []operation {
	var ops []operation
	for path, item := range g.doc.Paths.Map() {
		if item == nil {
			continue
		}
		for method, op := range item.Operations() {
			if op != nil {
				ops = append(ops, operation{method: method, path: path, item: item, op: op})
			}
		}
	}
	slices.SortFunc(ops, g.compare)
	return ops
}

// compare orders operations as the source lists them; ranks it does not know
// come after known ones, then by path and the usual method order.
func (g *generator) compare(a, b operation) int {
	ra, oka := g.order.paths[a.path]
	rb, okb := g.order.paths[b.path]
	if c := cmpRank(ra, oka, rb, okb); c != 0 {
		return c
	}
	if c := strings.Compare(a.path, b.path); c != 0 {
		return c
	}
	ma, mb := strings.ToLower(a.method), strings.ToLower(b.method)
	ra, oka = g.order.methods[a.path][ma]
	rb, okb = g.order.methods[b.path][mb]
	if c := cmpRank(ra, oka, rb, okb); c != 0 {
		return c
	}
	ia, ib := slices.Index(usualMethods, ma), slices.Index(usualMethods, mb)
	if ia < 0 {
		ia = len(usualMethods)
	}
	if ib < 0 {
		ib = len(usualMethods)
	}
	return cmp.Or(cmp.Compare(ia, ib), strings.Compare(ma, mb))
}

func cmpRank(ra int, oka bool, rb int, okb bool) int {
	switch {
	case oka && okb:
		return cmp.Compare(ra, rb)
	case oka:
		return -1
	case okb:
		return 1
	}
	return 0
}

// groupByTag puts each operation on the page of its first tag: declared tags
// in declaration order, then undeclared ones as operations first use them,
// then Default for untagged operations (unless the document declares a
// Default tag, which keeps its place). Tags without operations get no page.
func (g *generator) groupByTag() []*tagGroup {
	byName := map[string]*tagGroup{}
	var groups []*tagGroup
	get := func(name string) *tagGroup {
		if t, ok := byName[name]; ok {
			return t
		}
		t := &tagGroup{name: name, title: strings.Join(strings.Fields(name), " ")}
		if decl := declaredTag(g.doc.Tags, name); decl != nil {
			t.description = decl.Description
			if s, ok := decl.Extensions["x-displayName"].(string); ok && strings.TrimSpace(s) != "" {
				t.title = strings.Join(strings.Fields(s), " ")
			}
		}
		byName[name] = t
		groups = append(groups, t)
		return t
	}
	for _, t := range g.doc.Tags {
		if t != nil && strings.TrimSpace(t.Name) != "" {
			get(t.Name)
		}
	}
	var untagged []operation
	for _, o := range g.operations() {
		name := ""
		for _, t := range o.op.Tags {
			if strings.TrimSpace(t) != "" {
				name = t
				break
			}
		}
		if name == "" {
			untagged = append(untagged, o)
			continue
		}
		get(name).ops = append(get(name).ops, o)
	}
	if len(untagged) > 0 {
		d := get(defaultTag)
		d.ops = append(untagged, d.ops...)
		slices.SortStableFunc(d.ops, g.compare)
	}
	return slices.DeleteFunc(groups, func(t *tagGroup) bool { return len(t.ops) == 0 })
}

// declaredTag finds a tag declaration; unlike Tags.Get it skips null entries.
func declaredTag(tags openapi3.Tags, name string) *openapi3.Tag {
	for _, t := range tags {
		if t != nil && t.Name == name {
			return t
		}
	}
	return nil
}

func introDescription(doc *openapi3.T) string {
	if s := strings.TrimSpace(doc.Info.Summary); s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	d := "Reference for " + strings.Join(strings.Fields(doc.Info.Title), " ")
	if v := strings.TrimSpace(doc.Info.Version); v != "" {
		d += ", version " + v
	}
	return d + "."
}

// introPage writes the Introduction: the API's description and facts, its
// servers, its authentication schemes and a list of the tag pages.
func (g *generator) introPage(groups []*tagGroup, webhooks *content.Page) string {
	var b md
	info := g.doc.Info
	if d := strings.TrimSpace(info.Description); d != "" {
		b.block(commonMark(d))
	} else {
		b.para("This is the reference for " + inlineText(info.Title) + ". Each page covers one group of operations: " +
			"their parameters, request bodies, responses and an example request.")
	}
	rows := [][]string{{"API", inlineText(info.Title)}}
	if v := strings.TrimSpace(info.Version); v != "" {
		rows = append(rows, []string{"Version", codeSpan(v)})
	}
	rows = append(rows, []string{"OpenAPI", codeSpan(g.doc.OpenAPI)})
	if c := info.Contact; c != nil {
		var parts []string
		if c.Name != "" {
			parts = append(parts, inlineText(c.Name))
		}
		if c.Email != "" {
			parts = append(parts, link(c.Email, "mailto:"+c.Email))
		}
		if c.URL != "" {
			parts = append(parts, link(c.URL, c.URL))
		}
		if len(parts) > 0 {
			rows = append(rows, []string{"Contact", strings.Join(parts, ", ")})
		}
	}
	if l := info.License; l != nil && strings.TrimSpace(l.Name) != "" {
		rows = append(rows, []string{"License", link(l.Name, l.URL)})
	}
	if t := strings.TrimSpace(info.TermsOfService); t != "" {
		rows = append(rows, []string{"Terms of service", link(t, t)})
	}
	b.table([]string{"Property", "Value"}, rows)

	b.heading(2, "Servers")
	if len(g.doc.Servers) == 0 {
		b.para("The document lists no server. The examples use " + codeSpan(placeholderHost) +
			"; replace it with the address of the API.")
	} else {
		var rows [][]string
		var vars []string
		for _, s := range g.doc.Servers {
			if s == nil {
				continue
			}
			rows = append(rows, []string{codeSpan(s.URL), inlineText(s.Description)})
			for _, name := range sortedKeys(s.Variables) {
				v := s.Variables[name]
				if v == nil {
					continue
				}
				line := codeSpan("{"+name+"}") + " in " + codeSpan(s.URL) + ": defaults to " + codeSpan(v.Default)
				if len(v.Enum) > 0 {
					line += "; one of " + codeList(v.Enum)
				}
				if d := strings.TrimSpace(v.Description); d != "" {
					line += ". " + inlineText(d)
				}
				vars = append(vars, line)
			}
		}
		b.table([]string{"URL", "Description"}, rows)
		if len(vars) > 0 {
			b.para("Server variables:")
			b.list(vars)
		}
	}

	b.heading(2, "Authentication")
	g.authentication(&b)

	b.heading(2, "Endpoints")
	if len(groups) == 0 && webhooks == nil {
		b.para("The document describes no operations yet.")
	} else {
		var items []string
		for _, t := range groups {
			item := "[" + inlineText(t.page.Title) + "](page:" + t.page.ID + ")"
			if d := firstLine(t.description); d != "" {
				item += ": " + inlineText(d)
			}
			n := "operations"
			if len(t.ops) == 1 {
				n = "operation"
			}
			items = append(items, fmt.Sprintf("%s (%d %s)", item, len(t.ops), n))
		}
		if webhooks != nil {
			items = append(items, "["+inlineText(webhooks.Title)+"](page:"+webhooks.ID+"): the requests the API sends to you")
		}
		b.list(items)
	}
	return b.String()
}

func (g *generator) authentication(b *md) {
	var schemes openapi3.SecuritySchemes
	if g.doc.Components != nil {
		schemes = g.doc.Components.SecuritySchemes
	}
	if len(schemes) == 0 {
		b.para("The document declares no authentication scheme.")
		return
	}
	for _, name := range sortedKeys(schemes) {
		ref := schemes[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		b.heading(3, inlineText(name))
		b.para(schemeSummary(s))
		if d := strings.TrimSpace(s.Description); d != "" {
			b.block(commonMark(d))
		}
		if s.Flows != nil {
			var rows [][]string
			flows := []struct {
				name string
				f    *openapi3.OAuthFlow
			}{{"Authorization code", s.Flows.AuthorizationCode}, {"Client credentials", s.Flows.ClientCredentials},
				{"Implicit", s.Flows.Implicit}, {"Password", s.Flows.Password}}
			for _, f := range flows {
				if f.f == nil {
					continue
				}
				var scopes []string
				for _, sc := range sortedKeys(f.f.Scopes) {
					scopes = append(scopes, codeSpan(sc))
				}
				rows = append(rows, []string{f.name, urlCell(f.f.AuthorizationURL), urlCell(f.f.TokenURL), strings.Join(scopes, ", ")})
			}
			if len(rows) > 0 {
				b.table([]string{"Flow", "Authorization URL", "Token URL", "Scopes"}, rows)
			}
		}
	}
	if reqs := requirementText(g.doc.Security); reqs != "" {
		b.para("Unless an operation says otherwise, requests need " + reqs + ".")
	}
}

// schemeSummary says in one sentence how a client authenticates.
func schemeSummary(s *openapi3.SecurityScheme) string {
	switch strings.ToLower(s.Type) {
	case "http":
		switch strings.ToLower(s.Scheme) {
		case "bearer":
			t := "HTTP bearer authentication: send " + codeSpan("Authorization: Bearer <token>") + "."
			if s.BearerFormat != "" {
				t += " Tokens are " + inlineText(s.BearerFormat) + "."
			}
			return t
		case "basic":
			return "HTTP basic authentication: send a user name and password in the " + codeSpan("Authorization") + " header."
		}
		return "HTTP " + codeSpan(s.Scheme) + " authentication, in the " + codeSpan("Authorization") + " header."
	case "apikey":
		where := map[string]string{"header": "header", "query": "query parameter", "cookie": "cookie"}[strings.ToLower(s.In)]
		if where == "" {
			where = "field"
		}
		return "API key, sent in the " + codeSpan(s.Name) + " " + where + "."
	case "oauth2":
		return "OAuth 2.0: send the access token as " + codeSpan("Authorization: Bearer <token>") + "."
	case "openidconnect":
		return "OpenID Connect, discovered at " + link(s.OpenIdConnectUrl, s.OpenIdConnectUrl) + "."
	case "mutualtls":
		return "Mutual TLS: the client presents a certificate."
	}
	return "Scheme of type " + codeSpan(s.Type) + "."
}

// requirementText lists security requirements: alternatives joined by "or",
// schemes within one by "and", with their scopes.
func requirementText(reqs openapi3.SecurityRequirements) string {
	var alts []string
	for _, r := range reqs {
		if len(r) == 0 {
			alts = append(alts, "no authentication")
			continue
		}
		var all []string
		for _, name := range sortedKeys(r) {
			t := codeSpan(name)
			if len(r[name]) > 0 {
				t += " (scopes " + codeList(r[name]) + ")"
			}
			all = append(all, t)
		}
		alts = append(alts, strings.Join(all, " and "))
	}
	return strings.Join(alts, " or ")
}

// tagPage lists a tag's operations: a summary table, then one section each.
func (g *generator) tagPage(t *tagGroup, desc string) string {
	var b md
	if desc != "" {
		b.block(commonMark(desc))
	}
	var rows [][]string
	for _, o := range t.ops {
		rows = append(rows, []string{codeSpan(o.method), codeSpan(o.path), inlineText(o.op.Summary)})
	}
	b.table([]string{"Method", "Path", "Summary"}, rows)
	for _, o := range t.ops {
		g.operation(&b, o, false)
	}
	return b.String()
}

// webhooksPage lists the requests the API sends (OpenAPI 3.1 webhooks).
func (g *generator) webhooksPage() string {
	var b md
	b.para("The API sends these requests to endpoints that you register. Reply with a " + codeSpan("2xx") +
		" status to acknowledge each delivery.")
	for _, name := range sortedKeys(g.doc.Webhooks) {
		item := g.doc.Webhooks[name]
		if item == nil {
			continue
		}
		ops := item.Operations()
		for _, method := range sortedKeys(ops) {
			g.operation(&b, operation{method: method, path: name, item: item, op: ops[method]}, true)
		}
	}
	return b.String()
}

// operation writes one operation's section. Webhooks show their payload
// instead of a curl request.
func (g *generator) operation(b *md, o operation, webhook bool) {
	op := o.op
	b.heading(2, inlineText(o.method+" "+o.path))
	if op.Deprecated {
		b.hint("warning", "This operation is deprecated: avoid it in new code, as it may be removed in a later version.")
	}
	if s := strings.TrimSpace(op.Summary); s != "" {
		b.para(inlineText(s))
	}
	if d := strings.TrimSpace(op.Description); d != "" {
		b.block(commonMark(d))
	}
	if id := strings.TrimSpace(op.OperationID); id != "" {
		b.para("Operation ID: " + codeSpan(id))
	}
	if reqs := op.Security; reqs != nil {
		if t := requirementText(*reqs); t != "" {
			b.para("Authentication: " + t + ".")
		} else {
			b.para("Authentication: none.")
		}
	}

	params := parameters(o)
	if len(params) > 0 {
		b.heading(3, "Parameters")
		var rows [][]string
		for _, p := range params {
			req := "No"
			if p.Required || p.In == openapi3.ParameterInPath {
				req = "Yes"
			}
			rows = append(rows, []string{codeSpan(p.Name), p.In, inlineText(paramType(p)), req, paramNotes(p)})
		}
		b.table([]string{"Name", "In", "Type", "Required", "Description"}, rows)
	}

	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		body := rb.Value
		b.heading(3, "Request body")
		if body.Required {
			b.para("Required.")
		} else {
			b.para("Optional.")
		}
		if d := strings.TrimSpace(body.Description); d != "" {
			b.block(commonMark(d))
		}
		if len(body.Content) > 0 {
			var rows [][]string
			for _, ct := range sortedKeys(body.Content) {
				mt := body.Content[ct]
				var schema *openapi3.SchemaRef
				if mt != nil {
					schema = mt.Schema
				}
				rows = append(rows, []string{codeSpan(ct), inlineText(typeName(schema, 0))})
			}
			b.table([]string{"Content type", "Schema"}, rows)
			if _, mt := pickMedia(body.Content); mt != nil {
				b.table([]string{"Field", "Type", "Required", "Description"}, fieldRows(mt.Schema))
			}
		}
	}

	if op.Responses != nil && op.Responses.Len() > 0 {
		b.heading(3, "Responses")
		var rows [][]string
		for _, code := range sortedKeys(op.Responses.Map()) {
			r := op.Responses.Value(code)
			if r == nil || r.Value == nil {
				continue
			}
			desc := ""
			if r.Value.Description != nil {
				desc = *r.Value.Description
			}
			var types []string
			for _, ct := range sortedKeys(r.Value.Content) {
				types = append(types, codeSpan(ct))
			}
			rows = append(rows, []string{codeSpan(code), flatten(desc), strings.Join(types, ", ")})
		}
		b.table([]string{"Status", "Description", "Content type"}, rows)
	}

	if webhook {
		if rb := op.RequestBody; rb != nil && rb.Value != nil {
			if ct, mt := pickMedia(rb.Value.Content); mt != nil {
				if ex, ok := mediaExample(mt, forRequest); ok {
					b.heading(3, "Example payload")
					b.code(syntaxFor(ct), formatExample(ct, ex))
				}
			}
		}
		return
	}
	b.heading(3, "Example")
	request := g.curl(o, params)
	code, ct, resp, ok := responseExample(op)
	if !ok {
		b.code("bash", request)
		return
	}
	b.raw("{% tabs %}\n{% tab title=\"Request\" %}\n")
	b.code("bash", request)
	b.raw("{% endtab %}\n\n{% tab title=\"Response " + strings.ReplaceAll(code, `"`, "") + "\" %}\n")
	b.code(syntaxFor(ct), formatExample(ct, resp))
	b.raw("{% endtab %}\n{% endtabs %}\n\n")
}

// parameters merges path-level and operation-level parameters; the
// operation's win on the same name and location, as the specification says.
func parameters(o operation) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	add := func(ps openapi3.Parameters) {
		for _, ref := range ps {
			if ref == nil || ref.Value == nil {
				continue
			}
			p := ref.Value
			i := slices.IndexFunc(out, func(q *openapi3.Parameter) bool { return q.Name == p.Name && q.In == p.In })
			if i >= 0 {
				out[i] = p
			} else {
				out = append(out, p)
			}
		}
	}
	add(o.item.Parameters)
	add(o.op.Parameters)
	return out
}

func paramSchema(p *openapi3.Parameter) *openapi3.SchemaRef {
	if p.Schema != nil {
		return p.Schema
	}
	if _, mt := pickMedia(p.Content); mt != nil {
		return mt.Schema
	}
	return nil
}

func paramType(p *openapi3.Parameter) string { return typeName(paramSchema(p), 0) }

// paramNotes is a parameter's description cell: its text, then its default,
// allowed values and deprecation.
func paramNotes(p *openapi3.Parameter) string {
	var parts []string
	if d := flatten(p.Description); d != "" {
		parts = append(parts, d)
	}
	if ref := paramSchema(p); ref != nil && ref.Value != nil {
		s := ref.Value
		if s.Default != nil {
			parts = append(parts, "Default: "+codeSpan(scalarText(s.Default))+".")
		}
		if len(s.Enum) > 0 {
			var vals []string
			for _, v := range s.Enum {
				vals = append(vals, scalarText(v))
			}
			parts = append(parts, "One of "+codeList(vals)+".")
		}
	}
	if p.Deprecated {
		parts = append(parts, "Deprecated.")
	}
	return strings.Join(parts, " ")
}

// typeName describes a schema in a few words: a component's name, a type
// with its format, "array of X", alternatives joined by "or".
func typeName(ref *openapi3.SchemaRef, depth int) string {
	if ref == nil || ref.Value == nil {
		return ""
	}
	if name := componentName(ref.Ref); name != "" {
		return name
	}
	if depth > 3 {
		return "…"
	}
	s := ref.Value
	list := func(refs openapi3.SchemaRefs, sep string) string {
		var names []string
		for _, r := range refs {
			if n := typeName(r, depth+1); n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return strings.Join(names, sep)
	}
	switch {
	case len(s.OneOf) > 0:
		return list(s.OneOf, " or ")
	case len(s.AnyOf) > 0:
		return list(s.AnyOf, " or ")
	case len(s.AllOf) > 0:
		return list(s.AllOf, " and ")
	}
	var parts []string
	var types []string
	if s.Type != nil {
		types = s.Type.Slice()
	}
	if len(types) == 0 {
		switch {
		case len(s.Properties) > 0:
			types = []string{"object"}
		case s.Items != nil:
			types = []string{"array"}
		}
	}
	for _, t := range types {
		switch {
		case t == "array" && s.Items != nil:
			parts = append(parts, "array of "+cmp.Or(typeName(s.Items, depth+1), "any"))
		case s.Format != "" && t != "null":
			parts = append(parts, t+" ("+s.Format+")")
		default:
			parts = append(parts, t)
		}
	}
	if s.Nullable && !slices.Contains(types, "null") {
		parts = append(parts, "null")
	}
	if len(parts) == 0 {
		return "any"
	}
	return strings.Join(parts, " or ")
}

// fieldRows lists the top-level properties a request body sends (allOf
// parts merged, readOnly ones left out), sorted by name.
func fieldRows(ref *openapi3.SchemaRef) [][]string {
	props := map[string]*openapi3.SchemaRef{}
	required := map[string]bool{}
	var collect func(r *openapi3.SchemaRef, depth int)
	collect = func(r *openapi3.SchemaRef, depth int) {
		if r == nil || r.Value == nil || depth > 4 {
			return
		}
		for _, sub := range r.Value.AllOf {
			collect(sub, depth+1)
		}
		for name, p := range r.Value.Properties {
			if p != nil && p.Value != nil && !p.Value.ReadOnly {
				props[name] = p
			}
		}
		for _, name := range r.Value.Required {
			required[name] = true
		}
	}
	collect(ref, 0)
	var rows [][]string
	for _, name := range sortedKeys(props) {
		p := props[name].Value
		req := "No"
		if required[name] {
			req = "Yes"
		}
		notes := flatten(p.Description)
		if len(p.Enum) > 0 {
			var vals []string
			for _, v := range p.Enum {
				vals = append(vals, scalarText(v))
			}
			notes = strings.TrimSpace(notes + " One of " + codeList(vals) + ".")
		}
		rows = append(rows, []string{codeSpan(name), inlineText(typeName(props[name], 0)), req, notes})
	}
	return rows
}

// componentName returns "Pet" for "#/components/schemas/Pet", else "".
func componentName(ref string) string {
	const prefix = "#/components/schemas/"
	if !strings.HasPrefix(ref, prefix) {
		return ""
	}
	name := strings.TrimPrefix(ref, prefix)
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
}

// urlCell writes a URL for a table cell: a link, or nothing.
func urlCell(u string) string {
	if strings.TrimSpace(u) == "" {
		return ""
	}
	return link(u, u)
}

// baseURL is where the operation's requests go: the first server of the
// operation, its path or the document, with variables at their defaults; a
// relative or missing server is put under placeholderHost.
func (g *generator) baseURL(o operation) string {
	servers := g.doc.Servers
	if len(o.item.Servers) > 0 {
		servers = o.item.Servers
	}
	if o.op.Servers != nil && len(*o.op.Servers) > 0 {
		servers = *o.op.Servers
	}
	u := ""
	if len(servers) > 0 && servers[0] != nil {
		s := servers[0]
		u = s.URL
		for name, v := range s.Variables {
			if v != nil {
				u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
			}
		}
	}
	if p, err := url.Parse(u); err != nil || p.Scheme == "" {
		u = placeholderHost + "/" + strings.TrimLeft(u, "/")
	}
	return strings.TrimRight(u, "/")
}
