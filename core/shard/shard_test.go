package shard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
)

// testRun is a kit and an epoch of a fresh model on synth:sparse, with
// λ = 1 so that every loss term weighs, in batches of 7 pairs.
func testRun(t testing.TB) (*Kit, *Epoch) {
	t.Helper()
	src, err := dataset.Parse("synth:sparse:seed=3")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(3)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(3, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ilpgnn.New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(3, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obj := ilpgnn.Objective{Lambda: 1, Delta: 0.5}
	kit := &Kit{Model: cfg, Objective: obj, BatchSize: 7, Inputs: in, Pos: sp.TrainPos}
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(3).Sample(pairs[P:], sp.Train)
	hr := m.Encode(nil, in, 0, nil).Value
	e := &Epoch{Index: 1, Seed: 3 ^ 1<<20, Norms: m.EpochNorms(in, pairs, labels, obj), HR: hr, Neg: pairs[P:]}
	return kit, e
}

func TestBlocksTileTheirRange(t *testing.T) {
	for lo := 0; lo < Count; lo++ {
		for hi := lo + 1; hi <= Count; hi++ {
			next := lo
			for _, b := range Blocks(lo, hi) {
				size := b[1] - b[0]
				if b[0] != next || size <= 0 || size&(size-1) != 0 || b[0]%size != 0 {
					t.Fatalf("Blocks(%d, %d) = %v: %v is not the next aligned block", lo, hi, Blocks(lo, hi), b)
				}
				// A block is maximal: its parent in the tree leaves the range.
				if size < Count {
					plo := b[0] / (2 * size) * (2 * size)
					if plo >= lo && plo+2*size <= hi {
						t.Fatalf("Blocks(%d, %d) = %v: %v could be merged with its sibling", lo, hi, Blocks(lo, hi), b)
					}
				}
				next = b[1]
			}
			if next != hi {
				t.Fatalf("Blocks(%d, %d) = %v stops at %d", lo, hi, Blocks(lo, hi), next)
			}
		}
	}
}

func TestAssignCoversEveryShardOnce(t *testing.T) {
	for n := 1; n <= Count; n++ {
		next := 0
		for w := range n {
			lo, hi := Assign(n, w)
			if lo != next || hi <= lo || hi-lo > Count/n+1 {
				t.Fatalf("Assign(%d, %d) = [%d, %d), after %d", n, w, lo, hi, next)
			}
			next = hi
		}
		if next != Count {
			t.Fatalf("Assign(%d, ·) ends at %d", n, next)
		}
	}
}

// TestTreeOrder: Local's gradient is, bit for bit, the pairwise tree of
// the shards' own gradients, each computed alone and added up here by
// hand; and close to the shards' plain sum in float64 (the tree only
// rounds).
func TestTreeOrder(t *testing.T) {
	kit, e := testRun(t)
	n := len(e.HR)
	w := NewWorker(kit)
	leaves := make([][]float32, Count)
	for s := range Count {
		err := w.Run(t.Context(), e, s, s+1, nil, func(b Block) error {
			leaves[s] = append([]float32(nil), b.Grad...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var tree func(a, b int) []float32
	tree = func(a, b int) []float32 {
		if b-a == 1 {
			return append([]float32(nil), leaves[a]...)
		}
		l, r := tree(a, (a+b)/2), tree((a+b)/2, b)
		for i := range l {
			l[i] += r[i]
		}
		return l
	}
	want := tree(0, Count)
	r, _ := Local(t.Context(), kit)
	got := make([]float32, n)
	if _, err := r.Epoch(t.Context(), e, got, nil); err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("gradient[%d] = %g, the tree by hand gives %g", i, got[i], want[i])
		}
		var plain float64
		for s := range Count {
			plain += float64(leaves[s][i])
		}
		if d := math.Abs(plain - float64(got[i])); d > 1e-6*(1+math.Abs(plain)) {
			t.Fatalf("gradient[%d] = %g, the shards' sum is %g", i, got[i], plain)
		}
		if got[i] != 0 {
			nonzero++
		}
	}
	if nonzero < n/2 {
		t.Fatalf("only %d of %d gradient values are non-zero", nonzero, n)
	}
}

// pipe is an in-process connection between a coordinator and a helper
// that Serves on its own goroutine; failAfter > 0 makes the helper stop
// after sending that many blocks.
type pipe struct {
	toHelper, toCoord chan []byte
	done              chan error
}

func newPipe(failAfter int) *pipe {
	p := &pipe{toHelper: make(chan []byte, 4), toCoord: make(chan []byte, 64), done: make(chan error, 1)}
	sent := 0
	go func() {
		err := Serve(context.Background(), func() ([]byte, error) {
			m, ok := <-p.toHelper
			if !ok {
				return nil, io.EOF
			}
			return m, nil
		}, func(m []byte) error {
			if failAfter > 0 && sent == failAfter {
				return errors.New("helper crashed")
			}
			sent++
			p.toCoord <- m
			return nil
		})
		p.done <- err
		close(p.toCoord)
	}()
	return p
}

func (p *pipe) Send(m []byte) error {
	p.toHelper <- append([]byte(nil), m...)
	return nil
}

func (p *pipe) Receive(ctx context.Context) ([]byte, error) {
	select {
	case m, ok := <-p.toCoord:
		if !ok {
			return nil, errors.New("helper gone")
		}
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipe) Close() error {
	close(p.toHelper)
	return nil
}

// TestCoordinatedIsLocal: with 1 to 16 workers, two epochs' gradients and
// losses are the bits of Local's; and so they are when a helper fails
// after its first block, whose shards the coordinator then computes.
func TestCoordinatedIsLocal(t *testing.T) {
	kit, e := testRun(t)
	n := len(e.HR)
	local, _ := Local(t.Context(), kit)
	want := make([]float32, n)
	wantLoss, err := local.Epoch(t.Context(), e, want, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ workers, failAfter int }{{1, 0}, {2, 0}, {3, 0}, {5, 0}, {16, 0}, {3, 1}, {2, 1}} {
		t.Run(fmt.Sprintf("workers=%d,fail=%d", tc.workers, tc.failAfter), func(t *testing.T) {
			var peers []Peer
			for range tc.workers - 1 {
				peers = append(peers, newPipe(tc.failAfter))
			}
			r, err := Coordinate(kit, peers)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if r.Workers() != tc.workers {
				t.Fatalf("Workers() = %d", r.Workers())
			}
			for range 2 { // the second epoch reuses every buffer
				got := make([]float32, n)
				var ticks []int
				loss, err := r.Epoch(t.Context(), e, got, func(d int) { ticks = append(ticks, d) })
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("gradient[%d] = %g, Local's %g", i, got[i], want[i])
					}
				}
				if loss != wantLoss {
					t.Fatalf("losses %+v, Local's %+v", loss.Sum(), wantLoss.Sum())
				}
				if len(ticks) != Count || ticks[Count-1] != Count {
					t.Fatalf("progress reported %v, want 1..%d", ticks, Count)
				}
			}
		})
	}
}

// TestCancelBetweenShards: a context cancelled after the third shard
// stops the epoch before a fourth begins.
func TestCancelBetweenShards(t *testing.T) {
	kit, e := testRun(t)
	r, _ := Local(t.Context(), kit)
	ctx, cancel := context.WithCancel(t.Context())
	done := 0
	_, err := r.Epoch(ctx, e, make([]float32, len(e.HR)), func(d int) {
		done = d
		if d == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || done != 3 {
		t.Fatalf("err %v after %d shards, want context.Canceled after 3", err, done)
	}
}

// TestWireRoundTrip: a kit, a task and a block come back as they went, and
// every truncation of them is refused.
func TestWireRoundTrip(t *testing.T) {
	kit, e := testRun(t)
	data, err := kit.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalKit(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.MarshalBinary()
	if string(again) != string(data) {
		t.Fatal("a kit does not survive a round trip")
	}
	if back.Model != kit.Model || back.Objective != kit.Objective || back.BatchSize != kit.BatchSize || len(back.Pos) != len(kit.Pos) {
		t.Fatalf("kit settings changed: %+v", back)
	}
	task, _ := encodeTask(7, e, 2, 4)
	gen, e2, lo, hi, err := decodeTask(task, back)
	if err != nil || gen != 7 || lo != 2 || hi != 4 || e2.Seed != e.Seed || e2.Norms != e.Norms || e2.Index != e.Index {
		t.Fatalf("task came back as gen %d [%d, %d) %+v, %v", gen, lo, hi, e2, err)
	}
	for i := range e.HR {
		if math.Float32bits(e.HR[i]) != math.Float32bits(e2.HR[i]) {
			t.Fatalf("H^r[%d] came back as %g, sent %g", i, e2.HR[i], e.HR[i])
		}
	}
	for i := range e.Neg {
		if e.Neg[i] != e2.Neg[i] {
			t.Fatalf("negative %d came back as %v", i, e2.Neg[i])
		}
	}
	b := Block{Lo: 4, Hi: 8, Grad: e.HR, Losses: []Loss{{ilpgnn.LossValues{Total: 1, Cls: 2, Pos: 3, Neg: math.Pi}, 5}, {}, {}, {Contributing: 9}}}
	gen, b2, err := decodeBlock(encodeBlock(3, b), len(e.HR))
	if err != nil || gen != 3 || b2.Lo != 4 || b2.Hi != 8 || b2.Losses[0] != b.Losses[0] || b2.Losses[3] != b.Losses[3] {
		t.Fatalf("block came back as %d %+v, %v", gen, b2.Losses, err)
	}
	for _, msg := range [][]byte{data, task, encodeBlock(3, b)} {
		for _, cut := range []int{0, 3, 4, 11, len(msg) / 2, len(msg) - 1} {
			short := msg[:cut]
			_, e1 := UnmarshalKit(short)
			_, _, _, _, e2 := decodeTask(short, back)
			_, _, e3 := decodeBlock(short, len(e.HR))
			if e1 == nil || e2 == nil || e3 == nil {
				t.Fatalf("a message cut at %d of %d bytes was accepted (%v, %v, %v)", cut, len(msg), e1, e2, e3)
			}
		}
	}
}

// FuzzUnmarshalKit: whatever the bytes, decoding returns a kit or an error
// and never panics; a kit it returns encodes to bytes that decode again.
func FuzzUnmarshalKit(f *testing.F) {
	kit, _ := testRun(f)
	data, _ := kit.MarshalBinary()
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := UnmarshalKit(b)
		if err != nil {
			return
		}
		again, err := k.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := UnmarshalKit(again); err != nil {
			t.Fatalf("a decoded kit encodes to bytes that do not decode: %v", err)
		}
	})
}
