// Package shard cuts a training epoch's pairs into a fixed number of
// shards and adds their gradients up in a fixed order, so that an epoch
// gives the same bits whether one goroutine, many, or several Web Workers
// compute them.
//
// The gradient of the epoch's loss with respect to H^r is, by definition,
// the pairwise tree sum of the shards' gradients: shard s alone gives G_s
// (its pairs' contributions added in pair order from zero), and the sum
// over [lo, hi) is the sum over [lo, mid) plus the sum over [mid, hi),
// mid = (lo+hi)/2, elementwise in float32. Count is a power of two, so the
// tree's nodes are aligned blocks; a worker that owns a run of shards adds
// up the whole blocks inside it and sends one gradient per block (Blocks),
// and whoever collects them finishes the same tree. Nothing depends on how
// many workers there are or which shards each took.
package shard

import (
	"context"
	"fmt"

	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// Count is the number of shards of every epoch trained in batches. It
// depends on nothing, so neither do the epoch's bits; 16 keeps up to 16
// workers busy and up to 8 evenly so, while the tree holds at most five
// gradients at a time.
const Count = 16

// Range returns the items [lo, hi) of n that shard s holds: consecutive
// runs, as equal as they can be.
func Range(n, s int) (lo, hi int) { return s * n / Count, (s + 1) * n / Count }

// Assign returns the shards [lo, hi) that worker w of workers computes:
// consecutive runs, as equal as they can be (workers ≤ Count).
func Assign(workers, w int) (lo, hi int) { return w * Count / workers, (w + 1) * Count / workers }

// Blocks splits the shards [lo, hi) into the fewest aligned blocks of the
// summation tree, in order: the blocks whose sums a worker owning [lo, hi)
// sends.
func Blocks(lo, hi int) [][2]int {
	var out [][2]int
	var walk func(a, b int)
	walk = func(a, b int) {
		switch {
		case b <= lo || hi <= a:
		case lo <= a && b <= hi:
			out = append(out, [2]int{a, b})
		default:
			m := (a + b) / 2
			walk(a, m)
			walk(m, b)
		}
	}
	walk(0, Count)
	return out
}

// Loss is one shard's loss terms (normalised by the epoch's counts, so
// the epoch's are their sum over shards) and its positives feeding
// L^p_dis.
type Loss struct {
	ilpgnn.LossValues
	Contributing int
}

// Losses are an epoch's losses, shard by shard.
type Losses [Count]Loss

// Sum returns the epoch's loss terms, added in shard order.
func (l *Losses) Sum() Loss {
	var t Loss
	for _, s := range l {
		t.Total += s.Total
		t.Cls += s.Cls
		t.Pos += s.Pos
		t.Neg += s.Neg
		t.Contributing += s.Contributing
	}
	return t
}

// Kit is what computing shards needs for a whole run: the model's
// settings, the training graph's adjacency and structure similarity, and
// the training links (every epoch's positives). A Web Worker gets it once,
// encoded (MarshalBinary), before the first epoch.
type Kit struct {
	Model     ilpgnn.Config
	Objective ilpgnn.Objective
	// BatchSize bounds the pairs of one selection within a shard (0: the
	// whole shard at once).
	BatchSize int
	Inputs    *ilpgnn.Inputs // Graph and Sim are read; Adj and Features may be nil
	Pos       []graph.Edge
}

// Epoch is what changes from one epoch to the next.
type Epoch struct {
	Index int    // 1-based: names the epoch's messages
	Seed  uint64 // the stream of L^p_dis's random neighbours
	Norms ilpgnn.Norms
	HR    []float32    // H^r, N x d
	Neg   []graph.Edge // the epoch's negatives, as many as Kit.Pos
}

// Block is the gradient with respect to H^r of the shards [Lo, Hi), an
// aligned block, summed in tree order, and their losses.
type Block struct {
	Lo, Hi int
	Grad   []float32
	Losses []Loss // Hi-Lo, shard by shard
}

// Worker computes shards. It keeps its buffers from shard to shard and
// epoch to epoch; it is not safe for concurrent use.
type Worker struct {
	kit    *Kit
	model  *ilpgnn.Model
	batch  ilpgnn.Batch
	pairs  []graph.Edge
	labels []float32
	free   [][]float32 // gradient buffers returned by Release
}

// NewWorker returns a worker for kit's run.
func NewWorker(kit *Kit) *Worker {
	return &Worker{kit: kit, model: &ilpgnn.Model{Config: kit.Model}}
}

// shard computes shard s's gradient into grad, which it zeroes first, and
// returns its losses. Its pairs are its run of the positives followed by
// its run of the negatives, selected in batches of at most BatchSize; the
// random neighbours of a positive come from the stream of its index among
// the epoch's positives, so they do not depend on the shards or batches.
func (w *Worker) shard(e *Epoch, s int, grad []float32) Loss {
	k := w.kit
	pLo, pHi := Range(len(k.Pos), s)
	nLo, nHi := Range(len(e.Neg), s)
	w.pairs = append(append(w.pairs[:0], k.Pos[pLo:pHi]...), e.Neg[nLo:nHi]...)
	w.labels = w.labels[:0]
	for range pHi - pLo {
		w.labels = append(w.labels, 1)
	}
	for range nHi - nLo {
		w.labels = append(w.labels, 0)
	}
	clear(grad)
	size := k.BatchSize
	if size <= 0 {
		size = len(w.pairs)
	}
	var out Loss
	for lo := 0; lo < len(w.pairs); lo += size {
		hi := min(lo+size, len(w.pairs))
		// Positives come first, so a batch's positive p is the epoch's
		// positive pLo+lo+p: BuildAt's stream index.
		w.model.BuildAt(&w.batch, k.Inputs, e.HR, w.pairs[lo:hi], w.labels[lo:hi], k.Objective, e.Seed, pLo+lo)
		v := w.model.LossGrad(e.HR, grad, &w.batch, k.Objective, e.Norms)
		out.Total += v.Total
		out.Cls += v.Cls
		out.Pos += v.Pos
		out.Neg += v.Neg
		out.Contributing += w.batch.ContributingPositives()
	}
	return out
}

// buffer returns a gradient buffer of n floats, reusing a released one.
func (w *Worker) buffer(n int) []float32 {
	for len(w.free) > 0 {
		b := w.free[len(w.free)-1]
		w.free = w.free[:len(w.free)-1]
		if cap(b) >= n {
			return b[:n]
		}
	}
	return make([]float32, n)
}

// Release hands a block's gradient back for reuse.
func (w *Worker) Release(b []float32) { w.free = append(w.free, b) }

// Run computes the shards [lo, hi) of e and calls emit with each block of
// Blocks(lo, hi), in order; the block's gradient belongs to emit until it
// is Released. done is called after each shard (nil: not called). Run
// checks ctx before each shard and returns its error when it is done.
func (w *Worker) Run(ctx context.Context, e *Epoch, lo, hi int, done func(s int), emit func(Block) error) error {
	n := len(e.HR)
	var sum func(a, b int, losses []Loss) ([]float32, error)
	sum = func(a, b int, losses []Loss) ([]float32, error) {
		if b-a == 1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			g := w.buffer(n)
			losses[0] = w.shard(e, a, g)
			if done != nil {
				done(a)
			}
			return g, nil
		}
		m := (a + b) / 2
		left, err := sum(a, m, losses[:m-a])
		if err != nil {
			return nil, err
		}
		right, err := sum(m, b, losses[m-a:])
		if err != nil {
			w.Release(left)
			return nil, err
		}
		f32.Axpy(1, right, left)
		w.Release(right)
		return left, nil
	}
	for _, bl := range Blocks(lo, hi) {
		losses := make([]Loss, bl[1]-bl[0])
		g, err := sum(bl[0], bl[1], losses)
		if err != nil {
			return err
		}
		if err := emit(Block{Lo: bl[0], Hi: bl[1], Grad: g, Losses: losses}); err != nil {
			return err
		}
	}
	return nil
}

