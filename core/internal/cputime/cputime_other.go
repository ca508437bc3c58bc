//go:build !unix

package cputime

import "time"

// Used is not known here (js/wasm): it returns false.
func Used() (time.Duration, bool) { return 0, false }
