// Package datasets finds the shared datasets (../shared/datasets beside the
// repository) for tests and benchmarks.
package datasets

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns $ILPGNN_DATASETS, or the first shared/datasets folder found
// walking up from the working directory, or "" when there is none.
func Dir() string {
	if d := os.Getenv("ILPGNN_DATASETS"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared", "datasets")
		if info, err := os.Stat(cand); err == nil && info.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns the path of a dataset folder or file relative to Dir,
// skipping the test when it is not there.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skip("shared/datasets not found (set ILPGNN_DATASETS)")
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s: %v", p, err)
	}
	return p
}