// Tree collects blocks and finishes the summation tree over all Count
// shards.
type Tree struct {
	blocks map[[2]int][]float32
	losses Losses
	have   [Count]bool
}

// NewTree returns an empty tree.
func NewTree() *Tree { return &Tree{blocks: map[[2]int][]float32{}} }

// Add keeps block b (its gradient is the tree's until Total). It refuses
// a block that is not aligned or overlaps one it has.
func (t *Tree) Add(b Block) error {
	if b.Lo < 0 || b.Hi > Count || b.Hi <= b.Lo || len(b.Losses) != b.Hi-b.Lo {
		return fmt.Errorf("shard: block [%d, %d) with %d losses is not a run of the %d shards", b.Lo, b.Hi, len(b.Losses), Count)
	}
	if size := b.Hi - b.Lo; size&(size-1) != 0 || b.Lo%size != 0 {
		return fmt.Errorf("shard: block [%d, %d) is not a block of the summation tree", b.Lo, b.Hi)
	}
	for s := b.Lo; s < b.Hi; s++ {
		if t.have[s] {
			return fmt.Errorf("shard: shard %d arrived twice", s)
		}
	}
	for s := b.Lo; s < b.Hi; s++ {
		t.have[s] = true
		t.losses[s] = b.Losses[s-b.Lo]
	}
	t.blocks[[2]int{b.Lo, b.Hi}] = b.Grad
	return nil
}

