package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/foliodocs/folio", Version: "v0.0.0-20261128090000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-compiler", Value: "gc"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-28T09:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	got := FromBuildInfo(bi)
	want := Info{Version: "v0.0.0-20261128090000-0123456789ab+dirty", Revision: "0123456789abcdef0123456789abcdef01234567",
		Time: "2026-11-28T09:00:00Z", Modified: true, GoVersion: "go1.26.8"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FromBuildInfo (-want +got):\n%s", diff)
	}
	if s, w := got.String(), "folio v0.0.0-20261128090000-0123456789ab+dirty (revision 0123456789abcdef0123456789abcdef01234567, 2026-11-28T09:00:00Z, modified) go1.26.8"; s != w {
		t.Errorf("String() = %q, want %q", s, w)
	}
}

func TestFromBuildInfoWithoutVCS(t *testing.T) {
	got := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8"})
	if diff := cmp.Diff(Info{Version: "(devel)", GoVersion: "go1.26.8"}, got); diff != "" {
		t.Errorf("FromBuildInfo (-want +got):\n%s", diff)
	}
	if s, w := got.String(), "folio (devel) go1.26.8"; s != w {
		t.Errorf("String() = %q, want %q", s, w)
	}
}
