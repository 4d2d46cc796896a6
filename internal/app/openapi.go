package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/netguard"
	"github.com/foliodocs/folio/internal/store"
)

// maxOpenAPIFile caps one fetched specification file.
const maxOpenAPIFile = 20 << 20

// OpenAPISource is a specification's source (OpenAPISpecSource): a URL or
// the text itself.
type OpenAPISource struct {
	URL  *string `json:"url"`
	Text *string `json:"text"`
}

// OpenAPISpecInput is the body of createOpenAPISpec and
// createOrUpdateOpenAPISpecBySlug.
type OpenAPISpecInput struct {
	Slug   string         `json:"slug"`
	Source *OpenAPISource `json:"source"`
}

// openAPIJob is the payload of a JobProcessOpenAPI job.
type openAPIJob struct {
	Spec folio.ID `json:"spec"`
}

var errOpenAPINotFound = folio.Errorf(folio.NotFound, "no matching OpenAPI specification found")

func validateOpenAPISlug(slug string) error {
	if slug == "" {
		return folio.FieldErrorf("slug", "slug is required")
	}
	if len(slug) > folio.MaxOpenAPISlug || !folio.OpenAPISlugPattern.MatchString(slug) {
		return folio.FieldErrorf("slug", "slug must be at most %d letters and digits in words separated by single hyphens, such as my-api", folio.MaxOpenAPISlug)
	}
	return nil
}

// validate checks a source: exactly one of an absolute http(s) URL or a
// non-empty text.
func (s *OpenAPISource) validate() error {
	if s == nil {
		return folio.FieldErrorf("source", "source is required")
	}
	switch {
	case s.URL != nil && s.Text != nil:
		return folio.FieldErrorf("source", "source has either a url or a text, not both")
	case s.URL != nil:
		u, err := url.Parse(*s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return folio.FieldErrorf("source.url", "source.url must be an absolute http or https URL")
		}
		if len(*s.URL) > folio.MaxOpenAPIURLLength {
			return folio.FieldErrorf("source.url", "source.url must be at most %d characters", folio.MaxOpenAPIURLLength)
		}
		if u.User != nil {
			return folio.FieldErrorf("source.url", "source.url must not carry credentials")
		}
	case s.Text != nil:
		if strings.TrimSpace(*s.Text) == "" {
			return folio.FieldErrorf("source.text", "source.text must not be empty")
		}
		if len(*s.Text) > folio.MaxOpenAPITextBytes {
			return folio.FieldErrorf("source.text", "source.text must be at most %d MiB", folio.MaxOpenAPITextBytes>>20)
		}
	default:
		return folio.FieldErrorf("source", "source needs a url or a text")
	}
	return nil
}

func (s *OpenAPISource) apply(spec *folio.OpenAPISpec) {
	spec.SourceURL, spec.SourceText = "", ""
	if s.URL != nil {
		spec.SourceURL = *s.URL
	} else {
		spec.SourceText = *s.Text
	}
}

// openAPIRights returns the caller's role in the organization: members
// (guests excepted) view specifications; creators and admins change them.
func openAPIRights(ctx context.Context, tx *store.Tx, caller folio.Caller, orgID folio.ID, edit bool) (folio.Access, error) {
	if caller.Site != nil {
		// A site API token reads its organization's public specifications,
		// for the OpenAPI blocks of the site's pages; it changes none.
		if _, err := grantedSite(ctx, tx, caller, orgID, caller.Site.Site); err != nil {
			return folio.Access{}, err
		}
		if edit {
			return folio.Access{}, errOpenAPINotFound
		}
		return folio.Access{Role: folio.RoleRead}, nil
	}
	acc, err := access(ctx, tx, caller, orgID)
	if err != nil {
		return acc, err
	}
	if acc.Role == folio.RoleGuest {
		return acc, errOpenAPINotFound
	}
	if edit && !folio.OrgPermissions(acc.Role, false).CreateOpenAPISpec {
		return acc, folio.Errorf(folio.Forbidden, "you cannot change this organization's OpenAPI specifications")
	}
	return acc, nil
}

func openAPIView(acc folio.Access, s *folio.OpenAPISpec) *folio.OpenAPISpecView {
	return &folio.OpenAPISpecView{OpenAPISpec: *s, Edit: folio.OrgPermissions(acc.Role, false).CreateOpenAPISpec}
}

