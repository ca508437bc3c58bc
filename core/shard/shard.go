// Package shard cuts a training epoch's pairs into a fixed number of
// shards and adds their gradients up in a fixed order, so that an epoch
// gives the same bits whether one goroutine, many, or several Web Workers
// compute them.
//
// The gradient of the epoch's loss with respect to H^r is, by definition,
// the shards' gradients added in shard order: shard s alone gives G_s (its
// pairs' contributions added in pair order from zero), and the epoch's is
// ((G_0 + G_1) + G_2) + … + G_15, elementwise in float32. Whoever computes
// a shard, the collector adds it in its turn; nothing depends on how many
// workers there are or which shards each took.
package shard

import (
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// Count is the number of shards of every epoch trained in batches. It
// depends on nothing, so neither do the epoch's bits; 16 keeps up to 16
// workers busy and up to 8 evenly so, and reports an epoch's progress in
// steps of a sixteenth.
const Count = 16

// Range returns the items [lo, hi) of n that shard s holds: consecutive
// runs, as equal as they can be.
func Range(n, s int) (lo, hi int) { return s * n / Count, (s + 1) * n / Count }

// Owner returns which of workers computes shard s: they take turns, so
// that each finishes its shards about when the collector needs them.
func Owner(workers, s int) int { return s % workers }

// Loss is one shard's loss terms (normalised by the epoch's counts, so
// the epoch's are their sum over shards) and its positives feeding
// L^p_dis.
type Loss struct {
	ilpgnn.LossValues
	Contributing int
}

// Losses are an epoch's losses, shard by shard.
type Losses [Count]Loss

// add adds o's terms and count to l's.
func (l *Loss) add(o Loss) {
	l.Total += o.Total
	l.Cls += o.Cls
	l.Pos += o.Pos
	l.Neg += o.Neg
	l.Contributing += o.Contributing
}

// Sum returns the epoch's loss terms, added in shard order.
func (l *Losses) Sum() Loss {
	var t Loss
	for _, s := range l {
		t.add(s)
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
	// Val are the validation pairs whose logits an Epoch with Validate
	// set computes, cut into Count chunks (Range) shared as the shards are.
	Val []graph.Edge
	// Anchor is the start's H^0 on Inputs (N x d, ilpgnn's
	// Model.AnchorEmbeddings) when Model.Anchor > 0, nil otherwise: fixed
	// for the run, so it travels once, with the kit.
	Anchor []float32
}

// Epoch is what changes from one epoch to the next.
type Epoch struct {
	Index int    // 1-based: names the epoch's messages
	Seed  uint64 // the stream of L^p_dis's random neighbours
	Norms ilpgnn.Norms
	HR    []float32    // H^r, N x d
	Neg   []graph.Edge // the epoch's negatives, as many as Kit.Pos
	// Validate, if set, receives the logits of Kit.Val for HR (each the
	// Predictor's logit of its pair, whoever computed it) before any shard
	// is added, while helpers already compute theirs.
	Validate func(logits []float32)
}

// Worker computes shards. It keeps its buffers from shard to shard and
// epoch to epoch; it is not safe for concurrent use.
type Worker struct {
	kit    *Kit
	model  *ilpgnn.Model
	batch  ilpgnn.Batch
	pairs  []graph.Edge
	labels []float32
	leaf   []float32 // a shard's gradient, N x d
}

// NewWorker returns a worker for kit's run.
func NewWorker(kit *Kit) *Worker {
	m := &ilpgnn.Model{Config: kit.Model}
	if kit.Anchor != nil {
		m.UseAnchorEmbeddings(kit.Inputs, kit.Anchor)
	}
	return &Worker{kit: kit, model: m}
}

// Shard computes shard s's gradient into grad (N x d), which it zeroes
// first, and returns its losses. Its pairs are its run of the positives followed by
// its run of the negatives, selected in batches of at most BatchSize; the
// random neighbours of a positive come from the stream of its index among
// the epoch's positives, so they do not depend on the shards or batches.
func (w *Worker) Shard(e *Epoch, s int, grad []float32) Loss {
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
		out.add(Loss{v, w.batch.ContributingPositives()})
	}
	return out
}

// ownedLogits returns the validation logits of e's chunks that worker k
// of n owns (Owner), one chunk after another.
func (w *Worker) ownedLogits(e *Epoch, k, n int) []float32 {
	var pairs []graph.Edge
	for c := k; c < Count; c += n {
		lo, hi := Range(len(w.kit.Val), c)
		pairs = append(pairs, w.kit.Val[lo:hi]...)
	}
	return ilpgnn.PredictorFrom(w.model, w.kit.Inputs, e.HR).Logits(pairs)
}

// placeLogits copies the logits of worker k of n's chunks, one chunk after
// another as ownedLogits returns them, to their places in all, the logits
// of all of Kit.Val.
func placeLogits(all, owned []float32, k, n int) {
	for c := k; c < Count; c += n {
		lo, hi := Range(len(all), c)
		owned = owned[copy(all[lo:hi], owned):]
	}
}

// ownedCount is how many of total validation pairs worker k of n owns.
func ownedCount(total, k, n int) int {
	count := 0
	for c := k; c < Count; c += n {
		lo, hi := Range(total, c)
		count += hi - lo
	}
	return count
}

// add adds shard s's gradient leaf into the epoch's sum in grad: the
// first shard's is copied, each later one added in its turn.
func add(grad, leaf []float32, s int) {
	if s == 0 {
		copy(grad, leaf)
		return
	}
	f32.Axpy(1, leaf, grad)
}

// HelperMemory estimates the peak memory of a helper that computes
// shards for kit's run: the kit as received and as decoded, H^r likewise,
// a shard's gradient and its message on the way out, one batch's
// selection and the runtime.
func HelperMemory(kit *Kit) int64 {
	n := int64(kit.Inputs.Graph.NumNodes())
	kitBytes := int64(kit.header().arrayBytes())
	hr := 4 * n * int64(kit.Model.Hidden)
	batch := int64(2 * len(kit.Pos) / Count)
	if kit.BatchSize > 0 {
		batch = min(batch, int64(kit.BatchSize))
	}
	// Per pair: up to 4K entries (selected and random, both sides) of
	// about 40 bytes, and the pair's own bookkeeping.
	selection := batch * (160*int64(kit.Model.K) + 64)
	const base = 24 << 20
	return base + 2*kitBytes + 4*hr + selection + 8*int64(len(kit.Pos))
}
