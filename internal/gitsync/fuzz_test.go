package gitsync

import (
	"testing"
)

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("root: ./docs/\nstructure:\n  readme: a.md\n  summary: b.md\nredirects:\n  x: y.md\n"))
	f.Add([]byte("root: [\n"))
	f.Add([]byte("redirects: {a: ../b}\n"))
	f.Add([]byte("&a [*a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			return
		}
		// What parses writes back to the same meaning.
		back, err := ParseConfig(c.marshal())
		if err != nil {
			t.Fatalf("ParseConfig(marshal(%+v)): %v", c, err)
		}
		if !back.equal(c) {
			t.Fatalf("config %+v came back as %+v", c, back)
		}
	})
}

func FuzzSummary(f *testing.F) {
	f.Add("# Table of contents\n\n* [A](a.md)\n  * [B](b.md#x)\n\n## G\n\n* [C](https://x)\n\n***\n\n* [A again](a.md)\n")
	f.Add("- [\\[x\\]](<a b.md>)\n\t- plain\n1. [](b)\n---\n### h ###\n")
	f.Add("* [a](a.md\n* [b](\n* [](<)\n")
	f.Fuzz(func(t *testing.T, summary string) {
		items, err := parseSummary(summary, 200)
		if err != nil {
			return
		}
		// The written form of what was read reads back the same.
		again, err := parseSummary(string(writeSummary(items)), 200)
		if err != nil {
			t.Fatalf("parse of written summary: %v", err)
		}
		if !sameSummary(items, again) {
			t.Fatalf("summary changed through writeSummary:\n%q\n%q", summary, writeSummary(items))
		}
		files := Files{
			"SUMMARY.md": []byte(summary),
			"a.md":       []byte("---\nx: 1\n---\n# A\n\n[b](b.md)\n"),
			"b.md":       []byte("B\n"),
		}
		lim := ReadOptions{}
		lim.Limits.MaxPages = 200
		res, err := Read(files, lim)
		if err != nil {
			return
		}
		if _, err := Write(res.Snapshot, WriteOptions{Existing: files}); err != nil {
			t.Fatalf("Write after Read: %v", err)
		}
	})
}

func FuzzFrontMatter(f *testing.F) {
	f.Add("---\ndescription: d\nicon: i\nhidden: true\nx: [1]\nlayout:\n  width: wide\n  tags:\n    visible: true\n---\nbody\n")
	f.Add("---\n- a\n---\n")
	f.Add("---\r\na: b\r\n---\r\n")
	f.Fuzz(func(t *testing.T, src string) {
		fm, _ := splitFrontMatter(src)
		written := writeFrontMatter(fm)
		if written == "" {
			return
		}
		again, rest := splitFrontMatter(written)
		if rest != "" {
			t.Fatalf("written front matter %q left %q", written, rest)
		}
		if again.description != fm.description || again.icon != fm.icon || again.hidden != fm.hidden || !sameLayout(again.layout, fm.layout) {
			t.Fatalf("front matter %q: fields changed through %q: %+v -> %+v", src, written, fm, again)
		}
	})
}
