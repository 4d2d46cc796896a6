package wire

import (
	"encoding/json"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
)

// Revision is the GitBook Revision object.
type Revision struct {
	Object           string            `json:"object"`
	ID               string            `json:"id"`
	Type             string            `json:"type"`
	Parents          []string          `json:"parents"`
	Pages            []*Page           `json:"pages"`
	Files            []File            `json:"files"`
	ReusableContents []ReusableContent `json:"reusableContents"`
	Variables        map[string]string `json:"variables"`
	CreatedAt        string            `json:"createdAt"`
	Git              *folio.GitCommit  `json:"git,omitempty"`
	URLs             RevisionURLs      `json:"urls"`
	MergedFrom       *ChangeRequest    `json:"mergedFrom,omitempty"` // merge revisions: the change request merged
}

// RevisionURLs are a revision's URLs.
type RevisionURLs struct {
	App string `json:"app"`
}

// ReusableContent is a revision's reusable content entry.
type ReusableContent struct {
	ID       string           `json:"id"`
	Title    string           `json:"title"`
	Git      *content.GitSync `json:"git,omitempty"`
	Document string           `json:"document,omitempty"`
}

// File is the GitBook RevisionFile object.
type File struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	ContentType string           `json:"contentType"`
	DownloadURL string           `json:"downloadURL"`
	Size        int64            `json:"size"`
	Dimensions  *Dimensions      `json:"dimensions,omitempty"`
	Git         *content.GitSync `json:"git,omitempty"`
}

// Dimensions are an image's size in pixels.
type Dimensions struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Layout is RevisionPageLayoutOptions: every field is required.
type Layout struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
}

// defaultLayout is the layout of a page that never set one: GitBook's
// defaults for a new page.
var defaultLayout = Layout{Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true,
	TableOfContents: true, Outline: true, Pagination: true, Metadata: true}

// Cover is RevisionPageDocumentCover.
type Cover struct {
	Ref     json.RawMessage `json:"ref,omitempty"`
	RefDark json.RawMessage `json:"refDark,omitempty"`
	YPos    float64         `json:"yPos"`
	Height  float64         `json:"height,omitempty"`
}

// PageURLs are a page's URLs.
type PageURLs struct {
	App string `json:"app"`
}

// Page is a RevisionPage of any type; fields that do not apply to the type
// are left empty and omitted.
type Page struct {
	ID            string             `json:"id"`
	Title         string             `json:"title"`
	Emoji         string             `json:"emoji,omitempty"`
	Icon          string             `json:"icon,omitempty"`
	Kind          string             `json:"kind"`
	Type          string             `json:"type"`
	URLs          *PageURLs          `json:"urls,omitempty"`
	Slug          *string            `json:"slug,omitempty"`
	Path          *string            `json:"path,omitempty"`
	Description   string             `json:"description,omitempty"`
	Pages         []*Page            `json:"pages,omitempty"`
	Git           *content.GitSync   `json:"git,omitempty"`
	Layout        *Layout            `json:"layout,omitempty"`
	Cover         *Cover             `json:"cover,omitempty"`
	Variables     map[string]string  `json:"variables,omitempty"`
	Hidden        bool               `json:"hidden"`
	NoIndex       *bool              `json:"noIndex,omitempty"`
	NoRobotsIndex *bool              `json:"noRobotsIndex,omitempty"`
	MetaLinks     *content.MetaLinks `json:"metaLinks,omitempty"`
	Target        json.RawMessage    `json:"target,omitempty"`
	Href          string             `json:"href,omitempty"`
	Computed      json.RawMessage    `json:"computed,omitempty"`
	DocumentID    string             `json:"documentId,omitempty"`
	Document      json.RawMessage    `json:"document,omitempty"`
	Markdown      *string            `json:"markdown,omitempty"`

	pagesSet bool
}

// MarshalJSON writes pages: [] for document and group pages without
// children, as the reference requires, and no pages on links.
func (p *Page) MarshalJSON() ([]byte, error) {
	type plain Page
	if p.pagesSet && p.Pages == nil {
		return json.Marshal(struct {
			*plain
			Pages []*Page `json:"pages"`
		}{(*plain)(p), []*Page{}})
	}
	return json.Marshal((*plain)(p))
}

// ContentView is what the content converters need besides the content.
type ContentView struct {
	URLs     URLs
	SpaceID  string
	Paths    map[string]string
	Metadata bool // include git metadata
	FileURL  func(content.File) string
}

// pageApp is the app URL of a page.
func (c ContentView) pageApp(id string) string {
	u := c.URLs.App("/s/" + c.SpaceID)
	if p, ok := c.Paths[id]; ok && p != "" {
		u += "/" + p
	}
	return u
}

