package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "golden.txt")
	Check(t, path, "a 1\nb 2\n", true, "hashes") // records
	if b, err := os.ReadFile(path); err != nil || string(b) != "a 1\nb 2\n" {
		t.Fatalf("recorded %q, %v", b, err)
	}
	r := &recorder{TB: t}
	Check(r, path, "a 1\nb 2", false, "hashes")
	if r.failed {
		t.Error("the same value (without the final newline) failed")
	}
	Check(r, path, "a 1\nb 3\n", false, "hashes")
	if !r.failed {
		t.Error("a different value passed")
	}
}
