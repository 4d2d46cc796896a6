//go:build !unix

package main

import "os"

// tryLock does nothing where flock is unavailable: the data folder is not
// protected there (docs/operations.md).
func tryLock(*os.File) error { return nil }
