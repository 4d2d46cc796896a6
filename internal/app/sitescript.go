package app

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/store"
)

// SiteScript is a script to embed in a site's published pages
// (listSiteIntegrationScripts).
type SiteScript struct {
	URL     string
	CSP     string
	Cookies bool
}

// cspHeader turns an integration's contentSecurityPolicy (a string, or an
// object of directives) into a header value.
func cspHeader(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]string
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, strings.TrimSpace(k+" "+m[k]))
	}
	return strings.Join(parts, "; ")
}

func publishedScriptPath(name string, inst, siteID folio.ID) string {
	return "/v1/integrations/" + url.PathEscape(name) + "/installations/" + inst + "/sites/" + siteID + "/script.js"
}

// SiteIntegrationScripts lists the scripts of the integrations installed
// on a site with the site:script:inject scope: for members and for the
// site's API tokens (GitBook's renderer embeds them).
func (a *App) SiteIntegrationScripts(ctx context.Context, caller folio.Caller, orgID, siteID folio.ID) (out []SiteScript, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) error {
		if caller.Site != nil {
			if _, err := grantedSite(ctx, tx, caller, orgID, siteID); err != nil {
				return err
			}
		} else if _, err := site(ctx, tx, caller, orgID, siteID, false); err != nil {
			return err
		}
		out, err = a.siteScriptList(ctx, tx, orgID, siteID)
		return err
	})
	return out, err
}

// siteScriptList lists the scripts of the installations covering a site
// with the site:script:inject scope.
func (a *App) siteScriptList(ctx context.Context, tx *store.Tx, orgID, siteID folio.ID) ([]SiteScript, error) {
	ls, err := store.SiteListenersOf(ctx, tx, orgID, siteID, "site:script:inject")
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Integration
	}
	byName, err := store.GetIntegrations(ctx, tx, names)
	if err != nil {
		return nil, err
	}
	out := []SiteScript{}
	for _, l := range ls {
		i := byName[l.Integration]
		out = append(out, SiteScript{URL: a.publicURL + publishedScriptPath(l.Integration, l.Installation, siteID),
			CSP: cspHeader(i.CSP), Cookies: i.Allows("site:script:cookies")})
	}
	return out, nil
}

// PublishedScript is what a site's integration script answers.
type PublishedScript struct {
	Body        []byte
	ContentType string
	CSP         string
}

// publishedScripts caches scripts' answers briefly: browsers fetch them
// on every page, and running the script each time would cost a VM per
// page view.
type publishedScripts struct {
	mu      sync.Mutex
	entries map[string]publishedScriptEntry
	lists   map[folio.ID]siteScriptEntry // ReaderSiteScripts, by site
}

type publishedScriptEntry struct {
	script *PublishedScript
	until  time.Time
}

const publishedScriptTTL = time.Minute

// IntegrationSiteScript runs an installation's fetch_published_script
// event for a published site and answers the script it returns, with the
// integration's contentSecurityPolicy. Anyone may ask, as a browser does;
// NotFound unless the site is published and the installation covers it
// with the site:script:inject scope.
func (a *App) IntegrationSiteScript(ctx context.Context, name string, instID, siteID folio.ID) (*PublishedScript, error) {
	var (
		i    *folio.Integration
		inst *folio.Installation
	)
	notFound := folio.Errorf(folio.NotFound, "script not found")
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		if inst, err = store.GetInstallation(ctx, tx, name, instID); err != nil {
			return err
		}
		s, err := store.GetSite(ctx, tx, inst.OrganizationID, siteID)
		if err != nil || !s.Published {
			return cmpErr(err, notFound)
		}
		ls, err := store.SiteListenersOf(ctx, tx, inst.OrganizationID, siteID, "site:script:inject")
		if err != nil {
			return err
		}
		for _, l := range ls {
			if l.Installation == instID {
				i, err = store.GetIntegration(ctx, tx, name)
				return err
			}
		}
		return notFound
	})
	if folio.IsNotFound(err) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	key := string(instID) + "/" + string(siteID) + "/" + strconv.Itoa(i.Version) + "/" + inst.UpdatedAt.String()
	now := a.clock.Now()
	a.siteScripts.mu.Lock()
	if e, ok := a.siteScripts.entries[key]; ok && now.Before(e.until) {
		a.siteScripts.mu.Unlock()
		return e.script, nil
	}
	a.siteScripts.mu.Unlock()
	if a.scriptRunner == nil || i.Script == "" {
		return nil, folio.Errorf(folio.Unavailable, "this server does not run integration scripts")
	}
	event, _ := json.Marshal(map[string]any{"eventId": folio.NewID(), "type": "fetch_published_script",
		"installationId": instID, "siteId": siteID})
	env, err := a.integrationEnvironment(ctx, &dispatch{integration: i, inst: inst,
		event: &folio.IntegrationEvent{Payload: json.RawMessage(`{}`)}})
	if err != nil {
		return nil, err
	}
	req, err := scripts.MultipartEventRequest(event, env, nil)
	if err != nil {
		return nil, err
	}
	res, err := a.scriptRunner.Run(ctx, i.Script, req)
	if err != nil {
		a.logger.Warn("integration site script", "integration", name, "error", err.Error())
		return nil, folio.Errorf(folio.Unavailable, "the integration's script failed")
	}
	if res.Response.Status < 200 || res.Response.Status > 299 {
		return nil, folio.Errorf(folio.Unavailable, "the integration's script answered HTTP %d", res.Response.Status)
	}
	ps := &PublishedScript{Body: res.Response.Body, ContentType: res.Response.Header.Get("Content-Type"), CSP: cspHeader(i.CSP)}
	if ps.ContentType == "" {
		ps.ContentType = "application/javascript"
	}
	if ps.CSP == "" {
		ps.CSP = res.Response.Header.Get("Content-Security-Policy")
	}
	a.siteScripts.mu.Lock()
	if len(a.siteScripts.entries) > 1000 {
		clear(a.siteScripts.entries)
	}
	a.siteScripts.entries[key] = publishedScriptEntry{script: ps, until: now.Add(publishedScriptTTL)}
	a.siteScripts.mu.Unlock()
	return ps, nil
}

// siteScriptsTTL is how long a server keeps a site's script list: an
// installation made meanwhile shows in its pages at most this late.
const siteScriptsTTL = 30 * time.Second

type siteScriptEntry struct {
	scripts []SiteScript
	until   time.Time
}

// ReaderSiteScripts returns the integration scripts the reader embeds in
// a published site's pages, from a list each server keeps for
// siteScriptsTTL (most sites have none; asking costs a map lookup).
func (a *App) ReaderSiteScripts(ctx context.Context, orgID, siteID folio.ID) []SiteScript {
	now := a.clock.Now()
	a.siteScripts.mu.Lock()
	e, ok := a.siteScripts.lists[siteID]
	a.siteScripts.mu.Unlock()
	if ok && now.Before(e.until) {
		return e.scripts
	}
	var out []SiteScript
	err := a.db.Read(ctx, func(tx *store.Tx) (err error) {
		out, err = a.siteScriptList(ctx, tx, orgID, siteID)
		return err
	})
	if err != nil {
		a.logger.Warn("reader site scripts", "site", siteID, "error", err.Error())
		return nil
	}
	a.siteScripts.mu.Lock()
	if len(a.siteScripts.lists) > 10000 {
		clear(a.siteScripts.lists)
	}
	a.siteScripts.lists[siteID] = siteScriptEntry{scripts: out, until: now.Add(siteScriptsTTL)}
	a.siteScripts.mu.Unlock()
	return out
}
