package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
)

// adaptiveMetaSchema is the shape an adaptive schema must have, written as a
// draft-07 schema so the JSON Schema library checks it: an object schema whose
// top-level properties are claims, plus an optional "unsigned" object of
// boolean claims, every level closed with additionalProperties false. Claims
// branch on their "type" with if/then rather than oneOf so that an error names
// the one rule that failed instead of every alternative.
const adaptiveMetaSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "definitions": {
    "primitive": {
      "type": "object",
      "required": ["type", "description"],
      "properties": {
        "type": {"enum": ["boolean", "string", "number"]},
        "description": {"type": "string"}
      },
      "allOf": [
        {"if": {"properties": {"type": {"const": "string"}}},
         "then": {"properties": {"type": true, "description": true,
                  "enum": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
                  "additionalProperties": false},
         "else": {"properties": {"type": true, "description": true}, "additionalProperties": false}}
      ]
    },
    "claim": {
      "type": "object",
      "required": ["type", "description"],
      "properties": {
        "type": {"enum": ["boolean", "string", "number", "array", "object"]},
        "description": {"type": "string"}
      },
      "allOf": [
        {"if": {"properties": {"type": {"enum": ["boolean", "string", "number"]}}},
         "then": {"$ref": "#/definitions/primitive"}},
        {"if": {"properties": {"type": {"const": "array"}}},
         "then": {"required": ["items"],
                  "properties": {"type": true, "description": true, "items": {"$ref": "#/definitions/primitive"}},
                  "additionalProperties": false}},
        {"if": {"properties": {"type": {"const": "object"}}},
         "then": {"required": ["properties", "additionalProperties"],
                  "properties": {"type": true, "description": true,
                    "properties": {"type": "object", "additionalProperties": {"$ref": "#/definitions/claim"}},
                    "additionalProperties": {"const": false}},
                  "additionalProperties": false}}
      ]
    },
    "boolean": {
      "type": "object",
      "required": ["type", "description"],
      "properties": {"type": {"const": "boolean"}, "description": {"type": "string"}},
      "additionalProperties": false
    }
  },
  "type": "object",
  "required": ["type", "properties", "additionalProperties"],
  "properties": {
    "$schema": {"const": "http://json-schema.org/draft-07/schema#"},
    "type": {"const": "object"},
    "properties": {
      "type": "object",
      "properties": {
        "unsigned": {
          "type": "object",
          "required": ["type", "description", "properties", "additionalProperties"],
          "properties": {
            "type": {"const": "object"},
            "description": {"type": "string"},
            "properties": {"type": "object", "additionalProperties": {"$ref": "#/definitions/boolean"}},
            "additionalProperties": {"const": false}
          },
          "additionalProperties": false
        }
      },
      "additionalProperties": {"$ref": "#/definitions/claim"}
    },
    "additionalProperties": {"const": false}
  },
  "additionalProperties": false
}`

// adaptiveMeta is adaptiveMetaSchema compiled once.
var adaptiveMeta = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(adaptiveMetaSchema))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("folio:adaptive-meta.json", doc); err != nil {
		panic(err)
	}
	return c.MustCompile("folio:adaptive-meta.json")
})

// schemaPrinter renders the library's error messages in English.
var schemaPrinter = message.NewPrinter(language.English)

// claimSchema is the part of an adaptive schema the condition checker reads.
type claimSchema struct {
	Type        string                  `json:"type"`
	Description string                  `json:"description"`
	Enum        []string                `json:"enum"`
	Items       *claimSchema            `json:"items"`
	Properties  map[string]*claimSchema `json:"properties"`
}

// ValidateAdaptiveSchema checks that raw is a draft-07 JSON Schema of the
// shape adaptive content accepts, and returns it compacted. The error is
// Invalid on field jsonSchema and names the location of the first problem.
func ValidateAdaptiveSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is required")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is not valid JSON")
	}
	if err := adaptiveMeta().Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return nil, folio.FieldErrorf("jsonSchema", "jsonSchema: %s", describeSchemaError(ve))
		}
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is not a valid adaptive schema")
	}
	// The document must also compile as a JSON Schema in its own right, which
	// catches what the shape check leaves open (for example a bad $schema).
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("folio:visitor.json", doc); err != nil {
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is not a valid JSON Schema")
	}
	if _, err := c.Compile("folio:visitor.json"); err != nil {
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is not a valid JSON Schema")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, folio.FieldErrorf("jsonSchema", "jsonSchema is not valid JSON")
	}
	return buf.Bytes(), nil
}

// describeSchemaError reduces a validation error tree to its deepest first
// leaf, which is the most specific rule broken, with the JSON pointer of the
// offending value.
func describeSchemaError(ve *jsonschema.ValidationError) string {
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	loc := "/" + strings.Join(leaf.InstanceLocation, "/")
	return fmt.Sprintf("at %s: %s", loc, leaf.ErrorKind.LocalizedString(schemaPrinter))
}

// parseClaims reads a validated adaptive schema into its claim tree.
func parseClaims(schema json.RawMessage) map[string]*claimSchema {
	var root claimSchema
	if len(schema) == 0 || json.Unmarshal(schema, &root) != nil {
		return nil
	}
	return root.Properties
}

// claimType maps one claim schema to the expression type checking uses.
func claimType(c *claimSchema) types.Type {
	switch c.Type {
	case "boolean":
		return types.Bool
	case "string":
		return types.String
	case "number":
		return types.Float64
	case "array":
		if c.Items == nil {
			return types.Array(types.Any)
		}
		return types.Array(claimType(c.Items))
	case "object":
		m := types.Map{}
		for name, p := range c.Properties {
			m[name] = claimType(p)
		}
		return m
	}
	return types.Any
}

// conditionEnv is the environment a condition is checked in: visitor.claims
// typed by the schema, or, without a schema, claims of any name and type.
func conditionEnv(schema json.RawMessage) types.Map {
	var claims types.Map
	if props := parseClaims(schema); props != nil {
		claims = types.Map{}
		for name, p := range props {
			claims[name] = claimType(p)
		}
		if _, ok := claims["unsigned"]; !ok {
			claims["unsigned"] = types.Map{}
		}
	} else {
		claims = types.Map{types.Extra: types.Any}
	}
	return types.Map{"visitor": types.Map{"claims": claims}}
}

// CheckCondition parses and type-checks a condition expression against the
// site's adaptive schema (nil when it has none): it must be a boolean
// expression over visitor.claims. A failure is Invalid on field, with the
// line and column of the error.
func CheckCondition(field, condition string, schema json.RawMessage) error {
	if n := len([]rune(condition)); n > folio.MaxConditionLength {
		return folio.FieldErrorf(field, "%s must be at most %d characters", field, folio.MaxConditionLength)
	}
	if strings.TrimSpace(condition) == "" {
		return folio.FieldErrorf(field, "%s must not be empty", field)
	}
	_, err := expr.Compile(condition, expr.Env(conditionEnv(schema)), expr.AsBool())
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return folio.FieldErrorf(field, "%s: line %d, column %d: %s", field, fe.Line, fe.Column+1, fe.Message)
		}
		return folio.FieldErrorf(field, "%s: %s", field, err.Error())
	}
	return nil
}

// EvaluateCondition runs a condition for one visitor whose claims are given.
// A condition that fails to compile or run counts as false, so a broken
// condition hides content rather than showing it.
func EvaluateCondition(condition string, claims map[string]any) bool {
	// A copy, so that supplying the missing unsigned object does not change
	// the caller's map.
	c := make(map[string]any, len(claims)+1)
	for k, v := range claims {
		c[k] = v
	}
	if _, ok := c["unsigned"]; !ok {
		c["unsigned"] = map[string]any{}
	}
	env := map[string]any{"visitor": map[string]any{"claims": c}}
	prog, err := compiledCondition(condition)
	if err != nil {
		return false
	}
	out, err := expr.Run(prog, env)
	if err != nil {
		return false
	}
	b, _ := out.(bool)
	return b
}

// conditionPrograms caches compiled conditions: every page view of a site
// with conditions evaluates them, and compiling costs far more than
// running. The programs are compiled against the environment's shape
// (visitor.claims is a map of any values), not a visitor's claims, so one
// program serves every visitor. The cache is cleared when it reaches
// maxConditionPrograms entries, which bounds it whatever is stored.
var conditionPrograms = struct {
	sync.Mutex
	m map[string]conditionProgram
}{m: map[string]conditionProgram{}}

type conditionProgram struct {
	prog *vm.Program
	err  error
}

const maxConditionPrograms = 4096

func compiledCondition(condition string) (*vm.Program, error) {
	conditionPrograms.Lock()
	p, ok := conditionPrograms.m[condition]
	conditionPrograms.Unlock()
	if ok {
		return p.prog, p.err
	}
	shape := map[string]any{"visitor": map[string]any{"claims": map[string]any{"unsigned": map[string]any{}}}}
	p.prog, p.err = expr.Compile(condition, expr.Env(shape), expr.AsBool(), expr.AllowUndefinedVariables())
	conditionPrograms.Lock()
	if len(conditionPrograms.m) >= maxConditionPrograms {
		clear(conditionPrograms.m)
	}
	conditionPrograms.m[condition] = p
	conditionPrograms.Unlock()
	return p.prog, p.err
}

// identifier matches claim names that can follow a dot in an expression.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// member appends a member access to an expression path, with brackets when
// the name is not an identifier.
func member(path, name string) string {
	if identifier.MatchString(name) {
		return path + "." + name
	}
	return path + "[" + strconv.Quote(name) + "]"
}

// TemplateConditions derives ready-made conditions from an adaptive schema:
// one per boolean claim (signed, nested or unsigned) and one per allowed value
// of a string claim with an enum, in claim-name order.
func TemplateConditions(schema json.RawMessage) []folio.TemplateCondition {
	out := []folio.TemplateCondition{}
	var walk func(path string, props map[string]*claimSchema)
	walk = func(path string, props map[string]*claimSchema) {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			c, p := props[name], member(path, name)
			switch {
			case c == nil:
			case c.Type == "boolean":
				out = append(out, folio.TemplateCondition{Description: c.Description, Condition: p + " == true"})
			case c.Type == "string" && len(c.Enum) > 0:
				for _, v := range c.Enum {
					out = append(out, folio.TemplateCondition{
						Description: fmt.Sprintf("%s: %s", c.Description, v),
						Condition:   p + " == " + strconv.Quote(v)})
				}
			case c.Type == "object":
				walk(p, c.Properties)
			}
		}
	}
	props := parseClaims(schema)
	unsigned := props["unsigned"]
	signed := make(map[string]*claimSchema, len(props))
	for name, c := range props {
		if name != "unsigned" {
			signed[name] = c
		}
	}
	walk("visitor.claims", signed)
	if unsigned != nil {
		walk("visitor.claims.unsigned", unsigned.Properties)
	}
	return out
}

// GetAdaptiveSchema returns a site's adaptive schema, NotFound when none is
// set.
func (a *App) GetAdaptiveSchema(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (out *folio.AdaptiveSchema, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		out, err = store.GetAdaptiveSchema(ctx, tx, siteID)
		return err
	})
	return out, err
}

// SetAdaptiveSchema validates and stores a site's adaptive schema.
// Conditions already set stay as they are; the reader evaluates a
// condition that no longer fits the schema as false.
func (a *App) SetAdaptiveSchema(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID, raw json.RawMessage) (out *folio.AdaptiveSchema, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", true); err != nil {
			return err
		}
		doc, err := ValidateAdaptiveSchema(raw)
		if err != nil {
			return err
		}
		out = &folio.AdaptiveSchema{SiteID: siteID, JSONSchema: doc, UpdatedAt: tx.Now}
		if err := store.SetAdaptiveSchema(ctx, tx, out); err != nil {
			return err
		}
		// The schema decides which visitor claims adapt content: its size,
		// not its text.
		return audit(ctx, tx, caller, orgID, "site.adaptive_schema_updated", "site", siteID, map[string]any{"bytes": len(raw)})
	})
	return out, err
}

// ListTemplateConditions derives ready-made conditions from a site's
// adaptive schema; none when it has no schema.
func (a *App) ListTemplateConditions(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (out []folio.TemplateCondition, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := structureSite(ctx, tx, caller, orgID, siteID, "", false); err != nil {
			return err
		}
		schema, err := adaptiveSchema(ctx, tx, siteID)
		out = TemplateConditions(schema)
		return err
	})
	return out, err
}
