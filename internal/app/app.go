package app

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/gitrepo"
	"github.com/foliodocs/folio/internal/lru"
	"github.com/foliodocs/folio/internal/scripts"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/store"
	"github.com/foliodocs/folio/internal/translate"
	"gocloud.dev/blob"
)

// Config holds what an App needs.
type Config struct {
	DB     *store.DB
	Clock  folio.Clock
	Logger *slog.Logger
	// PublicURL is the absolute base URL of the server, used in the links
	// and tokens it issues.
	PublicURL string
	// TokenCacheTTL is how long a verified token is trusted without asking
	// the database again; 0 selects DefaultTokenCacheTTL, a negative value
	// disables the cache.
	TokenCacheTTL time.Duration
	// Blobs holds the bytes of files, under their content hash.
	Blobs *blob.Bucket
	// HTTPClient fetches imported URLs; nil selects NewImportClient(false).
	HTTPClient *http.Client
	// ImportFetchTimeout bounds fetching an imported URL, body included; 0
	// selects DefaultImportFetchTimeout.
	ImportFetchTimeout time.Duration
	// WebhookTimeout bounds one webhook delivery attempt; 0 selects
	// DefaultWebhookTimeout.
	WebhookTimeout time.Duration
	// ScriptLimits bound each run of an integration script; zero fields
	// take scripts.DefaultLimits. Scripts fetch through HTTPClient.
	ScriptLimits scripts.Limits
	// NoScripts leaves integration scripts unrun (their events fail
	// saying so).
	NoScripts bool
	// AuditRetention is how long audit entries are kept; 0 selects
	// folio.DefaultAuditRetention, a negative value keeps them forever.
	AuditRetention time.Duration
	// GCGrace is how long garbage collection keeps an unreachable object
	// or blob after its last write; 0 selects DefaultGCGrace. It must
	// exceed the longest commit (see docs/garbage-collection.md).
	GCGrace time.Duration
	// HistoryRetention is how long finished jobs, events, webhook
	// deliveries and integration events are kept; 0 selects
	// DefaultHistoryRetention, a negative value keeps them forever.
	HistoryRetention time.Duration
	// Sealer encrypts the secrets kept in the database (site visitor keys)
	// with the server key; nil when the server has none, and then the
	// operations that need one answer Unavailable.
	Sealer *seal.Sealer
	// Git configures git sync; nil leaves it off (its operations answer
	// Unavailable).
	Git *GitConfig
	// Translator is the translation engine; nil leaves translation runs
	// failing with the reason.
	Translator translate.Engine
	// TreeCachePages bounds the cache of decoded revision trees, in pages
	// and files held; 0 selects DefaultTreeCachePages.
	TreeCachePages int
	// DocumentCacheBytes bounds the cache of page documents, in bytes of
	// their JSON; 0 selects DefaultDocumentCacheBytes.
	DocumentCacheBytes int
}

// DefaultTokenCacheTTL bounds how long a token revoked through another
// server process keeps working on this one.
const DefaultTokenCacheTTL = 10 * time.Second

// App runs the API operations.
type App struct {
	db        *store.DB
	clock     folio.Clock
	logger    *slog.Logger
	tokens    *tokenCache
	publicURL string

	secretsMu sync.Mutex
	secrets   map[string]string

	blobs *blob.Bucket
	http  *http.Client
	// fetchTimeout bounds fetching an imported URL.
	fetchTimeout time.Duration
	trees        *lru.Cache[content.Hash, *revTree]
	docs         *lru.Cache[content.Hash, []byte]
	// printer makes PDFs of print pages (print.go); empty until SetPrinter.
	printer atomic.Pointer[printerRef]
	// printing holds a slot per PDF being printed on this server.
	printing  chan struct{}
	sealer    *seal.Sealer
	revisions *lru.Cache[string, *folio.Revision] // by space and revision id (readercache.go)
	// git fetches and pushes repositories for git sync; nil when off.
	git        *gitrepo.Client
	gitConfig  GitConfig
	translator translate.Engine
	// webhookTimeout bounds one webhook delivery attempt.
	webhookTimeout time.Duration
	// siteViews remembers which sites' views integrations hear about
	// (siteview.go).
	siteViews siteListeners
	// auditRetention is how long audit entries are kept (<= 0: forever).
	auditRetention time.Duration
	// gcGrace and historyRetention configure garbage collection (gc.go);
	// gcAfterMark, set by tests, runs between its mark and its sweep.
	gcGrace          time.Duration
	historyRetention time.Duration
	gcAfterMark      func()
	// gitProgressHook, set by tests, runs after a git operation records progress.
	gitProgressHook func(space folio.ID)
	// siteScripts caches the answers of sites' integration scripts.
	siteScripts publishedScripts
	// scriptRunner runs integration scripts; nil when the server runs none.
	scriptRunner *scripts.Runner
	// openAPIOps caches the operations of OpenAPI specification versions
	// by version id (versions never change; openapiops.go).
	openAPIOps *lru.Cache[folio.ID, *specOps]
	profiles   *lru.Cache[string, *PublishedSite] // reader site profiles by site and stamp (readercache.go)
	// readerSites keeps site rows and stamps the reader read a moment ago
	// (readercache.go).
	readerSites readerSites
}

