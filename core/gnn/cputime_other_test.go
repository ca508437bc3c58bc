//go:build !unix

package gnn

import "time"

// cpuTime is not available here (js/wasm): benchmarks report wall time only.
func cpuTime() (time.Duration, bool) { return 0, false }
