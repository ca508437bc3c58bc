package webapp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// site is a fake build/site: each twin's bytes name their encoding, so a
// response shows which file it came from.
func site() fstest.MapFS {
	mod := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), ModTime: mod} }
	return fstest.MapFS{
		"index.html":        f("<!doctype html><title>ILP-GNN Explorer</title>"),
		"a.js":              f("console.log('identity');"),
		"a.js.br":           f("BR(a.js)"),
		"a.js.gz":           f("GZ(a.js)"),
		"a.js.map":          f(`{"version":3}`),
		"m.mjs":             f("export {};"),
		"m.wasm":            f("\x00asm\x01\x00\x00\x00"),
		"m.wasm.gz":         f("GZ(m.wasm)"),
		"app.css":           f("body{}"),
		"data.json":         f("{}"),
		"favicon.svg":       f("<svg/>"),
		"logo.png":          f("\x89PNG"),
		"favicon.ico":       f("\x00\x00\x01\x00"),
		"blob.bin":          f("0123456789"),
		"only.br":           f("a file that merely ends in .br"),
		"sub/index.html":    f("<p>sub</p>"),
		"empty/README.txt":  f("no index here"),
		".gitkeep":          f(""),
		".hidden/secret.js": f("secret"),
	}
}

type resp struct {
	code int
	hdr  http.Header
	body string
}

// get sends one request to Handler(fsys) with the given headers
// ("Name: value").
func get(t *testing.T, h http.Handler, method, target string, headers ...string) resp {
	t.Helper()
	req := httptest.NewRequest(method, "http://example.test/", nil)
	// Set the path by hand: NewRequest would reject or clean some of the
	// hostile ones.
	req.RequestURI = target
	u, err := url.ParseRequestURI(target)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	req.URL = u
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ":")
		req.Header.Set(k, strings.TrimSpace(v))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Result().Body)
	return resp{rec.Code, rec.Result().Header, string(b)}
}

func TestContentTypes(t *testing.T) {
	h := Handler(site())
	for path, want := range map[string]string{
		"/":            "text/html; charset=utf-8",
		"/index.html":  "text/html; charset=utf-8",
		"/a.js":        "text/javascript; charset=utf-8",
		"/m.mjs":       "text/javascript; charset=utf-8",
		"/m.wasm":      "application/wasm",
		"/app.css":     "text/css; charset=utf-8",
		"/data.json":   "application/json",
		"/a.js.map":    "application/json",
		"/favicon.svg": "image/svg+xml",
		"/logo.png":    "image/png",
		"/favicon.ico": "image/x-icon",
		"/blob.bin":    "application/octet-stream",
		"/only.br":     "application/octet-stream",
	} {
		r := get(t, h, "GET", path)
		if r.code != 200 || r.hdr.Get("Content-Type") != want {
			t.Errorf("GET %s: %d %q, want 200 %q", path, r.code, r.hdr.Get("Content-Type"), want)
		}
		if r.hdr.Get("Content-Encoding") != "" {
			t.Errorf("GET %s without Accept-Encoding: Content-Encoding %q", path, r.hdr.Get("Content-Encoding"))
		}
	}
	if r := get(t, h, "GET", "/"); r.body != string(site()["index.html"].Data) {
		t.Errorf("GET / served %q, want index.html", r.body)
	}
	if r := get(t, h, "GET", "/sub/"); r.code != 200 || r.body != "<p>sub</p>" {
		t.Errorf("GET /sub/: %d %q, want sub/index.html", r.code, r.body)
	}
	if r := get(t, h, "GET", "/sub?x=1"); r.code != http.StatusMovedPermanently || r.hdr.Get("Location") != "/sub/?x=1" {
		t.Errorf("GET /sub: %d Location %q, want 301 to /sub/?x=1", r.code, r.hdr.Get("Location"))
	}
}

