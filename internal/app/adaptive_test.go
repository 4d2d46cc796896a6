package app_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
)

// testSchema has a signed boolean, a string enum, a number, an array, a
// nested object with an odd claim name, and two unsigned booleans.
const testSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "isBetaUser": {"type": "boolean", "description": "Beta users"},
    "plan": {"type": "string", "enum": ["free", "pro"], "description": "Plan"},
    "seats": {"type": "number", "description": "Seats"},
    "roles": {"type": "array", "description": "Roles", "items": {"type": "string", "description": "Role"}},
    "org": {"type": "object", "description": "Organization", "additionalProperties": false,
      "properties": {"is-paying": {"type": "boolean", "description": "Paying organizations"}}},
    "unsigned": {"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
      "properties": {
        "showBanner": {"type": "boolean", "description": "Show the banner"},
        "darkMode": {"type": "boolean", "description": "Dark mode"}
      }}
  },
  "additionalProperties": false
}`

func TestValidateAdaptiveSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema, want string // want: a fragment of the error, "" for valid
	}{
		{"full", testSchema, ""},
		{"minimal", `{"type":"object","properties":{},"additionalProperties":false}`, ""},
		{"unsigned only", `{"type":"object","properties":{"unsigned":{"type":"object","description":"u","properties":{"a":{"type":"boolean","description":"A"}},"additionalProperties":false}},"additionalProperties":false}`, ""},
		{"null", `null`, "jsonSchema is required"},
		{"not json", `{"type":`, "not valid JSON"},
		{"array", `[]`, "at /: got array, want object"},
		{"not object type", `{"type":"string","properties":{},"additionalProperties":false}`, "at /type"},
		{"open schema", `{"type":"object","properties":{},"additionalProperties":true}`, "at /additionalProperties"},
		{"no additionalProperties", `{"type":"object","properties":{}}`, "additionalProperties"},
		{"other draft", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`, "at /$schema"},
		{"unknown keyword", `{"type":"object","properties":{},"additionalProperties":false,"required":["a"]}`, "required"},
		{"claim without description", `{"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":false}`, "at /properties/a: missing property 'description'"},
		{"claim of unknown type", `{"type":"object","properties":{"a":{"type":"integer","description":"A"}},"additionalProperties":false}`, "at /properties/a/type"},
		{"claim with extra keyword", `{"type":"object","properties":{"a":{"type":"boolean","description":"A","default":true}},"additionalProperties":false}`, "at /properties/a"},
		{"enum of numbers", `{"type":"object","properties":{"a":{"type":"string","description":"A","enum":[1]}},"additionalProperties":false}`, "at /properties/a/enum/0"},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array","description":"A"}},"additionalProperties":false}`, "at /properties/a: missing property 'items'"},
		{"open nested object", `{"type":"object","properties":{"a":{"type":"object","description":"A","properties":{},"additionalProperties":true}},"additionalProperties":false}`, "at /properties/a/additionalProperties"},
		{"unsigned string claim", `{"type":"object","properties":{"unsigned":{"type":"object","description":"u","properties":{"a":{"type":"string","description":"A"}},"additionalProperties":false}},"additionalProperties":false}`, "at /properties/unsigned/properties/a/type"},
		{"unsigned claim without description", `{"type":"object","properties":{"unsigned":{"type":"object","description":"u","properties":{"a":{"type":"boolean"}},"additionalProperties":false}},"additionalProperties":false}`, "at /properties/unsigned/properties/a: missing property 'description'"},
		{"unsigned open", `{"type":"object","properties":{"unsigned":{"type":"object","description":"u","properties":{},"additionalProperties":true}},"additionalProperties":false}`, "at /properties/unsigned/additionalProperties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := app.ValidateAdaptiveSchema(json.RawMessage(tc.schema))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("valid schema refused: %v", err)
				}
				if !json.Valid(out) {
					t.Fatalf("output is not JSON: %s", out)
				}
				return
			}
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "jsonSchema" {
				t.Fatalf("err = %v, want an Invalid error on jsonSchema", err)
			}
			if !strings.Contains(fe.Message, tc.want) {
				t.Fatalf("message %q does not contain %q", fe.Message, tc.want)
			}
		})
	}
}

