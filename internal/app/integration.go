package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/store"
	"gocloud.dev/blob"
)

// IntegrationInput is the body of publishIntegration. Pointers tell an
// absent field from an empty one.
type IntegrationInput struct {
	Runtime        *string                 `json:"runtime"`
	Icon           *string                 `json:"icon"`
	Title          *string                 `json:"title"`
	Description    *string                 `json:"description"`
	Summary        *string                 `json:"summary"`
	PreviewImages  []string                `json:"previewImages"`
	Visibility     *string                 `json:"visibility"`
	Target         *string                 `json:"target"`
	Scopes         *[]string               `json:"scopes"`
	Categories     []string                `json:"categories"`
	Blocks         json.RawMessage         `json:"blocks"`
	ContentSources json.RawMessage         `json:"contentSources"`
	ExternalLinks  []folio.IntegrationLink `json:"externalLinks"`
	Configurations json.RawMessage         `json:"configurations"`
	Script         *string                 `json:"script"`
	Organization   *string                 `json:"organization"`
	Secrets        map[string]string       `json:"secrets"`
	CSP            json.RawMessage         `json:"contentSecurityPolicy"`
}

// integrationAsset is a decoded icon or preview image.
type integrationAsset struct {
	name string // file name: content hash and extension
	data []byte
	mime string
}

// assetTypes are the image types accepted for icons and previews (no SVG:
// it can carry script).
var assetTypes = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}

// AssetContentType returns the content type of an integration asset by its
// file name.
func AssetContentType(name string) string {
	for mime, ext := range assetTypes {
		if strings.HasSuffix(name, ext) {
			return mime
		}
	}
	return "application/octet-stream"
}

func assetKey(name string) string { return assetPrefix + name }

func decodeAsset(field, b64 string, limit int) (*integrationAsset, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, folio.FieldErrorf(field, "%s must be base64", field)
	}
	if len(data) == 0 || len(data) > limit {
		return nil, folio.FieldErrorf(field, "%s must be an image of 1 byte to %d KB", field, limit>>10)
	}
	mime := http.DetectContentType(data)
	ext, ok := assetTypes[mime]
	if !ok {
		return nil, folio.FieldErrorf(field, "%s must be a PNG, JPEG, GIF or WebP image", field)
	}
	sum := sha256.Sum256(data)
	return &integrationAsset{name: hex.EncodeToString(sum[:]) + ext, data: data, mime: mime}, nil
}

