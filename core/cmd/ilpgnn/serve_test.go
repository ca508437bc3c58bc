package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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
		6: {[]string{"--port", "80"}, 2, []string{"flag provided but not defined", "usage: ilpgnn serve [--addr 127.0.0.1:8080] [--dir DIR] [--open=false]"}},
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
