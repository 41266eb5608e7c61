package site

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Handler serves a site folder as static files. A request for a file that
// has a .gz sibling (itformer.wasm.gz) gets the sibling with
// Content-Encoding: gzip when the browser accepts gzip; either way the
// Content-Type is the original name's (application/wasm for the module, which
// WebAssembly.compileStreaming requires).
//
// Only the site's own files are served (the folder may hold others: a
// dotfile, a link out of it), and only to GET and HEAD.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	own := ownNames()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, r.Method+" is not supported here", http.StatusMethodNotAllowed)
			return
		}
		name := path.Clean("/" + r.URL.Path)
		if name != "/" && !own[strings.TrimPrefix(name, "/")] {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Vary", "Accept-Encoding")
		w.Header().Set("Cache-Control", "no-cache") // revalidate: a rebuilt site is seen at once
		if ctype := contentType(name); ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		if acceptsGzip(r) && !strings.HasSuffix(name, GzipExt) {
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name+GzipExt))); err == nil && st.Mode().IsRegular() {
				w.Header().Set("Content-Encoding", "gzip")
				r2 := r.Clone(r.Context())
				r2.URL.Path = name + GzipExt
				files.ServeHTTP(w, r2)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// contentType is the type by the name's extension, wasm included (Go's
// table has it, but the system's may be consulted first and lack it).
func contentType(name string) string {
	if strings.HasSuffix(name, ".wasm") {
		return "application/wasm"
	}
	return mime.TypeByExtension(path.Ext(name))
}

// acceptsGzip reads Accept-Encoding: gzip listed, and not refused with q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(coding) != "gzip" {
			continue
		}
		q, found := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
