// Command importmem measures the memory and time of converting the
// benchmark corpus (the zip of bench/gencorpus) with importer.Zip, in
// process: the conversion half of an import, without a server or a
// database (bench/import.sh measures a whole import in a real server).
//
//	go run ./bench/importmem [-folders 100 -pages 100 -words 500 -seed 2] [-heapprofile FILE]
//
// It prints the conversion time, the peak of the heap's live objects
// (runtime/metrics /memory/classes/heap/objects:bytes, sampled every
// millisecond, which includes garbage not yet collected), the heap still
// live after a GC with the snapshot held, the bytes allocated, and the size
// of the documents in their stored (JSON) form.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/foliodocs/folio/internal/apitest/corpus"
	"github.com/foliodocs/folio/internal/content"
	"github.com/foliodocs/folio/internal/importer"
)

func main() {
	folders := flag.Int("folders", 100, "folders in the archive")
	pages := flag.Int("pages", 100, "pages per folder, besides its README.md")
	words := flag.Int("words", 500, "about how many words per page")
	seed := flag.Uint64("seed", 2, "random seed")
	heapProfile := flag.String("heapprofile", "", "write a heap profile, taken with the snapshot held, to this file")
	flag.Parse()

	zip := corpus.Zip(*folders, *pages, *words, *seed)
	runtime.GC()
	base := heapObjects()

	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := heapObjects(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	snap, err := importer.Zip(bytes.NewReader(zip), int64(len(zip)), importer.DefaultLimits())
	elapsed := time.Since(t0)
	close(stop)
	<-done
	if err != nil {
		fmt.Fprintln(os.Stderr, "importmem:", err)
		os.Exit(1)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.GC()
	live := heapObjects() - base
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err == nil {
			err = pprof.WriteHeapProfile(f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "importmem:", err)
			os.Exit(1)
		}
	}
	var stored, complete int
	for _, d := range snap.Documents {
		b, err := d.MarshalJSON()
		if err != nil {
			fmt.Fprintln(os.Stderr, "importmem:", err)
			os.Exit(1)
		}
		stored += len(b)
		if content.Complete(d) {
			complete++
		}
	}
	mib := func(v uint64) float64 { return float64(v) / (1 << 20) }
	fmt.Printf("zip %.1f MiB, %d documents (%d with keys and anchors), stored form %.1f MiB\n",
		mib(uint64(len(zip))), len(snap.Documents), complete, mib(uint64(stored)))
	fmt.Printf("conversion %.2f s, peak heap objects %.1f MiB over the start, live after GC %.1f MiB, allocated %.1f MiB\n",
		elapsed.Seconds(), mib(peak.Load()-min(base, peak.Load())), mib(live), mib(after.TotalAlloc-before.TotalAlloc))
	runtime.KeepAlive(snap)
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
