package markdown

import (
	"os"
	"testing"
)

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
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := ToDocument(src, fakeResolver{})
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
		if _, err := ToDocument(md, fakeResolver{}); err != nil {
			t.Fatalf("written Markdown does not read back: %v\n%s", err, md)
		}
	})
}
