package markdown

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/foliodocs/folio/internal/markdown/mdtest"
)

// fuzzBudget is how long converting src may take in FuzzToDocument: 500 ms
// and 10 µs a byte, ten times what the worst adversarial shape costs on a
// loaded machine, so that only super-linear behaviour (or a hang) passes it.
func fuzzBudget(src []byte) time.Duration {
	return 500*time.Millisecond + time.Duration(len(src))*10*time.Microsecond
}

func FuzzToDocument(f *testing.F) {
	for _, file := range corpus(f) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("{% hint style=\"info\" %}\n{% tabs %}\n{% endhint %}\n{% endtabs %}"))
	f.Add([]byte("<details>\n<summary>x</summary>\n<details>\n"))
	f.Add([]byte("> [!NOTE]\n> a\nlazy\n> ```\n> code\n\n> [!TIP]\n>\n> * x\n>\n> [!WARNING]\n"))
	for _, src := range hostileGitBook {
		f.Add([]byte(src))
	}
	for _, kind := range mdtest.Kinds {
		f.Add(mdtest.Adversarial(kind, 2000))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		doc, err := ToDocument(src, fakeResolver{})
		// A budget in proportion to the size catches quadratic steps that
		// small inputs hide; it is generous enough never to trip on the
		// seed corpus that go test runs.
		if took := time.Since(start); took > fuzzBudget(src) {
			t.Fatalf("converting %d bytes took %v, over the %v budget", len(src), took, fuzzBudget(src))
		}
		if err != nil {
			return
		}
		if err := doc.Validate("document"); err != nil {
			t.Fatalf("invalid document: %v\nsource: %q", err, src)
		}
		md, err := FromDocument(doc, fakeTarget{})
		if err != nil {
			t.Fatalf("FromDocument: %v", err)
		}
		doc2, err := ToDocument(md, fakeResolver{})
		if err != nil {
			t.Fatalf("written Markdown does not read back: %v\n%s", err, md)
		}
		// What FromDocument writes is a fixed point: reading and writing
		// it again gives the same bytes.
		md2, _ := FromDocument(doc2, fakeTarget{})
		if !bytes.Equal(md, md2) {
			t.Fatalf("FromDocument is not a fixed point:\nsource: %q\nfirst:  %q\nsecond: %q", src, md, md2)
		}
	})
}
