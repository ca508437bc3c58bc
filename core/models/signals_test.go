package models_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

// TestSelectionSignals trains ILP-GNN selecting on validation AUC and
// writes, for every epoch, signals a selection criterion without
// groundtruth could use, beside validation and test Precision@1/@2 where
// the graph has groundtruth (docs/selection.md reads them). It runs
// only when SELECT_DATA names a --data value, e.g.
//
//	SELECT_DATA=synth:medium SELECT_SEED=0 SELECT_EPOCHS=45 SELECT_OUT=/tmp/m0.txt \
//	  go test ./core/models -run SelectionSignals -v -timeout 0
func TestSelectionSignals(t *testing.T) {
	spec := os.Getenv("SELECT_DATA")
	if spec == "" {
		t.Skip("set SELECT_DATA to a --data value to measure")
	}
	seed, _ := strconv.ParseUint(os.Getenv("SELECT_SEED"), 10, 64)
	src, err := dataset.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	cfg := train.DefaultConfig()
	cfg.Seed, cfg.Patience, cfg.Epochs = seed, 100, 45
	if v, err := strconv.Atoi(os.Getenv("SELECT_EPOCHS")); err == nil {
		cfg.Epochs = v
	}
	if v, err := strconv.Atoi(os.Getenv("SELECT_WARMUP")); err == nil {
		cfg.Warmup = v
	}
	if v, err := strconv.ParseFloat(os.Getenv("SELECT_LR"), 64); err == nil {
		cfg.LR = v
	}
	sig := newSignals(d, sp, seed)
	var out strings.Builder
	crit := func(p *ilpgnn.Predictor) float64 {
		line, auc := sig.measure(p)
		out.WriteString(line)
		return auc
	}
	res, err := train.RunSplitSelect(context.Background(), sp, cfg, crit, nil)
	if err != nil {
		t.Fatal(err)
	}
	if path := os.Getenv("SELECT_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("\n" + out.String())
	}
	t.Logf("best epoch %d, test AUC %.4f", res.BestEpoch, res.TestAUC)
}

type signals struct {
	sp                *split.Split
	val, hard, test   []graph.Edge // positives first
	near              []graph.Edge // positives, then nearNegatives' pairs
	nVal, nTest       int
	truthVal, truthTe []explain.Link
	cosine            explain.Ranker
	prevTop           [][]int32
	epoch             int
}

func newSignals(d *dataset.Dataset, sp *split.Split, seed uint64) *signals {
	s := &signals{sp: sp, nVal: len(sp.ValPos), nTest: len(sp.TestPos), cosine: explain.CosineRanker(sp.Train)}
	s.val = append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
	s.test = append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	s.hard = append(append([]graph.Edge{}, sp.ValPos...), hardNegatives(sp.Train, sp.ValPos, seed)...)
	s.near = append(append([]graph.Edge{}, sp.ValPos...), nearNegatives(sp.Train, sp.ValPos, 10)...)
	if d.Truth != nil {
		s.truthVal, s.truthTe = d.Truth.ExplainedLinks(synth.Validation), d.Truth.ExplainedLinks(synth.Test)
	}
	return s
}

// hardNegatives pairs the first end of every positive with a node two hops
// away from it that is neither its neighbour nor the positive's other end.
func hardNegatives(g *graph.Graph, pos []graph.Edge, seed uint64) []graph.Edge {
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []graph.Edge
	for _, e := range pos {
		seen := map[int32]bool{e.U: true, e.V: true}
		for _, c := range g.Neighbors(int(e.U)) {
			seen[c] = true
		}
		var two []int32
		for _, c := range g.Neighbors(int(e.U)) {
			for _, x := range g.Neighbors(int(c)) {
				if !seen[x] {
					seen[x] = true
					two = append(two, x)
				}
			}
		}
		if len(two) > 0 {
			out = append(out, graph.Edge{U: e.U, V: two[rng.IntN(len(two))]})
		}
	}
	return out
}

// nearNegatives pairs the first end of every positive with the n nodes
// whose raw features are closest (cosine) to the positive's other end,
// leaving out linked nodes: negatives that only fine-grained evidence
// tells from the positive.
func nearNegatives(g *graph.Graph, pos []graph.Edge, n int) []graph.Edge {
	all := make([]int32, g.NumNodes())
	for k := range all {
		all[k] = int32(k)
	}
	x := g.Features
	norm := func(a int) float64 {
		var ss float64
		for _, v := range x.Values[x.Indptr[a]:x.Indptr[a+1]] {
			ss += float64(v) * float64(v)
		}
		return math.Sqrt(ss)
	}
	dense := func(a int) map[int32]float64 {
		m := map[int32]float64{}
		for k := x.Indptr[a]; k < x.Indptr[a+1]; k++ {
			m[x.Indices[k]] = float64(x.Values[k])
		}
		return m
	}
	var out []graph.Edge
	for _, e := range pos {
		v := dense(int(e.V))
		nv := norm(int(e.V))
		score := make([]float64, len(all))
		for k := range all {
			var d float64
			for q := x.Indptr[k]; q < x.Indptr[k+1]; q++ {
				d += v[x.Indices[q]] * float64(x.Values[q])
			}
			score[k] = d / (nv*norm(k) + 1e-12)
			if k == int(e.U) || k == int(e.V) || g.HasEdge(int(e.U), k) {
				score[k] = math.Inf(-1)
			}
		}
		for _, c := range explain.ByScore(all, score)[:n] {
			out = append(out, graph.Edge{U: e.U, V: c})
		}
	}
	return out
}

