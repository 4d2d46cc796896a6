package markdown

import (
	"testing"

	"github.com/foliodocs/folio/internal/markdown/mdtest"
)

// BenchmarkAdversarial converts each adversarial shape at 10 KB, 100 KB and
// 1 MB: the time per op must grow about 10x per step (linear).
func BenchmarkAdversarial(b *testing.B) {
	for _, kind := range mdtest.Kinds {
		for _, size := range mdtest.Sizes {
			src := mdtest.Adversarial(kind, size.Bytes)
			b.Run(kind+"/"+size.Name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for range b.N {
					ToDocument(src, nil)
				}
			})
		}
	}
}