// Missing returns the shards no block has brought yet.
func (t *Tree) Missing() []int {
	var out []int
	for s, ok := range t.have {
		if !ok {
			out = append(out, s)
		}
	}
	return out
}

// Total adds the blocks up in tree order into dst (N x d) and returns the
// shards' losses. Every shard must have arrived.
func (t *Tree) Total(dst []float32) (Losses, error) {
	if m := t.Missing(); len(m) > 0 {
		return t.losses, fmt.Errorf("shard: shards %v have not arrived", m)
	}
	var sum func(a, b int) []float32
	sum = func(a, b int) []float32 {
		if g, ok := t.blocks[[2]int{a, b}]; ok {
			return g
		}
		m := (a + b) / 2
		left, right := sum(a, m), sum(m, b)
		f32.Axpy(1, right, left)
		return left
	}
	g := sum(0, Count)
	if len(g) != len(dst) {
		return t.losses, fmt.Errorf("shard: gradient of %d values, want %d", len(g), len(dst))
	}
	copy(dst, g)
	return t.losses, nil
}

// HelperMemory estimates the peak memory of a helper that computes
// shards for kit's run: the kit as received and as decoded, H^r likewise,
// the summation tree's gradients (at most five for a run of eight shards)
// and the block on its way out, one batch's selection and the runtime.
func HelperMemory(kit *Kit) int64 {
	g, sim := kit.Inputs.Graph, kit.Inputs.Sim.Columns()
	n := int64(g.NumNodes())
	kitBytes := 4 * (2*(n+1) + int64(len(g.Indices)) + 2*int64(len(sim.Indices)) + 2*int64(len(kit.Pos)))
	hr := 4 * n * int64(kit.Model.Hidden)
	batch := int64(2 * len(kit.Pos) / Count)
	if kit.BatchSize > 0 {
		batch = min(batch, int64(kit.BatchSize))
	}
	// Per pair: up to 4K entries (selected and random, both sides) of
	// about 40 bytes, and the pair's own bookkeeping.
	selection := batch * (160*int64(kit.Model.K) + 64)
	const runtime = 24 << 20
	return runtime + 2*kitBytes + 9*hr + selection + 8*int64(len(kit.Pos))
}
