//go:build !unix

package ilpgnn_test

import "time"

// cpuNow is not known here (js/wasm): benchmarks report wall time only.
func cpuNow() time.Duration { return 0 }
