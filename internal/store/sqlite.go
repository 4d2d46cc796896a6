package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/foliodocs/folio"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLiteFile is the name of the database file inside the data folder.
const SQLiteFile = "folio.db"

type sqliteDialect struct {
	freq *termFreqCache
}

func (sqliteDialect) name() string           { return "sqlite" }
func (sqliteDialect) rebind(q string) string { return q }
func (sqliteDialect) forUpdate() string      { return "" }
func (sqliteDialect) cachesStatements() bool { return true }

// ilike relies on SQLite's LIKE, which ignores the case of ASCII letters;
// calling LOWER() on every row would cost more and fold no more letters.
func (sqliteDialect) ilike(expr string) string { return expr + ` LIKE ? ESCAPE '\'` }

func (sqliteDialect) jsonList() string { return `(SELECT value FROM json_each(?))` }

// userSearch uses the trigram index (users_search) for terms of three
// characters or more, and LIKE for shorter ones, which the index cannot
// serve. Inside the phrase, only double quotes need escaping.
func (d sqliteDialect) userSearch(idCol, term string) (string, []any) {
	if utf8.RuneCountInString(term) < 3 {
		return likeUsers(d, idCol, term)
	}
	phrase := `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
	return idCol + ` IN (SELECT user_id FROM users_search WHERE users_search MATCH ?)`, []any{phrase}
}

// translate maps SQLite constraint errors to folio kinds.
func (sqliteDialect) translate(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return &folio.Error{Kind: folio.Conflict, Message: "a resource with the same unique value already exists", Err: err}
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return &folio.Error{Kind: folio.Invalid, Message: "a referenced resource does not exist", Err: err}
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return &folio.Error{Kind: folio.Unavailable, Message: "the database is busy, try again", Err: err}
	}
	return err
}

// sqlitePragmas apply to every connection. WAL lets readers run beside the
// writer; synchronous=NORMAL is durable across application crashes in WAL
// mode; the page cache is capped (negative = KiB) to bound memory. The
// file is not memory-mapped: mapped pages count in the server's resident
// memory (up to the whole database, 233 MB after a 10,100-page import),
// while pages read with read() sit in the kernel's page cache, which
// serves them as fast and gives them back under pressure (docs/decisions.md,
// "Memory defaults").
var sqlitePragmas = []string{
	"busy_timeout(10000)",
	"journal_mode(WAL)",
	"foreign_keys(1)",
	"synchronous(NORMAL)",
	"mmap_size(0)",
	"temp_store(MEMORY)",
	"journal_size_limit(67108864)",
}

func sqliteDSN(path string, write bool) string {
	q := url.Values{}
	for _, p := range sqlitePragmas {
		q.Add("_pragma", p)
	}
	if write {
		q.Add("_pragma", "cache_size(-4096)")
	} else {
		q.Add("_pragma", "cache_size(-1024)")
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + path + "?" + q.Encode()
}

func openSQLite(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("store: no data folder given for SQLite")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data folder: %w", err)
	}
	path := filepath.Join(cfg.DataDir, SQLiteFile)
	w, err := sql.Open("sqlite", sqliteDSN(path, true))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// One connection is kept by the writer; the other serves migrations.
	w.SetMaxOpenConns(2)
	w.SetMaxIdleConns(2)
	w.SetConnMaxLifetime(0)
	// The writer connection sets WAL mode first, before readers open.
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", sqliteDSN(path, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(cfg.MaxConns)
	r.SetMaxIdleConns(cfg.MaxConns)
	r.SetConnMaxLifetime(0)
	return &DB{d: sqliteDialect{freq: &termFreqCache{}}, read: newPool(r), write: newPool(w), writer: newWriter(w)}, nil
}

func (sqliteDialect) searchSyntax() string  { return "fts5" }
func (sqliteDialect) searchColumns() string { return "" }

func (sqliteDialect) searchRow(s SearchSection) (string, []any) {
	return "(?, ?, ?, ?, ?, ?, ?)", []any{s.SpaceID, s.PageID, s.SectionID, s.Ord, s.PageTitle, s.Title, s.Body}
}

// searchCandidates ranks with BM25, weighing page titles 10, section titles
// 4 and bodies 1 (bm25 is lower for better matches, so it is negated), and
// keeps sections of the given spaces: the best ones when ranked. BM25 first
// counts the sections holding each term, and ranks every match, so queries
// too common to rank (searchPlan) take their first matches in index order.
func (sqliteDialect) searchCandidates(in string, inArgs []any, match string, limit int, ranked, titles bool) (string, []any) {
	rank, order := "-bm25(search_fts, 10.0, 4.0, 1.0)", " ORDER BY 2 DESC"
	if !ranked {
		rank, order = "0.0", ""
	}
	table := "search_fts"
	if titles {
		// The titles' own index: short lists even for common words.
		table = "search_titles"
		rank = strings.Replace(rank, "bm25(search_fts, 10.0, 4.0, 1.0)", "bm25(search_titles, 10.0, 4.0)", 1)
	}
	args := append([]any{match}, inArgs...)
	return `SELECT f.rowid, ` + rank + `, s.space_id, s.page_id, s.section_id, s.ord, s.page_title, s.title
		FROM ` + table + ` f JOIN search_sections s ON s.id = f.rowid
		WHERE ` + table + ` MATCH ? AND s.space_id IN ` + in + order + ` LIMIT ?`, append(args, limit)
}

// termMatch is the query text of one term alone.
func (sqliteDialect) termMatch(term string, prefix bool) string {
	m := `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
	if prefix {
		m += "*"
	}
	return m
}

