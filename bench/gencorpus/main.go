// Command gencorpus writes a zip archive of generated documentation, for the
// content phase of bench/load.sh: folders of Markdown pages made by
// internal/apitest/corpus, deterministic for a seed.
//
//	go run ./bench/gencorpus -folders 100 -pages 100 -words 500 -seed 2 -o docs.zip
//	go run ./bench/gencorpus -queries
//
// With -queries it writes search queries instead, one per line, URL-escaped
// for a query string: words of known frequency in the corpus (frequent, mid,
// rare), a two-word query, a prefix and a real product word, as
// BenchmarkContent10000 in internal/httpapi uses.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/foliodocs/folio/internal/apitest/corpus"
)

func main() {
	folders := flag.Int("folders", 100, "folders in the archive, each with a README.md")
	pages := flag.Int("pages", 100, "pages per folder, besides its README.md")
	words := flag.Int("words", 500, "about how many words per page")
	seed := flag.Uint64("seed", 2, "random seed; the same seed gives the same archive")
	out := flag.String("o", "-", "output file, - for stdout")
	queries := flag.Bool("queries", false, "write search queries (one per line, URL-escaped) instead of the archive")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments: %q", flag.Args()))
	}
	if *folders < 1 || *pages < 0 || *words < 1 {
		fail(fmt.Errorf("-folders and -words must be positive and -pages not negative"))
	}

	var w io.Writer = os.Stdout
	var f *os.File
	if *out != "-" {
		var err error
		if f, err = os.Create(*out); err != nil {
			fail(err)
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	if *queries {
		for _, q := range queryList() {
			fmt.Fprintln(bw, url.QueryEscape(q))
		}
	} else {
		bw.Write(corpus.Zip(*folders, *pages, *words, *seed))
	}
	if err := bw.Flush(); err != nil {
		fail(err)
	}
	if f != nil {
		if err := f.Close(); err != nil {
			fail(err)
		}
	}
}

// queryList returns frequent, mid-frequency and rare words, a two-word
// query, the prefix of a word (the last word of a query matches as a
// prefix) and a real product word.
func queryList() []string {
	return []string{
		corpus.Word(3),
		corpus.Word(40),
		corpus.Word(400),
		corpus.Word(5) + " " + corpus.Word(60),
		corpus.Word(80)[:4],
		"install",
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gencorpus:", err)
	os.Exit(1)
}