func TestCheckCondition(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(testSchema)
	for _, tc := range []struct {
		name, cond string
		schema     json.RawMessage
		want       string // a fragment of the error, "" for valid
	}{
		{"boolean claim", `visitor.claims.isBetaUser`, schema, ""},
		{"comparison", `visitor.claims.isBetaUser == true && visitor.claims.plan == "pro"`, schema, ""},
		{"number", `visitor.claims.seats > 10`, schema, ""},
		{"membership", `"admin" in visitor.claims.roles`, schema, ""},
		{"nested with brackets", `visitor.claims.org["is-paying"]`, schema, ""},
		{"unsigned", `visitor.claims.unsigned.showBanner || !visitor.claims.unsigned.darkMode`, schema, ""},
		{"anything without a schema", `visitor.claims.whatever == "x"`, nil, ""},
		{"syntax error", `visitor.claims.isBetaUser &&`, schema, "line 1, column 28"},
		{"unclosed string", `visitor.claims.plan == "pro`, schema, "line 1, column"},
		{"second line", "visitor.claims.isBetaUser &&\n  visitor.claims.nope", schema, "line 2, column"},
		{"unknown claim", `visitor.claims.nope == true`, schema, "line 1, column"},
		{"unknown unsigned claim", `visitor.claims.unsigned.nope`, schema, "line 1, column"},
		{"unknown variable", `user.isBetaUser`, schema, "line 1, column 1"},
		{"not boolean", `visitor.claims.plan`, schema, "bool"},
		{"type mismatch", `visitor.claims.seats + visitor.claims.plan == 1`, schema, "line 1, column"},
		{"string compared to number", `visitor.claims.plan > 3`, schema, "line 1, column"},
		{"empty", `  `, schema, "must not be empty"},
		{"too long", strings.Repeat("a", 1025), schema, "at most 1024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := app.CheckCondition("condition", tc.cond, tc.schema)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("valid condition refused: %v", err)
				}
				return
			}
			var fe *folio.Error
			if !errors.As(err, &fe) || fe.Kind != folio.Invalid || fe.Field != "condition" {
				t.Fatalf("err = %v, want an Invalid error on condition", err)
			}
			if !strings.Contains(fe.Message, tc.want) {
				t.Fatalf("message %q does not contain %q", fe.Message, tc.want)
			}
		})
	}
}

func TestConditionAtTheLimit(t *testing.T) {
	t.Parallel()
	cond := "visitor.claims.isBetaUser" + strings.Repeat(" ", 1024-len("visitor.claims.isBetaUser"))
	if err := app.CheckCondition("condition", cond, json.RawMessage(testSchema)); err != nil {
		t.Fatalf("a condition of 1024 characters was refused: %v", err)
	}
}

func TestTemplateConditions(t *testing.T) {
	t.Parallel()
	got := app.TemplateConditions(json.RawMessage(testSchema))
	want := []folio.TemplateCondition{
		{Description: "Beta users", Condition: `visitor.claims.isBetaUser == true`},
		{Description: "Paying organizations", Condition: `visitor.claims.org["is-paying"] == true`},
		{Description: "Plan: free", Condition: `visitor.claims.plan == "free"`},
		{Description: "Plan: pro", Condition: `visitor.claims.plan == "pro"`},
		{Description: "Dark mode", Condition: `visitor.claims.unsigned.darkMode == true`},
		{Description: "Show the banner", Condition: `visitor.claims.unsigned.showBanner == true`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("template conditions (-want +got):\n%s", diff)
	}
	// Every template condition type-checks against the schema it came from.
	for _, c := range got {
		if err := app.CheckCondition("condition", c.Condition, json.RawMessage(testSchema)); err != nil {
			t.Errorf("template %q does not check: %v", c.Condition, err)
		}
	}
	if got := app.TemplateConditions(nil); got == nil || len(got) != 0 {
		t.Fatalf("no schema: got %v, want an empty list", got)
	}
}

func TestEvaluateCondition(t *testing.T) {
	t.Parallel()
	claims := map[string]any{"isBetaUser": true, "plan": "pro", "seats": 12.0,
		"unsigned": map[string]any{"showBanner": false}}
	for _, tc := range []struct {
		cond string
		want bool
	}{
		{`visitor.claims.isBetaUser`, true},
		{`visitor.claims.plan == "free"`, false},
		{`visitor.claims.seats > 10 && visitor.claims.plan == "pro"`, true},
		{`visitor.claims.unsigned.showBanner`, false},
		{`visitor.claims.missing == true`, false},
		{`visitor.claims.isBetaUser &&`, false},
	} {
		if got := app.EvaluateCondition(tc.cond, claims); got != tc.want {
			t.Errorf("%s = %v, want %v", tc.cond, got, tc.want)
		}
	}
	// Compiled programs are shared between visitors: the same condition
	// evaluates each visitor's own claims, whatever their types.
	cond := `visitor.claims.seats > 10`
	for _, tc := range []struct {
		claims map[string]any
		want   bool
	}{
		{map[string]any{"seats": 12.0}, true},
		{map[string]any{"seats": 3.0}, false},
		{map[string]any{"seats": "many"}, false},
		{nil, false},
		{map[string]any{"seats": 11.0}, true},
	} {
		if got := app.EvaluateCondition(cond, tc.claims); got != tc.want {
			t.Errorf("%s with %v = %v, want %v", cond, tc.claims, got, tc.want)
		}
	}
}