// FTS5 merges of the content indexes after a large change: each step writes
// about mergePages pages in its own short write transaction, so that other
// writers interleave; mergeSteps bounds the steps of one table.
const (
	mergePages = 500
	mergeSteps = 10_000
)

func (sqliteDialect) analyzeContent() []string { return nil }

// mergeContent merges the segments of the full-text indexes until no level
// holds two. A large import leaves many segments (automerge lets up to 8
// pile up on a level), and every query seeks its terms in each of them;
// merging them cut the CPU of a search by about 8% on 10,000 pages. Only
// levels holding two or more segments are merged, so the largest segment is
// rewritten only when another reaches its size, never on every call.
func (sqliteDialect) mergeContent(ctx context.Context, db *DB) (int, error) {
	steps := 0
	for _, table := range []string{"search_fts", "search_titles"} {
		err := db.Write(ctx, func(t *Tx) error {
			_, err := t.exec(ctx, `INSERT INTO `+table+` (`+table+`, rank) VALUES ('usermerge', 2)`)
			return err
		})
		if err != nil {
			return steps, err
		}
		for range mergeSteps {
			worked := false
			err := db.Write(ctx, func(t *Tx) error {
				var before, after int64
				if err := t.get(ctx, `SELECT total_changes()`, nil, &before); err != nil {
					return err
				}
				if _, err := t.exec(ctx, `INSERT INTO `+table+` (`+table+`, rank) VALUES ('merge', ?)`, mergePages); err != nil {
					return err
				}
				if err := t.get(ctx, `SELECT total_changes()`, nil, &after); err != nil {
					return err
				}
				// FTS5 documents this test: a merge that did work changes
				// at least two rows, one that found nothing to merge fewer.
				worked = after-before >= 2
				return nil
			})
			if err != nil {
				return steps, err
			}
			if !worked {
				break
			}
			steps++
		}
	}
	return steps, nil
}

// termFrequency counts the sections holding a term, up to limit: FTS5
// stops reading the term's list there.
func (d sqliteDialect) termFrequency(ctx context.Context, t *Tx, term string, prefix bool, limit int) (int, error) {
	match := d.termMatch(term, prefix)
	if n, ok := d.freq.get(match, limit); ok {
		return n, nil
	}
	var n int
	err := t.get(ctx, `SELECT count(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
		[]any{match, limit}, &n)
	if err != nil {
		return 0, wrap(err, "count search terms")
	}
	d.freq.put(match, limit, n)
	return n, nil
}

// termFreqCache keeps recent term counts for a short while: they decide
// only how a search runs, not what it finds, and change slowly.
type termFreqCache struct {
	mu sync.Mutex
	m  map[string]termFreq
}

type termFreq struct {
	n, limit int
	at       time.Time
}

const (
	termFreqTTL     = 30 * time.Second
	termFreqEntries = 10_000
)

func (c *termFreqCache) get(match string, limit int) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[match]
	if !ok || f.limit != limit || time.Since(f.at) > termFreqTTL {
		return 0, false
	}
	return f.n, true
}

func (c *termFreqCache) put(match string, limit, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= termFreqEntries {
		c.m = make(map[string]termFreq)
	}
	c.m[match] = termFreq{n: n, limit: limit, at: time.Now()}
}
