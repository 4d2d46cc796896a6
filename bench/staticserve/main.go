// Command staticserve serves a folder with Go's http.FileServer, for
// bench/reader.sh: the same HTML as the reader's, served as static files,
// is the limit the reader is measured against. It is not part of folio.
//
//	go run ./bench/staticserve -dir DIR [-addr 127.0.0.1:0]
//
// It prints "listening on http://HOST:PORT" once it accepts connections.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "folder to serve")
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "staticserve:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: http.FileServer(http.Dir(*dir)), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "staticserve:", err)
		os.Exit(1)
	}
}