func TestNegotiation(t *testing.T) {
	h := Handler(site())
	for n, tc := range []struct {
		path, accept string
		encoding     string // "" for identity
		body         string
	}{
		0:  {"/a.js", "", "", "console.log('identity');"},
		1:  {"/a.js", "gzip, deflate, br, zstd", "br", "BR(a.js)"},
		2:  {"/a.js", "gzip", "gzip", "GZ(a.js)"},
		3:  {"/a.js", "x-gzip", "gzip", "GZ(a.js)"},
		4:  {"/a.js", "br;q=0, gzip", "gzip", "GZ(a.js)"},
		5:  {"/a.js", "br;q=0, gzip;q=0", "", "console.log('identity');"},
		6:  {"/a.js", "gzip;q=1, br;q=0.5", "gzip", "GZ(a.js)"},
		7:  {"/a.js", "gzip;q=0.5, BR;Q=0.5", "br", "BR(a.js)"},
		8:  {"/a.js", "*", "br", "BR(a.js)"},
		9:  {"/a.js", "*;q=0", "", "console.log('identity');"},
		10: {"/a.js", "gzip, *;q=0", "gzip", "GZ(a.js)"},
		11: {"/a.js", "identity", "", "console.log('identity');"},
		12: {"/a.js", "br;q=bogus, gzip", "gzip", "GZ(a.js)"},
		13: {"/m.wasm", "br, gzip", "gzip", "GZ(m.wasm)"},
		14: {"/m.wasm", "br", "", "\x00asm\x01\x00\x00\x00"},
		15: {"/app.css", "br, gzip", "", "body{}"},
	} {
		r := get(t, h, "GET", tc.path, "Accept-Encoding: "+tc.accept)
		if r.code != 200 || r.hdr.Get("Content-Encoding") != tc.encoding || r.body != tc.body {
			t.Errorf("%d: GET %s, Accept-Encoding %q: %d, Content-Encoding %q, body %q; want %q, %q",
				n, tc.path, tc.accept, r.code, r.hdr.Get("Content-Encoding"), r.body, tc.encoding, tc.body)
		}
		// The twin's bytes go out under the original's type.
		if want := contentType(tc.path); r.hdr.Get("Content-Type") != want {
			t.Errorf("%d: GET %s: Content-Type %q, want %q", n, tc.path, r.hdr.Get("Content-Type"), want)
		}
		// Files with twins vary by Accept-Encoding, whichever was sent.
		vary := r.hdr.Get("Vary") == "Accept-Encoding"
		if want := tc.path != "/app.css"; vary != want {
			t.Errorf("%d: GET %s: Vary %q", n, tc.path, r.hdr.Values("Vary"))
		}
	}
}

// TestTwinsNotAddressable checks that a twin is never served on its own,
// where its compressed bytes would go out without a Content-Encoding.
func TestTwinsNotAddressable(t *testing.T) {
	h := Handler(site())
	for _, path := range []string{"/a.js.br", "/a.js.gz", "/m.wasm.gz"} {
		for _, accept := range []string{"", "br, gzip"} {
			if r := get(t, h, "GET", path, "Accept-Encoding: "+accept); r.code != 404 {
				t.Errorf("GET %s (Accept-Encoding %q): %d %q, want 404", path, accept, r.code, r.body)
			}
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := Handler(site())
	want := map[string]string{
		"Content-Security-Policy":    CSP,
		"X-Content-Type-Options":     "nosniff",
		"Referrer-Policy":            "no-referrer",
		"Cross-Origin-Opener-Policy": "same-origin",
	}
	for _, rq := range [][2]string{{"GET", "/"}, {"GET", "/a.js"}, {"HEAD", "/m.wasm"}, {"GET", "/missing"}, {"POST", "/"}, {"GET", "/../go.mod"}} {
		r := get(t, h, rq[0], rq[1], "Accept-Encoding: br")
		for k, v := range want {
			if got := r.hdr.Get(k); got != v {
				t.Errorf("%s %s (%d): %s %q, want %q", rq[0], rq[1], r.code, k, got, v)
			}
		}
	}
	for _, directive := range []string{"'wasm-unsafe-eval'", "worker-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(CSP, directive) {
			t.Errorf("CSP lacks %s", directive)
		}
	}
	if r := get(t, h, "GET", "/a.js"); r.hdr.Get("Cache-Control") != "no-cache" || r.hdr.Get("ETag") == "" {
		t.Errorf("GET /a.js: Cache-Control %q, ETag %q; want no-cache and an ETag", r.hdr.Get("Cache-Control"), r.hdr.Get("ETag"))
	}
}

func TestNotFoundAndTraversal(t *testing.T) {
	h := Handler(site())
	for _, path := range []string{"/missing.js", "/missing/", "/empty/", "/empty", "/.gitkeep", "/.hidden/secret.js", "/%2egitkeep", "/index.html/"} {
		r := get(t, h, "GET", path)
		if r.code != 404 || r.hdr.Get("Content-Type") != "text/plain; charset=utf-8" || !strings.Contains(r.body, "not found") {
			t.Errorf("GET %s: %d %q %q, want a plain 404", path, r.code, r.hdr.Get("Content-Type"), r.body)
		}
	}
	for _, path := range []string{
		"/../go.mod", "/%2e%2e/go.mod", "/%2E%2E%2Fgo.mod", "/..%2fgo.mod", "/sub/../../go.mod",
		"/sub/%2e%2e/%2e%2e/go.mod", "/..%5cgo.mod", "/sub/./index.html", "//etc/passwd", "/a.js%00", "/sub//index.html",
	} {
		r := get(t, h, "GET", path)
		if r.code != 400 || strings.Contains(r.body, "module") {
			t.Errorf("GET %s: %d %q, want 400", path, r.code, r.body)
		}
	}
}

// TestTraversalDisk serves a real folder with a secret next to it.
func TestTraversalDisk(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "site")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "index.html"), []byte("index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := Handler(os.DirFS(root))
	if r := get(t, h, "GET", "/"); r.code != 200 || r.body != "index" {
		t.Fatalf("GET /: %d %q", r.code, r.body)
	}
	for _, path := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/..%5csecret.txt"} {
		if r := get(t, h, "GET", path); r.code == 200 || strings.Contains(r.body, "SECRET") {
			t.Errorf("GET %s: %d %q", path, r.code, r.body)
		}
	}
}

