package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"ilpgnn/core/cmd/ilpgnn/webapp"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine to write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listening = regexp.MustCompile(`^ILP-GNN Explorer at (http://127\.0\.0\.1:[1-9][0-9]*/)\n$`)

// startServe runs `ilpgnn serve args...` in the background and waits for
// its line on stdout. stop interrupts it, as SIGINT would, and returns its
// exit status, the rest of stdout and stderr.
func startServe(t *testing.T, args ...string) (url string, stop func() (int, string, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"serve"}, args...), pw, &stderr)
		pw.Close()
		done <- code
	}()
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve %v printed %q before %v; stderr %q", args, line, err, stderr.String())
	}
	m := listening.FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("serve printed %q, want %q", line, listening)
	}
	stopped := false
	stop = func() (int, string, string) {
		stopped = true
		cancel()
		rest, _ := io.ReadAll(br)
		select {
		case code := <-done:
			return code, string(rest), stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not shut down")
			return 0, "", ""
		}
	}
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	return m[1], stop
}

// writeSite writes a small built site into a temporary folder.
func writeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":     "<!doctype html><title>ILP-GNN Explorer</title>",
		"app.js":         "console.log(1);",
		"app.js.br":      "BR(app.js)",
		"ilpgnn.wasm":    "\x00asm\x01\x00\x00\x00",
		"ilpgnn.wasm.gz": "GZ(ilpgnn.wasm)",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fetch GETs url with its own Accept-Encoding (so the client decodes
// nothing) and returns the response and body.
func fetch(t *testing.T, url, acceptEncoding string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", acceptEncoding)
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 5 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestServeDir(t *testing.T) {
	url, stop := startServe(t, "--addr", "127.0.0.1:0", "--dir", writeSite(t))

	resp, body := fetch(t, url, "gzip, deflate, br")
	if resp.StatusCode != 200 || body != "<!doctype html><title>ILP-GNN Explorer</title>" ||
		resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || resp.Header.Get("Content-Security-Policy") != webapp.CSP {
		t.Errorf("GET %s: %d %q %v", url, resp.StatusCode, body, resp.Header)
	}
	resp, body = fetch(t, url+"app.js", "gzip, deflate, br")
	if resp.StatusCode != 200 || body != "BR(app.js)" || resp.Header.Get("Content-Encoding") != "br" ||
		resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("GET app.js: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	resp, body = fetch(t, url+"ilpgnn.wasm", "gzip, br")
	if resp.StatusCode != 200 || body != "GZ(ilpgnn.wasm)" || resp.Header.Get("Content-Encoding") != "gzip" ||
		resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("GET ilpgnn.wasm: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := fetch(t, url+"missing.js", ""); resp.StatusCode != 404 {
		t.Errorf("GET missing.js: %d, want 404", resp.StatusCode)
	}

	code, rest, stderr := stop()
	if code != 0 || rest != "" || stderr != "" {
		t.Errorf("after interrupt: exit %d, more stdout %q, stderr %q; want 0 and nothing", code, rest, stderr)
	}
}

// TestServeEmbedded serves the site built into the binary, here a
// stand-in, and opens it with --open.
func TestServeEmbedded(t *testing.T) {
	saved, savedOpen := embeddedSite, openBrowser
	t.Cleanup(func() { embeddedSite, openBrowser = saved, savedOpen })
	embeddedSite = func() fs.FS {
		return fstest.MapFS{".gitkeep": {}, "index.html": {Data: []byte("embedded")}}
	}
	opened := make(chan string, 1)
	openBrowser = func(url string) error { opened <- url; return nil }

	url, stop := startServe(t, "--addr", "127.0.0.1:0", "--open")
	if _, body := fetch(t, url, ""); body != "embedded" {
		t.Errorf("GET %s: %q, want the embedded index.html", url, body)
	}
	select {
	case got := <-opened:
		if got != url {
			t.Errorf("--open opened %q, want %q", got, url)
		}
	case <-time.After(5 * time.Second):
		t.Error("--open opened nothing")
	}
	if code, _, stderr := stop(); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	code, out, stderr := cli(t, "serve", "--addr", addr, "--dir", writeSite(t))
	if code != 1 || out != "" || !strings.Contains(stderr, "cannot listen on "+addr) ||
		!strings.Contains(stderr, "already in use") || !strings.Contains(stderr, "--addr 127.0.0.1:0") {
		t.Errorf("serve on a busy port: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestServeErrors(t *testing.T) {
	saved := embeddedSite
	t.Cleanup(func() { embeddedSite = saved })
	// A binary built without `make`: the embedded folder holds only .gitkeep.
	embeddedSite = func() fs.FS { return fstest.MapFS{".gitkeep": {}} }

	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for n, tc := range []struct {
		args []string
		code int
		want []string // in stderr
	}{
		0: {nil, 1, []string{"built without the web app", `"make serve"`, "--dir build/site"}},
		1: {[]string{"--addr", "127.0.0.1:0"}, 1, []string{"built without the web app"}},
		2: {[]string{"--dir", empty, "--addr", "127.0.0.1:0"}, 1, []string{"has no index.html", "make site"}},
		3: {[]string{"--dir", filepath.Join(empty, "nope"), "--addr", "127.0.0.1:0"}, 1, []string{"--dir:", "nope"}},
		4: {[]string{"--dir", file, "--addr", "127.0.0.1:0"}, 1, []string{"is not a folder"}},
		5: {[]string{"--dir", writeSite(t), "--addr", "nonsense"}, 1, []string{"cannot listen on nonsense", "--addr 127.0.0.1:0"}},
		6: {[]string{"--port", "80"}, 2, []string{"ilpgnn: error: serve: flag provided but not defined: -port\n", `Run "ilpgnn serve -h" for its flags.`}},
		7: {[]string{"extra"}, 2, []string{`unexpected argument "extra"`}},
	} {
		code, out, stderr := cli(t, append([]string{"serve"}, tc.args...)...)
		if code != tc.code || out != "" {
			t.Errorf("%d: serve %v: exit %d, stdout %q, stderr %q; want exit %d", n, tc.args, code, out, stderr, tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%d: serve %v: stderr %q lacks %q", n, tc.args, stderr, w)
			}
		}
	}
}

func TestListenURL(t *testing.T) {
	for _, tc := range []struct {
		addr     *net.TCPAddr
		url      string
		loopback bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/", true},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 9}, "http://[::1]:9/", true},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "http://127.0.0.1:80/", false},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 80}, "http://127.0.0.1:80/", false},
		{&net.TCPAddr{IP: net.IPv4(192, 168, 1, 2), Port: 80}, "http://192.168.1.2:80/", false},
	} {
		url, lo := listenURL(tc.addr)
		if url != tc.url || lo != tc.loopback {
			t.Errorf("listenURL(%v) = %q, %v; want %q, %v", tc.addr, url, lo, tc.url, tc.loopback)
		}
	}
}

// TestServeSymlinks: --dir never serves what lies outside the folder, by
// a symlinked file (to a file of the test's or to /etc/passwd) or a
// symlinked folder, while a relative symlink inside it and the files
// themselves are served.
func TestServeSymlinks(t *testing.T) {
	dir, outside := writeSite(t), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"secret.txt": filepath.Join(outside, "secret"),
		"passwd.txt": "/etc/passwd",
		"out":        outside,
		"inside.js":  "app.js",
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	url, stop := startServe(t, "--addr", "127.0.0.1:0", "--dir", dir)
	for _, path := range []string{"secret.txt", "passwd.txt", "out", "out/", "out/secret"} {
		resp, body := fetch(t, url+path, "")
		if resp.StatusCode != 404 || strings.Contains(body, "SECRET") || strings.Contains(body, "root:") {
			t.Errorf("GET /%s: %d %.80q, want 404", path, resp.StatusCode, body)
		}
	}
	for _, path := range []string{"app.js", "inside.js"} {
		if resp, body := fetch(t, url+path, ""); resp.StatusCode != 200 || body != "console.log(1);" {
			t.Errorf("GET /%s: %d %q, want app.js", path, resp.StatusCode, body)
		}
	}
	if code, _, stderr := stop(); code != 0 || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// watchedListener reports each connection it accepts and each one the
// server closes. It shrinks the server's send buffer of each, so that a
// client that stops reading stalls the server within a few kilobytes.
type watchedListener struct {
	net.Listener
	accepted, closed chan struct{}
}

func watch(t *testing.T) *watchedListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return &watchedListener{Listener: ln, accepted: make(chan struct{}, 16), closed: make(chan struct{}, 16)}
}

func (l *watchedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	l.accepted <- struct{}{}
	return &watchedConn{Conn: c, closed: l.closed}, nil
}

type watchedConn struct {
	net.Conn
	once   sync.Once
	closed chan struct{}
}

func (c *watchedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.closed <- struct{}{} })
	return err
}

// ReadFrom keeps the TCP connection's sendfile, as serve has it.
func (c *watchedConn) ReadFrom(r io.Reader) (int64, error) {
	return c.Conn.(io.ReaderFrom).ReadFrom(r)
}

// serveWatched serves site under lim on a watched listener until the test
// ends.
func serveWatched(t *testing.T, site fs.FS, lim serveLimits) *watchedListener {
	t.Helper()
	wl := watch(t)
	var stderr syncBuffer
	srv := newServer(webapp.Handler(site), lim, &stderr)
	done := make(chan struct{})
	go func() {
		srv.Serve(limitConns(wl, lim.conns))
		close(done)
	}()
	t.Cleanup(func() {
		srv.Close()
		<-done
	})
	return wl
}

// within waits for a token on ch for a generous while: the tests assert
// that something happens, not how fast.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s: not after 2 minutes", what)
	}
}

// TestServeWriteTimeout: a client that sends a request and then never
// reads is cut off once the write timeout passes: the server closes the
// connection part way through the response. The other timeouts are an
// hour, so only the write timeout can close it.
func TestServeWriteTimeout(t *testing.T) {
	dir := writeSite(t)
	const size = 32 << 20 // far more than the socket buffers hold
	big := filepath.Join(dir, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, size); err != nil {
		t.Fatal(err)
	}
	site, closeSite, err := serveSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeSite()
	// Two seconds, not less: the deadline runs from the request, and on a
	// loaded machine 200 ms passed before the first byte was written, so
	// the client got nothing at all.
	wl := serveWatched(t, site, serveLimits{readHeader: time.Hour, read: time.Hour, write: 2 * time.Second, idle: time.Hour, conns: 4})

	c, err := net.Dial("tcp", wl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := io.WriteString(c, "GET /big.bin HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	within(t, wl.accepted, "the connection accepted")
	within(t, wl.closed, "the server closing the connection of a client that does not read")

	// What the server had sent before: the start of the response, cut short.
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	got, err := io.ReadAll(c)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading after the server closed: %v", err)
	}
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 200 OK\r\n")) || len(got) >= size {
		t.Errorf("the client received %d bytes starting %q; want a 200 cut short of %d bytes", len(got), got[:min(len(got), 40)], size)
	}
}

// TestServeConnCap: with a cap of 2, a third connection waits, unaccepted
// and unanswered, while two are open, and is served once one closes.
func TestServeConnCap(t *testing.T) {
	site, closeSite, err := serveSite(writeSite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer closeSite()
	wl := serveWatched(t, site, serveLimits{readHeader: time.Hour, read: time.Hour, write: time.Hour, idle: time.Hour, conns: 2})

	// get sends a request for /app.js on c and reads the reply.
	get := func(c net.Conn, br *bufio.Reader) {
		t.Helper()
		if _, err := io.WriteString(c, "GET /app.js HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || string(body) != "console.log(1);" {
			t.Fatalf("GET /app.js: %d %q %v", resp.StatusCode, body, err)
		}
	}
	dial := func() (net.Conn, *bufio.Reader) {
		t.Helper()
		c, err := net.Dial("tcp", wl.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, bufio.NewReader(c)
	}
	c1, br1 := dial()
	get(c1, br1)
	c2, br2 := dial()
	get(c2, br2) // both kept alive, idle for an hour
	within(t, wl.accepted, "the first connection accepted")
	within(t, wl.accepted, "the second connection accepted")

	c3, br3 := dial() // the system queues it; the server does not take it
	if _, err := io.WriteString(c3, "GET /app.js HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	c3.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, err := br3.Read(make([]byte, 1)); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a third connection over the cap of 2 was answered: %d bytes, %v", n, err)
	}
	select {
	case <-wl.accepted:
		t.Fatal("a third connection was accepted over the cap of 2")
	default:
	}

	c1.Close()
	within(t, wl.closed, "the server closing the first connection")
	within(t, wl.accepted, "the third connection accepted once the first closed")
	get(c3, br3) // its request, sent while it waited, is answered
	get(c2, br2) // and the second still is
}

// TestConnLimiter: a connection closed twice frees one slot, and Close
// wakes an Accept that waits for a slot.
func TestConnLimiter(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(ln, 1)
	defer l.Close()
	type accepted struct {
		c   net.Conn
		err error
	}
	accept := func() <-chan accepted {
		ch := make(chan accepted, 1)
		go func() {
			c, err := l.Accept()
			ch <- accepted{c, err}
		}()
		return ch
	}
	wait := func(ch <-chan accepted, what string) accepted {
		t.Helper()
		select {
		case a := <-ch:
			return a
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: not after 2 minutes", what)
			return accepted{}
		}
	}
	for range 2 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first := wait(accept(), "the first Accept")
	if first.err != nil {
		t.Fatal(first.err)
	}
	second := accept() // waits for first's slot
	first.c.Close()
	first.c.Close()
	a := wait(second, "the second Accept after the first connection closed")
	if a.err != nil {
		t.Fatal(a.err)
	}
	if len(l.slots) != 1 {
		t.Errorf("%d slots taken with one connection open after a double Close, want 1", len(l.slots))
	}
	third := accept() // waits for a slot, which only Close ends
	l.Close()
	if a := wait(third, "an Accept waiting for a slot after Close"); !errors.Is(a.err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, %v; want net.ErrClosed", a.c, a.err)
	}
	a.c.Close()
	if len(l.slots) != 0 {
		t.Errorf("%d slots taken with no connection open", len(l.slots))
	}
}
