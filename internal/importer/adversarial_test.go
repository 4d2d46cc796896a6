package importer

import (
	"bytes"
	"testing"

	"github.com/foliodocs/folio/internal/markdown/mdtest"
)

// adversarialZip returns an archive whose page a.md holds src, linking to
// b.md and an image, so that the whole import path runs: conversion, link
// resolution, fitting, titles and slugs.
func adversarialZip(t testing.TB, src []byte) []byte {
	return makeZip(t, file{"a.md", string(src) + "\n\n[b](b.md) ![i](i.png)\n"}, file{"b.md", "# B\n\n[a](a.md)\n"},
		file{"i.png", string(pngBytes(t, 2, 2))})
}

// TestAdversarialImports imports every adversarial shape at 10 KB, single
// and in an archive: each converts or fails with Invalid, never worse.
// Timing is BenchmarkImportAdversarial's business.
func TestAdversarialImports(t *testing.T) {
	for _, kind := range mdtest.Kinds {
		src := mdtest.Adversarial(kind, 10_000)
		if s, err := Markdown(src, kind); err == nil {
			checkSnapshot(t, s)
		} else {
			wantInvalid(t, err, "")
		}
		b := adversarialZip(t, src)
		if s, err := Zip(bytes.NewReader(b), int64(len(b)), Limits{}); err == nil {
			checkSnapshot(t, s)
		} else {
			wantInvalid(t, err, "")
		}
	}
}

// BenchmarkImportAdversarial imports each adversarial shape as one page of a
// zip archive at 10 KB, 100 KB and 1 MB: time must grow about 10x per step.
func BenchmarkImportAdversarial(b *testing.B) {
	for _, kind := range mdtest.Kinds {
		for _, size := range mdtest.Sizes {
			src := mdtest.Adversarial(kind, size.Bytes)
			z := adversarialZip(b, src)
			b.Run(kind+"/"+size.Name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for range b.N {
					Zip(bytes.NewReader(z), int64(len(z)), Limits{})
				}
			})
		}
	}
}
