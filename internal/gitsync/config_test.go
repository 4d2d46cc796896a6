package gitsync

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want Config
	}{
		{"empty/defaults", "", DefaultConfig()},
		{"comments only/defaults", "# nothing\n", DefaultConfig()},
		{"root/dot slash", "root: ./\n", DefaultConfig()},
		{"root/folder", "root: ./docs/\n", Config{Root: "docs", Readme: "README.md", Summary: "SUMMARY.md"}},
		{"structure", "structure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\n",
			Config{Readme: "intro.md", Summary: "toc/SUMMARY.md"}},
		{"structure/empty values keep defaults", "structure:\n  readme:\n", DefaultConfig()},
		{"redirects", "redirects:\n  old/setup: setup/install.md\n  /legacy: ./README.md\n",
			Config{Readme: "README.md", Summary: "SUMMARY.md",
				Redirects: map[string]string{"old/setup": "setup/install.md", "/legacy": "README.md"}}},
		{"unknown keys ignored", "root: docs\nfoo: [1, 2]\n", Config{Root: "docs", Readme: "README.md", Summary: "SUMMARY.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseConfig([]byte(tt.yaml))
			if err != nil {
				t.Fatalf("ParseConfig: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"bad yaml/names the line", "root: ./\nstructure: a: b\n", "line 2: mapping values are not allowed"},
		{"bad yaml/bad indentation", "structure:\n  - readme\n summary: x\n", "line 2: did not find expected key"},
		{"bad yaml/tab indentation", "root: ./\n\tstructure: x\n", "line 2"},
		{"wrong shape/names the line", "root: ./\nstructure: [a, b]\n", "line 2"},
		{"root leaves the repository", "root: ../elsewhere\n", "root must stay inside the repository"},
		{"redirect leaves the repository", "redirects:\n  a: ../../x.md\n", "redirects must stay inside"},
		{"too large", "root: ./\n" + strings.Repeat("#", MaxConfigBytes), "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.yaml))
			wantInvalid(t, err, tt.want)
		})
	}
}

func TestConfigMarshalRoundTrip(t *testing.T) {
	for _, c := range []Config{
		DefaultConfig(),
		{Root: "docs", Readme: "intro.md", Summary: "SUMMARY.md", Redirects: map[string]string{"a: b": "x y.md", "old": "new.md"}},
	} {
		got, err := ParseConfig(c.marshal())
		if err != nil {
			t.Fatalf("ParseConfig(%q): %v", c.marshal(), err)
		}
		if !got.equal(c) {
			t.Errorf("round trip of %+v gave %+v", c, got)
		}
	}
	want := "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n"
	if got := string(DefaultConfig().marshal()); got != want {
		t.Errorf("default config = %q, want %q", got, want)
	}
}

func TestBlobOID(t *testing.T) {
	// git hash-object of "hello\n" and of the empty blob.
	if got := BlobOID([]byte("hello\n")); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("BlobOID(hello) = %s", got)
	}
	if got := BlobOID(nil); got != "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" {
		t.Errorf("BlobOID(empty) = %s", got)
	}
}
