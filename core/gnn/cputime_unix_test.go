//go:build unix

package gnn

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) this process has used, so
// that benchmarks on a shared machine can report work apart from waiting.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
