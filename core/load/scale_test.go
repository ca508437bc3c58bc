package load

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"ilpgnn/core/internal/randgraph"
)

var measureScale = flag.String("measure.scale", "", "run BenchmarkLoadScale on this folder: write an ogbn-arxiv-sized edges.txt and features.txt there if absent (a first run), else load them")

// BenchmarkLoadScale measures reading an ogbn-arxiv-sized graph (169,343
// nodes, about 1.18M edges, 128 dense features; randgraph.PowerLaw seed 1)
// from an edge list and a features file, in the folder -measure.scale
// names. The first run writes the files; run it again under
// /usr/bin/time -v for the peak RSS of loading alone. It skips without
// -measure.scale; each op is one load:
//
//	go test -c -o /tmp/load.test ./core/load/
//	/tmp/load.test -test.run '^$' -test.bench LoadScale -test.benchtime 1x -measure.scale /tmp/arxiv-sized
//	/usr/bin/time -v /tmp/load.test -test.run '^$' -test.bench LoadScale -test.benchtime 1x -measure.scale /tmp/arxiv-sized
func BenchmarkLoadScale(b *testing.B) {
	dir := *measureScale
	if dir == "" {
		b.Skip("pass -measure.scale DIR to run")
	}
	for b.Loop() {
		loadScaleReport(b, dir)
	}
}

// loadScaleReport is BenchmarkLoadScale's report.
func loadScaleReport(t testing.TB, dir string) {
	edges, feats := filepath.Join(dir, "edges.txt"), filepath.Join(dir, "features.txt")
	if _, err := os.Stat(feats); err != nil {
		writeArxivSized(t, dir, edges, feats)
		return
	}
	t0 := time.Now()
	g, err := Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("load: %d nodes, %d edges, %d features: %v; heap %d MB, total allocated %d MB\n",
		g.NumNodes(), g.NumEdges(), g.FeatureDim(), time.Since(t0).Round(time.Millisecond), ms.HeapAlloc>>20, ms.TotalAlloc>>20)
}

func writeArxivSized(t testing.TB, dir, edges, feats string) {
	g, err := randgraph.PowerLaw(169343, 7, 128, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path string, fill func(w *bufio.Writer)) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		fill(w)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(edges, func(w *bufio.Writer) {
		for _, e := range g.Edges() {
			fmt.Fprintf(w, "%d %d\n", e.U, e.V)
		}
	})
	write(feats, func(w *bufio.Writer) {
		var b []byte
		for i := range g.NumNodes() {
			b = strconv.AppendInt(b[:0], int64(i), 10)
			_, vals := g.Features.Row(i)
			for _, v := range vals {
				b = append(b, ' ')
				b = strconv.AppendFloat(b, float64(v), 'g', 6, 32)
			}
			b = append(b, '\n')
			w.Write(b)
		}
	})
	fmt.Printf("wrote %s and %s\n", edges, feats)
}

// TestChunkedAppendRange checks chunked against a plain slice on ranges
// within a chunk, across one boundary and across several, and empty.
func TestChunkedAppendRange(t *testing.T) {
	var c chunked[int32]
	var want []int32
	for k := range 3*chunkLen + 17 {
		c.append(int32(k * 7))
		want = append(want, int32(k*7))
	}
	for _, r := range [][2]int{{0, 0}, {0, 5}, {chunkLen - 3, chunkLen + 4}, {5, 3*chunkLen + 10}, {3 * chunkLen, 3*chunkLen + 17}, {0, 3*chunkLen + 17}} {
		got := c.appendRange([]int32{-1}, r[0], r[1])
		if !slices.Equal(got[1:], want[r[0]:r[1]]) || got[0] != -1 {
			t.Fatalf("range %v: %d entries, want %d (or a mismatch)", r, len(got)-1, r[1]-r[0])
		}
	}
}