// ListOpenAPISpecs lists an organization's specifications.
func (a *App) ListOpenAPISpecs(ctx context.Context, caller folio.Caller, orgID folio.ID, opts folio.ListOptions) (l folio.List[folio.OpenAPISpecView], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := openAPIRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		specs, err := store.ListOpenAPISpecs(ctx, tx, orgID, opts)
		if err != nil {
			return err
		}
		l = folio.List[folio.OpenAPISpecView]{Count: specs.Count, Next: specs.Next, Items: make([]folio.OpenAPISpecView, len(specs.Items))}
		for i := range specs.Items {
			l.Items[i] = *openAPIView(acc, &specs.Items[i])
		}
		return nil
	})
	return l, err
}

// CreateOpenAPISpec creates a specification and queues its processing.
func (a *App) CreateOpenAPISpec(ctx context.Context, caller folio.Caller, orgID folio.ID, in OpenAPISpecInput) (v *folio.OpenAPISpecView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := openAPIRights(ctx, tx, caller, orgID, true)
		if err != nil {
			return err
		}
		if err := validateOpenAPISlug(in.Slug); err != nil {
			return err
		}
		if err := in.Source.validate(); err != nil {
			return err
		}
		s := &folio.OpenAPISpec{ID: folio.NewID(), OrganizationID: orgID, Slug: in.Slug, Visibility: folio.OpenAPIPrivate,
			ProcessingState: folio.OpenAPIPending}
		in.Source.apply(s)
		if err := store.CreateOpenAPISpec(ctx, tx, s); err != nil {
			return err
		}
		v = openAPIView(acc, s)
		return queueOpenAPI(ctx, tx, s.ID)
	})
	return v, err
}

// queueOpenAPI queues the processing of a specification; the jobs of one
// specification run one at a time.
func queueOpenAPI(ctx context.Context, tx *store.Tx, id folio.ID) error {
	payload, _ := json.Marshal(openAPIJob{Spec: id})
	_, err := store.EnqueueKeyedJob(ctx, tx, folio.JobProcessOpenAPI, "openapi:"+id, string(payload), tx.Now)
	return err
}

// PutOpenAPISpec updates a specification's source (and processes it
// again), or creates the specification when the slug is free; created
// tells which.
func (a *App) PutOpenAPISpec(ctx context.Context, caller folio.Caller, orgID folio.ID, slug string, in OpenAPISpecInput) (v *folio.OpenAPISpecView, created bool, err error) {
	if in.Slug != "" && in.Slug != slug {
		return nil, false, folio.FieldErrorf("slug", "the body's slug differs from the path's")
	}
	in.Slug = slug
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := openAPIRights(ctx, tx, caller, orgID, true)
		if err != nil {
			return err
		}
		if err := validateOpenAPISlug(slug); err != nil {
			return err
		}
		if err := in.Source.validate(); err != nil {
			return err
		}
		s, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
		switch {
		case folio.IsNotFound(err):
			created = true
			s = &folio.OpenAPISpec{ID: folio.NewID(), OrganizationID: orgID, Slug: slug, Visibility: folio.OpenAPIPrivate,
				ProcessingState: folio.OpenAPIPending}
			in.Source.apply(s)
			err = store.CreateOpenAPISpec(ctx, tx, s)
		case err == nil:
			in.Source.apply(s)
			s.ProcessingState = folio.OpenAPIPending
			if err = store.SetOpenAPISource(ctx, tx, s.ID, s.SourceURL, s.SourceText); err == nil {
				err = store.UpdateOpenAPISpec(ctx, tx, s)
			}
		}
		if err != nil {
			return err
		}
		v = openAPIView(acc, s)
		return queueOpenAPI(ctx, tx, s.ID)
	})
	return v, created, err
}

// UpdateOpenAPISpecVisibility sets a specification's visibility.
func (a *App) UpdateOpenAPISpecVisibility(ctx context.Context, caller folio.Caller, orgID folio.ID, slug, visibility string) (v *folio.OpenAPISpecView, err error) {
	err = a.db.Write(ctx, func(tx *store.Tx) error {
		acc, err := openAPIRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		s, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
		if err != nil {
			return err
		}
		if _, err := openAPIRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		if visibility != folio.OpenAPIPrivate && visibility != folio.OpenAPIPublic {
			return folio.FieldErrorf("visibility", "visibility must be private or public")
		}
		s.Visibility = visibility
		if err := store.UpdateOpenAPISpec(ctx, tx, s); err != nil {
			return err
		}
		v = openAPIView(acc, s)
		return nil
	})
	return v, err
}