// Default cache bounds: decoded trees by pages and files held (about 0.5
// KB each with their lookups when no two trees share pages: 25 MB at
// most; trees of successive revisions share most of them), documents by
// bytes of their JSON. Documents are cached encoded: bytes hold no
// pointers, so a full cache costs the garbage collector nothing to scan
// (decoded documents are maps and slices all the way down, and a cache of
// them made every collection mark a large graph: search p99 went from 3.7
// to 8 ms). Together with the other caches they fit the default memory
// limit of folio serve with room to spare (README, "Memory").
const (
	DefaultTreeCachePages     = 50_000
	DefaultDocumentCacheBytes = 8 << 20
)

// New returns an App over a migrated store.
func New(cfg Config) *App {
	if cfg.Clock == nil {
		cfg.Clock = folio.SystemClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ttl := cfg.TokenCacheTTL
	if ttl == 0 {
		ttl = DefaultTokenCacheTTL
	}
	if cfg.WebhookTimeout == 0 {
		cfg.WebhookTimeout = DefaultWebhookTimeout
	}
	if cfg.ImportFetchTimeout == 0 {
		cfg.ImportFetchTimeout = DefaultImportFetchTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = NewImportClient(false)
	}
	a := &App{db: cfg.DB, clock: cfg.Clock, logger: cfg.Logger, tokens: newTokenCache(ttl),
		publicURL: strings.TrimRight(cfg.PublicURL, "/"), secrets: make(map[string]string),
		blobs: cfg.Blobs, http: cfg.HTTPClient,
		fetchTimeout: cfg.ImportFetchTimeout, webhookTimeout: cfg.WebhookTimeout, sealer: cfg.Sealer, translator: cfg.Translator,
		trees: lru.New(int64(cmp.Or(cfg.TreeCachePages, DefaultTreeCachePages)),
			func(_ content.Hash, rt *revTree) int64 { return int64(rt.weight()) }),
		docs: lru.New(int64(cmp.Or(cfg.DocumentCacheBytes, DefaultDocumentCacheBytes)),
			func(_ content.Hash, b []byte) int64 { return int64(len(b)) }),
		printing:   make(chan struct{}, maxConcurrentPrints),
		revisions:  lru.New(revisionCacheEntries, one[string, *folio.Revision]),
		profiles:   lru.New(profileCacheEntries, one[string, *PublishedSite]),
		openAPIOps: lru.New(openAPIOpsBytes, func(_ folio.ID, o *specOps) int64 { return int64(o.size) })}
	a.siteViews = siteListeners{bySite: map[folio.ID]siteListenerEntry{}, writing: make(chan struct{}, maxSiteViewWrites)}
	if cfg.Git != nil {
		a.setupGit(*cfg.Git)
	}
	a.gcGrace, a.historyRetention = cfg.GCGrace, cfg.HistoryRetention
	if a.gcGrace <= 0 {
		a.gcGrace = DefaultGCGrace
	}
	if a.historyRetention == 0 {
		a.historyRetention = DefaultHistoryRetention
	}
	a.auditRetention = cfg.AuditRetention
	if a.auditRetention == 0 {
		a.auditRetention = folio.DefaultAuditRetention
	}
	a.siteScripts.entries = map[string]publishedScriptEntry{}
	a.siteScripts.lists = map[folio.ID]siteScriptEntry{}
	if !cfg.NoScripts {
		a.scriptRunner = scripts.NewRunner(cfg.HTTPClient, cfg.ScriptLimits)
	}
	return a
}

// DB returns the store, for health checks.
func (a *App) DB() *store.DB { return a.db }

// JobStats reads the figures of the shared job queue, for metrics.
func (a *App) JobStats(ctx context.Context) (s folio.JobStats, err error) {
	err = a.db.Read(ctx, func(tx *store.Tx) (err error) { s, err = store.JobStats(ctx, tx); return err })
	return s, err
}

// JobHandlers returns the handler of every background job kind, for the
// job runner.
func (a *App) JobHandlers() map[string]func(context.Context, string) error {
	return map[string]func(context.Context, string) error{
		folio.JobPurgeSpace:               a.PurgeSpace,
		folio.JobImportContent:            a.ImportContentJob,
		folio.JobPrintPDF:                 a.PrintPDFJob,
		folio.JobGitSync:                  a.GitSyncJob,
		folio.JobProcessOpenAPI:           a.ProcessOpenAPIJob,
		folio.JobRefreshOpenAPI:           a.RefreshOpenAPISpecs,
		folio.JobTranslate:                a.TranslateJob,
		folio.JobDeliverWebhook:           a.DeliverWebhookJob,
		folio.JobDispatchIntegrationEvent: a.DispatchIntegrationEventJob,
		folio.JobPruneAudit:               a.PruneAuditJob,
		folio.JobCollectGarbage:           a.CollectGarbageJob,
	}
}
