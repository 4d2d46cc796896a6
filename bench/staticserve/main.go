// Command staticserve serves a folder with Go's http.FileServer, for
// bench/reader.sh: the same HTML as the reader's, served as static files,
// is the limit the reader is measured against. It is not part of folio.
//
//	go run ./bench/staticserve -dir DIR [-addr 127.0.0.1:0] [-gzip]
//
// With -gzip, a request that accepts gzip for a file that has a
// precompressed twin FILE.gz gets the twin, as nginx's gzip_static does.
//
// It prints "listening on http://HOST:PORT" once it accepts connections.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "folder to serve")
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	gz := flag.Bool("gzip", false, "serve FILE.gz, compressed, to clients that accept gzip")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "staticserve:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	var h http.Handler = http.FileServer(http.Dir(*dir))
	if *gz {
		h = gzipStatic{dir: *dir, next: h}
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "staticserve:", err)
		os.Exit(1)
	}
}

// gzipStatic serves a file's precompressed twin to clients that accept
// gzip (the pages are HTML), else hands the request on.
type gzipStatic struct {
	dir  string
	next http.Handler
}

func (g gzipStatic) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		name := path.Clean("/" + r.URL.Path)
		if f, err := os.Open(filepath.Join(g.dir, filepath.FromSlash(name)+".gz")); err == nil {
			defer f.Close()
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", "gzip")
				http.ServeContent(w, r, "", st.ModTime(), f)
				return
			}
		}
	}
	g.next.ServeHTTP(w, r)
}
