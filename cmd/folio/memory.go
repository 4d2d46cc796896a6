package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// Memory defaults of folio serve (docs/decisions.md, "Memory defaults" and
// "The collector's default pace"). The collector runs at GOGC=50: the heap
// grows to about one and a half times what is live between collections
// instead of Go's twice, which keeps the reader benchmark's resident memory
// under 150 MB at no measurable cost in throughput (a cached reader page
// allocates little; docs/performance.md, "fourth pass"). A soft limit holds
// the caches' default bounds (about 107 MB together when all are full,
// README "Memory") with room for requests and imports; above it the
// runtime collects more often and returns freed memory to the system
// instead of growing. Under a cgroup memory limit the soft limit is a
// share of it, leaving the rest to what the Go runtime does not count:
// SQLite's page cache, the binary's pages, goroutine stacks' growth and the
// kernel's buffers.
const (
	defaultGCPercent   = 50
	defaultMemoryLimit = 256 << 20
	cgroupLimitShare   = 0.75
)

// memorySettings are the garbage collector's settings in force, with where
// each came from, for the start-up log line.
type memorySettings struct {
	GCPercent   int // -1: collection off
	GCSource    string
	Limit       int64 // bytes; math.MaxInt64: no limit
	LimitSource string
}

// memoryInput is what chooseMemory decides from: the --gogc and
// --memory-limit flags ("" when not given), the GOGC and GOMEMLIMIT
// variables, and the cgroup's memory limit (0 when none) with the file it
// came from.
type memoryInput struct {
	FlagGOGC, FlagLimit string
	EnvGOGC, EnvLimit   string
	Cgroup              int64
	CgroupFile          string
}

// chooseMemory decides the collector's settings: a flag wins, then the
// variable the Go runtime itself reads, then (for the limit) a share of
// the cgroup's limit, then Folio's defaults. Invalid values are errors
// naming the flag or variable.
func chooseMemory(in memoryInput) (memorySettings, error) {
	var s memorySettings
	var err error
	switch {
	case in.FlagGOGC != "":
		if s.GCPercent, err = parseGOGC(in.FlagGOGC); err != nil {
			return s, fmt.Errorf("--gogc: %w", err)
		}
		s.GCSource = "--gogc"
	case in.EnvGOGC != "":
		if s.GCPercent, err = parseGOGC(in.EnvGOGC); err != nil {
			return s, fmt.Errorf("GOGC: %w", err)
		}
		s.GCSource = "GOGC"
	default:
		s.GCPercent, s.GCSource = defaultGCPercent, "default"
	}
	switch {
	case in.FlagLimit != "":
		if s.Limit, err = parseMemoryLimit(in.FlagLimit); err != nil {
			return s, fmt.Errorf("--memory-limit: %w", err)
		}
		s.LimitSource = "--memory-limit"
	case in.EnvLimit != "":
		if s.Limit, err = parseMemoryLimit(in.EnvLimit); err != nil {
			return s, fmt.Errorf("GOMEMLIMIT: %w", err)
		}
		s.LimitSource = "GOMEMLIMIT"
	case in.Cgroup > 0:
		s.Limit = int64(float64(in.Cgroup) * cgroupLimitShare)
		s.LimitSource = fmt.Sprintf("%d%% of the cgroup limit %s (%s)", int(cgroupLimitShare*100), formatBytes(in.Cgroup), in.CgroupFile)
	default:
		s.Limit, s.LimitSource = defaultMemoryLimit, "default"
	}
	return s, nil
}

// apply sets the settings on the Go runtime.
func (s memorySettings) apply() {
	debug.SetGCPercent(s.GCPercent)
	debug.SetMemoryLimit(s.Limit)
}

// gogcText shows a GC percentage as GOGC does.
func (s memorySettings) gogcText() string {
	if s.GCPercent < 0 {
		return "off"
	}
	return strconv.Itoa(s.GCPercent)
}

// limitText shows a memory limit for the log.
func (s memorySettings) limitText() string {
	if s.Limit == math.MaxInt64 {
		return "off"
	}
	return formatBytes(s.Limit)
}

// parseGOGC reads a GOGC value: a percentage, or "off".
func parseGOGC(v string) (int, error) {
	if v == "off" {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a percentage (such as 100) or off", v)
	}
	return n, nil
}

// parseMemoryLimit reads a GOMEMLIMIT value: bytes with an optional unit
// B, KiB, MiB, GiB or TiB, or "off".
func parseMemoryLimit(v string) (int64, error) {
	if v == "off" {
		return math.MaxInt64, nil
	}
	num, mult := v, int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			num, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size such as 256MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off", v)
	}
	return n * mult, nil
}

