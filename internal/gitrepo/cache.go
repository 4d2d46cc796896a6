package gitrepo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// cacheLocks serializes the use of one cache directory within the process.
// Entries are reference counted, so the map only holds directories in use.
var cacheLocks = struct {
	sync.Mutex
	m map[string]*cacheLock
}{m: map[string]*cacheLock{}}

type cacheLock struct {
	ch   chan struct{} // holds one token while the directory is in use
	refs int
}

// lockDir waits for the directory's lock, or for ctx to end.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	cacheLocks.Lock()
	l := cacheLocks.m[dir]
	if l == nil {
		l = &cacheLock{ch: make(chan struct{}, 1)}
		cacheLocks.m[dir] = l
	}
	l.refs++
	cacheLocks.Unlock()
	release := func() {
		cacheLocks.Lock()
		l.refs--
		if l.refs == 0 {
			delete(cacheLocks.m, dir)
		}
		cacheLocks.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// repoCache is one bare repository opened for one operation.
type repoCache struct {
	dir   string
	sto   *limitedStorage
	close func()
}

// cacheDirName derives a directory name from the cache id and the redacted
// URL, so user input never becomes a path and two repositories never share
// a cache.
func cacheDirName(cacheID, redactedURL string) string {
	sum := sha256.Sum256([]byte(cacheID + "\x00" + redactedURL))
	return "repo-" + hex.EncodeToString(sum[:16])
}

// openCache locks and opens (creating it when needed) the cache for cacheID,
// or a throwaway repository removed on close when cacheID is "".
func (c *Client) openCache(ctx context.Context, cacheID string, ep *endpoint, st *opState) (*repoCache, error) {
	var (
		dir     string
		closeFn func()
	)
	if cacheID == "" {
		d, err := os.MkdirTemp(c.o.CacheDir, "tmp-")
		if err != nil {
			return nil, fmt.Errorf("gitrepo: throwaway cache: %w", err)
		}
		dir = d
		closeFn = func() { os.RemoveAll(d) }
	} else {
		dir = filepath.Join(c.o.CacheDir, cacheDirName(cacheID, ep.redacted))
		unlock, err := lockDir(ctx, dir)
		if err != nil {
			return nil, err
		}
		closeFn = unlock
	}
	sto, err := openBare(dir)
	if err != nil && cacheID != "" {
		// A cache is disposable: start again from an empty one.
		if rmErr := os.RemoveAll(dir); rmErr == nil {
			sto, err = openBare(dir)
		}
	}
	if err != nil {
		closeFn()
		return nil, fmt.Errorf("gitrepo: open cache: %w", err)
	}
	return &repoCache{dir: dir, sto: &limitedStorage{Storage: sto, st: st}, close: closeFn}, nil
}

func openBare(dir string) (*filesystem.Storage, error) {
	var repo *git.Repository
	var err error
	if _, statErr := os.Stat(filepath.Join(dir, "config")); statErr != nil {
		repo, err = git.PlainInit(dir, true)
	} else {
		repo, err = git.PlainOpen(dir)
	}
	if err != nil {
		return nil, err
	}
	return storageOf(repo)
}

// storageOf returns the filesystem storage behind a repository opened from disk.
func storageOf(repo *git.Repository) (*filesystem.Storage, error) {
	sto, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("gitrepo: unexpected storage %T", repo.Storer)
	}
	return sto, nil
}

// removeTempPacks deletes the temporary pack a failed fetch leaves behind
// (go-git does not remove it when the transfer stops half-way).
func (rc *repoCache) removeTempPacks() {
	matches, _ := filepath.Glob(filepath.Join(rc.dir, "objects", "pack", "tmp_pack_*"))
	for _, m := range matches {
		if strings.HasPrefix(filepath.Base(m), "tmp_pack_") {
			os.Remove(m)
		}
	}
}

// limitedStorage caps the pack bytes a fetch writes, whatever the
// transport: go-git copies a fetched pack into PackfileWriter.
type limitedStorage struct {
	*filesystem.Storage
	st *opState
}

func (s *limitedStorage) PackfileWriter() (io.WriteCloser, error) {
	w, err := s.Storage.PackfileWriter()
	if err != nil {
		return nil, err
	}
	return &limitedWriter{w: w, left: s.st.budget}, nil
}

type limitedWriter struct {
	w    io.WriteCloser
	left int64
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.left {
		return 0, errTransferTooLarge
	}
	l.left -= int64(len(p))
	return l.w.Write(p)
}

func (l *limitedWriter) Close() error { return l.w.Close() }
