//go:build unix

package load

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFO checks that a named pipe called edges.csv is refused by name
// instead of blocking the loader until something writes to it.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "edges.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	want := fifo + ": not a regular file: it is a named pipe (FIFO), and only files are read"
	for _, p := range []string{dir, fifo} {
		done := make(chan error, 1)
		go func() { _, err := Path(p); done <- err }()
		select {
		case err := <-done:
			if err == nil || err.Error() != want {
				t.Errorf("Path(%s): %v, want %q", p, err, want)
			}
		case <-time.After(time.Minute): // only a blocked open takes this long
			// Unblock the reader so the test binary can exit.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("Path(%s) blocked on the FIFO", p)
		}
	}
	if _, err := ReadFile(fifo); err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v", err)
	}
}
