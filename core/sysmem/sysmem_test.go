package sysmem

import (
	"runtime"
	"testing"
)

func TestMemTotal(t *testing.T) {
	meminfo := []byte("MemTotal:       24576000 kB\nMemFree:        1000 kB\n")
	if v, ok := memTotal(meminfo); !ok || v != 24576000*1024 {
		t.Errorf("memTotal = %d, %v", v, ok)
	}
	for _, bad := range []string{"", "MemFree: 10 kB\n", "MemTotal: x kB\n", "MemTotal: 10 MB\n", "MemTotal: -5 kB\n"} {
		if v, ok := memTotal([]byte(bad)); ok {
			t.Errorf("memTotal(%q) = %d, true", bad, v)
		}
	}
}

func TestCgroupLimit(t *testing.T) {
	for in, want := range map[string]int64{"4294967296\n": 4 << 30, "max\n": 0, "9223372036854771712\n": 0, "": 0, "0\n": 0} {
		v, ok := cgroupLimit([]byte(in))
		if v != want || ok != (want > 0) {
			t.Errorf("cgroupLimit(%q) = %d, %v; want %d", in, v, ok, want)
		}
	}
}

// TestLimit: on Linux the limit is known and at most the machine's
// memory as /proc/meminfo states it.
func TestLimit(t *testing.T) {
	v, ok := Limit()
	if runtime.GOOS != "linux" {
		t.Skip("not Linux")
	}
	total, _ := memTotal(readFile("/proc/meminfo"))
	if !ok || v <= 0 || v > total {
		t.Errorf("Limit() = %d, %v; MemTotal %d", v, ok, total)
	}
}
