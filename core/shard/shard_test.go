package shard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
)

// fixture holds synth:sparse:seed=3's split and ilpgnn.Prepare's inputs for
// each anchor weight, made once per test binary (generating the graph and
// its S̃ took most of this package's time, above all under node): the
// tests read them and build their kits, models and epochs afresh.
var fixture struct {
	mu     sync.Mutex
	sp     *split.Split
	inputs map[float64]*ilpgnn.Inputs
}

// preparedRun returns the shared split and the inputs Prepare makes of its
// training graph with DefaultConfig and the anchor weight ρ.
func preparedRun(anchor float64) (*split.Split, *ilpgnn.Inputs, error) {
	fixture.mu.Lock()
	defer fixture.mu.Unlock()
	if fixture.sp == nil {
		src, err := dataset.Parse("synth:sparse:seed=3")
		if err != nil {
			return nil, nil, err
		}
		d, err := src.Load(3)
		if err != nil {
			return nil, nil, err
		}
		sp, err := d.Split(3, split.DefaultValFrac, split.DefaultTestFrac)
		if err != nil {
			return nil, nil, err
		}
		fixture.sp, fixture.inputs = sp, map[float64]*ilpgnn.Inputs{}
	}
	if in, ok := fixture.inputs[anchor]; ok {
		return fixture.sp, in, nil
	}
	cfg := ilpgnn.DefaultConfig()
	cfg.Anchor = anchor
	in, err := ilpgnn.Prepare(fixture.sp.Train, cfg)
	if err != nil {
		return nil, nil, err
	}
	fixture.inputs[anchor] = in
	return fixture.sp, in, nil
}

// testRun is a kit and an epoch of a fresh model on synth:sparse, with
// λ = 1 so that every loss term weighs, in batches of 7 pairs.
func testRun(t testing.TB) (*Kit, *Epoch) { return anchoredRun(t, 0) }

// anchoredRun is testRun with the anchor weight ρ, the kit carrying the
// start's H^0.
func anchoredRun(t testing.TB, anchor float64) (*Kit, *Epoch) {
	t.Helper()
	sp, in, err := preparedRun(anchor)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	cfg.Anchor = anchor
	m, err := ilpgnn.New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(3, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obj := ilpgnn.Objective{Lambda: 1, Delta: 0.5}
	kit := &Kit{Model: cfg, Objective: obj, BatchSize: 7, Inputs: in, Pos: sp.TrainPos,
		Val: append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...), Anchor: m.AnchorEmbeddings(in)}
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(3).Sample(pairs[P:], sp.Train)
	if anchor != 0 {
		// Weights away from the start, as in training, so that H^r is
		// not H^0.
		rng := rand.New(rand.NewPCG(3, 2))
		for _, w := range m.Params() {
			for k := range w.Value {
				w.Value[k] += float32(0.05 * (2*rng.Float64() - 1))
			}
		}
	}
	hr := m.Encode(nil, in, 0, nil).Value
	e := &Epoch{Index: 1, Seed: 3 ^ 1<<20, Norms: m.EpochNorms(in, pairs, labels, obj), HR: hr, Neg: pairs[P:]}
	return kit, e
}

func TestOwnerSharesEvenly(t *testing.T) {
	for n := 1; n <= Count; n++ {
		got := make([]int, n)
		for s := range Count {
			got[Owner(n, s)]++
		}
		for k, c := range got {
			if c != Count/n && c != Count/n+1 {
				t.Fatalf("worker %d of %d owns %d shards", k, n, c)
			}
		}
	}
}

// TestShardOrder: Local's gradient is, bit for bit, the shards' own
// gradients, each computed alone, added here by hand in shard order; and
// close to their sum in float64 (the order only rounds). Parallel's, on 1
// to 4 CPUs, is the same bits.
func TestShardOrder(t *testing.T) {
	kit, e := testRun(t)
	n := len(e.HR)
	w := NewWorker(kit)
	leaves := make([][]float32, Count)
	for s := range Count {
		leaves[s] = make([]float32, n)
		w.Shard(e, s, leaves[s])
	}
	want := append([]float32(nil), leaves[0]...)
	for s := 1; s < Count; s++ {
		for i := range want {
			want[i] += leaves[s][i]
		}
	}
	check := func(name string, got []float32) {
		t.Helper()
		nonzero := 0
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: gradient[%d] = %g, the shards added by hand give %g", name, i, got[i], want[i])
			}
			if got[i] != 0 {
				nonzero++
			}
		}
		if nonzero < n/2 {
			t.Fatalf("%s: only %d of %d gradient values are non-zero", name, nonzero, n)
		}
	}
	for i := range want {
		var plain float64
		for s := range Count {
			plain += float64(leaves[s][i])
		}
		if d := math.Abs(plain - float64(want[i])); d > 1e-6*(1+math.Abs(plain)) {
			t.Fatalf("gradient[%d] = %g, the shards' sum is %g", i, want[i], plain)
		}
	}
	r, _ := Local(t.Context(), kit)
	got := make([]float32, n)
	if _, err := r.Epoch(t.Context(), e, got, nil); err != nil {
		t.Fatal(err)
	}
	check("Local", got)
	for _, procs := range []int{1, 2, 3, 4} {
		prev := runtime.GOMAXPROCS(procs)
		r, _ := Parallel(t.Context(), kit)
		got := make([]float32, n)
		var ticks []int
		_, err := r.Epoch(t.Context(), e, got, func(d int) { ticks = append(ticks, d) })
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("Parallel on %d CPUs", procs), got)
		if len(ticks) != Count || ticks[Count-1] != Count {
			t.Fatalf("Parallel on %d CPUs reported %v", procs, ticks)
		}
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

