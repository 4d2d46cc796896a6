package folio

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Space holds pages and files; it may sit in a collection.
type Space struct {
	ID             ID
	OrganizationID ID
	Parent         ID // collection id, empty at the organization's top level
	Title          string
	Emoji          string
	Language       string
	EditMode       string // EditModeLive or EditModeLocked
	DefaultLevel   Level
	MergeRules     MergeRules
	Visibility     string
	Revision       ID // the active revision
	Position       int64
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeletedAt      *time.Time
	// Counts of the space's change requests (all, open, draft), computed
	// when the space is read.
	ChangeRequests, ChangeRequestsOpen, ChangeRequestsDraft int
	Comments                                                int // open comments on the main content, counted when read
	// GitSync is the repository the space syncs with; nil when none.
	GitSync *GitSyncState
}

// SpaceView is a space as seen by one caller.
type SpaceView struct {
	Space
	CallerRole Role
}

// Permissions returns the caller's permissions on the space.
func (v *SpaceView) Permissions() SpacePermissions { return SpacePerms(v.CallerRole, v.EditMode) }

// Collection groups spaces and other collections.
type Collection struct {
	ID             ID
	OrganizationID ID
	Parent         ID // empty at the organization's top level
	Title          string
	Description    string
	DefaultLevel   Level
	Position       int64
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CollectionView is a collection as seen by one caller.
type CollectionView struct {
	Collection
	CallerRole Role
}

// Permissions returns the caller's permissions on the collection.
func (v *CollectionView) Permissions() CollectionPermissions { return CollectionPerms(v.CallerRole) }

// MaxContentTitle bounds space and collection titles, as in the reference.
const MaxContentTitle = 50

// ValidateContentTitle checks a space or collection title: 1 to 50
// characters, not blank.
func ValidateContentTitle(title string) error {
	if n := utf8.RuneCountInString(title); n < 1 || n > MaxContentTitle || strings.TrimSpace(title) == "" {
		return FieldErrorf("title", "title must be 1 to %d characters and not blank", MaxContentTitle)
	}
	return nil
}

// ParseLevel reads a defaultLevel: "inherit", a role, or null (none).
func ParseLevel(field string, o Optional[string]) (Level, error) {
	if o.Null {
		return Level{}, nil
	}
	if o.Value == "inherit" {
		return Level{Inherit: true}, nil
	}
	r, err := ParseRole(field, o.Value)
	if err != nil {
		return Level{}, FieldErrorf(field, "%s must be inherit, null or one of admin, create, review, edit, comment, read", field)
	}
	return Level{Role: r}, nil
}

// String is the stored form of a level: "inherit", a role, or "none".
func (l Level) String() string {
	switch {
	case l.Inherit:
		return "inherit"
	case l.Role == RoleGuest:
		return "none"
	}
	return string(l.Role)
}

// LevelFromString reads the stored form of a level.
func LevelFromString(s string) Level {
	switch s {
	case "inherit":
		return Level{Inherit: true}
	case "none":
		return Level{}
	}
	return Level{Role: Role(s)}
}

// MaxEmoji bounds the emoji of a space, as in the reference.
const MaxEmoji = 50

// NewSpace is the body of POST /orgs/{organizationId}/spaces.
type NewSpace struct {
	Title    string `json:"title"`
	Emoji    string `json:"emoji"`
	Parent   ID     `json:"parent"`
	Language string `json:"language"`
	EditMode string `json:"editMode"`
}

// Validate checks a new space and fills defaults. It returns Invalid errors.
func (n *NewSpace) Validate() error {
	if n.Title == "" {
		n.Title = "Untitled"
	}
	if err := ValidateContentTitle(n.Title); err != nil {
		return err
	}
	if utf8.RuneCountInString(n.Emoji) > MaxEmoji {
		return FieldErrorf("emoji", "emoji must be at most %d characters", MaxEmoji)
	}
	if n.EditMode == "" {
		n.EditMode = EditModeLive
	}
	if n.EditMode != EditModeLive && n.EditMode != EditModeLocked {
		return FieldErrorf("editMode", "editMode must be live or locked")
	}
	return ValidateLanguage("language", n.Language)
}

// SpaceUpdate is the body of PATCH /spaces/{spaceId}.
type SpaceUpdate struct {
	Title        Optional[string]     `json:"title"`
	Emoji        Optional[string]     `json:"emoji"`
	EditMode     Optional[string]     `json:"editMode"`
	DefaultLevel Optional[string]     `json:"defaultLevel"`
	Language     Optional[string]     `json:"language"`
	MergeRules   Optional[MergeRules] `json:"mergeRules"`
}

// Validate checks every present field. It returns Invalid errors.
func (u *SpaceUpdate) Validate() error {
	if u.Title.Set {
		if u.Title.Null {
			return FieldErrorf("title", "title cannot be null")
		}
		if err := ValidateContentTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.Emoji.Present() && utf8.RuneCountInString(u.Emoji.Value) > MaxEmoji {
		return FieldErrorf("emoji", "emoji must be at most %d characters", MaxEmoji)
	}
	if u.EditMode.Set && u.EditMode.Value != EditModeLive && u.EditMode.Value != EditModeLocked {
		return FieldErrorf("editMode", "editMode must be live or locked")
	}
	if u.DefaultLevel.Set {
		if _, err := ParseLevel("defaultLevel", u.DefaultLevel); err != nil {
			return err
		}
	}
	if u.Language.Set {
		if u.Language.Null {
			return FieldErrorf("language", "language cannot be null")
		}
		if err := ValidateLanguage("language", u.Language.Value); err != nil {
			return err
		}
	}
	if u.MergeRules.Set {
		if u.MergeRules.Null {
			return FieldErrorf("mergeRules", "mergeRules cannot be null")
		}
		return u.MergeRules.Value.Validate(true)
	}
	return nil
}

// Languages are the content languages of the GitBook reference.
var Languages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi",
	"nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk",
	"bg", "hr", "lt", "lv", "et", "sl"}

// ValidateLanguage checks a language code; empty means none.
func ValidateLanguage(field, s string) error {
	if s == "" {
		return nil
	}
	if slices.Contains(Languages, s) {
		return nil
	}
	return FieldErrorf(field, "%s %q is not a supported language code", field, s)
}
