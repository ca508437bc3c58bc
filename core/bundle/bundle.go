// Package bundle is the file the embeddable explanation card reads: what
// explaining pairs with a trained ILP-GNN model needs and nothing more. It
// holds the graph's adjacency and node ids, the trained node
// representations H^r, the structure similarity S̃, the settings that
// selection and aggregation read, and the calibration, so that the card
// neither prepares nor trains: it selects, aggregates and explains exactly
// as the predictor it was exported from, bit for bit. FORMAT.md describes
// the bytes.
package bundle

import (
	"errors"
	"fmt"
	"slices"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/explain"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
)

// Magic opens every bundle; Version is the newest format this package
// writes (format 2 for a model with an anchor, 1 otherwise) and the newest
// it reads.
const (
	Magic   = "ILPGNNCB"
	Version = 2
)

// CardFile is the bundle's name in a folder `ilpgnn export` writes: a
// card with data-src="DIR/" reads DIR/card.bundle.
const CardFile = "card.bundle"

// The errors Unmarshal wraps, so that a reader can say what kind of file it
// was given.
var (
	// ErrNotBundle: the bytes do not start with Magic.
	ErrNotBundle = errors.New("not an ILP-GNN card bundle")
	// ErrNewer: a format newer than Version.
	ErrNewer = errors.New("made by a newer ILP-GNN")
	// ErrDamaged: truncated, a checksum that does not match, or contents
	// that break the format's rules.
	ErrDamaged = errors.New("damaged")
)

// Bundle is a trained model ready to explain pairs of one graph.
type Bundle struct {
	// Dataset names the graph; Fingerprint is its fingerprint.Of, that of
	// the graph the checkpoint was trained on.
	Dataset     string
	Fingerprint [32]byte
	// Explainable lists, sorted, the nodes whose pairs the bundle explains
	// and suggests among; nil means every node.
	Explainable []int32
	// Predictor answers for the pairs. Only what explaining reads is set:
	// its Model has a Config and no weights, its Inputs a Graph without
	// features and a Sim.
	Predictor *ilpgnn.Predictor
}

// New returns the bundle of p, trained on the graph named dataset whose
// fingerprint is fp. With nodes (dense indices) it keeps only what the
// pairs among them read: S̃'s columns of those nodes, and H^r's rows of
// them and their neighbours; the others are stored empty, which costs
// next to nothing once compressed. Without nodes it keeps everything.
func New(p *ilpgnn.Predictor, dataset string, fp [32]byte, nodes []int) (*Bundle, error) {
	g := p.Inputs.Graph
	b := &Bundle{Dataset: dataset, Fingerprint: fp, Predictor: p}
	if len(nodes) == 0 {
		return b, nil
	}
	n, d := g.NumNodes(), p.Model.Config.Hidden
	keep := make([]bool, n)
	rows := make([]bool, n)
	for _, i := range nodes {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("bundle: node %d outside [0, %d)", i, n)
		}
		keep[i], rows[i] = true, true
		for _, c := range g.Neighbors(i) {
			rows[c] = true
		}
	}
	hr := keepRows(p.Hr, rows, d)
	full := p.Inputs.Sim.Columns()
	t := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1)}
	for j := range n {
		if keep[j] {
			idx, val := full.Row(j)
			t.Indices = append(t.Indices, idx...)
			t.Values = append(t.Values, val...)
			b.Explainable = append(b.Explainable, int32(j))
		}
		t.Indptr[j+1] = int32(len(t.Indices))
	}
	sim, err := diffusion.FromColumns(t)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	q := *p
	q.Inputs = &ilpgnn.Inputs{Graph: g, Sim: sim}
	q.Hr = hr
	if p.Anchor != nil {
		q.Anchor = keepRows(p.Anchor, rows, d)
	}
	b.Predictor = &q
	return b, nil
}

// keepRows returns a copy of the n x d matrix h with the rows not in keep
// zeroed.
func keepRows(h []float32, keep []bool, d int) []float32 {
	out := make([]float32, len(h))
	for i, k := range keep {
		if k {
			copy(out[i*d:(i+1)*d], h[i*d:(i+1)*d])
		}
	}
	return out
}

// Graph is the bundle's graph (adjacency and ids only).
func (b *Bundle) Graph() *graph.Graph { return b.Predictor.Inputs.Graph }

// CanExplain reports whether pairs with node i can be explained.
func (b *Bundle) CanExplain(i int) bool {
	if i < 0 || i >= b.Graph().NumNodes() {
		return false
	}
	if b.Explainable == nil {
		return true
	}
	_, ok := slices.BinarySearch(b.Explainable, int32(i))
	return ok
}

// Node returns the node whose user id is id, or an error saying that the
// graph has no such node or that the bundle does not explain it.
func (b *Bundle) Node(id string) (int, error) {
	i, ok := b.Graph().NodeIndex(id)
	if !ok {
		return 0, fmt.Errorf("no node %q in %s", id, b.Dataset)
	}
	if !b.CanExplain(i) {
		return 0, fmt.Errorf("node %q is not among the nodes this bundle explains", id)
	}
	return i, nil
}

// Explain is the predictor's Explain for a pair of explainable nodes.
func (b *Bundle) Explain(i, j int) (*explain.Explanation, error) {
	for _, k := range []int{i, j} {
		if !b.CanExplain(k) {
			return nil, fmt.Errorf("bundle: node %d is not among the nodes this bundle explains", k)
		}
	}
	return b.Predictor.Explain(i, j)
}

// Suggest is the predictor's Suggest among the explainable nodes.
func (b *Bundle) Suggest(i, n int) ([]explain.Suggestion, error) {
	if !b.CanExplain(i) {
		return nil, fmt.Errorf("bundle: node %d is not among the nodes this bundle explains", i)
	}
	if b.Explainable == nil {
		return b.Predictor.Suggest(i, n)
	}
	return b.Predictor.SuggestAmong(i, n, b.CanExplain)
}
