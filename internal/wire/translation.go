package wire

import (
	"encoding/json"

	"github.com/foliodocs/folio"
)

// Translation is the GitBook Translation object, plus Folio's lastError
// (why the last run failed).
type Translation struct {
	Object       string                 `json:"object"`
	ID           string                 `json:"id"`
	Status       string                 `json:"status"`
	Source       TranslationSource      `json:"source"`
	Language     string                 `json:"language"`
	Instructions json.RawMessage        `json:"instructions"`
	Result       *TranslationResult     `json:"result,omitempty"`
	CreatedAt    string                 `json:"createdAt"`
	UpdatedAt    string                 `json:"updatedAt"`
	Stats        TranslationStats       `json:"stats"`
	LastError    string                 `json:"lastError,omitempty"`
	LastRunAt    *string                `json:"lastRunAt,omitempty"`
	Permissions  TranslationPermissions `json:"permissions"`
	URLs         struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// TranslationStats are the GitBook translation stats (durations in
// seconds).
type TranslationStats struct {
	Runs              int   `json:"runs"`
	TotalWords        int   `json:"totalWords"`
	TotalPages        int   `json:"totalPages"`
	TotalDuration     int64 `json:"totalDuration"`
	LatestRunDuration int64 `json:"latestRunDuration"`
	LatestPages       int   `json:"latestPages"`
	LatestWords       int   `json:"latestWords"`
}

// emptyInstructions is the instructions of a translation that has none:
// the reference requires the field.
var emptyInstructions = json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)

func seconds(ms int64) int64 { return (ms + 500) / 1000 }

// TranslationSource is the GitBook TranslationSource object.
type TranslationSource struct {
	Space    string `json:"space"`
	Language string `json:"language"`
}

// TranslationResult is the GitBook TranslationResult object.
type TranslationResult struct {
	Space    string `json:"space"`
	Revision string `json:"revision"`
}

// TranslationPermissions are the caller's permissions on a translation.
type TranslationPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// NewTranslation converts a translation as seen by a caller.
func (u URLs) NewTranslation(v *folio.TranslationView) Translation {
	out := Translation{Object: "translation", ID: v.ID, Status: v.Status,
		Source: TranslationSource{Space: v.SourceSpace, Language: v.SourceLanguage}, Language: v.Language,
		Instructions: v.Instructions, CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt),
		Stats: TranslationStats{Runs: v.Stats.Runs, TotalWords: v.Stats.TotalWords, TotalPages: v.Stats.TotalPages,
			TotalDuration: seconds(v.Stats.TotalDuration), LatestRunDuration: seconds(v.Stats.LatestRunDuration),
			LatestPages: v.Stats.LatestPages, LatestWords: v.Stats.LatestWords},
		LastError: v.LastError, LastRunAt: TimePtr(v.LastRunAt), Permissions: TranslationPermissions{View: true, Edit: v.Edit}}
	if out.Instructions == nil {
		out.Instructions = emptyInstructions
	}
	if v.ResultSpace != "" && v.ResultRevision != "" {
		out.Result = &TranslationResult{Space: v.ResultSpace, Revision: v.ResultRevision}
	}
	out.URLs.Location = u.API("/orgs/" + v.OrganizationID + "/translations/" + v.ID)
	return out
}

// GlossaryEntry is the GitBook GlossaryEntry object.
type GlossaryEntry struct {
	Object       string            `json:"object"`
	ID           string            `json:"id"`
	Translations map[string]string `json:"translations"`
	CreatedAt    string            `json:"createdAt"`
	UpdatedAt    string            `json:"updatedAt"`
	URLs         struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// NewGlossaryEntry converts a glossary entry.
func (u URLs) NewGlossaryEntry(e *folio.GlossaryEntry) GlossaryEntry {
	out := GlossaryEntry{Object: "glossary-entry", ID: e.ID, Translations: e.Translations, CreatedAt: Time(e.CreatedAt),
		UpdatedAt: Time(e.UpdatedAt)}
	out.URLs.Location = u.API("/orgs/" + e.OrganizationID + "/translations-glossary/" + e.ID)
	return out
}
