package cputime

import (
	"runtime"
	"testing"
)

// TestUsedGrows: spinning for a while raises the CPU time read.
func TestUsedGrows(t *testing.T) {
	before, ok := Used()
	if !ok {
		if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
			t.Skip("no CPU time on this platform")
		}
		t.Fatal("CPU time not readable")
	}
	x := 0
	for i := 0; i < 300_000_000; i++ {
		x ^= i
	}
	after, _ := Used()
	if !(after > before) {
		t.Errorf("CPU time %v after spinning (x=%d), %v before", after, x, before)
	}
}
