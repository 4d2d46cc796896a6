package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"gocloud.dev/blob"

	"github.com/foliodocs/folio"
	"github.com/foliodocs/folio/internal/app"
	"github.com/foliodocs/folio/internal/httpapi"
	"github.com/foliodocs/folio/internal/jobs"
	"github.com/foliodocs/folio/internal/netguard"
	"github.com/foliodocs/folio/internal/pdf"
	"github.com/foliodocs/folio/internal/reader"
	"github.com/foliodocs/folio/internal/seal"
	"github.com/foliodocs/folio/internal/translate"
)

// shutdownGrace is how long in-flight requests may take to finish after
// SIGINT or SIGTERM.
const shutdownGrace = 30 * time.Second

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve",
		"Run the API server and the published sites: apply migrations, create the first admin on an empty database,\nthen listen. On SQLite one server owns a data folder (a lock on folio.lock in it); servers may share a\nPostgreSQL database.", stdout)
	var (
		sf                                        storeFlags
		addr, publicURL, logLevel, adminEmail     string
		pdfPaper                                  string
		secretKeyFile                             string
		gitCacheDir, gitSSHKeyFile, gitHosts      string
		accessLog, importPrivate, gitFile         bool
		gitTimeout                                time.Duration
		trEngine, trURL, trModel                  string
		maxBody, readerCache                      int64
		treeCache, documentCache                  int64
		bodyTimeout                               time.Duration
		limits                                    httpapi.RateLimits
		auditRetention, historyRetention, gcGrace time.Duration
		gogc, memoryLimit                         string
	)
	e := &env{getenv: getenv}
	sf.register(fs, e)
	var trustedProxies []netip.Prefix
	trustedProxiesFlag(fs.FlagSet, e, &trustedProxies)
	fs.StringVar(&addr, "addr", e.str("FOLIO_ADDR", "127.0.0.1:8080"), "address to listen on (FOLIO_ADDR)")
	fs.StringVar(&publicURL, "public-url", e.str("FOLIO_PUBLIC_URL", ""),
		"absolute URL clients reach the server at, used in every urls field; default from --addr (FOLIO_PUBLIC_URL)")
	fs.StringVar(&logLevel, "log-level", e.str("FOLIO_LOG_LEVEL", "info"), "debug, info, warn or error (FOLIO_LOG_LEVEL)")
	fs.BoolVar(&accessLog, "access-log", e.boolean("FOLIO_ACCESS_LOG", true), "log one line per request (FOLIO_ACCESS_LOG)")
	fs.Int64Var(&maxBody, "max-body", e.integer("FOLIO_MAX_BODY", httpapi.DefaultMaxBody), "request body limit in bytes (FOLIO_MAX_BODY)")
	fs.DurationVar(&bodyTimeout, "body-timeout", e.duration("FOLIO_BODY_TIMEOUT", httpapi.DefaultBodyTimeout),
		"time a client has to send a request body; a body still incomplete then gets 408 (FOLIO_BODY_TIMEOUT)")
	fs.StringVar(&adminEmail, "admin-email", e.str("FOLIO_ADMIN_EMAIL", "admin@localhost"),
		"email of the first admin created on an empty database (FOLIO_ADMIN_EMAIL)")
	fs.BoolVar(&importPrivate, "import-allow-private", e.boolean("FOLIO_IMPORT_ALLOW_PRIVATE", false),
		"let the URLs tenants supply (imports, webhooks, integration scripts and tunnels, OpenAPI, git) reach loopback and private networks; endpoints from flags never need it (FOLIO_IMPORT_ALLOW_PRIVATE)")
	fs.StringVar(&pdfPaper, "pdf-paper", e.str("FOLIO_PDF_PAPER", "a4"),
		"paper size of PDF exports: a4 or letter (FOLIO_PDF_PAPER); PDFs need Chromium (FOLIO_CHROMIUM, docs/pdf.md)")
	fs.StringVar(&secretKeyFile, "secret-key-file", e.str("FOLIO_SECRET_KEY_FILE", ""),
		"file holding the server key that seals secrets kept in the database (base64 of 32 bytes, mode 0600); FOLIO_SECRET_KEY gives the key itself; default with SQLite: secret.key under --data, created on first start (FOLIO_SECRET_KEY_FILE)")
	fs.StringVar(&gitCacheDir, "git-cache-dir", e.str("FOLIO_GIT_CACHE_DIR", ""),
		"where git sync keeps repository caches (repoCacheID); default git-cache under --data (FOLIO_GIT_CACHE_DIR)")
	fs.BoolVar(&gitFile, "git-allow-file", e.boolean("FOLIO_GIT_ALLOW_FILE", false),
		"let git sync use file:// repositories on this server's disk (FOLIO_GIT_ALLOW_FILE)")
	fs.StringVar(&gitSSHKeyFile, "git-ssh-key", e.str("FOLIO_GIT_SSH_KEY", ""),
		"PEM private key file git sync uses for ssh:// repositories; without it ssh URLs are refused (FOLIO_GIT_SSH_KEY)")
	fs.StringVar(&gitHosts, "git-ssh-known-hosts", e.str("FOLIO_GIT_SSH_KNOWN_HOSTS", ""),
		"known_hosts file of the ssh servers git sync may reach; required with --git-ssh-key (FOLIO_GIT_SSH_KNOWN_HOSTS)")
	fs.DurationVar(&gitTimeout, "git-timeout", e.duration("FOLIO_GIT_TIMEOUT", app.DefaultGitTimeout),
		"time limit of one git sync operation (FOLIO_GIT_TIMEOUT)")
	fs.StringVar(&trEngine, "translate-engine", e.str("FOLIO_TRANSLATE_ENGINE", ""),
		"translation engine: libretranslate, deepl, openai, apertium, or empty for none (FOLIO_TRANSLATE_ENGINE); the API key comes from FOLIO_TRANSLATE_API_KEY (docs/translations.md)")
	fs.StringVar(&trURL, "translate-url", e.str("FOLIO_TRANSLATE_URL", ""),
		"base URL of the translation engine's API; for apertium, of an APy service instead of the apertium command (FOLIO_TRANSLATE_URL)")
	fs.StringVar(&trModel, "translate-model", e.str("FOLIO_TRANSLATE_MODEL", ""),
		"chat model of the openai engine (FOLIO_TRANSLATE_MODEL)")
	fs.IntVar(&limits.PerToken, "rate-limit-token", int(e.integer("FOLIO_RATE_LIMIT_TOKEN", httpapi.DefaultRateLimitPerToken)),
		"requests a minute per API token; 0: no limit (FOLIO_RATE_LIMIT_TOKEN)")
	fs.IntVar(&limits.PerAddress, "rate-limit-address", int(e.integer("FOLIO_RATE_LIMIT_ADDRESS", httpapi.DefaultRateLimitPerAddress)),
		"requests a minute per client address without a token (reader, downloads, SAML); 0: no limit (FOLIO_RATE_LIMIT_ADDRESS)")
	fs.IntVar(&limits.Sensitive, "rate-limit-sensitive", int(e.integer("FOLIO_RATE_LIMIT_SENSITIVE", httpapi.DefaultRateLimitSensitive)),
		"requests a minute per client address to sign-in and token routes; 0: no limit (FOLIO_RATE_LIMIT_SENSITIVE)")
	fs.DurationVar(&auditRetention, "audit-retention", retentionEnv(e, "FOLIO_AUDIT_RETENTION", folio.DefaultAuditRetention),
		"how long audit log entries are kept (default a year; negative: forever) (FOLIO_AUDIT_RETENTION)")
	fs.DurationVar(&historyRetention, "history-retention", retentionEnv(e, "FOLIO_HISTORY_RETENTION", app.DefaultHistoryRetention),
		"how long finished jobs, events, webhook deliveries and integration events are kept (default 30 days; negative: forever) (FOLIO_HISTORY_RETENTION)")
	fs.DurationVar(&gcGrace, "gc-grace", e.duration("FOLIO_GC_GRACE", app.DefaultGCGrace),
		"how long garbage collection keeps unreachable content after its last write; longer than any commit takes (FOLIO_GC_GRACE, docs/garbage-collection.md)")
	fs.Int64Var(&readerCache, "reader-cache", e.integer("FOLIO_READER_CACHE", reader.DefaultCacheBytes),
		"bytes of rendered reader HTML kept in memory, per server; 0 turns the cache off (FOLIO_READER_CACHE)")
	fs.Int64Var(&documentCache, "document-cache", e.integer("FOLIO_DOCUMENT_CACHE", app.DefaultDocumentCacheBytes),
		"bytes of page documents (their JSON) kept in memory (FOLIO_DOCUMENT_CACHE)")
	fs.Int64Var(&treeCache, "tree-cache", e.integer("FOLIO_TREE_CACHE", app.DefaultTreeCachePages),
		"pages and files of decoded revision trees kept in memory; about 0.5 KB each at most (FOLIO_TREE_CACHE)")
	fs.StringVar(&gogc, "gogc", "",
		"garbage collection target percentage, or off; default: GOGC, else 50 (docs/operations.md, \"Memory\")")
	fs.StringVar(&memoryLimit, "memory-limit", "",
		"soft limit of the Go runtime's memory, such as 256MiB, or off; default: GOMEMLIMIT, else 75% of the cgroup's memory limit, else 256MiB")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}

	// Every setting is checked before anything is created or opened, so a
	// typo changes nothing on disk.
	if _, err := parseLevel(logLevel); err != nil {
		return err
	}
	if err := pdf.CheckPaper(pdfPaper); err != nil {
		return fmt.Errorf("--pdf-paper: %w", err)
	}
	if sf.databaseURL != "" && !isPostgresURL(sf.databaseURL) {
		return fmt.Errorf("--database-url must be a postgres:// URL")
	}
	for _, c := range []struct {
		flag string
		n    int64
	}{{"--reader-cache", readerCache}, {"--document-cache", documentCache}, {"--tree-cache", treeCache}} {
		if c.n < 0 || c.n > 1<<40 {
			return fmt.Errorf("%s must be between 0 and 2^40", c.flag)
		}
	}
	if documentCache == 0 || treeCache == 0 {
		return fmt.Errorf("--document-cache and --tree-cache must be above 0: commits and reads depend on them")
	}
	cgLimit, cgFile, err := cgroupMemoryLimit("/proc/self/cgroup", "/sys/fs/cgroup")
	if err != nil {
		cgLimit = 0 // unreadable: the default applies, and the log says which
	}
	mem, err := chooseMemory(memoryInput{FlagGOGC: gogc, FlagLimit: memoryLimit,
		EnvGOGC: getenv("GOGC"), EnvLimit: getenv("GOMEMLIMIT"), Cgroup: cgLimit, CgroupFile: cgFile})
	if err != nil {
		return err
	}
	caches, cacheScale := fitCaches(cacheBounds{Reader: readerCache, Documents: documentCache, TreePages: treeCache},
		cacheSet{Reader: flagOrEnv(fs, "reader-cache", getenv("FOLIO_READER_CACHE")),
			Documents: flagOrEnv(fs, "document-cache", getenv("FOLIO_DOCUMENT_CACHE")),
			TreePages: flagOrEnv(fs, "tree-cache", getenv("FOLIO_TREE_CACHE"))}, mem.Limit)
	readerCache, documentCache, treeCache = caches.Reader, caches.Documents, caches.TreePages
	git := &app.GitConfig{CacheDir: gitCacheDir, AllowFile: gitFile, Timeout: gitTimeout, AllowPrivate: importPrivate}
	if git.CacheDir == "" {
		git.CacheDir = filepath.Join(sf.data, "git-cache")
	}
	if gitSSHKeyFile != "" {
		if git.SSHKey, err = os.ReadFile(gitSSHKeyFile); err != nil {
			return fmt.Errorf("--git-ssh-key: %w", err)
		}
		if gitHosts == "" {
			return fmt.Errorf("--git-ssh-key needs --git-ssh-known-hosts: git sync checks the host keys of ssh servers")
		}
		if git.SSHKnownHosts, err = os.ReadFile(gitHosts); err != nil {
			return fmt.Errorf("--git-ssh-known-hosts: %w", err)
		}
	}
	httpClient := app.NewImportClient(importPrivate)
	var translator translate.Engine
	if trEngine != "" {
		if translator, err = translate.New(translate.Config{Engine: trEngine, URL: trURL, Model: trModel,
			APIKey: getenv("FOLIO_TRANSLATE_API_KEY"), HTTP: netguard.OperatorClient(0)}); err != nil {
			return fmt.Errorf("--translate-engine: %s", describe(err))
		}
	}
	logger, logs, err := newBufferedLogger(stderr, logLevel)
	if err != nil {
		return err
	}
	defer logs.Close()
	// A configured server key is read now; the default one of a SQLite
	// data folder is created once the folder is locked.
	var sealer *seal.Sealer
	if keyText := getenv("FOLIO_SECRET_KEY"); keyText != "" || secretKeyFile != "" {
		if sealer, err = openSealer(keyText, secretKeyFile, &sf, logger); err != nil {
			return err
		}
	}

	// The listener and a remote bucket come before the data folder too: a
	// busy port or a bad --files-url leaves nothing behind.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	defer ln.Close()
	if publicURL == "" {
		publicURL = defaultPublicURL(ln.Addr().(*net.TCPAddr))
	}
	var files *blob.Bucket
	if sf.filesURL != "" {
		if files, err = sf.openFiles(ctx); err != nil {
			return err
		}
		defer files.Close()
	}

	// One server per SQLite data folder (docs/decisions.md): refuse a
	// second one before it opens the database.
	if sf.databaseURL == "" {
		lock, err := lockDataFolder(sf.data, "serve")
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	mem.apply()
	logger.Info("memory settings", "gogc", mem.gogcText(), "gogc_from", mem.GCSource,
		"memory_limit", mem.limitText(), "memory_limit_from", mem.LimitSource)
	fmt.Fprintf(stdout, "folio: memory: GOGC=%s (%s), soft limit %s (%s)\n",
		mem.gogcText(), mem.GCSource, mem.limitText(), mem.LimitSource)
	if cacheScale < 1 {
		logger.Info("cache bounds fitted to the soft limit", "reader_cache_bytes", readerCache,
			"document_cache_bytes", documentCache, "tree_cache_pages", treeCache)
		fmt.Fprintf(stdout, "folio: caches fitted to the soft limit: reader %s, documents %s, trees %d pages (--reader-cache, --document-cache and --tree-cache choose them)\n",
			formatBytes(readerCache), formatBytes(documentCache), treeCache)
	}

	db, err := sf.open(ctx, logger)
	if err != nil {
		return err
	}
	defer db.Close()
	if files == nil {
		if files, err = sf.openFiles(ctx); err != nil {
			return err
		}
		defer files.Close()
	}
	if sealer == nil {
		if sealer, err = openSealer("", "", &sf, logger); err != nil {
			return err
		}
	}
	a := app.New(app.Config{DB: db, Logger: logger, PublicURL: publicURL, Blobs: files,
		HTTPClient: httpClient, Sealer: sealer, Git: git, Translator: translator, AuditRetention: auditRetention,
		HistoryRetention: historyRetention, GCGrace: gcGrace, TreeCachePages: int(treeCache), DocumentCacheBytes: int(documentCache)})
	printer, err := pdf.New(a, publicURL, pdfPaper)
	if err != nil {
		return fmt.Errorf("--pdf-paper: %w", err)
	}
	a.SetPrinter(printer)
	if err := printer.Available(); err != nil {
		logger.Warn("PDF export unavailable; print pages still work", "reason", err.Error())
	}

	// On an empty database, create the first admin. Several servers starting
	// together agree on one through the store, and the others carry on.
	b, err := a.Init(ctx, app.InitInput{Email: adminEmail})
	switch {
	case err == nil:
		printBootstrap(stdout, b, publicURL)
		if err := printSignInLink(ctx, stdout, a, b, publicURL); err != nil {
			return err
		}
	case errors.Is(err, app.ErrNotEmpty):
	default:
		return fmt.Errorf("create the first admin: %s", describe(err))
	}
	if err := a.EnsureSchedules(ctx); err != nil {
		return fmt.Errorf("record the periodic jobs: %s", describe(err))
	}

	rd := reader.New(a, publicURL, logger)
	rd.SetCacheBytes(int(readerCache))
	runner := jobs.NewRunner(db, logger, a.JobHandlers()).WithGiveUp(a.JobGiveUps())
	h := httpapi.New(httpapi.Config{App: a, Logger: logger, PublicURL: publicURL, MaxBody: maxBody,
		BodyTimeout: bodyTimeout, AccessLog: accessLog, Reader: rd, JobsAlive: runner.Alive, RateLimits: limits,
		TrustedProxies: trustedProxies})
	observe := h.JobObserver()
	runner.WithObserver(func(kind string, outcome jobs.Outcome, took time.Duration) { observe(kind, string(outcome), took) })
	srv := &http.Server{
		Handler:           h,
		ConnState:         h.ConnState,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("listening", "addr", ln.Addr().String(), "public_url", publicURL, "store", db.Dialect())
	fmt.Fprintf(stdout, "folio: listening on http://%s (store: %s)\n", ln.Addr(), db.Dialect())

	// Background jobs stop with the server; one that is cut off runs again
	// when its lease expires, here or on another server.
	jctx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	jobsDone := make(chan struct{})
	go func() {
		defer close(jobsDone)
		runner.Run(jctx)
	}()
	defer func() { stopJobs(); <-jobsDone }()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down: waiting for in-flight requests", "grace", shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("stopped")
	return nil
}

func defaultPublicURL(a *net.TCPAddr) string {
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// describe shows an error to an operator: the user-facing message for
// known kinds, the whole chain for internal errors.
func describe(err error) string {
	if folio.KindOf(err) == folio.Internal {
		return err.Error()
	}
	return folio.MessageOf(err)
}

// openSealer loads the server key: FOLIO_SECRET_KEY, else --secret-key-file,
// else (SQLite only) secret.key in the data folder, created on first start.
// Servers sharing a PostgreSQL database must share the key, which a file of
// one server's own cannot give them: without a configured key they start,
// and what needs it answers 503 (docs/decisions.md).
func openSealer(keyText, keyFile string, sf *storeFlags, logger *slog.Logger) (*seal.Sealer, error) {
	var (
		key []byte
		err error
	)
	switch {
	case keyText != "":
		if key, err = seal.ParseKey(keyText); err != nil {
			return nil, fmt.Errorf("FOLIO_SECRET_KEY: %w", err)
		}
	case keyFile != "":
		if key, err = seal.ReadKeyFile(keyFile); err != nil {
			return nil, fmt.Errorf("--secret-key-file: %w", err)
		}
	case sf.databaseURL == "":
		path := filepath.Join(sf.data, "secret.key")
		var created bool
		if key, created, err = seal.LoadOrCreateKeyFile(path); err != nil {
			return nil, err
		}
		if created {
			logger.Info("created the server key: back it up with the database", "path", path)
		}
	default:
		logger.Warn("no server key: visitor authentication of sites is unavailable until FOLIO_SECRET_KEY or --secret-key-file is set, the same on every server")
		return nil, nil
	}
	return seal.New(key)
}

// retentionEnv reads a retention from the environment, which may be
// negative (keep forever), unlike other durations.
func retentionEnv(e *env, name string, def time.Duration) time.Duration {
	v := e.getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		e.fail(fmt.Errorf("%s=%q is not a duration such as 720h", name, v))
		return def
	}
	return d
}
