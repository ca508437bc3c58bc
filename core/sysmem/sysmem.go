// Package sysmem tells how much memory this process may use: the
// machine's physical memory, or less where a control group (a container's
// limit) caps it. The command line refuses work estimated to need more.
package sysmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Limit returns the bytes of memory available to this process at most and
// true, or 0 and false where it cannot tell (not Linux, or /proc is not
// readable).
func Limit() (int64, bool) {
	total, ok := memTotal(readFile("/proc/meminfo"))
	if !ok {
		return 0, false
	}
	for _, path := range []string{
		"/sys/fs/cgroup/memory.max",                   // cgroup v2
		"/sys/fs/cgroup/memory/memory.limit_in_bytes", // cgroup v1
	} {
		if v, ok := cgroupLimit(readFile(path)); ok && v < total {
			total = v
		}
	}
	return total, true
}

// readFile returns the file's bytes, or nil when it cannot be read.
func readFile(path string) []byte {
	b, err := os.ReadFile(path) // small kernel files, never a user's
	if err != nil {
		return nil
	}
	return b
}

// memTotal reads MemTotal from the contents of /proc/meminfo
// ("MemTotal:       24576000 kB").
func memTotal(meminfo []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 || kb > 1<<52 {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// cgroupLimit reads a control group's memory limit: a number of bytes,
// or "max" (no limit), or v1's "no limit" value near 2^63.
func cgroupLimit(b []byte) (int64, bool) {
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0, false
	}
	return v, true
}
