package userfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("0123456789"), 1000)
	p := filepath.Join(dir, "f.bin")
	if err := os.WriteFile(p, want, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(p, Kind{What: "a test file", Max: int64(len(want))})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadFile: %d bytes, %v; want the %d written", len(got), err, len(want))
	}
	// One byte under the file's size is over the cap.
	_, err = ReadFile(p, Kind{What: "a test file", Max: int64(len(want)) - 1})
	if msg := p + ": file too large: 9.8 KiB is over the 9.8 KiB that a test file may have"; err == nil || err.Error() != msg || !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v, want %q", err, msg)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(empty, Settings); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q, %v", got, err)
	}
}

func TestRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.ckpt")
	for _, tc := range []struct{ path, want string }{
		{dir, dir + ": not a regular file: it is a folder, and only files are read"},
		{missing, missing + ": no such file or directory"},
	} {
		_, err := ReadFile(tc.path, Checkpoint)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ReadFile(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := ReadFile("/dev/zero", Checkpoint)
		if want := "/dev/zero: not a regular file: it is a device, and only files are read"; err == nil || err.Error() != want {
			t.Errorf("/dev/zero: %v, want %q", err, want)
		}
	}
}

// TestSparse: a 20 GiB file that takes no disk space is refused from its
// size alone, allocating almost nothing.
func TestSparse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.npz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(20 << 30); err != nil {
		f.Close()
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadFile(p, Graph)
	runtime.ReadMemStats(&after)
	if want := p + ": file too large: 20 GiB is over the 4 GiB that a graph file may have"; err == nil || err.Error() != want {
		t.Errorf("sparse file: %v, want %q", err, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing the sparse file allocated %d bytes", got)
	}
}

// growing is a reader that returns more than the size it was opened with.
type growing struct{ left int }

func (g *growing) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), g.left)
	g.left -= n
	return n, nil
}

func TestGrowing(t *testing.T) {
	k := Kind{What: "a test file", Max: 100}
	if b, err := readAll(&growing{left: 100}, 10, k); err != nil || len(b) != 100 {
		t.Errorf("grown to the cap: %d bytes, %v", len(b), err)
	}
	_, err := readAll(&growing{left: 1 << 20}, 10, k)
	if want := "file too large: the file grew past the 100 bytes that a test file may have while it was read"; err == nil || err.Error() != want {
		t.Errorf("grown past the cap: %v, want %q", err, want)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		1 << 20: "1 MiB", 4 << 30: "4 GiB", 20 << 30: "20 GiB", 3_500_000: "3.3 MiB",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
	if !strings.Contains(Size(1<<62), "EiB") {
		t.Errorf("Size(1<<62) = %q", Size(1<<62))
	}
}
