// Command signals trains ILP-GNN selecting on validation AUC and prints,
// for every epoch, signals a selection criterion without groundtruth could
// use, beside validation and test Precision@1/@2 where the graph has
// groundtruth (docs/selection.md reads them): one line per epoch,
//
//	E epoch auc (validation AUC) tauc (test AUC) suff hard delK dlogit marg agree stab near nsuff same [valP P@1 P@2 testP P@1 P@2]
//
// then the best epoch and its test AUC.
//
//	go run ./scripts/measure/signals --data synth:medium --seed 0 --epochs 45 --out m0.txt
//
// Every hyperparameter flag of `ilpgnn train` (ILP-GNN's) is taken too;
// patience defaults to 100 and epochs to 45 here.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
)

func main() {
	fs := flag.NewFlagSet("signals", flag.ExitOnError)
	data := fs.String("data", "", "a --data value, as ilpgnn train takes it (required)")
	seed := fs.Uint64("seed", 0, "the seed: the graph's for synth:PRESET, the split's and the weights'")
	out := fs.String("out", "", "write the epochs' lines to this file instead of stdout")
	cfg := train.DefaultConfig()
	cfg.Patience, cfg.Epochs = 100, 45
	cfg.RegisterFlags(fs)
	fs.Parse(os.Args[1:])
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: signals --data SPEC [--seed 0] [--out FILE] [ilpgnn train's hyperparameter flags]")
		os.Exit(2)
	}
	if err := run(*data, *seed, *out, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "signals:", err)
		os.Exit(1)
	}
}

func run(spec string, seed uint64, path string, cfg train.Config) error {
	src, err := dataset.Parse(spec)
	if err != nil {
		return err
	}
	d, err := src.Load(seed)
	if err != nil {
		return err
	}
	sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		return err
	}
	cfg.Seed = seed
	sig := newSignals(d, sp, seed)
	w := os.Stdout
	if path != "" {
		if w, err = os.Create(path); err != nil {
			return err
		}
	}
	var werr error
	crit := func(p *ilpgnn.Predictor) float64 {
		line, auc := sig.measure(p)
		if _, err := w.WriteString(line); err != nil && werr == nil {
			werr = err
		}
		return auc
	}
	res, err := train.RunSplitSelect(context.Background(), sp, cfg, crit, nil)
	if err != nil {
		return err
	}
	if path != "" {
		if err := w.Close(); err != nil && werr == nil {
			werr = err
		}
	}
	if werr != nil {
		return werr
	}
	fmt.Printf("best epoch %d, test AUC %.4f\n", res.BestEpoch, res.TestAUC)
	return nil
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