// GetOpenAPISpec returns a specification by slug.
func (a *App) GetOpenAPISpec(ctx context.Context, caller folio.Caller, orgID folio.ID, slug string) (v *folio.OpenAPISpecView, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		acc, err := openAPIRights(ctx, tx, caller, orgID, false)
		if err != nil {
			return err
		}
		s, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
		if err != nil {
			return err
		}
		v = openAPIView(acc, s)
		return nil
	})
	return v, err
}

// DeleteOpenAPISpec removes a specification and its versions; removing one
// that does not exist is no error.
func (a *App) DeleteOpenAPISpec(ctx context.Context, caller folio.Caller, orgID folio.ID, slug string) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if _, err := openAPIRights(ctx, tx, caller, orgID, true); err != nil {
			return err
		}
		s, err := store.GetOpenAPISpec(ctx, tx, orgID, slug)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = store.DeleteOpenAPISpec(ctx, tx, s.ID)
		return err
	})
}

// ListOpenAPIVersions lists a specification's versions, newest first.
func (a *App) ListOpenAPIVersions(ctx context.Context, caller folio.Caller, orgID folio.ID, slug string, opts folio.ListOptions) (s *folio.OpenAPISpec, l folio.List[folio.OpenAPIVersion], err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := openAPIRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		if s, err = store.GetOpenAPISpec(ctx, tx, orgID, slug); err != nil {
			return err
		}
		l, err = store.ListOpenAPIVersions(ctx, tx, s.ID, opts)
		return err
	})
	return s, l, err
}

// GetOpenAPIVersion returns a version ("latest" for the latest) of a
// specification, with its content when withContent.
func (a *App) GetOpenAPIVersion(ctx context.Context, caller folio.Caller, orgID folio.ID, slug, versionID string, withContent bool) (s *folio.OpenAPISpec, v *folio.OpenAPIVersion, c *folio.OpenAPIContent, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if _, err := openAPIRights(ctx, tx, caller, orgID, false); err != nil {
			return err
		}
		if s, err = store.GetOpenAPISpec(ctx, tx, orgID, slug); err != nil {
			return err
		}
		if caller.Site != nil && s.Visibility != folio.OpenAPIPublic {
			// Anyone may get a public site's token: it reads public
			// specifications only (docs/openapi.md).
			return errOpenAPINotFound
		}
		s, v, c, err = openAPIVersion(ctx, tx, s, versionID, withContent)
		return err
	})
	return s, v, c, err
}

func openAPIVersion(ctx context.Context, tx *store.Tx, s *folio.OpenAPISpec, versionID string, withContent bool) (*folio.OpenAPISpec, *folio.OpenAPIVersion, *folio.OpenAPIContent, error) {
	if versionID == "latest" {
		if s.LastVersion == "" {
			return nil, nil, nil, folio.Errorf(folio.NotFound, "no matching OpenAPI specification version found")
		}
		versionID = s.LastVersion
	}
	v, err := store.GetOpenAPIVersion(ctx, tx, s.ID, versionID)
	if err != nil {
		return nil, nil, nil, err
	}
	var c *folio.OpenAPIContent
	if withContent {
		if c, err = store.GetOpenAPIContent(ctx, tx, s.ID, v.ID); err != nil {
			return nil, nil, nil, err
		}
	}
	return s, v, c, nil
}

// RawOpenAPIVersion returns the raw entry document of a version for the
// raw URL: anyone reads a public specification's, members of the
// organization a private one's; everyone else gets NotFound.
func (a *App) RawOpenAPIVersion(ctx context.Context, caller folio.Caller, specID, versionID folio.ID) (raw []byte, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		s, err := store.GetOpenAPISpecByID(ctx, tx, specID)
		if err != nil {
			return err
		}
		if s.Visibility != folio.OpenAPIPublic {
			if caller.UserID == "" && caller.Site == nil {
				return errOpenAPINotFound
			}
			if _, err := openAPIRights(ctx, tx, caller, s.OrganizationID, false); err != nil {
				return errOpenAPINotFound
			}
		}
		_, _, c, err := openAPIVersion(ctx, tx, s, versionID, true)
		if err != nil {
			return err
		}
		raw = c.Raw
		return nil
	})
	return raw, err
}