func formatBytes(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// noCgroupLimit is the value cgroup v1 reports for "no limit" (the largest
// page-aligned int64), and anything at or above it means the same.
const noCgroupLimit = 1 << 62

// cgroupMemoryLimit returns the memory limit of the cgroup this process
// runs in, read under root (normally /sys/fs/cgroup) from the membership
// listed in procCgroup (normally /proc/self/cgroup): the smallest of the
// cgroup v2 memory.max and the cgroup v1 memory.limit_in_bytes of the
// process's group and its ancestors (a parent's limit binds its children),
// with the file that set it. It returns 0 when no limit applies or none
// can be read: the memory limit then keeps its default.
func cgroupMemoryLimit(procCgroup, root string) (int64, string, error) {
	f, err := os.Open(procCgroup)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, "", nil // not Linux, or no /proc
		}
		return 0, "", err
	}
	defer f.Close()
	var (
		best     int64
		bestFile string
	)
	consider := func(limit int64, file string) {
		if limit > 0 && (best == 0 || limit < best) {
			best, bestFile = limit, file
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			// cgroup v2, mounted at root itself, or at root/unified in
			// the hybrid layout.
			for _, mount := range []string{root, filepath.Join(root, "unified")} {
				consider(walkCgroup(mount, parts[2], "memory.max"))
			}
		case hasController(parts[1], "memory"):
			consider(walkCgroup(filepath.Join(root, "memory"), parts[2], "memory.limit_in_bytes"))
		}
	}
	if err := sc.Err(); err != nil {
		return 0, "", err
	}
	return best, bestFile, nil
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// walkCgroup reads file in the group at cgroupPath under mount and in each
// of its ancestors up to mount, and returns the smallest limit found. A
// process in a container with its own cgroup namespace sees its group as
// "/" while the mount shows only that group, and one without a namespace
// may see a path the mount does not hold: both end at mount itself.
func walkCgroup(mount, cgroupPath, file string) (int64, string) {
	var (
		best     int64
		bestFile string
	)
	p := path.Clean("/" + cgroupPath)
	for {
		name := filepath.Join(mount, filepath.FromSlash(p), file)
		if limit, ok := readLimit(name); ok && (best == 0 || limit < best) {
			best, bestFile = limit, name
		}
		if p == "/" {
			return best, bestFile
		}
		p = path.Dir(p)
	}
}

// readLimit reads one limit file: a number of bytes, or "max" (v2) or a
// value at noCgroupLimit or above (v1) for no limit.
func readLimit(name string) (int64, bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, false
	}
	v := strings.TrimSpace(string(b))
	if v == "max" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n >= noCgroupLimit {
		return 0, false
	}
	return n, true
}

// cacheBounds are the bounds of the caches an operator can size: the
// reader's rendered pages and the page documents in bytes, the decoded
// revision trees in pages and files.
type cacheBounds struct {
	Reader, Documents, TreePages int64
}

// cacheSet says which of the bounds the operator chose (flag or variable):
// those are kept as they are.
type cacheSet struct {
	Reader, Documents, TreePages bool
}

// Floors of fitted cache bounds: below them a cache stops paying for
// itself (a few pages of a busy site, a few spaces' trees).
const (
	minReaderCache   = 1 << 20
	minDocumentCache = 1 << 20
	minTreePages     = 5000
)

// fitCaches scales the default bounds the operator did not choose to a
// soft memory limit below the default one. The defaults add up to about
// 107 MB when full (README "Memory"), sized for the 256 MiB default limit;
// under a smaller limit, such as 75% of a small container's, they shrink in
// proportion so the caches keep the same share of it. It returns the bounds
// and the factor applied (1: unchanged).
func fitCaches(b cacheBounds, set cacheSet, limit int64) (cacheBounds, float64) {
	if limit >= defaultMemoryLimit || set == (cacheSet{true, true, true}) {
		return b, 1
	}
	f := float64(limit) / defaultMemoryLimit
	scale := func(v int64, floor int64) int64 { return max(int64(float64(v)*f), min(v, floor)) }
	if !set.Reader && b.Reader > 0 {
		b.Reader = scale(b.Reader, minReaderCache)
	}
	if !set.Documents {
		b.Documents = scale(b.Documents, minDocumentCache)
	}
	if !set.TreePages {
		b.TreePages = scale(b.TreePages, minTreePages)
	}
	return b, f
}