// apply checks the input and fills in (a copy of) the stored integration,
// returning the assets to store.
func (in *IntegrationInput) apply(i *folio.Integration) (assets []*integrationAsset, err error) {
	str := func(p *string, def string) string {
		if p == nil {
			return def
		}
		return *p
	}
	oneOf := func(field string, p *string, def string, values []string) (string, error) {
		v := str(p, def)
		if !slices.Contains(values, v) {
			return "", folio.FieldErrorf(field, "%s must be one of %s", field, strings.Join(values, ", "))
		}
		return v, nil
	}
	switch {
	case in.Title == nil:
		return nil, folio.FieldErrorf("title", "title is required")
	case in.Description == nil:
		return nil, folio.FieldErrorf("description", "description is required")
	case in.Script == nil:
		return nil, folio.FieldErrorf("script", "script is required")
	case in.Scopes == nil:
		return nil, folio.FieldErrorf("scopes", "scopes is required")
	}
	if n := utf8.RuneCountInString(*in.Title); n < 2 || n > folio.MaxIntegrationTitle {
		return nil, folio.FieldErrorf("title", "title must be 2 to %d characters", folio.MaxIntegrationTitle)
	}
	if utf8.RuneCountInString(*in.Description) > folio.MaxIntegrationDescription {
		return nil, folio.FieldErrorf("description", "description must be at most %d characters", folio.MaxIntegrationDescription)
	}
	if utf8.RuneCountInString(str(in.Summary, "")) > folio.MaxIntegrationSummary {
		return nil, folio.FieldErrorf("summary", "summary must be at most %d characters", folio.MaxIntegrationSummary)
	}
	if len(*in.Script) > folio.MaxIntegrationScript {
		return nil, folio.FieldErrorf("script", "script must be at most %d MB", folio.MaxIntegrationScript>>20)
	}
	i.Title, i.Description, i.Summary, i.Script = *in.Title, *in.Description, str(in.Summary, ""), *in.Script
	if i.Runtime, err = oneOf("runtime", in.Runtime, "v1", folio.IntegrationRuntimes); err != nil {
		return nil, err
	}
	if i.Visibility, err = oneOf("visibility", in.Visibility, "private", folio.IntegrationVisibilities); err != nil {
		return nil, err
	}
	if i.Target, err = oneOf("target", in.Target, "all", folio.IntegrationTargets); err != nil {
		return nil, err
	}
	if i.Scopes, err = distinctOf("scopes", *in.Scopes, folio.IntegrationScopes); err != nil {
		return nil, err
	}
	if i.Categories, err = distinctOf("categories", in.Categories, folio.IntegrationCategories); err != nil {
		return nil, err
	}
	if i.Blocks, err = checkBlocks(in.Blocks); err != nil {
		return nil, err
	}
	if i.ContentSources, err = checkContentSources(in.ContentSources); err != nil {
		return nil, err
	}
	if i.Configurations, err = checkConfigurations(in.Configurations); err != nil {
		return nil, err
	}
	if len(in.ExternalLinks) > folio.MaxIntegrationLinks {
		return nil, folio.FieldErrorf("externalLinks", "externalLinks lists at most %d links", folio.MaxIntegrationLinks)
	}
	for _, l := range in.ExternalLinks {
		u, err := url.Parse(l.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(l.URL) > 2048 {
			return nil, folio.FieldErrorf("externalLinks", "each external link needs an absolute http or https url")
		}
		if n := utf8.RuneCountInString(l.Label); n == 0 || n > 100 {
			return nil, folio.FieldErrorf("externalLinks", "each external link needs a label of 1 to 100 characters")
		}
	}
	i.ExternalLinks = append([]folio.IntegrationLink{}, in.ExternalLinks...)
	if i.CSP, err = checkCSP(in.CSP); err != nil {
		return nil, err
	}
	if in.Icon != nil {
		a, err := decodeAsset("icon", *in.Icon, folio.MaxIntegrationIcon)
		if err != nil {
			return nil, err
		}
		i.Icon, assets = a.name, append(assets, a)
	}
	if len(in.PreviewImages) > folio.MaxIntegrationPreviews {
		return nil, folio.FieldErrorf("previewImages", "previewImages holds at most %d images", folio.MaxIntegrationPreviews)
	}
	i.PreviewImages = []string{}
	for _, p := range in.PreviewImages {
		a, err := decodeAsset("previewImages", p, folio.MaxIntegrationPreview)
		if err != nil {
			return nil, err
		}
		i.PreviewImages, assets = append(i.PreviewImages, a.name), append(assets, a)
	}
	if len(in.Secrets) > folio.MaxIntegrationSecrets {
		return nil, folio.FieldErrorf("secrets", "secrets holds at most %d entries", folio.MaxIntegrationSecrets)
	}
	for k, v := range in.Secrets {
		if k == "" || len(k) > 100 || len(v) > folio.MaxIntegrationSecretValue {
			return nil, folio.FieldErrorf("secrets", "each secret needs a name of 1 to 100 bytes and a value of at most %d KB",
				folio.MaxIntegrationSecretValue>>10)
		}
	}
	return assets, nil
}

// distinctOf checks that every value is one of allowed and drops repeats.
func distinctOf(field string, values, allowed []string) ([]string, error) {
	if len(values) > 100 {
		return nil, folio.FieldErrorf(field, "%s lists at most 100 values", field)
	}
	out := []string{}
	for _, v := range values {
		if !slices.Contains(allowed, v) {
			return nil, folio.FieldErrorf(field, "%s is not one of the %s", v, field)
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

func checkRawSize(field string, raw json.RawMessage) error {
	if len(raw) > folio.MaxIntegrationJSON {
		return folio.FieldErrorf(field, "%s must be at most %d KB of JSON", field, folio.MaxIntegrationJSON>>10)
	}
	return nil
}

func checkBlocks(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("[]"), nil
	}
	if err := checkRawSize("blocks", raw); err != nil {
		return nil, err
	}
	var blocks []folio.IntegrationBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, folio.FieldErrorf("blocks", "blocks must be a list of blocks, each with an id and a title")
	}
	if len(blocks) > folio.MaxIntegrationBlocks {
		return nil, folio.FieldErrorf("blocks", "blocks lists at most %d blocks", folio.MaxIntegrationBlocks)
	}
	for _, b := range blocks {
		if err := checkComponent("blocks", b.ID, b.Title, b.Description); err != nil {
			return nil, err
		}
	}
	return compactJSON(raw), nil
}

func checkContentSources(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("[]"), nil
	}
	if err := checkRawSize("contentSources", raw); err != nil {
		return nil, err
	}
	var sources []folio.IntegrationContentSource
	if err := json.Unmarshal(raw, &sources); err != nil {
		return nil, folio.FieldErrorf("contentSources", "contentSources must be a list of sources, each with an id, a title and a configuration")
	}
	if len(sources) > folio.MaxIntegrationSources {
		return nil, folio.FieldErrorf("contentSources", "contentSources lists at most %d sources", folio.MaxIntegrationSources)
	}
	for _, s := range sources {
		if err := checkComponent("contentSources", s.ID, s.Title, s.Description); err != nil {
			return nil, err
		}
		if len(s.Configuration) == 0 || s.Configuration[0] != '{' {
			return nil, folio.FieldErrorf("contentSources", "content source %s needs a configuration object", s.ID)
		}
	}
	return compactJSON(raw), nil
}

// checkComponent checks the id, title and description of a block or a
// content source (the reference's bounds).
func checkComponent(field, id, title, description string) error {
	if id == "" || len(id) > 100 {
		return folio.FieldErrorf(field, "each of %s needs an id of 1 to 100 characters", field)
	}
	if n := utf8.RuneCountInString(title); n < 2 || n > 40 {
		return folio.FieldErrorf(field, "%s %s: title must be 2 to 40 characters", field, id)
	}
	if utf8.RuneCountInString(description) > 150 {
		return folio.FieldErrorf(field, "%s %s: description must be at most 150 characters", field, id)
	}
	return nil
}

func checkConfigurations(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if err := checkRawSize("configurations", raw); err != nil {
		return nil, err
	}
	var c map[string]json.RawMessage
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, folio.FieldErrorf("configurations", "configurations must be an object with account, space or site")
	}
	for k, v := range c {
		if k != "account" && k != "space" && k != "site" {
			return nil, folio.FieldErrorf("configurations", "configurations has account, space and site only, not %s", k)
		}
		if len(v) == 0 || v[0] != '{' {
			return nil, folio.FieldErrorf("configurations", "configurations.%s must be an object", k)
		}
	}
	return compactJSON(raw), nil
}

