package folio

import (
	"encoding/json"
	"time"
)

// Translation statuses (TranslationStatus).
const (
	TranslationPending   = "pending"
	TranslationRunning   = "running"
	TranslationCompleted = "completed"
)

// TranslationLanguages are the language codes of the reference
// (TranslationLanguage).
var TranslationLanguages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar",
	"hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk",
	"bg", "hr", "lt", "lv", "et", "sl"}

// ValidTranslationLanguage reports whether code is one of
// TranslationLanguages.
func ValidTranslationLanguage(code string) bool {
	for _, c := range TranslationLanguages {
		if c == code {
			return true
		}
	}
	return false
}

// Limits of translations and the glossary.
const (
	MaxGlossaryEntries    = 5000 // per organization
	MaxGlossaryOperations = 500  // per update
	MaxGlossaryTerm       = 255
	MaxInstructionsBytes  = 100_000
)

// TranslationStats are a translation's figures: Runs counts every run,
// failed ones too; pages and words count what runs translated (not what
// they kept), TotalPages the distinct pages ever translated; durations are
// kept in milliseconds (the API shows seconds, rounded).
type TranslationStats struct {
	Runs              int   `json:"runs"`
	TotalWords        int   `json:"totalWords"`
	TotalPages        int   `json:"totalPages"`
	TotalDuration     int64 `json:"totalDuration"`
	LatestRunDuration int64 `json:"latestRunDuration"`
	LatestPages       int   `json:"latestPages"`
	LatestWords       int   `json:"latestWords"`
}

// Translation keeps a space translated into another language, in a target
// space it creates on its first run.
type Translation struct {
	ID             ID
	OrganizationID ID
	SourceSpace    ID
	SourceLanguage string
	Language       string
	Instructions   json.RawMessage // a JSONDocument, or nil
	ResultSpace    ID
	ResultRevision ID
	Status         string
	Stats          TranslationStats
	LastError      string // why the last run failed; "" after a good one
	LastRunAt      *time.Time
	CreatedBy      ID
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// TranslationView is a translation as seen by one caller.
type TranslationView struct {
	Translation
	Edit bool
}

// GlossaryEntry is one term of an organization's glossary in several
// languages: every translation run between two of them uses it.
type GlossaryEntry struct {
	ID             ID
	OrganizationID ID
	Translations   map[string]string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}
