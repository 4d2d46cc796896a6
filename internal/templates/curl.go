package templates

import (
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// shellQuoted escapes s for a double-quoted shell word, so text from the
// spec expands nothing.
func shellQuoted(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
}

// shellSingle quotes s as one single-quoted shell word.
func shellSingle(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// curl writes an example request: the first server, path parameters filled
// with their examples (others left as {name}), required query, header and
// cookie parameters, the credentials the operation needs as shell variables
// ($TOKEN, $API_KEY…) and a request body from the examples or the schema.
func (g *generator) curl(o operation, params []*openapi3.Parameter) string {
	path := o.path
	var query, opts []string
	for _, p := range params {
		switch p.In {
		case openapi3.ParameterInPath:
			if v, ok := paramExample(p); ok {
				path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(scalarText(v)))
			}
		case openapi3.ParameterInQuery:
			if p.Required {
				query = append(query, shellQuoted(url.QueryEscape(p.Name)+"="+url.QueryEscape(paramValue(p))))
			}
		case openapi3.ParameterInHeader:
			if p.Required {
				opts = append(opts, `-H "`+shellQuoted(p.Name+": "+paramValue(p))+`"`)
			}
		case openapi3.ParameterInCookie:
			if p.Required {
				opts = append(opts, `-b "`+shellQuoted(p.Name+"="+paramValue(p))+`"`)
			}
		}
	}
	authOpts, authQuery := g.credentials(o)
	opts = append(opts, authOpts...)
	query = append(query, authQuery...)
	body := requestBodyOptions(o.op)
	opts = append(opts, body...)

	u := shellQuoted(g.baseURL(o) + path)
	if len(query) > 0 {
		u += "?" + strings.Join(query, "&")
	}
	first := "curl"
	if o.method != "GET" || len(body) > 0 {
		first += " -X " + shellQuoted(o.method)
	}
	first += ` "` + u + `"`
	return strings.Join(append([]string{first}, opts...), " \\\n  ")
}

// credentials are the curl options and query parameters for the first
// security requirement that applies to the operation.
func (g *generator) credentials(o operation) (opts, query []string) {
	reqs := g.doc.Security
	if o.op.Security != nil {
		reqs = *o.op.Security
	}
	if len(reqs) == 0 || len(reqs[0]) == 0 || g.doc.Components == nil {
		return nil, nil
	}
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, name := range sortedKeys(reqs[0]) {
		ref := g.doc.Components.SecuritySchemes[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		switch strings.ToLower(s.Type) {
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "bearer":
				add(&opts, `-H "Authorization: Bearer $TOKEN"`)
			case "basic":
				add(&opts, `-u "$USERNAME:$PASSWORD"`)
			default:
				add(&opts, `-H "Authorization: `+shellQuoted(s.Scheme)+` $CREDENTIALS"`)
			}
		case "apikey":
			switch strings.ToLower(s.In) {
			case "query":
				add(&query, shellQuoted(url.QueryEscape(s.Name))+"=$API_KEY")
			case "cookie":
				add(&opts, `-b "`+shellQuoted(s.Name)+`=$API_KEY"`)
			default:
				add(&opts, `-H "`+shellQuoted(s.Name)+`: $API_KEY"`)
			}
		case "oauth2", "openidconnect":
			add(&opts, `-H "Authorization: Bearer $ACCESS_TOKEN"`)
		}
	}
	return opts, query
}

// requestBodyOptions are the curl options that send the operation's request
// body, in the content type pickMedia prefers.
func requestBodyOptions(op *openapi3.Operation) []string {
	rb := op.RequestBody
	if rb == nil || rb.Value == nil {
		return nil
	}
	ct, mt := pickMedia(rb.Value.Content)
	if mt == nil {
		return nil
	}
	ex, ok := mediaExample(mt, forRequest)
	fields, isObject := ex.(map[string]any)
	switch base := mediaBase(ct); {
	case base == "multipart/form-data" && isObject:
		var out []string
		for _, k := range sortedKeys(fields) {
			if isBinary(mt.Schema, k) {
				out = append(out, `-F "`+shellQuoted(k)+`=@path/to/file"`)
			} else {
				out = append(out, `-F "`+shellQuoted(k+"="+scalarText(fields[k]))+`"`)
			}
		}
		return out
	case base == "application/x-www-form-urlencoded" && isObject:
		var out []string
		for _, k := range sortedKeys(fields) {
			out = append(out, `--data-urlencode "`+shellQuoted(k+"="+scalarText(fields[k]))+`"`)
		}
		return out
	case !ok:
		return []string{`-H "Content-Type: ` + shellQuoted(ct) + `"`, `--data-binary "@path/to/file"`}
	}
	return []string{`-H "Content-Type: ` + shellQuoted(ct) + `"`, "-d " + shellSingle(formatExample(ct, ex))}
}

// isBinary reports whether property name of an object schema holds file
// contents.
func isBinary(ref *openapi3.SchemaRef, name string) bool {
	if ref == nil || ref.Value == nil {
		return false
	}
	p := ref.Value.Properties[name]
	if p == nil || p.Value == nil {
		return false
	}
	return p.Value.Format == "binary"
}
