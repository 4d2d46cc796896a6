// Package corpus generates realistic documentation archives for tests and
// benchmarks: folders of Markdown pages with headings, lists, code, links
// between pages and prose drawn from a fixed vocabulary with a skewed
// (Zipf-like) word frequency, so that search benchmarks see common, rare and
// absent words as real docs have them. Output is deterministic for a seed.
package corpus

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// vocabulary is made of syllable combinations: 2,000 distinct pseudo-words
// plus real product words, so queries can pick words of known frequency.
var vocabulary = func() []string {
	syll := []string{"ka", "lo", "mi", "ra", "te", "su", "no", "vi", "da", "pe", "zo", "fu", "ge", "ha", "ji", "wu",
		"bo", "ce", "ly", "xi"}
	real := []string{"install", "server", "backup", "database", "token", "deploy", "cluster", "volume", "search",
		"permission", "migrate", "organization", "space", "revision", "import", "export", "webhook", "integration",
		"configure", "upgrade"}
	out := append([]string{}, real...)
	for _, a := range syll {
		for _, b := range syll {
			for _, c := range syll[:5] {
				out = append(out, a+b+c)
			}
		}
	}
	return out
}()

// Word returns the vocabulary word of rank i (0 is the most frequent).
func Word(i int) string { return vocabulary[i%len(vocabulary)] }

type gen struct {
	r    *rand.Rand
	zipf *rand.Zipf
}

func (g *gen) word() string { return vocabulary[g.zipf.Uint64()] }

func (g *gen) sentence(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = g.word()
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// page writes about words words of Markdown for a page.
func (g *gen) page(title string, words int, links []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	sections := max(1, words/120)
	for s := range sections {
		if s > 0 {
			fmt.Fprintf(&b, "## %s %s\n\n", strings.ToUpper(g.word()[:1])+g.word()[1:], g.word())
		}
		left := words / sections
		for left > 0 {
			n := min(left, 10+g.r.IntN(15))
			b.WriteString(g.sentence(n))
			b.WriteString(" ")
			left -= n
		}
		b.WriteString("\n\n")
		if s == 0 && len(links) > 0 {
			for _, l := range links {
				fmt.Fprintf(&b, "* See [%s](%s)\n", g.word(), l)
			}
			b.WriteString("\n")
		}
		if s == 1 {
			fmt.Fprintf(&b, "```bash\nfolio %s --%s\n```\n\n", g.word(), g.word())
		}
	}
	return b.String()
}

// Page returns one Markdown page of about words words, titled title, drawn
// from the same vocabulary as Zip's pages.
func Page(title string, words int, seed uint64) string {
	return newGen(seed).page(title, words, nil)
}

func newGen(seed uint64) *gen {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &gen{r: r, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))}
}

// Zip returns a zip archive of folders×perFolder pages (plus one README per
// folder) of about words words each, with links to sibling pages.
func Zip(folders, perFolder, words int, seed uint64) []byte {
	g := newGen(seed)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			panic(err) // writing to memory does not fail
		}
		w.Write([]byte(body))
	}
	for f := range folders {
		dir := fmt.Sprintf("part-%03d", f)
		add(dir+"/README.md", g.page(fmt.Sprintf("Part %d", f), words, nil))
		for p := range perFolder {
			links := []string{fmt.Sprintf("page-%03d.md", (p+1)%perFolder), "README.md"}
			add(fmt.Sprintf("%s/page-%03d.md", dir, p), g.page(fmt.Sprintf("%s %s %d", strings.ToUpper(g.word()[:1])+g.word()[1:], g.word(), p), words, links))
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
