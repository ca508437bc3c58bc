package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"ilpgnn/core/cmd/ilpgnn/webapp"
)

// embeddedSite is the site built into the binary; tests replace it.
var embeddedSite = webapp.Site

// openBrowser opens url in the desktop's browser; tests replace it.
var openBrowser = func(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; the browser outlives the opener
	return nil
}

// shutdownGrace bounds how long serve waits for requests in flight after
// SIGINT or SIGTERM before closing their connections.
const shutdownGrace = 5 * time.Second

// serveLimits bounds what clients can hold of the server: a slow or stalled
// client is cut off, and a crowd of them waits for free connections.
type serveLimits struct {
	// readHeader bounds reading a request's headers, read the whole
	// request (the site takes GET and HEAD, which have no body).
	readHeader, read time.Duration
	// write bounds a response, from the end of its request's headers to
	// its last byte: it is what cuts off a client that stops reading.
	write time.Duration
	// idle bounds a kept-alive connection's wait for its next request.
	idle time.Duration
	// conns caps the connections open at once; more wait to be accepted.
	conns int
}

// defaultServeLimits are serve's limits. The write timeout must let the
// largest file through on a slow link: ilpgnn.wasm is 8.4 MB when sent
// uncompressed (1.6 MB as brotli), and 10 minutes carry 15 MB at
// 200 kbit/s (25 kB/s, a poor mobile link), so only a client slower than
// that, or one that stopped reading, is cut off. A browser opens
// at most 6 connections to a host over HTTP/1.1, so 64 serve ten tabs at
// once.
func defaultServeLimits() serveLimits {
	return serveLimits{readHeader: 10 * time.Second, read: 30 * time.Second, write: 10 * time.Minute, idle: 2 * time.Minute, conns: 64}
}

// newServer returns the http.Server of h under lim; serve it on a
// listener from limitConns(ln, lim.conns).
func newServer(h http.Handler, lim serveLimits, stderr io.Writer) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.readHeader,
		ReadTimeout:       lim.read,
		WriteTimeout:      lim.write,
		IdleTimeout:       lim.idle,
		ErrorLog:          log.New(stderr, "ilpgnn serve: ", 0),
	}
}

// cmdServe serves the web app on a local address until interrupted.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[--addr 127.0.0.1:8080] [--dir DIR] [--open]", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free one; a host other than loopback exposes the app to the network)")
	dir := fs.String("dir", "", "serve the site in `DIR` (e.g. build/site) instead of the one built into the binary; "+
		"symlinks may point within DIR by relative paths, never out of it")
	open := fs.Bool("open", false, "open the app in the default browser once listening")
	if err := parse(fs, args); err != nil {
		return err
	}

	site, closeSite, err := serveSite(*dir)
	if err != nil {
		return err
	}
	defer closeSite()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("cannot listen on %s: the address is already in use (another server running? --addr 127.0.0.1:0 picks any free port)", *addr)
		}
		return fmt.Errorf("cannot listen on %s: %v (--addr 127.0.0.1:0 picks any free port)", *addr, err)
	}
	url, loopback := listenURL(ln.Addr())
	if !loopback {
		fmt.Fprintf(stderr, "ilpgnn serve: warning: listening on %s, reachable from other machines\n", ln.Addr())
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	lim := defaultServeLimits()
	srv := newServer(webapp.Handler(site), lim, stderr)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(limitConns(ln, lim.conns)) }()

	fmt.Fprintf(stdout, "ILP-GNN Explorer at %s\n", url)
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stderr, "ilpgnn serve: cannot open a browser: %v\n", err)
		}
	}

	select {
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveSite returns the folder to serve, and a function that releases it:
// dir when given, else the site embedded in the binary; either must hold
// an index.html. dir is opened as an os.Root, so that nothing outside it
// is served: a symlink that leads out of dir, or an absolute one, reads as
// missing, while a relative symlink to a file or folder inside dir works.
func serveSite(dir string) (fs.FS, func(), error) {
	if dir == "" {
		site := embeddedSite()
		if !webapp.Built(site) {
			return nil, nil, errors.New(`this ilpgnn was built without the web app (core/cmd/ilpgnn/webapp/site is empty): run "make serve", or "make site" and then "ilpgnn serve --dir build/site"`)
		}
		return site, func() {}, nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--dir: %w", err)
	}
	if !fi.IsDir() {
		return nil, nil, fmt.Errorf("--dir: %s is not a folder", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--dir: %w", err)
	}
	site := root.FS()
	if !webapp.Built(site) {
		root.Close()
		return nil, nil, fmt.Errorf(`--dir: %s has no index.html (run "make site" to build the site into build/site)`, dir)
	}
	return site, func() { root.Close() }, nil
}

// connLimiter is a net.Listener that holds at most cap(slots) connections
// open at once. Accept waits for one of them to close before it takes the
// next, so that clients beyond the cap wait in the system's queue of
// pending connections (and are served as others close) instead of being
// refused. golang.org/x/net/netutil has one; this saves the dependency.
type connLimiter struct {
	net.Listener
	slots  chan struct{} // one token per open connection
	closed chan struct{} // closed by Close, to wake an Accept waiting for a slot
	once   sync.Once
}

// limitConns returns ln limited to n connections open at once (n >= 1).
func limitConns(ln net.Listener, n int) *connLimiter {
	return &connLimiter{Listener: ln, slots: make(chan struct{}, max(n, 1)), closed: make(chan struct{})}
}

// Accept waits for a free slot, then for a connection.
func (l *connLimiter) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

// Close closes the listener and wakes an Accept waiting for a slot.
func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitedConn gives its slot back when closed, once however often Close
// is called.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// ReadFrom lets a response of a whole file use the connection's own
// ReadFrom (sendfile on a TCP connection), which the wrapper would hide.
func (c *limitedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// listenURL returns the address a browser on this machine should open for
// a listener, and whether the listener is on loopback only. An unspecified
// host (":8080", "0.0.0.0:8080") is reached through 127.0.0.1.
func listenURL(a net.Addr) (string, bool) {
	host, port := "127.0.0.1", ""
	loopback := false
	if tcp, ok := a.(*net.TCPAddr); ok {
		port = fmt.Sprint(tcp.Port)
		switch {
		case tcp.IP.IsLoopback():
			host, loopback = tcp.IP.String(), true
		case !tcp.IP.IsUnspecified() && tcp.IP != nil:
			host = tcp.IP.String()
		}
	} else {
		_, port, _ = net.SplitHostPort(a.String())
	}
	return "http://" + net.JoinHostPort(host, port) + "/", loopback
}
