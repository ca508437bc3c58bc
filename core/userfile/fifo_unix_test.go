//go:build unix

package userfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFO: a named pipe is refused at once, with no writer on its other
// end, by Open and ReadFile alike.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "model.ckpt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	want := fifo + ": not a regular file: it is a named pipe (FIFO), and only files are read"
	done := make(chan error, 2)
	go func() { _, err := ReadFile(fifo, Checkpoint); done <- err }()
	go func() { _, _, err := Open(fifo, Settings); done <- err }()
	for range 2 {
		select {
		case err := <-done:
			if err == nil || err.Error() != want {
				t.Errorf("FIFO: %v, want %q", err, want)
			}
		case <-time.After(time.Minute): // only a blocked open takes this long
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatal("blocked on the FIFO")
		}
	}
}
