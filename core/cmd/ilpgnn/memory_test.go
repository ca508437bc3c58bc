package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ilpgnn/core/synth"
	"ilpgnn/core/sysmem"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
)

// wideNPZ writes a 40-node ring whose features declare d columns with one
// value a node: a file of a few kilobytes whose input layers would need d
// × hidden weights.
func wideNPZ(t *testing.T, path string, d int64) {
	t.Helper()
	const n = 40
	le64 := func(v ...int64) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		return b
	}
	var adjPtr, adjIdx, attrPtr, attrIdx []int64
	adjPtr, attrPtr = append(adjPtr, 0), append(attrPtr, 0)
	for i := range int64(n) {
		adjIdx = append(adjIdx, (i+n-1)%n, (i+1)%n)
		adjPtr = append(adjPtr, int64(len(adjIdx)))
		attrIdx = append(attrIdx, (i*7919)%d)
		attrPtr = append(attrPtr, int64(len(attrIdx)))
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, m := range []struct {
		name  string
		shape []int
		data  []byte
	}{
		{"adj_indptr", []int{n + 1}, le64(adjPtr...)},
		{"adj_indices", []int{len(adjIdx)}, le64(adjIdx...)},
		{"adj_shape", []int{2}, le64(n, n)},
		{"attr_indptr", []int{n + 1}, le64(attrPtr...)},
		{"attr_indices", []int{len(attrIdx)}, le64(attrIdx...)},
		{"attr_shape", []int{2}, le64(n, d)},
	} {
		w, err := z.CreateHeader(&zip.FileHeader{Name: m.name + ".npy", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(npy("<i8", m.shape, m.data))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrainRefusesMemory: a graph whose 2·10^9 feature columns would need
// terabytes of weights is refused before any training, with the estimate,
// the machine's memory and what to change; a narrow graph's report states
// its estimates first.
func TestTrainRefusesMemory(t *testing.T) {
	limit, known := sysmem.Limit()
	if !known {
		t.Skip("this machine's memory is unknown")
	}
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.npz")
	wideNPZ(t, wide, 2_000_000_000)
	// The estimate by hand, at 128 hidden units and 128 entries of S̃ a
	// column: two D × 128 input layers at 59 bytes a weight, then the
	// nodes, edges and feature values, and the default anchor's frozen
	// start at 8 bytes a weight and 4 a node and unit
	// (train.EstimateMemory's terms).
	estimate := func(d int64) (total, weights, start int64) {
		weights, start = 59*d*128, 8*d*128+4*40*128
		return 34_000_000 + weights + 67*40*128 + 14*40*128 + 280*40 + 27*40 + start, weights, start
	}
	total, weights, start := estimate(2_000_000_000)
	code, out, stderr := cli(t, "train", "--data", wide, "--seeds", "0", "--epochs", "1", "--quiet")
	want := "ilpgnn: error: training would need about " + train.Bytes(total) + " of memory at its peak, more than this machine's memory (" +
		train.Bytes(limit) + "); the input layers' weights (feature columns × hidden width, two layers, with their gradients and Adam's state) take about " +
		train.Bytes(weights) + ": fewer feature columns, or a smaller --hidden; the anchor's frozen input weights and node representations (the start's) take about " +
		train.Bytes(start) + ": --anchor 0, or a smaller --hidden\n"
	if code != 1 || stderr != want || strings.Contains(out, "seed") {
		t.Errorf("exit %d\nstderr %q\n  want %q\nstdout %q", code, stderr, want, out)
	}
	// tune would train it too: the same refusal, before its plan.
	code, _, stderr = cli(t, "tune", "--data", wide, "--trials", "2", "--seeds", "0")
	if code != 1 || stderr != want {
		t.Errorf("tune: exit %d\nstderr %q\n  want %q", code, stderr, want)
	}
	code, out, _ = cli(t, "train", "--data", wide, "--seeds", "0", "--epochs", "1", "--json")
	var res trainJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 || res.MemoryEstimate == nil ||
		res.MemoryEstimate.Bytes != total || res.MemoryLimit != limit || !strings.HasPrefix(res.Error, "training would need about") {
		t.Errorf("--json: exit %d, %v: %s", code, err, out)
	}

	wideNPZ(t, wide, 1000)
	code, out, stderr = cli(t, "train", "--data", wide, "--seeds", "0", "--epochs", "1", "--quiet")
	total, _, _ = estimate(1000)
	// The epoch's estimate is ILP-GNN's on one thread shared between
	// GOMAXPROCS of them, and names them.
	threads := runtime.GOMAXPROCS(0)
	epoch := tune.OnThreads(tune.EpochSeconds("ilpgnn", tune.Size{Nodes: 40, Edges: 40, FeatureNNZ: 40, FeatureDim: 1000}), threads)
	line := "\nestimate: about " + train.Bytes(total) + " of memory at its peak (of " + train.Bytes(limit) + " here), about " + epochText(epoch) + " an epoch" + threadsText(threads) + "\n"
	if code != 0 || !strings.Contains(out, line) {
		t.Errorf("narrow: exit %d: %s\n%s\nwant the line %q", code, stderr, out, line)
	}
	if threadsText(1) != " on one thread" || threadsText(3) != " on 3 threads" || threadsText(0) != "" {
		t.Errorf("threads named %q, %q, %q", threadsText(1), threadsText(3), threadsText(0))
	}
	code, out, _ = cli(t, "train", "--data", wide, "--seeds", "0", "--epochs", "1", "--json")
	res = trainJSON{}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.EpochThreads != threads || res.EpochSecondsEstimate != epoch {
		t.Errorf("narrow --json: exit %d, %v: threads %d, epoch %v s, want %d and %v", code, err, res.EpochThreads, res.EpochSecondsEstimate, threads, epoch)
	}
}

// TestSynthRefusesMemory: a graph whose generator would need more memory
// than this machine has is refused before generating, by synth and by a
// synth: spec alike, with the estimate and the machine's memory.
func TestSynthRefusesMemory(t *testing.T) {
	limit, known := sysmem.Limit()
	cfg := synth.Config{Nodes: 100_000_000, Edges: 1_000_000_000, FeatureDim: 1, Method: synth.Sampled}
	need := synth.EstimateMemory(cfg)
	if !known || need <= limit {
		t.Skip("this machine's memory is unknown, or larger than the test's graph needs")
	}
	want := "ilpgnn: error: synth: generating 100000000 nodes, 1000000000 edges and 1 feature columns would need about " +
		train.Bytes(need) + " of memory at its peak, more than this machine's memory (" + train.Bytes(limit) + "): use fewer nodes, edges or feature columns\n"
	for _, args := range [][]string{
		{"synth", "--nodes", "100000000", "--edges", "1000000000", "--dim", "1", "--out", t.TempDir()},
		{"inspect", "--data", "synth:nodes=100000000:edges=1000000000:dim=1:seed=0"},
	} {
		code, _, stderr := cli(t, args...)
		if code != 1 || stderr != want {
			t.Errorf("%v: exit %d\nstderr %q\n  want %q", args, code, stderr, want)
		}
	}
}
