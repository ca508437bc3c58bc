package ilpgnn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectsBefore checks the fast comparison of selectFirst against
// selectionOrder, on scores with ties, signed zeros and NaNs.
func TestSelectsBefore(t *testing.T) {
	scores := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, float32(math.Inf(1))}
	var cands []Candidate
	for n, s := range scores {
		for _, common := range []bool{false, true} {
			cands = append(cands, Candidate{Node: int32(n), S: s, Common: common},
				Candidate{Node: int32(n + len(scores)), S: s, Common: common})
		}
	}
	for _, a := range cands {
		for _, b := range cands {
			if got, want := selectsBefore(&a, &b, OrderCommonFirst), selectionOrder(a, b) < 0; got != want {
				t.Errorf("selectsBefore(%+v, %+v, common-first) = %v, want %v", a, b, got, want)
			}
			if got, want := selectsBefore(&a, &b, OrderScore), scoreOrder(a, b) < 0; got != want {
				t.Errorf("selectsBefore(%+v, %+v, score) = %v, want %v", a, b, got, want)
			}
		}
	}
	// selectFirst still yields the prefix of a full sort.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		c := make([]Candidate, r.IntN(12))
		for i := range c {
			c[i] = cands[r.IntN(len(cands))]
			c[i].Node = int32(i)
		}
		k := min(3, len(c))
		sorted := append([]Candidate(nil), c...)
		slices.SortFunc(sorted, selectionOrder)
		selectFirst(c, k, OrderCommonFirst)
		for i := range k {
			if c[i].Node != sorted[i].Node {
				t.Fatalf("selectFirst prefix %d = %+v, want %+v", i, c[i], sorted[i])
			}
		}
	}
}

// TestSelectTopMatchesSelectFirst: selectTop leaves the whole list in
// selectFirst's order, not only its first k (the random neighbours of
// L^p_dis are drawn from the rest by place), on scores with ties, signed
// zeros and NaNs, with every place offered or, when the first k are all
// common, only the commons' places.
func TestSelectTopMatchesSelectFirst(t *testing.T) {
	scores := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 0.25, 0.5, 0.5, -1, float32(math.Inf(1))}
	r := rand.New(rand.NewPCG(3, 4))
	var top []int32
	commonsOnly := 0
	for range 3000 {
		n := r.IntN(30)
		cands := make([]Candidate, n)
		var commonAt []int32
		for k, node := range r.Perm(1000)[:n] {
			cands[k] = Candidate{Node: int32(node), S: scores[r.IntN(len(scores))], Common: r.IntN(3) == 0}
			if cands[k].Common {
				commonAt = append(commonAt, int32(k))
			}
		}
		k := min(r.IntN(maxTop+1), n)
		for _, o := range []SelectionOrder{OrderCommonFirst, OrderScore} {
			want := slices.Clone(cands)
			selectFirst(want, k, o)
			got := slices.Clone(cands)
			top = selectTop(got, k, nil, top, o)
			// Node ids are distinct, so the nodes' order is the list's (and
			// NaN scores would make == on Candidates fail).
			if !slices.EqualFunc(got, want, sameNode) {
				t.Fatalf("n=%d k=%d %v, every place: %v, want %v", n, k, o, got, want)
			}
			// Only common-first may look at the commons' places alone.
			if o == OrderCommonFirst && len(commonAt) >= k {
				commonsOnly++
				got = slices.Clone(cands)
				top = selectTop(got, k, commonAt, top, o)
				if !slices.EqualFunc(got, want, sameNode) {
					t.Fatalf("n=%d k=%d, commons' places %v: %v, want %v", n, k, commonAt, got, want)
				}
			}
		}
	}
	if commonsOnly < 500 {
		t.Fatalf("only %d lists with k commons: the test would not cover them", commonsOnly)
	}
}

func sameNode(a, b Candidate) bool { return a.Node == b.Node }

// TestEq5OneDefinition checks that the three paths that compute eq 5 give
// the same score for every selected neighbour of a batch, bit for bit: the
// selection's (Ranked, which scores every neighbour), the tape's
// (aggregate's s) and LossGrad's forward step. α 0.9 is one where 1-α
// rounded from float64 and 1 - float32(α) differ in the last bit, which
// selection and the losses once took apart; 0.02 is the default. β 0
// leaves LossGrad's scores in its scratch after the backward step.
func TestEq5OneDefinition(t *testing.T) {
	if a := float32(0.9); 1-a == float32(1-0.9) {
		t.Fatal("α 0.9 no longer tells the two roundings of 1-α apart")
	}
	g := testGraph(t, 60, 3, 5, 8)
	for _, alpha := range []float64{0.9, 0.02} {
		cfg := smallConfig()
		cfg.Alpha, cfg.Beta = alpha, 0
		m, in := testModel(t, g, cfg)
		hr := m.Encode(nil, in, 0, nil)
		obj := Objective{Lambda: 0.5, Delta: 0.5}
		b := trainingBatch(t, m, in, hr.Value, obj)
		_, s := m.aggregate(nil, hr, &b.sel)
		m.LossGrad(hr.Value, make([]float32, len(hr.Value)), b, obj, m.EpochNorms(in, b.Pairs, b.Labels, obj))
		p := PredictorFrom(m, in, hr.Value)
		e := &b.sel
		checked := 0
		for seg := range len(e.centre) {
			for k := e.offsets[seg]; k < e.offsets[seg+1]; k++ {
				ranked := p.Ranked(int(e.centre[seg]), int(e.target[k]))
				at := slices.IndexFunc(ranked, func(c Candidate) bool { return c.Node == e.node[k] })
				if at < 0 {
					t.Fatalf("α %v: entry %d (%d of %d against %d) is not a candidate", alpha, k, e.node[k], e.centre[seg], e.target[k])
				}
				want := math.Float32bits(ranked[at].S)
				if got := math.Float32bits(s.Value[k]); got != want {
					t.Fatalf("α %v entry %d: tape score %v, selection's %v", alpha, k, s.Value[k], ranked[at].S)
				}
				if got := math.Float32bits(b.lossGrad.s[k]); got != want {
					t.Fatalf("α %v entry %d: LossGrad's score %v, selection's %v", alpha, k, b.lossGrad.s[k], ranked[at].S)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Fatalf("α %v: only %d entries checked", alpha, checked)
		}
	}
}
