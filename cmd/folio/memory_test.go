package main

import (
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChooseMemory(t *testing.T) {
	const cg = "/sys/fs/cgroup/memory.max"
	tests := []struct {
		name string
		in   memoryInput
		want memorySettings
		err  string
	}{
		{"defaults", memoryInput{},
			memorySettings{GCPercent: 50, GCSource: "default", Limit: 256 << 20, LimitSource: "default"}, ""},
		{"cgroup share", memoryInput{Cgroup: 512 << 20, CgroupFile: cg},
			memorySettings{GCPercent: 50, GCSource: "default", Limit: 384 << 20,
				LimitSource: "75% of the cgroup limit 512 MiB (/sys/fs/cgroup/memory.max)"}, ""},
		{"environment over cgroup", memoryInput{EnvGOGC: "200", EnvLimit: "1GiB", Cgroup: 512 << 20, CgroupFile: cg},
			memorySettings{GCPercent: 200, GCSource: "GOGC", Limit: 1 << 30, LimitSource: "GOMEMLIMIT"}, ""},
		{"flags over environment", memoryInput{FlagGOGC: "60", FlagLimit: "100MiB", EnvGOGC: "200", EnvLimit: "1GiB", Cgroup: 512 << 20},
			memorySettings{GCPercent: 60, GCSource: "--gogc", Limit: 100 << 20, LimitSource: "--memory-limit"}, ""},
		{"off", memoryInput{FlagGOGC: "off", EnvLimit: "off"},
			memorySettings{GCPercent: -1, GCSource: "--gogc", Limit: math.MaxInt64, LimitSource: "GOMEMLIMIT"}, ""},
		{"bytes without unit", memoryInput{FlagLimit: "300000000"},
			memorySettings{GCPercent: 50, GCSource: "default", Limit: 300000000, LimitSource: "--memory-limit"}, ""},
		{"gogc/not a number", memoryInput{EnvGOGC: "fast"}, memorySettings{}, `GOGC: "fast" is not a percentage (such as 100) or off`},
		{"gogc/negative", memoryInput{FlagGOGC: "-5"}, memorySettings{}, `--gogc: "-5" is not a percentage (such as 100) or off`},
		{"limit/unknown unit", memoryInput{EnvLimit: "1GB"}, memorySettings{},
			`GOMEMLIMIT: "1GB" is not a size such as 256MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off`},
		{"limit/zero", memoryInput{FlagLimit: "0MiB"}, memorySettings{},
			`--memory-limit: "0MiB" is not a size such as 256MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off`},
		{"limit/overflow", memoryInput{FlagLimit: "99999999999TiB"}, memorySettings{},
			`--memory-limit: "99999999999TiB" is not a size such as 256MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chooseMemory(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("chooseMemory = %v, want error %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chooseMemory (-want +got):\n%s", diff)
			}
		})
	}
}

// writeFiles writes name → content under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCgroupMemoryLimit(t *testing.T) {
	const v1Unlimited = "9223372036854771712\n"
	tests := []struct {
		name     string
		files    map[string]string // under a root holding proc/self/cgroup and sys/fs/cgroup
		want     int64
		wantFile string // under sys/fs/cgroup
	}{
		{"v2/own limit", map[string]string{
			"proc/self/cgroup": "0::/system.slice/folio.service\n",
			"sys/fs/cgroup/system.slice/folio.service/memory.max": "268435456\n",
			"sys/fs/cgroup/system.slice/memory.max":               "max\n",
		}, 256 << 20, "system.slice/folio.service/memory.max"},
		{"v2/parent binds", map[string]string{
			"proc/self/cgroup":                           "0::/kubepods/pod1/ctr\n",
			"sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "max\n",
			"sys/fs/cgroup/kubepods/pod1/memory.max":     "536870912\n",
			"sys/fs/cgroup/kubepods/memory.max":          "1073741824\n",
		}, 512 << 20, "kubepods/pod1/memory.max"},
		{"v2/no limit", map[string]string{
			"proc/self/cgroup":                    "0::/user.slice\n",
			"sys/fs/cgroup/user.slice/memory.max": "max\n",
		}, 0, ""},
		{"v2/namespaced container sees its group at the root", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "134217728\n",
		}, 128 << 20, "memory.max"},
		{"v2/path the mount does not show", map[string]string{
			"proc/self/cgroup":         "0::/docker/abc\n",
			"sys/fs/cgroup/memory.max": "134217728\n",
		}, 128 << 20, "memory.max"},
		{"v1/limit", map[string]string{
			"proc/self/cgroup": "12:pids:/docker/abc\n4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "805306368\n",
			"sys/fs/cgroup/memory/docker/memory.limit_in_bytes":     v1Unlimited,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            v1Unlimited,
		}, 768 << 20, "memory/docker/abc/memory.limit_in_bytes"},
		{"v1/unlimited", map[string]string{
			"proc/self/cgroup": "4:memory:/process_api/ba6a\n0::/\n",
			"sys/fs/cgroup/memory/process_api/ba6a/memory.limit_in_bytes": v1Unlimited,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  v1Unlimited,
		}, 0, ""},
		{"hybrid/v2 under unified binds over v1", map[string]string{
			"proc/self/cgroup": "4:memory:/app\n0::/app\n",
			"sys/fs/cgroup/memory/app/memory.limit_in_bytes": "1073741824\n",
			"sys/fs/cgroup/unified/app/memory.max":           "268435456\n",
		}, 256 << 20, "unified/app/memory.max"},
		{"unparsable values are ignored", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "lots\n",
		}, 0, ""},
		{"no cgroup files", map[string]string{
			"proc/self/cgroup": "0::/\n",
		}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tt.files)
			got, file, err := cgroupMemoryLimit(filepath.Join(root, "proc/self/cgroup"), filepath.Join(root, "sys/fs/cgroup"))
			if err != nil {
				t.Fatal(err)
			}
			wantFile := ""
			if tt.wantFile != "" {
				wantFile = filepath.Join(root, "sys/fs/cgroup", filepath.FromSlash(tt.wantFile))
			}
			if got != tt.want || file != wantFile {
				t.Errorf("cgroupMemoryLimit = %d from %q, want %d from %q", got, file, tt.want, wantFile)
			}
		})
	}
	t.Run("no /proc", func(t *testing.T) {
		got, file, err := cgroupMemoryLimit(filepath.Join(t.TempDir(), "missing"), t.TempDir())
		if err != nil || got != 0 || file != "" {
			t.Errorf("cgroupMemoryLimit = %d, %q, %v; want 0, \"\", nil", got, file, err)
		}
	})
}

// TestServeSaysWhichMemorySettings: serve prints the settings in force and
// where each came from, and applies them.
func TestServeSaysWhichMemorySettings(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		return map[string]string{"GOGC": "150", "GOMEMLIMIT": "300MiB"}[k]
	}
	s := startServeEnv(t, env, "--addr", "127.0.0.1:0", "--data", t.TempDir())
	if want := "folio: memory: GOGC=150 (GOGC), soft limit 300 MiB (GOMEMLIMIT)\n"; !strings.Contains(s.out.String(), want) {
		t.Errorf("serve printed\n%s\nwant a line %q", s.out, want)
	}
	s.stop(t)
	s = startServe(t, "--data", t.TempDir(), "--gogc", "120", "--memory-limit", "1GiB")
	if want := "folio: memory: GOGC=120 (--gogc), soft limit 1 GiB (--memory-limit)\n"; !strings.Contains(s.out.String(), want) {
		t.Errorf("serve printed\n%s\nwant a line %q", s.out, want)
	}
}

func TestFitCaches(t *testing.T) {
	defaults := cacheBounds{Reader: 32 << 20, Documents: 8 << 20, TreePages: 50000}
	tests := []struct {
		name  string
		set   cacheSet
		limit int64
		want  cacheBounds
		scale float64
	}{
		{"default limit", cacheSet{}, 256 << 20, defaults, 1},
		{"larger limit", cacheSet{}, 4 << 30, defaults, 1},
		{"no limit", cacheSet{}, math.MaxInt64, defaults, 1},
		{"half", cacheSet{}, 128 << 20, cacheBounds{Reader: 16 << 20, Documents: 4 << 20, TreePages: 25000}, 0.5},
		{"75% of a 256 MB container", cacheSet{}, 192 << 20, cacheBounds{Reader: 24 << 20, Documents: 6 << 20, TreePages: 37500}, 0.75},
		{"chosen bounds are kept", cacheSet{Reader: true, TreePages: true}, 128 << 20,
			cacheBounds{Reader: 32 << 20, Documents: 4 << 20, TreePages: 50000}, 0.5},
		{"all chosen", cacheSet{true, true, true}, 64 << 20, defaults, 1},
		{"floors", cacheSet{}, 4 << 20, cacheBounds{Reader: 1 << 20, Documents: 1 << 20, TreePages: 5000}, 1.0 / 64},
	}
	for _, tt := range tests {
		got, scale := fitCaches(defaults, tt.set, tt.limit)
		if got != tt.want || scale != tt.scale {
			t.Errorf("%s: fitCaches = %+v, %v; want %+v, %v", tt.name, got, scale, tt.want, tt.scale)
		}
	}
	// A reader cache turned off stays off.
	if got, _ := fitCaches(cacheBounds{Reader: 0, Documents: 8 << 20, TreePages: 50000}, cacheSet{}, 128<<20); got.Reader != 0 {
		t.Errorf("reader cache %d, want 0 (off)", got.Reader)
	}
}

// TestServeFitsCachesToTheLimit: under a soft limit below the default,
// the cache bounds the operator did not choose shrink with it, serve says
// so, and the caches run with those bounds.
func TestServeFitsCachesToTheLimit(t *testing.T) {
	t.Parallel()
	env := func(k string) string { return map[string]string{"GOMEMLIMIT": "128MiB"}[k] }
	s := startServeEnv(t, env, "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--tree-cache", "40000")
	want := "folio: caches fitted to the soft limit: reader 16 MiB, documents 4 MiB, trees 40000 pages (--reader-cache, --document-cache and --tree-cache choose them)\n"
	if !strings.Contains(s.out.String(), want) {
		t.Errorf("serve printed\n%s\nwant a line %q", s.out, want)
	}
	res, err := http.Get(s.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, m := range []string{`folio_cache_limit{cache="trees",unit="pages"} 40000`,
		`folio_cache_limit{cache="documents",unit="bytes"} 4.194304e+06`} {
		if !strings.Contains(string(body), m) {
			t.Errorf("/metrics lacks %s", m)
		}
	}
	s.stop(t)
	// At the default limit nothing is fitted, and nothing is said.
	s = startServe(t, "--data", t.TempDir())
	if strings.Contains(s.out.String(), "caches fitted") {
		t.Errorf("serve fitted the caches at the default limit:\n%s", s.out)
	}
}
