// Package webapp serves ILP-GNN Explorer, the static site that `make site`
// builds into build/site, from any fs.FS: the copy embedded in the binary
// (Site) or a folder on disk.
//
// The handler is what a careful static host does for the site: the right
// Content-Type for every file (application/wasm above all, which
// WebAssembly.instantiateStreaming insists on), the precompressed .br or .gz
// twin of a file when the browser accepts it, revalidation by content-hash
// ETag, and the security headers the page is written for (CSP).
package webapp

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The Makefile copies build/site/* into site/ before building the binary;
// in git the folder holds only .gitkeep, so a plain `go build` embeds an
// empty site (see Built).
//
//go:embed all:site
var embedded embed.FS

// CSP is the Content-Security-Policy sent with every response, the same
// policy index.html declares in its meta tag: everything from the page's
// own origin, WebAssembly compilation allowed, no inline script or style,
// no plugins, no framing and no form submissions.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
	"img-src 'self' data: blob:; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// Site returns the site embedded in the binary, rooted at the folder that
// holds index.html. It may be empty: check with Built.
func Site() fs.FS {
	sub, err := fs.Sub(embedded, "site")
	if err != nil {
		panic(err) // "site" is a valid, embedded path
	}
	return sub
}

// Built reports whether fsys holds a built site, that is an index.html.
func Built(fsys fs.FS) bool {
	fi, err := fs.Stat(fsys, "index.html")
	return err == nil && fi.Mode().IsRegular()
}

// types maps file extensions to Content-Type. The table is fixed rather than
// taken from the system's MIME database (mime.TypeByExtension), which
// differs between machines and gets .js and .wasm wrong on some.
var types = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".wasm":        "application/wasm",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".woff2":       "font/woff2",
	".gz":          "application/gzip",
}

// contentType returns the Content-Type of a file by its name.
func contentType(name string) string {
	if t, ok := types[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// codings are the precompressed twins the handler looks for, in order of
// preference when the browser accepts several equally.
var codings = []struct{ name, ext string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// isTwinExt reports whether ext is the extension of a precompressed twin.
func isTwinExt(ext string) bool {
	for _, c := range codings {
		if ext == c.ext {
			return true
		}
	}
	return false
}

// Handler returns an http.Handler that serves the static site in fsys.
//
// Only GET and HEAD are allowed (405 otherwise). "/" and any path ending in
// "/" serve that folder's index.html; a folder without the slash redirects
// to it. Paths that are not clean slash-separated names (.., empty
// elements, backslashes, NUL) are rejected with 400, and names starting
// with "." are not served. When the browser accepts br or gzip (by
// Accept-Encoding q-values, br first on ties) and the file has a
// NAME.br or NAME.gz twin, the twin's bytes are sent with the original's
// Content-Type and a Content-Encoding; the twins themselves are not
// addressable. Every response carries CSP and the other security headers
// and Cache-Control: no-cache, so browsers revalidate by ETag (a hash of
// the bytes sent) or Last-Modified on each load. HEAD, Range and
// conditional requests are handled by http.ServeContent.
//
// The handler serves whatever fsys opens, twins included, and opens
// nothing else: for a folder on disk, pass an os.Root's FS, which keeps
// symlinks from leading out of it (os.DirFS follows them anywhere).
func Handler(fsys fs.FS) http.Handler {
	return &handler{fsys: fsys, etags: map[string]etag{}}
}

type handler struct {
	fsys fs.FS

	mu    sync.Mutex
	etags map[string]etag // by file name
}

// etag is a file's content hash with the size and time it was computed for,
// so that a file rewritten on disk (--dir) gets a new one.
type etag struct {
	size  int64
	mod   time.Time
	value string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", CSP)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Cross-Origin-Opener-Policy", "same-origin")
	hdr.Set("Cache-Control", "no-cache")

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	urlPath := r.URL.Path
	name, ok := fileName(urlPath)
	if !ok {
		http.Error(w, "bad request: invalid path", http.StatusBadRequest)
		return
	}
	if hidden(name) {
		notFound(w)
		return
	}
	// A twin is an encoding of its original, not a resource of its own.
	if ext := path.Ext(name); isTwinExt(ext) && h.isFile(strings.TrimSuffix(name, ext)) {
		notFound(w)
		return
	}
	fi, err := fs.Stat(h.fsys, name)
	if err != nil {
		h.fail(w, err)
		return
	}
	if fi.IsDir() {
		// Like http.FileServer: /dir redirects to /dir/, which serves
		// dir/index.html.
		if h.isFile(path.Join(name, "index.html")) {
			target := r.URL.EscapedPath() + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		}
		notFound(w)
		return
	}
	if !fi.Mode().IsRegular() {
		notFound(w)
		return
	}

	// Pick the representation: the best accepted twin, else the file.
	accept := parseAcceptEncoding(r.Header.Get("Accept-Encoding"))
	served, encoding := name, ""
	best, twins := 0.0, false
	for _, c := range codings {
		if !h.isFile(name + c.ext) {
			continue
		}
		twins = true
		if q := accept.q(c.name); q > best {
			best, served, encoding = q, name+c.ext, c.name
		}
	}

	f, err := h.fsys.Open(served)
	if err != nil {
		h.fail(w, err)
		return
	}
	defer f.Close()
	sfi, err := f.Stat()
	if err != nil {
		h.fail(w, err)
		return
	}
	content, tag, err := h.content(served, f, sfi)
	if err != nil {
		h.fail(w, err)
		return
	}

	hdr.Set("Content-Type", contentType(name))
	if twins {
		hdr.Add("Vary", "Accept-Encoding")
	}
	if encoding != "" {
		hdr.Set("Content-Encoding", encoding)
	}
	hdr.Set("ETag", tag)
	http.ServeContent(w, r, name, sfi.ModTime(), content)
}

// fileName maps a URL path to a name in the file system, reporting false
// for paths that are not clean: relative, with "." or ".." or empty
// elements, backslashes or NUL bytes. r.URL.Path is already decoded, so
// %2e%2e and %2f are caught here too.
func fileName(urlPath string) (string, bool) {
	if !strings.HasPrefix(urlPath, "/") || strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	name := urlPath[1:]
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	return name, fs.ValidPath(name)
}

// hidden reports whether a name has an element starting with "." (such as
// the .gitkeep of the embedded folder), which the handler does not serve.
func hidden(name string) bool {
	for elem := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(elem, ".") {
			return true
		}
	}
	return false
}

func (h *handler) isFile(name string) bool {
	fi, err := fs.Stat(h.fsys, name)
	return err == nil && fi.Mode().IsRegular()
}

func notFound(w http.ResponseWriter) {
	http.Error(w, "404 not found", http.StatusNotFound)
}

// fail answers an error from the file system: 500 when the system failed
// (permission, I/O, out of file descriptors), else 404, for a name that
// leads to no file of the site: missing, invalid, a file taken for a
// folder, a loop of symlinks, or a symlink out of the folder. os.Root
// refuses the last with an error os does not export, so every error that
// is not the system's counts as not found.
func (h *handler) fail(w http.ResponseWriter, err error) {
	var errno syscall.Errno
	if errors.As(err, &errno) && !errors.Is(err, fs.ErrNotExist) {
		switch errno {
		case syscall.ENOTDIR, syscall.ELOOP, syscall.ENAMETOOLONG:
		default:
			http.Error(w, "500 internal server error", http.StatusInternalServerError)
			return
		}
	}
	notFound(w)
}

// content returns f as an io.ReadSeeker for http.ServeContent, with its
// ETag, hashing the file the first time it is served (or after it changed
// size or modification time).
func (h *handler) content(name string, f fs.File, fi fs.FileInfo) (io.ReadSeeker, string, error) {
	rs, seekable := f.(io.ReadSeeker)
	h.mu.Lock()
	e, ok := h.etags[name]
	h.mu.Unlock()
	if ok && e.size == fi.Size() && e.mod.Equal(fi.ModTime()) {
		if seekable {
			return rs, e.value, nil
		}
		b, err := io.ReadAll(f)
		return bytes.NewReader(b), e.value, err
	}

	sum := sha256.New()
	if seekable {
		if _, err := io.Copy(sum, rs); err != nil {
			return nil, "", err
		}
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return nil, "", err
		}
	} else {
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, "", err
		}
		sum.Write(b)
		rs = bytes.NewReader(b)
	}
	e = etag{size: fi.Size(), mod: fi.ModTime(), value: `"` + hex.EncodeToString(sum.Sum(nil)[:16]) + `"`}
	h.mu.Lock()
	h.etags[name] = e
	h.mu.Unlock()
	return rs, e.value, nil
}

// acceptEncoding is a parsed Accept-Encoding header: q-values by coding,
// and the q-value of "*" for codings not listed (-1 when "*" is absent).
type acceptEncoding struct {
	q0   map[string]float64
	star float64
}

// q returns the q-value the client gives a coding; 0 means not acceptable.
func (a acceptEncoding) q(coding string) float64 {
	if q, ok := a.q0[coding]; ok {
		return q
	}
	return max(a.star, 0)
}

// parseAcceptEncoding parses "br;q=1.0, gzip;q=0.8, *;q=0" (RFC 9110
// 12.5.3). Codings are case-insensitive; x-gzip is gzip; a malformed
// q-value makes its coding unacceptable.
func parseAcceptEncoding(header string) acceptEncoding {
	a := acceptEncoding{q0: map[string]float64{}, star: -1}
	for item := range strings.SplitSeq(header, ",") {
		params := strings.Split(item, ";")
		coding := strings.ToLower(strings.TrimSpace(params[0]))
		if coding == "" {
			continue
		}
		if coding == "x-gzip" {
			coding = "gzip"
		}
		q := 1.0
		for _, p := range params[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0
			}
			q = f
		}
		if coding == "*" {
			a.star = q
		} else {
			a.q0[coding] = q
		}
	}
	return a
}
