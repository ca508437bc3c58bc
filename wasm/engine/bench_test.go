package engine

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var datasetsDir = flag.String("datasets", filepath.Join("..", "..", "..", "shared", "datasets"),
	"the shared datasets folder the Cora benchmarks read (relative to wasm/engine)")

// coraFiles reads Cora's LINQS files from the shared datasets beside the
// repository (-datasets DIR overrides), skipping when they are absent.
func coraFiles(tb testing.TB) map[string][]byte {
	dir := *datasetsDir
	files := map[string][]byte{}
	for _, name := range []string{"cora.content", "cora.cites"} {
		b, err := os.ReadFile(filepath.Join(dir, "cora", name))
		if err != nil {
			tb.Skipf("Cora not found: %v", err)
		}
		files[name] = b
	}
	return files
}

// BenchmarkCoraEpoch trains Cora through the engine, exactly as the browser
// does (the Chromium benchmark in frontend/test runs the same request), and
// reports the median time of an epoch (validation included) in ms/epoch.
// The first epochs are left out: they warm buffers and, in WebAssembly, the
// JIT tiers.
func BenchmarkCoraEpoch(b *testing.B) {
	const epochs, skip = 12, 2
	files := coraFiles(b)
	var medians []float64
	for n := 0; n < b.N; n++ {
		p := newPage(b, nil)
		if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
			b.Fatalf("load: %+v", r.Error)
		}
		id := p.send("train", map[string]any{"config": map[string]any{"epochs": epochs, "patience": epochs}, "save": false}, nil)
		if r := p.wait(id); r.Type != "result" {
			b.Fatalf("train: %+v", r.Error)
		}
		medians = append(medians, medianEpochMs(p.events[id], skip))
	}
	slices.Sort(medians)
	b.ReportMetric(medians[len(medians)/2], "ms/epoch")
	b.ReportMetric(0, "ns/op")
}

// medianEpochMs returns the median of the per-epoch times that progress
// events imply, after the first skip epochs.
func medianEpochMs(ev []Progress, skip int) float64 {
	var d []float64
	for k := skip; k < len(ev); k++ {
		d = append(d, ev[k].ElapsedMs-ev[k-1].ElapsedMs)
	}
	slices.Sort(d)
	return d[len(d)/2]
}