func checkCSP(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if err := checkRawSize("contentSecurityPolicy", raw); err != nil {
		return nil, err
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return compactJSON(raw), nil
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, folio.FieldErrorf("contentSecurityPolicy", "contentSecurityPolicy must be a string or an object of directives to strings")
	}
	return compactJSON(raw), nil
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func integrationSealContext(name string) string { return "integration-secrets:" + name }

// resolveOrganization finds the organization named by id or hostname.
func resolveOrganization(ctx context.Context, tx *store.Tx, ref string) (*folio.Organization, error) {
	o, err := store.GetOrganization(ctx, tx, ref)
	if folio.IsNotFound(err) {
		o, err = store.GetOrganizationByHostname(ctx, tx, strings.ToLower(ref))
	}
	if folio.IsNotFound(err) {
		return nil, folio.Errorf(folio.NotFound, "The organization cannot be found for the given hostname")
	}
	return o, err
}

// PublishIntegration creates an integration, or publishes a new version of
// it. Only admins of the owning organization publish; an integration never
// moves to another organization.
func (a *App) PublishIntegration(ctx context.Context, caller folio.Caller, name string, in IntegrationInput) (v *folio.IntegrationView, err error) {
	if !folio.ValidIntegrationName(name) {
		return nil, folio.FieldErrorf("integrationName", "the integration name must match ^[a-zA-Z0-9-_.]+$ and be at most 100 characters")
	}
	if in.Organization == nil || *in.Organization == "" {
		return nil, folio.FieldErrorf("organization", "organization is required")
	}
	var i folio.Integration
	assets, err := in.apply(&i)
	if err != nil {
		return nil, err
	}
	if err := a.checkPublishedScript(ctx, caller, *in.Organization, i.Script); err != nil {
		return nil, err
	}
	var sealed string
	if len(in.Secrets) > 0 {
		if a.sealer == nil {
			return nil, folio.Errorf(folio.Unavailable, "this server has no secret key (FOLIO_SECRET_KEY) to keep integration secrets with")
		}
		plain, _ := json.Marshal(in.Secrets)
		if sealed, err = a.sealer.Seal(plain, integrationSealContext(name)); err != nil {
			return nil, err
		}
	}
	// Assets are content-addressed: writing them before the transaction
	// leaves at worst an unreferenced file when it fails, which garbage
	// collection removes; the transaction claims them.
	if err := a.putAssets(ctx, assets); err != nil {
		return nil, err
	}
	assetKeys := make([]string, len(assets))
	for n, as := range assets {
		assetKeys[n] = assetKey(as.name)
	}
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		if err := a.claimKeys(ctx, tx, assetKeys); err != nil {
			return err
		}
		org, err := resolveOrganization(ctx, tx, *in.Organization)
		if err != nil {
			return err
		}
		acc, err := access(ctx, tx, caller, org.ID)
		if folio.IsNotFound(err) {
			return folio.Errorf(folio.NotFound, "The organization cannot be found for the given hostname")
		}
		if err != nil {
			return err
		}
		if err := require(acc.Permissions().Admin, "only admins of the organization publish its integrations"); err != nil {
			return err
		}
		i.Name, i.OrganizationID, i.Version = name, org.ID, 1
		old, err := store.GetIntegration(ctx, tx, name)
		switch {
		case err == nil:
			if old.OrganizationID != org.ID {
				return folio.Errorf(folio.Conflict, "the integration name %s is taken by another organization", name)
			}
			i.Version, i.CreatedAt = old.Version+1, old.CreatedAt
			i.DevTunnelURL, i.DevAll = old.DevTunnelURL, old.DevAll
			if in.Secrets == nil {
				// Secrets left out keep their values; an empty map clears them.
				if sealed, err = store.IntegrationSecrets(ctx, tx, name); err != nil {
					return err
				}
			}
		case !folio.IsNotFound(err):
			return err
		}
		if err := store.SaveIntegration(ctx, tx, &i, sealed); err != nil {
			return err
		}
		if err := audit(ctx, tx, caller, org.ID, "integration.published", "integration", name,
			map[string]any{"version": i.Version, "visibility": i.Visibility, "scopes": i.Scopes}); err != nil {
			return err
		}
		ov := &folio.OrganizationView{Organization: *org, CallerRole: acc.Role}
		v = &folio.IntegrationView{Integration: i, Owner: ov, Admin: true}
		return nil
	})
	return v, err
}