// TestSymlinksRooted serves a folder through os.Root, as ilpgnn serve
// does: a symlink out of it (a file, a folder, a precompressed twin) is
// not found and leaks nothing, while relative symlinks that stay inside
// serve their target. Absolute symlinks are refused even when they point
// inside, as os.Root refuses them.
func TestSymlinksRooted(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "site")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{
		filepath.Join(root, "index.html"):  "index",
		filepath.Join(root, "app.js"):      "identity",
		filepath.Join(outside, "secret"):   "SECRET",
		filepath.Join(outside, "app.js.x"): "SECRET twin",
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"secret.txt":     filepath.Join(outside, "secret"),
		"rel-secret.txt": "../outside/secret",
		"out":            outside,
		"rel-out":        "../outside",
		"app.js.br":      filepath.Join(outside, "app.js.x"),
		"app.js.gz":      "../outside/app.js.x",
		"inside.txt":     "index.html",
		"sub/up.txt":     "../index.html",
		"in":             "sub",
		"abs-inside.txt": filepath.Join(root, "index.html"),
		"loop":           "loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := Handler(r.FS())

	for _, path := range []string{
		"/secret.txt", "/rel-secret.txt", "/out", "/out/", "/out/secret", "/rel-out/secret",
		"/rel-out/app.js.x", "/abs-inside.txt", "/loop", "/index.html/x",
	} {
		r := get(t, h, "GET", path, "Accept-Encoding: br, gzip")
		if r.code != 404 || strings.Contains(r.body, "SECRET") {
			t.Errorf("GET %s: %d %q, want 404", path, r.code, r.body)
		}
	}
	// The twins lead out: the original is sent, not encoded.
	if r := get(t, h, "GET", "/app.js", "Accept-Encoding: br, gzip"); r.code != 200 || r.body != "identity" || r.hdr.Get("Content-Encoding") != "" {
		t.Errorf("GET /app.js with twins outside: %d %q %v, want the identity bytes", r.code, r.body, r.hdr)
	}
	for _, path := range []string{"/app.js.br", "/app.js.gz"} {
		if r := get(t, h, "GET", path); r.code != 404 || strings.Contains(r.body, "SECRET") {
			t.Errorf("GET %s: %d %q, want 404", path, r.code, r.body)
		}
	}
	for path, want := range map[string]string{"/": "index", "/inside.txt": "index", "/sub/up.txt": "index", "/in/up.txt": "index"} {
		if r := get(t, h, "GET", path); r.code != 200 || r.body != want {
			t.Errorf("GET %s: %d %q, want 200 %q", path, r.code, r.body, want)
		}
	}
}

func TestMethods(t *testing.T) {
	h := Handler(site())
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
		r := get(t, h, m, "/")
		if r.code != 405 || r.hdr.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /: %d Allow %q, want 405 GET, HEAD", m, r.code, r.hdr.Get("Allow"))
		}
	}
	r := get(t, h, "HEAD", "/m.wasm")
	if r.code != 200 || r.body != "" || r.hdr.Get("Content-Length") != "8" || r.hdr.Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD /m.wasm: %d %q %v", r.code, r.body, r.hdr)
	}
	r = get(t, h, "HEAD", "/a.js", "Accept-Encoding: gzip")
	if r.code != 200 || r.body != "" || r.hdr.Get("Content-Encoding") != "gzip" || r.hdr.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("HEAD /a.js: %d %q %v", r.code, r.body, r.hdr)
	}
}

