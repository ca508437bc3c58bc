//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time (user + system) the process has used so far,
// and false when it cannot be read.
func Used() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