func (a *App) putAssets(ctx context.Context, assets []*integrationAsset) error {
	if len(assets) == 0 {
		return nil
	}
	if a.blobs == nil {
		return folio.Errorf(folio.Unavailable, "file storage is not configured")
	}
	for _, as := range assets {
		if err := a.putBlob(ctx, assetKey(as.name), as.data, as.mime); err != nil {
			return err
		}
	}
	return nil
}

// integrationView loads an integration the caller may see (public and
// unlisted ones, and those of the caller's organizations), with its owner.
func integrationView(ctx context.Context, tx *store.Tx, caller folio.Caller, name string) (*folio.IntegrationView, error) {
	if caller.Site != nil {
		return nil, folio.Errorf(folio.NotFound, "No integration matches the name")
	}
	i, err := store.GetIntegration(ctx, tx, name)
	if err != nil {
		return nil, err
	}
	return viewIntegration(ctx, tx, caller, i)
}

func viewIntegration(ctx context.Context, tx *store.Tx, caller folio.Caller, i *folio.Integration) (*folio.IntegrationView, error) {
	org, err := store.GetOrganization(ctx, tx, i.OrganizationID)
	if err != nil {
		return nil, err
	}
	v := &folio.IntegrationView{Integration: *i, Owner: &folio.OrganizationView{Organization: *org}}
	acc, err := access(ctx, tx, caller, i.OrganizationID)
	switch {
	case err == nil:
		v.Owner.CallerRole, v.Admin = acc.Role, acc.Permissions().Admin
	case folio.IsNotFound(err) || folio.KindOf(err) == folio.Forbidden:
		if i.Visibility == "private" {
			return nil, folio.Errorf(folio.NotFound, "No integration matches the name")
		}
	default:
		return nil, err
	}
	return v, nil
}