// ProcessOpenAPIJob fetches, parses, bundles and validates a
// specification. A failure is recorded on the specification (its code and
// problems) and its latest good version stays served; a new version is
// made only when the content changed.
func (a *App) ProcessOpenAPIJob(ctx context.Context, payload string) error {
	var job openAPIJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return folio.Errorf(folio.Invalid, "openapi job payload: %v", err)
	}
	var s *folio.OpenAPISpec
	err := a.db.Write(ctx, func(tx *store.Tx) (err error) {
		if s, err = store.GetOpenAPISpecByID(ctx, tx, job.Spec); err != nil {
			return err
		}
		if s.SourceText, err = store.GetOpenAPISourceText(ctx, tx, s.ID); err != nil {
			return err
		}
		s.ProcessingState = folio.OpenAPIProgress
		return store.UpdateOpenAPISpec(ctx, tx, s)
	})
	if folio.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return err
	}
	raw, entryURL, fetchErr := []byte(s.SourceText), "", error(nil)
	if s.SourceURL != "" {
		entryURL = s.SourceURL
		raw, fetchErr = a.fetchOpenAPI(ctx, s.SourceURL)
	}
	var out *processedSpec
	if fetchErr == nil {
		out, fetchErr = a.processOpenAPI(ctx, raw, entryURL)
	}
	return a.db.Write(ctx, func(tx *store.Tx) error {
		cur, err := store.GetOpenAPISpecByID(ctx, tx, s.ID)
		if folio.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		now := tx.Now
		cur.ProcessingState, cur.LastProcessedAt = folio.OpenAPIComplete, &now
		if fetchErr != nil {
			cur.LastErrorCode, cur.LastErrors = openAPIErrorOf(fetchErr)
			return store.UpdateOpenAPISpec(ctx, tx, cur)
		}
		cur.LastErrorCode, cur.LastErrors = "", out.problems
		if cur.SourceText, err = store.GetOpenAPISourceText(ctx, tx, cur.ID); err != nil {
			return err
		}
		if cur.SourceURL != s.SourceURL || cur.SourceText != s.SourceText {
			// The source changed while this ran: its own job follows.
			cur.ProcessingState = folio.OpenAPIPending
			return store.UpdateOpenAPISpec(ctx, tx, cur)
		}
		latest := ""
		if cur.LastVersion != "" {
			if v, err := store.GetOpenAPIVersion(ctx, tx, cur.ID, cur.LastVersion); err == nil {
				latest = v.Hash
			}
		}
		if latest != out.hash {
			v := &folio.OpenAPIVersion{ID: folio.NewID(), SpecID: cur.ID, Hash: out.hash}
			if err := store.CreateOpenAPIVersion(ctx, tx, v, &folio.OpenAPIContent{Filesystem: out.filesystem, Raw: raw}); err != nil {
				return err
			}
			cur.LastVersion = v.ID
			if err := store.PruneOpenAPIVersions(ctx, tx, cur.ID, folio.OpenAPIVersionsKept); err != nil {
				return err
			}
		}
		return store.UpdateOpenAPISpec(ctx, tx, cur)
	})
}

// openAPIFetchError is a failed fetch of a specification file.
type openAPIFetchError struct {
	code, msg string
}

func (e *openAPIFetchError) Error() string { return e.msg }

