package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockFileName is the file in a SQLite data folder that the commands which
// must own the folder lock: serve, migrate and restore.
const lockFileName = "folio.lock"

// errFolderBusy reports a data folder locked by another process.
var errFolderBusy = errors.New("the data folder is in use")

// dataLock is a held lock on a data folder; Release lets it go (so does
// the process's exit, however it ends).
type dataLock struct{ f *os.File }

// lockDataFolder takes the lock of the SQLite data folder dir, creating the
// folder and the lock file when missing. Another process holding it is an
// error naming that process and the way out: two servers on one SQLite
// folder would each keep caches the other's writes make stale, run every
// periodic job twice and share one writer lock, so Folio refuses it rather
// than start quietly (docs/decisions.md).
func lockDataFolder(dir, command string) (*dataLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the data folder: %w", err)
	}
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file of the data folder: %w", err)
	}
	if err := tryLock(f); err != nil {
		holder := "another folio process"
		if b, rerr := os.ReadFile(path); rerr == nil {
			if who := strings.TrimSpace(string(b)); who != "" {
				holder = who
			}
		}
		f.Close()
		if errors.Is(err, errFolderBusy) {
			return nil, fmt.Errorf("%w: %s holds %s; stop it before running folio %s here, or give this one its own --data (one server per SQLite data folder; several servers share a PostgreSQL database)",
				errFolderBusy, holder, path, command)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// Say who holds it, for the message a second process prints.
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "folio %s (pid %s)\n", command, strconv.Itoa(os.Getpid()))
	}
	return &dataLock{f: f}, nil
}

// Release unlocks the folder. The lock file stays: removing it could let
// two processes lock two different files of the same name.
func (l *dataLock) Release() {
	if l != nil && l.f != nil {
		l.f.Truncate(0)
		l.f.Close()
		l.f = nil
	}
}
