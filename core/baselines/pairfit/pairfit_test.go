package pairfit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

// dotModel scores a pair by z_u·z_v with a free embedding per node: the
// smallest model that can learn a graph's links.
type dotModel struct {
	z        *autograd.Var
	seenBach int
}

func (m *dotModel) Params() []*autograd.Var { return []*autograd.Var{m.z} }

func (m *dotModel) Loss(t *autograd.Tape, pairs []graph.Edge, labels []float32, _ *rand.Rand) *autograd.Var {
	m.seenBach = max(m.seenBach, len(pairs))
	ia, ib := ends(pairs)
	return autograd.BCEWithLogits(t, autograd.GatherDot(t, m.z, m.z, ia, ib), labels)
}

func (m *dotModel) Logits(pairs []graph.Edge) []float32 {
	return InChunks(pairs, 7, func(p []graph.Edge) []float32 {
		ia, ib := ends(p)
		return autograd.GatherDot(nil, m.z, m.z, ia, ib).Value
	})
}

func ends(pairs []graph.Edge) (ia, ib []int32) {
	for _, e := range pairs {
		ia, ib = append(ia, e.U), append(ib, e.V)
	}
	return ia, ib
}

// twoCliques is two 12-cliques joined by one edge: links inside a clique,
// non-links across, which free embeddings learn at once.
func twoCliques(t *testing.T) *graph.Graph {
	var edges []graph.Edge
	for c := range 2 {
		for i := range 12 {
			for j := i + 1; j < 12; j++ {
				edges = append(edges, graph.Edge{U: int32(12*c + i), V: int32(12*c + j)})
			}
		}
	}
	edges = append(edges, graph.Edge{U: 0, V: 12})
	g, err := graph.New(24, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newDot(seed uint64) *dotModel {
	m := &dotModel{z: autograd.NewParam(24, 4)}
	r := rand.New(rand.NewPCG(seed, 9))
	for i := range m.z.Value {
		m.z.Value[i] = float32(r.NormFloat64() * 0.1)
	}
	return m
}

func TestRunLearnsAndIsDeterministic(t *testing.T) {
	sp, err := split.New(twoCliques(t), 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{LR: 0.05, Epochs: 60, Patience: 60, BatchSize: 16, Seed: 3}
	var reports []loop.Progress
	m := newDot(1)
	res, err := Run(context.Background(), sp, m, cfg, func(p loop.Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	if res.TestAUC < 0.95 {
		t.Errorf("test AUC %.3f on two cliques, want ≥ 0.95", res.TestAUC)
	}
	if m.seenBach != 16 {
		t.Errorf("largest batch %d, want 16", m.seenBach)
	}
	batches := (2*len(sp.TrainPos) + 15) / 16
	if len(reports) != res.Epochs*batches || len(res.History) != res.Epochs {
		t.Errorf("%d reports and %d history entries for %d epochs of %d batches", len(reports), len(res.History), res.Epochs, batches)
	}
	// The kept weights are the best epoch's: rescoring gives its AUC.
	s := m.Logits(append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...))
	if got := auc(s[:len(sp.ValPos)], s[len(sp.ValPos):]); math.Abs(got-res.ValAUC) > 1e-12 || res.History[res.BestEpoch-1].ValAUC != res.ValAUC {
		t.Errorf("restored weights score %.4f, best epoch %d reported %.4f", got, res.BestEpoch, res.ValAUC)
	}
	m2 := newDot(1)
	res2, err := Run(context.Background(), sp, m2, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.z.Value, m2.z.Value) || res2.TestAUC != res.TestAUC {
		t.Error("the same seed trained different weights")
	}
}

// auc is the brute-force AUC: the share of (pos, neg) pairs ordered right,
// ties counting half.
func auc(pos, neg []float32) float64 {
	var s float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

func TestPairsPerEpochAndCancel(t *testing.T) {
	sp, err := split.New(twoCliques(t), 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{LR: 0.05, Epochs: 5, Patience: 5, BatchSize: 4, PairsPerEpoch: 10, Seed: 3}
	n := 0
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, sp, newDot(1), cfg, func(p loop.Progress) {
		if p.Batches != 5 {
			t.Errorf("%d batches per epoch, want 5 (20 pairs of 4)", p.Batches)
		}
		if n++; n == 12 {
			cancel()
		}
	})
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res.Epochs != 2 || math.IsNaN(res.TestAUC) {
		t.Errorf("cancelled in epoch 3: %d epochs done, test AUC %v", res.Epochs, res.TestAUC)
	}
	if err := (Config{LR: 1, Epochs: 1, Patience: 1}).Validate(); err == nil {
		t.Error("batch size 0 accepted")
	}
}

// TestDiverges: at an absurd learning rate the loop stops with
// optim.ErrDiverged naming the epoch, and the kept weights are finite
// (the initial ones when the first epoch diverges).
func TestDiverges(t *testing.T) {
	sp, err := split.New(twoCliques(t), 1, 0.1, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{LR: 1e39, Epochs: 5, Patience: 5, BatchSize: 16, Seed: 3}
	m := newDot(1)
	res, err := Run(context.Background(), sp, m, cfg, nil)
	if !errors.Is(err, optim.ErrDiverged) || !strings.Contains(err.Error(), "epoch 1: ") {
		t.Fatalf("err = %v, want ErrDiverged in epoch 1", err)
	}
	if res.Epochs != 0 || !slices.Equal(m.z.Value, newDot(1).z.Value) {
		t.Errorf("%d epochs recorded; the weights are not the initial ones", res.Epochs)
	}
	cfg.LR = math.Inf(1)
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "positive and finite") {
		t.Errorf("lr +Inf: %v", err)
	}
}