// TestCoordinatedIsLocal: with 1 to 16 workers, three epochs' gradients
// and losses are the bits of Local's, and the validation logits of the
// one that validates are the Predictor's; and so they are when a helper
// fails after its first answer, whose other work the coordinator then
// does.
func TestCoordinatedIsLocal(t *testing.T) {
	for _, anchor := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("anchor=%v", anchor), func(t *testing.T) { coordinatedIsLocal(t, anchor) })
	}
}

func coordinatedIsLocal(t *testing.T, anchor float64) {
	kit, e := anchoredRun(t, anchor)
	n := len(e.HR)
	local, _ := Local(t.Context(), kit)
	want := make([]float32, n)
	wantLoss, err := local.Epoch(t.Context(), e, want, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &ilpgnn.Model{Config: kit.Model}
	m.UseAnchorEmbeddings(kit.Inputs, kit.Anchor)
	wantLogits := ilpgnn.PredictorFrom(m, kit.Inputs, e.HR).Logits(kit.Val)
	for _, tc := range []struct{ workers, failAfter int }{{1, 0}, {2, 0}, {3, 0}, {5, 0}, {16, 0}, {3, 1}, {2, 1}, {2, 3}} {
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
			for epoch := range 3 { // later epochs reuse every buffer; the second validates
				got := make([]float32, n)
				var ticks []int
				var logits []float32
				e := *e
				if epoch == 1 {
					e.Validate = func(l []float32) {
						if len(ticks) != 0 {
							t.Errorf("validation after %d shards were added", len(ticks))
						}
						logits = l
					}
				}
				loss, err := r.Epoch(t.Context(), &e, got, func(d int) { ticks = append(ticks, d) })
				if err != nil {
					t.Fatal(err)
				}
				if epoch == 1 {
					if len(logits) != len(wantLogits) {
						t.Fatalf("%d validation logits, want %d", len(logits), len(wantLogits))
					}
					sameBits(t, "validation logits", logits, wantLogits)
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
// stops the epoch before a fourth is added, in every runner.
func TestCancelBetweenShards(t *testing.T) {
	kit, e := testRun(t)
	par, _ := Parallel(t.Context(), kit)
	loc, _ := Local(t.Context(), kit)
	coord, _ := Coordinate(kit, []Peer{newPipe(0)})
	defer coord.Close()
	for name, r := range map[string]Runner{"Local": loc, "Parallel": par, "Coordinate": coord} {
		ctx, cancel := context.WithCancel(t.Context())
		done := 0
		_, err := r.Epoch(ctx, e, make([]float32, len(e.HR)), func(d int) {
			done = d
			if d == 3 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || done != 3 {
			t.Fatalf("%s: err %v after %d shards, want context.Canceled after 3", name, err, done)
		}
	}
}

// TestWireRoundTrip: a kit, a task and a block come back as they went, and
// every truncation of them is refused.
func TestWireRoundTrip(t *testing.T) {
	kit, e := anchoredRun(t, 0.5)
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
	if back.Model != kit.Model || back.Objective != kit.Objective || back.BatchSize != kit.BatchSize || len(back.Pos) != len(kit.Pos) ||
		len(kit.Anchor) == 0 || !slices.Equal(back.Anchor, kit.Anchor) {
		t.Fatalf("kit settings changed: %+v", back)
	}
	task := encodeTask(7, e, 2, 5)
	gen, e2, k, n, validate, err := decodeTask(task, back)
	if err != nil || gen != 7 || k != 2 || n != 5 || validate || e2.Seed != e.Seed || e2.Norms != e.Norms || e2.Index != e.Index {
		t.Fatalf("task came back as gen %d worker %d of %d %+v, %v", gen, k, n, e2, err)
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
	loss := Loss{ilpgnn.LossValues{Total: 1, Cls: 2, Pos: 3, Neg: math.Pi}, 5}
	leafMsg := encodeLeaf(3, 9, loss, e.HR)
	gen, s, grad, l2, err := decodeLeaf(leafMsg, make([]float32, len(e.HR)))
	if err != nil || gen != 3 || s != 9 || l2 != loss || len(grad) != len(e.HR) || math.Float32bits(grad[5]) != math.Float32bits(e.HR[5]) {
		t.Fatalf("leaf came back as %d %d %+v, %v", gen, s, l2, err)
	}
	for _, msg := range [][]byte{data, task, leafMsg} {
		for _, cut := range []int{0, 3, 4, 11, len(msg) / 2, len(msg) - 1} {
			short := msg[:cut]
			_, e1 := UnmarshalKit(short)
			_, _, _, _, _, e2 := decodeTask(short, back)
			_, _, _, _, e3 := decodeLeaf(short, make([]float32, len(e.HR)))
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
	anchored, _ := anchoredRun(f, 0.5)
	data, _ = anchored.MarshalBinary()
	f.Add(data)
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

func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %g, want %g", what, i, got[i], want[i])
		}
	}
}

// TestLocalValidates: Local and Parallel hand Validate the Predictor's
// logits of the validation pairs before adding a shard.
func TestLocalValidates(t *testing.T) {
	kit, e := testRun(t)
	want := ilpgnn.PredictorFrom(&ilpgnn.Model{Config: kit.Model}, kit.Inputs, e.HR).Logits(kit.Val)
	for name, start := range map[string]Starter{"Local": Local, "Parallel": Parallel} {
		r, _ := start(t.Context(), kit)
		added := 0
		var got []float32
		e := *e
		e.Validate = func(l []float32) {
			if added != 0 {
				t.Errorf("%s: validation after %d shards", name, added)
			}
			got = l
		}
		if _, err := r.Epoch(t.Context(), &e, make([]float32, len(e.HR)), func(d int) { added = d }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d logits, want %d", name, len(got), len(want))
		}
		sameBits(t, name+" validation logits", got, want)
	}
}
