//go:build unix

package ilpgnn_test

import (
	"syscall"
	"time"
)

// cpuNow returns the CPU time (user + system) the process has used so far,
// or 0 when it is not known.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
