package engine

import (
	"context"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/models"
	"time"
)

func (e *Engine) evaluate(ctx context.Context, _ Request) (any, []byte, error) {
	l, mo, h, err := e.heldModel()
	if err != nil {
		return nil, nil, err
	}
	if err := e.finishTest(ctx, mo); err != nil {
		return nil, nil, err
	}
	sp, pred := h.split, h.pred
	scores := func(pos, neg []graph.Edge) ([]float32, []float32) {
		s := pred.Logits(append(append([]graph.Edge{}, pos...), neg...))
		return s[:len(pos)], s[len(pos):]
	}
	testPos, testNeg := scores(sp.TestPos, sp.TestNeg)
	out := Evaluation{TestAUC: eval.AUC(testPos, testNeg), TestHits: eval.HitsOf(testPos, testNeg), ValAUC: eval.AUC(scores(sp.ValPos, sp.ValNeg))}
	out.P1, out.P2 = models.TestPrecision(pred.RankedNodes, l.d.Truth)
	return out, nil, nil
}

func (e *Engine) node(l *loaded, op, name string, v int) error {
	if n := l.d.Graph.NumNodes(); v < 0 || v >= n {
		return errorf(CodeNotFound, "%s: %s %d is not a node (the graph has nodes 0 to %d)", op, name, v, n-1)
	}
	return nil
}

func (e *Engine) explain(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		I *int `json:"i"`
		J *int `json:"j"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.I == nil || a.J == nil {
		return nil, nil, errorf(CodeBadRequest, "explain: args.i and args.j (node indices) are required")
	}
	l, pred, weights, err := e.answering("explain")
	if err != nil {
		return nil, nil, err
	}
	for _, x := range []struct {
		name string
		v    int
	}{{"i", *a.I}, {"j", *a.J}} {
		if err := e.node(l, "explain", x.name, x.v); err != nil {
			return nil, nil, err
		}
	}
	ex, err := pred.Explain(*a.I, *a.J)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "explain: %v", err)
	}
	out := e.withGroundtruth(l, ex)
	out.Weights = weights
	return out, nil, nil
}

func (e *Engine) suggest(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Node *int `json:"node"`
		Top  *int `json:"top"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Node == nil {
		return nil, nil, errorf(CodeBadRequest, "suggest: args.node (a node index) is required")
	}
	top := 10
	if a.Top != nil {
		top = *a.Top
	}
	if top < 1 {
		return nil, nil, errorf(CodeBadRequest, "suggest: args.top must be at least 1 (got %d)", top)
	}
	l, pred, _, err := e.answering("suggest")
	if err != nil {
		return nil, nil, err
	}
	if err := e.node(l, "suggest", "node", *a.Node); err != nil {
		return nil, nil, err
	}
	s, err := pred.Suggest(*a.Node, top)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "suggest: %v", err)
	}
	return s, nil, nil
}

// Comparison is the result of compare: which neighbours other explainers
// name for the same pair.
type Comparison struct {
	Explainers []BaselineExplanation `json:"explainers"`
	Message    string                `json:"message,omitempty"`
}

// BaselineExplanation is one explainer's answer for a pair: each end's
// neighbours, best first.
type BaselineExplanation struct {
	Model  string       `json:"model"`  // the trained baseline: gat, gae, vgae or conpi
	Method string       `json:"method"` // attention, gnnexplainer or context
	I      []RankedNode `json:"i"`
	J      []RankedNode `json:"j"`
	Millis float64      `json:"ms"` // time taken to explain
}

// RankedNode is one neighbour in an explainer's ranking; Weight is its
// GNNExplainer mask or its CONPI interaction mass (absent for attention,
// whose ranking is all it gives per pair).
type RankedNode struct {
	Node   int32    `json:"node"`
	ID     string   `json:"id"`
	Weight *float64 `json:"weight,omitempty"`
}

// compare explains a pair with every model trained on the loaded graph
// that has an explainer: GAT by its attention, GAE and VGAE by
// GNNExplainer, CONPI by its context interaction weights. Like ILP-GNN's
// explanations, they speak of the whole graph.
func (e *Engine) compare(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		I   *int `json:"i"`
		J   *int `json:"j"`
		Top *int `json:"top"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.I == nil || a.J == nil {
		return nil, nil, errorf(CodeBadRequest, "compare: args.i and args.j (node indices) are required")
	}
	top := 5
	if a.Top != nil {
		top = *a.Top
	}
	if top < 1 {
		return nil, nil, errorf(CodeBadRequest, "compare: args.top must be at least 1 (got %d)", top)
	}
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	for _, v := range []int{*a.I, *a.J} {
		if err := e.node(l, "compare", "node", v); err != nil {
			return nil, nil, err
		}
	}
	out := Comparison{Explainers: []BaselineExplanation{}}
	for _, name := range e.opt.Models.Names() {
		b, err := e.compareWith(l, name, *a.I, *a.J, top)
		if err != nil {
			return nil, nil, err
		}
		if b != nil {
			out.Explainers = append(out.Explainers, *b)
		}
	}
	if len(out.Explainers) == 0 {
		out.Message = "no baseline has been trained on this graph: train gat (attention), gae/vgae (GNNExplainer) or conpi (context interaction) to compare"
	}
	return out, nil, nil
}

// compareWith explains (i, j) with the model called name, when one is
// trained on l's graph and has an explainer; nil otherwise.
func (e *Engine) compareWith(l *loaded, name string, i, j, top int) (*BaselineExplanation, error) {
	e.mu.Lock()
	t := e.trained[name]
	e.mu.Unlock()
	if t == nil {
		return nil, nil
	}
	start := time.Now()
	ex, err := t.Explainer(l.d.Graph)
	if err != nil {
		return nil, errorf(CodeInternal, "compare: %v", err)
	}
	if ex == nil {
		return nil, nil
	}
	r, err := ex.Explain(i, j, top)
	if err != nil {
		return nil, errorf(CodeBadRequest, "compare: %v", err)
	}
	ids := l.d.Graph.IDs
	side := func(ns []explain.Ranked) []RankedNode {
		out := make([]RankedNode, len(ns))
		for k, n := range ns {
			out[k] = RankedNode{Node: n.Node, ID: ids[n.Node]}
			if r.Weighted {
				w := n.Weight
				out[k].Weight = &w
			}
		}
		return out
	}
	return &BaselineExplanation{Model: name, Method: r.Method, I: side(r.I), J: side(r.J), Millis: millisSince(start)}, nil
}
