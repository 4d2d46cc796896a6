// Package buildinfo says which build of Folio is running: the module
// version and the version-control revision the Go toolchain stamped into
// the binary. It imports the standard library only.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info describes one build. Empty fields are unknown: a binary built
// outside a git checkout (or by go test) carries no revision.
type Info struct {
	// Version is the main module's version: a tag such as v1.2.0, a
	// pseudo-version, or "(devel)".
	Version string `json:"version"`
	// Revision is the commit the binary was built from.
	Revision string `json:"revision,omitempty"`
	// Time is the commit time of Revision, RFC 3339.
	Time string `json:"time,omitempty"`
	// Modified reports uncommitted changes in the checkout at build time.
	Modified bool `json:"modified,omitempty"`
	// GoVersion is the toolchain that built the binary.
	GoVersion string `json:"go"`
}

// Read returns the running binary's build information.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "(unknown)", GoVersion: runtime.Version()}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo extracts an Info from what runtime/debug reports.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the one line "folio version" prints, such as
// "folio v1.2.0 (revision 0123abcd, 2026-11-28T09:00:00Z, modified) go1.26.8".
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "folio %s", in.Version)
	var extra []string
	if in.Revision != "" {
		extra = append(extra, "revision "+in.Revision)
	}
	if in.Time != "" {
		extra = append(extra, in.Time)
	}
	if in.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(extra, ", "))
	}
	if in.GoVersion != "" {
		b.WriteString(" " + in.GoVersion)
	}
	return b.String()
}