// NewPage converts a page and, when deep, its descendants.
func (c ContentView) NewPage(p *content.Page, deep bool) *Page {
	out := &Page{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Type: p.Type, Hidden: p.Hidden}
	switch p.Type {
	case content.PageDocument, content.PageGroup:
		slug, path := p.Slug, c.Paths[p.ID]
		out.Slug, out.Path = &slug, &path
		out.URLs = &PageURLs{App: c.pageApp(p.ID)}
		noIndex, noRobots := p.NoIndex, p.NoRobotsIndex
		out.NoIndex, out.NoRobotsIndex = &noIndex, &noRobots
		out.pagesSet = true
		if deep {
			for _, child := range p.Pages {
				out.Pages = append(out.Pages, c.NewPage(child, true))
			}
		}
	case content.PageLink:
		out.Target = p.Target
	}
	switch p.Type {
	case content.PageDocument:
		out.Kind = "sheet"
		out.Description = p.Description
		out.Variables = p.Variables
		out.MetaLinks = p.MetaLinks
		out.Computed = p.Computed
		l := defaultLayout
		if p.Layout != nil {
			l = Layout{Width: p.Layout.Width, Cover: p.Layout.Cover, CoverSize: p.Layout.CoverSize, Title: p.Layout.Title,
				Description: p.Layout.Description, TableOfContents: p.Layout.TableOfContents, Outline: p.Layout.Outline,
				Pagination: p.Layout.Pagination, Metadata: p.Layout.Metadata}
			if l.Width == "" {
				l.Width = defaultLayout.Width
			}
			if l.CoverSize == "" {
				l.CoverSize = defaultLayout.CoverSize
			}
		}
		out.Layout = &l
		if p.Cover != nil {
			out.Cover = &Cover{Ref: p.Cover.Ref, RefDark: p.Cover.RefDark, YPos: p.Cover.YPos, Height: p.Cover.Height}
		}
		if !p.Document.IsZero() {
			out.DocumentID = p.Document.String()
		}
	case content.PageGroup:
		out.Kind = "group"
	case content.PageLink:
		out.Kind = "link"
	}
	if c.Metadata {
		out.Git = p.Git
	}
	return out
}

// NewPages converts a page tree.
func (c ContentView) NewPages(pages []*content.Page) []*Page {
	out := make([]*Page, 0, len(pages))
	for _, p := range pages {
		out = append(out, c.NewPage(p, true))
	}
	return out
}

// NewFile converts a revision file.
func (c ContentView) NewFile(f *content.File) File {
	out := File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: c.FileURL(*f), Size: f.Size}
	if f.Width > 0 || f.Height > 0 {
		out.Dimensions = &Dimensions{Width: f.Width, Height: f.Height}
	}
	if c.Metadata {
		out.Git = f.Git
	}
	return out
}

// NewRevision converts a revision with its content.
func (c ContentView) NewRevision(r *folio.Revision, t *content.Tree) Revision {
	out := Revision{Object: "revision", ID: r.ID, Type: r.Type, Parents: r.Parents, CreatedAt: Time(r.CreatedAt),
		Files: make([]File, 0, len(t.Files)), ReusableContents: make([]ReusableContent, 0, len(t.ReusableContents)),
		Variables: t.Variables, URLs: RevisionURLs{App: c.URLs.App("/s/" + c.SpaceID + "/~/revisions/" + r.ID)}}
	if out.Parents == nil {
		out.Parents = []string{}
	}
	if out.Variables == nil {
		out.Variables = map[string]string{}
	}
	out.Pages = c.NewPages(t.Pages)
	for _, f := range t.Files {
		out.Files = append(out.Files, c.NewFile(&f))
	}
	for _, rc := range t.ReusableContents {
		w := ReusableContent{ID: rc.ID, Title: rc.Title}
		if !rc.Document.IsZero() {
			w.Document = rc.Document.String()
		}
		if c.Metadata {
			w.Git = rc.Git
		}
		out.ReusableContents = append(out.ReusableContents, w)
	}
	if c.Metadata {
		out.Git = r.Git
	}
	return out
}

// SearchSection is a SearchSectionResult.
type SearchSection struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Path  string   `json:"path"`
	Body  string   `json:"body"`
	URLs  PageURLs `json:"urls"`
}

// SearchAncestor is a page above a search hit.
type SearchAncestor struct {
	Title string `json:"title"`
}

// SearchPage is a SearchPageResult.
type SearchPage struct {
	ID        string           `json:"id"`
	Title     string           `json:"title"`
	Path      string           `json:"path"`
	Sections  []SearchSection  `json:"sections"`
	Ancestors []SearchAncestor `json:"ancestors"`
	URLs      PageURLs         `json:"urls"`
}

// SearchSpace is a SearchSpaceResult.
type SearchSpace struct {
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Pages []SearchPage `json:"pages"`
}

// NewSearchPage converts a page hit of a space.
func (u URLs) NewSearchPage(spaceID, id, title, path string, ancestors []string, sections []SearchSection) SearchPage {
	app := u.App("/s/" + spaceID)
	if path != "" {
		app += "/" + path
	}
	out := SearchPage{ID: id, Title: title, Path: path, Sections: sections, Ancestors: make([]SearchAncestor, len(ancestors)),
		URLs: PageURLs{App: app}}
	for i, a := range ancestors {
		out.Ancestors[i].Title = a
	}
	for i := range out.Sections {
		s := &out.Sections[i]
		s.Path, s.URLs.App = path, app
		if s.ID != "" {
			s.Path += "#" + s.ID
			s.URLs.App += "#" + s.ID
		}
	}
	if out.Sections == nil {
		out.Sections = []SearchSection{}
	}
	return out
}

// ContentLocation is an absolute reference to content (ContentLocation).
type ContentLocation struct {
	Kind         string        `json:"kind"`
	URL          string        `json:"url,omitempty"`
	Organization *Organization `json:"organization,omitempty"`
	Space        *Space        `json:"space,omitempty"`
	Page         *Page         `json:"page,omitempty"`
	File         *File         `json:"file,omitempty"`
}

// LinkUsage is a ContentReferenceUsage; ref is Folio's addition: the
// reference as written, also for targets that cannot be resolved.
type LinkUsage struct {
	Status             string            `json:"status"`
	Relation           string            `json:"relation"`
	TargetReference    *ContentLocation  `json:"targetReference,omitempty"`
	LocationReferences []ContentLocation `json:"locationReferences"`
	Ref                json.RawMessage   `json:"ref,omitempty"`
}

// LinkStats is ContentReferencesStats.
type LinkStats struct {
	Total  int `json:"total"`
	Broken struct {
		Total         int `json:"total"`
		ChangeRequest int `json:"changeRequest"`
	} `json:"broken"`
}
