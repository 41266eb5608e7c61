package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSite writes a site whose "module" and word data are some bytes.
func writeSite(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = bytes.Repeat([]byte("\x00asm fake module "), 1000)
	gz, err := Gzip(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, wasm, gz, []byte("// wasm_exec.js"), []byte("PK words")); err != nil {
		t.Fatal(err)
	}
	return dir, wasm
}

func TestWriteMakesTheFolder(t *testing.T) {
	dir, wasm := writeSite(t)
	for _, name := range []string{"index.html", "app.js", "worker.js", "memfs.js", "site.css", WasmExecName, WasmName, WasmName + GzipExt, WordsName} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the site lacks %s: %v", name, err)
		}
	}
	gz, err := os.ReadFile(filepath.Join(dir, WasmName+GzipExt))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("the .gz does not decompress to the module (%v)", err)
	}
}

// The module goes compressed to a browser that accepts gzip, plain to one
// that does not, as application/wasm either way.
func TestHandlerSendsTheModuleCompressed(t *testing.T) {
	dir, wasm := writeSite(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		accept   string
		encoding string
	}{
		{"gzip, deflate, br", "gzip"},
		{"br;q=1.0, gzip;q=0.8", "gzip"},
		{"gzip;q=0", ""},
		{"", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/"+WasmName, nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := resp.Header.Get("Content-Encoding"); got != tc.encoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.encoding)
		}
		if got := resp.Header.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q", tc.accept, got)
		}
		if tc.encoding == "" && !bytes.Equal(body, wasm) {
			t.Errorf("Accept-Encoding %q: the plain module differs", tc.accept)
		}
		if tc.encoding == "gzip" && len(body) >= len(wasm) {
			t.Errorf("Accept-Encoding %q: %d bytes sent for a %d-byte module", tc.accept, len(body), len(wasm))
		}
	}
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/html; charset=utf-8" {
		t.Errorf("index: %d %q", resp.StatusCode, ct)
	}
}

// CheckFolder lets a build go to a new or empty folder, or over a site built
// before, and refuses a file or another program's folder, naming what is there.
func TestCheckFolder(t *testing.T) {
	built, _ := writeSite(t)
	foreign := t.TempDir()
	for _, name := range []string{"index.html", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(foreign, name), []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(foreign, "notes.txt")
	for _, tc := range []struct {
		dir, want string
	}{
		{filepath.Join(t.TempDir(), "new"), ""},
		{t.TempDir(), ""},
		{built, ""},
		{foreign, "holds notes.txt, which is not a file of the site"},
		{file, "-out " + file + ": "},
	} {
		err := CheckFolder(tc.dir)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckFolder(%s) = %v, want %q", tc.dir, err, tc.want)
		}
	}
}

// Only the site's own files are served, and only to GET and HEAD: a key, a
// dotfile or a link to /etc/passwd someone left in the folder stays private
// even when -addr shares the page, and POST or DELETE is not answered 200.
func TestHandlerServesOnlyTheSite(t *testing.T) {
	dir, _ := writeSite(t)
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/", http.StatusOK},
		{"HEAD", "/app.js", http.StatusOK},
		{"GET", "/" + WasmExecName, http.StatusOK},
		{"GET", "/" + WordsName, http.StatusOK},
		{"GET", "/.env", http.StatusNotFound},
		{"GET", "/notes.txt", http.StatusNotFound},
		{"GET", "/nope.js", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
		{"DELETE", "/app.js", http.StatusMethodNotAllowed},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || strings.Contains(string(body), "secret") || strings.Contains(string(body), "SECRET") {
			t.Errorf("%s %s: %d, want %d (body %.60q)", tc.method, tc.path, resp.StatusCode, tc.want, body)
		}
	}
}

// The page fetches the word data by the name the builder writes it under.
func TestPageFetchesTheWordData(t *testing.T) {
	app, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(app), `"`+WordsName+`"`) {
		t.Errorf("app.js does not name %s, the word data the builder writes", WordsName)
	}
}