// GetIntegration returns an integration the caller may see.
func (a *App) GetIntegration(ctx context.Context, caller folio.Caller, name string) (v *folio.IntegrationView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		v, err = integrationView(ctx, tx, caller, name)
		return err
	})
	return v, err
}

// ListIntegrations lists the public integrations and the caller's own
// (inOrg: only those installed in that organization, which the caller
// must belong to).
func (a *App) ListIntegrations(ctx context.Context, caller folio.Caller, inOrg folio.ID, f folio.IntegrationFilter, opts folio.ListOptions) (l folio.List[folio.IntegrationView], err error) {
	if err := f.Validate(); err != nil {
		return l, err
	}
	if caller.Site != nil {
		return folio.List[folio.IntegrationView]{Items: []folio.IntegrationView{}}, nil
	}
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		switch {
		case f.InstalledKind == folio.InstallOnSpace:
			sv, _, err := space(ctx, tx, caller, f.InstalledOn)
			if err != nil {
				return err
			}
			inOrg = sv.OrganizationID
		case f.InstalledKind == folio.InstallOnSite:
			if _, err := site(ctx, tx, caller, inOrg, f.InstalledOn, false); err != nil {
				return err
			}
		case inOrg != "":
			if _, err := access(ctx, tx, caller, inOrg); err != nil {
				return err
			}
		}
		is, err := store.ListIntegrations(ctx, tx, caller.UserID, inOrg, f, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.IntegrationView]{Count: is.Count, Next: is.Next}
		l.Items, err = viewIntegrations(ctx, tx, caller, is.Items)
		return err
	})
	return l, err
}

// viewIntegrations views a page of integrations with one owner lookup per
// organization, not per integration.
func viewIntegrations(ctx context.Context, tx *store.Tx, caller folio.Caller, is []folio.Integration) ([]folio.IntegrationView, error) {
	out := make([]folio.IntegrationView, 0, len(is))
	owners := map[folio.ID]*folio.IntegrationView{}
	for i := range is {
		if o, ok := owners[is[i].OrganizationID]; ok {
			out = append(out, folio.IntegrationView{Integration: is[i], Owner: o.Owner, Admin: o.Admin})
			continue
		}
		v, err := viewIntegration(ctx, tx, caller, &is[i])
		if err != nil {
			return nil, err
		}
		owners[v.OrganizationID] = v
		out = append(out, *v)
	}
	return out, nil
}

// UnpublishIntegration removes an integration with its installations and
// events (admins of the owning organization). An integration that does not
// exist is no error.
func (a *App) UnpublishIntegration(ctx context.Context, caller folio.Caller, name string) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		v, err := integrationView(ctx, tx, caller, name)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := require(v.Admin, "only admins of the organization that owns the integration unpublish it"); err != nil {
			return err
		}
		if err := store.DeleteIntegration(ctx, tx, name); err != nil {
			return err
		}
		return audit(ctx, tx, caller, v.OrganizationID, "integration.unpublished", "integration", name, nil)
	})
}

// IntegrationAsset opens an integration's icon or preview image by file
// name; NotFound unless the integration lists it.
func (a *App) IntegrationAsset(ctx context.Context, name, file string) (*blob.Reader, error) {
	var i *folio.Integration
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		i, err = store.GetIntegration(ctx, tx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	if a.blobs == nil || (file != i.Icon && !slices.Contains(i.PreviewImages, file)) {
		return nil, folio.Errorf(folio.NotFound, "asset not found")
	}
	return a.blobs.NewReader(ctx, assetKey(file), nil)
}