// fetchOpenAPI fetches one specification file through the guarded client,
// within the import time limit and the file size cap.
func (a *App) fetchOpenAPI(ctx context.Context, raw string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, a.fetchTimeout)
	defer cancel()
	fail := func(code, format string, args ...any) error {
		return &openAPIFetchError{code: code, msg: fmt.Sprintf(format, args...)}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, fail(folio.OpenAPIFetchError, "%s is not a valid URL", raw)
	}
	req.Header.Set("User-Agent", "folio-openapi/1")
	req.Header.Set("Accept", "application/json, application/yaml, text/yaml, */*")
	resp, err := a.http.Do(req)
	if err != nil {
		switch {
		case netguard.IsBlocked(err):
			return nil, fail(folio.OpenAPIFetchError, "fetching %s refused: it points to a private network address", raw)
		case isTimeout(err):
			return nil, fail(folio.OpenAPIFetchTimeout, "fetching %s timed out after %s", raw, a.fetchTimeout)
		}
		return nil, fail(folio.OpenAPIFetchError, "fetching %s failed: %s", raw, describeFetchError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fail(folio.OpenAPIFetchError, "fetching %s answered HTTP %d", raw, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOpenAPIFile+1))
	if err != nil {
		if isTimeout(err) {
			return nil, fail(folio.OpenAPIFetchTimeout, "fetching %s timed out after %s", raw, a.fetchTimeout)
		}
		return nil, fail(folio.OpenAPIFetchError, "reading %s failed: %s", raw, describeFetchError(err))
	}
	if len(body) > maxOpenAPIFile {
		return nil, fail(folio.OpenAPIFetchError, "%s is larger than %d MiB", raw, maxOpenAPIFile>>20)
	}
	if !utf8.Valid(body) || strings.ContainsRune(string(body), 0) {
		return nil, fail(folio.OpenAPIParseError, "%s is not UTF-8 text", raw)
	}
	return body, nil
}

// RefreshOpenAPISpecs queues the processing of URL-sourced specifications
// not processed for folio.OpenAPIRefreshEvery (the schedule's job).
func (a *App) RefreshOpenAPISpecs(ctx context.Context, _ string) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		ids, err := store.DueOpenAPISpecs(ctx, tx, tx.Now.Add(-folio.OpenAPIRefreshEvery).UnixMicro(), 500)
		if err != nil {
			return err
		}
		for _, id := range ids {
			s, err := store.GetOpenAPISpecByID(ctx, tx, id)
			if err != nil {
				return err
			}
			s.ProcessingState = folio.OpenAPIPending // no second job until this one ran
			if err := store.UpdateOpenAPISpec(ctx, tx, s); err != nil {
				return err
			}
			if err := queueOpenAPI(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// EnsureSchedules records the server's periodic jobs (idempotent; every
// server calls it at start).
func (a *App) EnsureSchedules(ctx context.Context) error {
	return a.db.Write(ctx, func(tx *store.Tx) error {
		if err := store.PutJobSchedule(ctx, tx, folio.JobSchedule{Name: "openapi-refresh", Kind: folio.JobRefreshOpenAPI,
			Payload: "{}", Every: folio.OpenAPIScheduleEvery, NextRun: tx.Now.Add(time.Minute)}); err != nil {
			return err
		}
		if err := store.PutJobSchedule(ctx, tx, folio.JobSchedule{Name: "audit-prune", Kind: folio.JobPruneAudit,
			Payload: "{}", Every: auditPruneEvery, NextRun: tx.Now.Add(time.Hour)}); err != nil {
			return err
		}
		return store.PutJobSchedule(ctx, tx, folio.JobSchedule{Name: "gc", Kind: folio.JobCollectGarbage,
			Payload: "{}", Every: gcEvery, NextRun: tx.Now.Add(2 * time.Hour)})
	})
}

// openAPIJobGivenUp records a processing whose job was given up as failed,
// so that the specification does not stay in progress and the refresh
// schedule picks it up again.
func (a *App) openAPIJobGivenUp(ctx context.Context, payload, _ string) {
	var job openAPIJob
	if json.Unmarshal([]byte(payload), &job) != nil || job.Spec == "" {
		return
	}
	err := a.db.Write(ctx, func(tx *store.Tx) error {
		s, err := store.GetOpenAPISpecByID(ctx, tx, job.Spec)
		if err != nil || s.ProcessingState == folio.OpenAPIComplete {
			return err
		}
		now := tx.Now
		s.ProcessingState, s.LastProcessedAt = folio.OpenAPIComplete, &now
		s.LastErrorCode = folio.OpenAPIFetchError
		s.LastErrors = []folio.OpenAPIProblem{{Message: "processing could not finish and was given up", Code: folio.OpenAPIFetchError}}
		return store.UpdateOpenAPISpec(ctx, tx, s)
	})
	if err != nil && !folio.IsNotFound(err) {
		a.logger.Error("end a given-up OpenAPI processing", "spec", job.Spec, "error", err.Error())
	}
}
