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

// cmdServe serves the web app on a local address until interrupted.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[--addr 127.0.0.1:8080] [--dir DIR] [--open=false]", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free one; a host other than loopback exposes the app to the network)")
	dir := fs.String("dir", "", "serve the site in `DIR` (e.g. build/site) instead of the one built into the binary")
	open := fs.Bool("open", false, "open the app in the default browser once listening")
	if err := parse(fs, args); err != nil {
		return err
	}

	site, err := serveSite(*dir)
	if err != nil {
		return err
	}

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
	srv := &http.Server{
		Handler:           webapp.Handler(site),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          log.New(stderr, "ilpgnn serve: ", 0),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

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

// serveSite returns the folder to serve: dir when given, else the site
// embedded in the binary; either must hold an index.html.
func serveSite(dir string) (fs.FS, error) {
	if dir == "" {
		site := embeddedSite()
		if !webapp.Built(site) {
			return nil, errors.New(`this ilpgnn was built without the web app (core/cmd/ilpgnn/webapp/site is empty): run "make serve", or "make site" and then "ilpgnn serve --dir build/site"`)
		}
		return site, nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--dir: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("--dir: %s is not a folder", dir)
	}
	site := os.DirFS(dir)
	if !webapp.Built(site) {
		return nil, fmt.Errorf(`--dir: %s has no index.html (run "make site" to build the site into build/site)`, dir)
	}
	return site, nil
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