func TestRange(t *testing.T) {
	h := Handler(site())
	r := get(t, h, "GET", "/blob.bin", "Range: bytes=2-5")
	if r.code != http.StatusPartialContent || r.body != "2345" || r.hdr.Get("Content-Range") != "bytes 2-5/10" {
		t.Errorf("Range bytes=2-5: %d %q %q", r.code, r.body, r.hdr.Get("Content-Range"))
	}
	// A range of a negotiated twin is a range of the encoded bytes.
	r = get(t, h, "GET", "/a.js", "Range: bytes=0-1", "Accept-Encoding: br")
	if r.code != http.StatusPartialContent || r.body != "BR" || r.hdr.Get("Content-Encoding") != "br" {
		t.Errorf("Range of a.js in br: %d %q %v", r.code, r.body, r.hdr)
	}
	r = get(t, h, "GET", "/blob.bin", "Range: bytes=50-60")
	if r.code != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("Range bytes=50-60: %d, want 416", r.code)
	}
}

func TestConditional(t *testing.T) {
	h := Handler(site())
	id := get(t, h, "GET", "/a.js")
	br := get(t, h, "GET", "/a.js", "Accept-Encoding: br")
	gz := get(t, h, "GET", "/a.js", "Accept-Encoding: gzip")
	tags := map[string]bool{id.hdr.Get("ETag"): true, br.hdr.Get("ETag"): true, gz.hdr.Get("ETag"): true}
	if len(tags) != 3 || tags[""] {
		t.Fatalf("each representation needs its own ETag: %v", tags)
	}
	if again := get(t, h, "GET", "/a.js", "Accept-Encoding: br"); again.hdr.Get("ETag") != br.hdr.Get("ETag") {
		t.Errorf("ETag changed between requests: %q, %q", br.hdr.Get("ETag"), again.hdr.Get("ETag"))
	}
	r := get(t, h, "GET", "/a.js", "Accept-Encoding: br", "If-None-Match: "+br.hdr.Get("ETag"))
	if r.code != http.StatusNotModified || r.body != "" || r.hdr.Get("ETag") != br.hdr.Get("ETag") || r.hdr.Get("Vary") != "Accept-Encoding" {
		t.Errorf("If-None-Match with the current ETag: %d %q %v, want 304", r.code, r.body, r.hdr)
	}
	// The identity ETag does not match the br representation.
	r = get(t, h, "GET", "/a.js", "Accept-Encoding: br", "If-None-Match: "+id.hdr.Get("ETag"))
	if r.code != 200 || r.body != "BR(a.js)" {
		t.Errorf("If-None-Match with another representation's ETag: %d %q, want 200", r.code, r.body)
	}
	lm := id.hdr.Get("Last-Modified")
	if lm == "" {
		t.Fatal("no Last-Modified")
	}
	if r := get(t, h, "GET", "/a.js", "If-Modified-Since: "+lm); r.code != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %d, want 304", r.code)
	}
}

// TestETagFollowsDisk checks that a file rewritten under --dir gets a new
// ETag rather than the one cached for its old contents.
func TestETagFollowsDisk(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "index.html")
	if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := Handler(os.DirFS(dir))
	first := get(t, h, "GET", "/").hdr.Get("ETag")
	if err := os.WriteFile(file, []byte("two!"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := get(t, h, "GET", "/")
	if r.body != "two!" || r.hdr.Get("ETag") == first {
		t.Errorf("after rewrite: %q ETag %q (was %q)", r.body, r.hdr.Get("ETag"), first)
	}
}

func TestBuilt(t *testing.T) {
	if !Built(site()) {
		t.Error("Built(site) = false")
	}
	if Built(fstest.MapFS{".gitkeep": {}}) {
		t.Error("Built of a folder with only .gitkeep = true")
	}
	if Built(fstest.MapFS{"index.html/x": {}}) {
		t.Error("Built with index.html a folder = true")
	}
	// The embedded tree is rooted at the site: either it was built by the
	// Makefile (index.html at the top) or it holds only .gitkeep.
	emb := Site()
	if _, err := emb.Open(".gitkeep"); err != nil && !Built(emb) {
		t.Errorf("embedded site has neither .gitkeep nor index.html: %v", err)
	}
}

func TestParseAcceptEncoding(t *testing.T) {
	a := parseAcceptEncoding(" GZip ; q=0.3 ,br;q=0 , *;q=0.1,compress;q=2")
	for coding, want := range map[string]float64{"gzip": 0.3, "br": 0, "zstd": 0.1, "compress": 0} {
		if got := a.q(coding); got != want {
			t.Errorf("q(%s) = %v, want %v", coding, got, want)
		}
	}
	if got := parseAcceptEncoding("").q("gzip"); got != 0 {
		t.Errorf("empty header: q(gzip) = %v, want 0", got)
	}
}