// meanSelectedScore scores each pair by the mean s of its selected
// neighbours: a link predictor built from the explanation alone.
func meanSelectedScore(p *ilpgnn.Predictor, pairs []graph.Edge) []float32 {
	out := make([]float32, len(pairs))
	for k, x := range p.Selections(pairs) {
		all := append(append([]ilpgnn.Selected{}, x.I...), x.J...)
		var sum float64
		for _, c := range all {
			sum += c.Score
		}
		if len(all) > 0 {
			out[k] = float32(sum / float64(len(all)))
		}
	}
	return out
}

func (s *signals) measure(p *ilpgnn.Predictor) (string, float64) {
	s.epoch++
	nv := s.nVal
	lg := p.Logits(s.val)
	auc := eval.AUC(lg[:nv], lg[nv:])
	suff := meanSelectedScore(p, s.val)
	hl := p.Logits(s.hard)
	K := p.Model.Config.K
	cut := p.LogitsWithout(s.val, K)
	var dlogit float64
	for k := range nv {
		dlogit += float64(lg[k]-cut[k]) / float64(nv)
	}
	agree, stab := s.agreement(p)
	var margin float64
	logit := func(q float64) float64 { return math.Log(q / (1 - q)) }
	for _, e := range s.sp.ValPos {
		x, err := p.Explain(int(e.U), int(e.V))
		if err != nil {
			panic(err)
		}
		margin += (logit(x.Prob) - logit(x.ProbRandom)) / float64(nv)
	}
	spec := s.specificity(p)
	nl := p.Logits(s.near)
	ns := meanSelectedScore(p, s.near)
	tl := p.Logits(s.test)
	line := fmt.Sprintf("E %d auc %.4f tauc %.4f suff %.4f hard %.4f delK %.4f dlogit %.3f marg %.4f agree %.4f stab %.4f near %.4f nsuff %.4f same %.4f",
		s.epoch, auc, eval.AUC(tl[:s.nTest], tl[s.nTest:]), eval.AUC(suff[:nv], suff[nv:]), eval.AUC(hl[:nv], hl[nv:]),
		auc-eval.AUC(cut[:nv], cut[nv:]), dlogit, margin, agree, stab, eval.AUC(nl[:nv], nl[nv:]), eval.AUC(ns[:nv], ns[nv:]), spec)
	if s.truthVal != nil {
		v := explain.PrecisionAt(p.RankedNodes, s.truthVal, 1, 2)
		w := explain.PrecisionAt(p.RankedNodes, s.truthTe, 1, 2)
		line += fmt.Sprintf(" valP %.4f %.4f testP %.4f %.4f", v[0], v[1], w[0], w[1])
	}
	return line + "\n", auc
}

// agreement returns the overlap of the model's top 2 with raw cosine's
// and with the previous epoch's, over both ends of the validation links.
func (s *signals) agreement(p *ilpgnn.Predictor) (cosine, stable float64) {
	tops := make([][]int32, 0, 2*s.nVal)
	for _, e := range s.sp.ValPos {
		for _, pr := range [2][2]int{{int(e.U), int(e.V)}, {int(e.V), int(e.U)}} {
			r, c := p.RankedNodes(pr[0], pr[1]), s.cosine(pr[0], pr[1])
			top := r[:min(2, len(r))]
			cosine += overlap(top, c[:min(2, len(c))])
			if s.prevTop != nil {
				stable += overlap(top, s.prevTop[len(tops)])
			}
			tops = append(tops, top)
		}
	}
	s.prevTop = tops
	return cosine / float64(4*s.nVal), stable / float64(4*s.nVal)
}

// specificity returns the mean overlap of the top 2 of i against its
// validation partner j and against another link's partner: explanations
// that name the same neighbours whoever the partner is explain nothing
// about the partner.
func (s *signals) specificity(p *ilpgnn.Predictor) float64 {
	var same float64
	n := len(s.sp.ValPos)
	for k, e := range s.sp.ValPos {
		other := s.sp.ValPos[(k+n/2)%n].V
		if other == e.U {
			other = s.sp.ValPos[(k+n/2+1)%n].V
		}
		a, b := p.RankedNodes(int(e.U), int(e.V)), p.RankedNodes(int(e.U), int(other))
		same += overlap(a[:min(2, len(a))], b[:min(2, len(b))])
	}
	return same / float64(2*n)
}

func overlap(a, b []int32) float64 {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
			}
		}
	}
	return float64(n)
}
