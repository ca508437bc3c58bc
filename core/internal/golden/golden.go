// Package golden compares a test's output with a recorded file: the
// portable hashes that training and explanations must reproduce natively
// and under js/wasm.
package golden

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Check fails t unless got equals the contents of path (surrounding
// whitespace aside). With update it first records got there, for a
// deliberate change to the arithmetic; what names the value in the
// failure message.
func Check(t testing.TB, path, got string, update bool, what string) {
	t.Helper()
	got = strings.TrimSpace(got)
	path = filepath.FromSlash(path)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.TrimSpace(string(want)); got != w {
		t.Errorf("%s/%s: %s\n%s\nrecorded in %s\n%s\n(if the arithmetic changed on purpose, rerun natively with -update-portable)",
			runtime.GOOS, runtime.GOARCH, what, got, path, w)
	}
}
