//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnboundedInputs: a named pipe, /dev/zero and a sparse 20 GiB file
// given as --checkpoint, --config or --data are each refused with a
// message naming the flag's file and the problem, without blocking on the
// pipe or reading the endless device (either would hang this test) and
// without allocating the sparse file's size (which would kill it).
func TestUnboundedInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.ckpt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	sparse := filepath.Join(dir, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	sparseOK := f.Truncate(20<<30) == nil
	f.Close()
	inputs := map[string]string{
		fifo:        "not a regular file: it is a named pipe (FIFO), and only files are read",
		"/dev/zero": "not a regular file: it is a device, and only files are read",
	}
	if sparseOK {
		inputs[sparse] = "file too large: 20 GiB is over the %s that %s may have"
	}
	flags := []struct {
		prefix, cap, what string
		args              func(p string) []string
	}{
		{"--checkpoint: ", "2 GiB", "a checkpoint", func(p string) []string {
			return []string{"explain", "--checkpoint", p, "--data", small, "--pair", "a,b"}
		}},
		{"--config: ", "1 MiB", "a settings file", func(p string) []string {
			return []string{"train", "--data", small, "--config", p}
		}},
		{"", "4 GiB", "a graph file", func(p string) []string {
			return []string{"inspect", "--data", p}
		}},
	}
	for p, problem := range inputs {
		for _, fl := range flags {
			code, _, stderr := cli(t, fl.args(p)...)
			msg := problem
			if strings.Contains(problem, "%s") {
				msg = strings.Replace(strings.Replace(problem, "%s", fl.cap, 1), "%s", fl.what, 1)
			}
			want := "ilpgnn: error: " + fl.prefix + p + ": " + msg + "\n"
			if code != 1 || stderr != want {
				t.Errorf("%v: exit %d, stderr %q; want 1, %q", fl.args(p), code, stderr, want)
			}
		}
	}
}
