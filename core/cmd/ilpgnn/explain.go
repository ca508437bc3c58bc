package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/explain"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/printable"
)

// openModel loads the dataset and the checkpoint trained on it, and prepares
// the model on the whole graph: explanations speak of every edge the user
// has, with the pair's own edge masked as in training. A checkpoint trained
// on another graph is reported first, since a node id missing from this
// graph then says nothing about the id. check then sees the graph before
// the checkpoint's weights become a model: a mistyped node id is reported
// without waiting for the model's structure to be prepared.
func openModel(data, ckPath string, check func(*graph.Graph) error) (*graph.Graph, *ilpgnn.Predictor, error) {
	ck, err := checkpoint.ReadFile(ckPath)
	if err != nil {
		return nil, nil, fmt.Errorf("--checkpoint: %w", err)
	}
	// A synthetic spec without a seed means the graph of the run that
	// trained the checkpoint.
	_, d, err := openData(data, ck.Seed)
	if err != nil {
		return nil, nil, err
	}
	g := d.Graph
	fp := fingerprint.Of(g)
	if ck.CheckGraph(fp) != nil {
		return nil, nil, fmt.Errorf("--checkpoint %s was trained on %s, not on --data %s (graph fingerprints %x and %x differ): train on %s to explain its links",
			ckPath, trainedOn(ck), data, ck.Fingerprint[:6], fp[:6], data)
	}
	if err := check(g); err != nil {
		return nil, nil, err
	}
	p, _, err := models.OpenPredictorReusing(ck, g, fp, nil, nil, nil)
	if errors.Is(err, models.ErrPreparing) {
		return nil, nil, err // not the checkpoint's fault
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", ckPath, err)
	}
	return g, p, nil
}

// trainedOn names the graph a checkpoint was trained on, as its file
// records it.
func trainedOn(ck *checkpoint.Checkpoint) string {
	if ck.Dataset == "" {
		return "a graph it does not name"
	}
	return fmt.Sprintf("%q", ck.Dataset)
}

// parsePair reads --pair: two different node ids separated by a comma,
// spaces around each ignored. Ids are compared as given, before any graph
// is read: a graph's ids are unique, so equal ids are the same node.
func parsePair(s string) (a, b string, err error) {
	a, b, ok := strings.Cut(s, ",")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || strings.Contains(b, ",") || a == "" || b == "" {
		return "", "", fmt.Errorf("--pair: want two node ids separated by a comma, got %q", s)
	}
	if a == b {
		return "", "", fmt.Errorf("--pair: %q twice: a link joins two different nodes", a)
	}
	return a, b, nil
}

// formatPair is the --pair value of two node ids.
func formatPair(a, b string) string { return a + "," + b }

func nodeByID(g *graph.Graph, id, flagName string) (int, error) {
	i, ok := g.NodeIndex(id)
	if !ok {
		return 0, fmt.Errorf("%s: no node with id %q in %s%s", flagName, id, g.Name, closestID(g.IDs, id))
	}
	return i, nil
}

// closestID names the id of ids a mistyped one most likely meant: the one
// equal to it but for case, else the one a single edit away (ids are
// exact: "N12" is not "n12"), as " (did you mean "n12"?)"; "" when none
// or several are that close.
func closestID(ids []string, typed string) string {
	var folded, near []string
	for _, id := range ids {
		switch {
		case strings.EqualFold(id, typed):
			folded = append(folded, id)
		case len(folded) == 0 && lengthsNear(id, typed) && len(near) < 2 && editDistance(id, typed) == 1:
			near = append(near, id)
		}
	}
	switch {
	case len(folded) == 1:
		return fmt.Sprintf(" (did you mean %q? ids are case-sensitive)", folded[0])
	case len(folded) == 0 && len(near) == 1:
		return fmt.Sprintf(" (did you mean %q?)", near[0])
	}
	return ""
}

// lengthsNear says a and b differ in length by at most one byte, the
// cheap test before an edit distance.
func lengthsNear(a, b string) bool {
	return len(a)-len(b) <= 1 && len(b)-len(a) <= 1
}

func cmdExplain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "--checkpoint FILE --data PATH --pair A,B [--steps] [--json]", stderr)
	ckPath := fs.String("checkpoint", "", "checkpoint written by train --save (required)")
	data := fs.String("data", "", "the dataset the checkpoint was trained on (required)")
	pair := fs.String("pair", "", "two node ids, comma-separated (required)")
	asJSON := fs.Bool("json", false, "print the explanation as JSON (its steps included)")
	steps := fs.Bool("steps", false, "walk through how the model decided, step by step (docs/walkthrough.md)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "checkpoint", "data", "pair"); err != nil {
		return err
	}
	a, b, err := parsePair(*pair)
	if err != nil {
		return err
	}
	var i, j int
	_, p, err := openModel(*data, *ckPath, func(g *graph.Graph) error {
		var err error
		if i, err = nodeByID(g, a, "--pair"); err != nil {
			return err
		}
		j, err = nodeByID(g, b, "--pair")
		return err
	})
	if err != nil {
		return err
	}
	e, err := p.Explain(i, j)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		return writeJSON(stdout, e)
	case *steps:
		printSteps(stdout, e)
	default:
		printExplanation(stdout, e, p.Temperature != 1 || p.Bias != 0, p.Model.Config.Anchor)
	}
	return nil
}

// printSteps writes e's walk-through, one numbered paragraph a step.
func printSteps(w io.Writer, e *explain.Explanation) {
	fmt.Fprintf(w, "How the model decided p(%s, %s) %s\n", printable.Listed(e.I.ID), printable.Listed(e.J.ID), explain.ProbIs(e.Prob, explain.ProbDigits))
	for k, s := range e.Steps {
		fmt.Fprintf(w, "\n%d. %s\n%s\n", k+1, s.Title, s.Text)
	}
}

func cmdSuggest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("suggest", "--checkpoint FILE --data PATH --node A [--top 10] [--json]", stderr)
	ckPath := fs.String("checkpoint", "", "checkpoint written by train --save (required)")
	data := fs.String("data", "", "the dataset the checkpoint was trained on (required)")
	node := fs.String("node", "", "node id (required)")
	top := fs.Int("top", 10, "number of suggestions")
	asJSON := fs.Bool("json", false, "print the suggestions as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := required(fs, "checkpoint", "data", "node"); err != nil {
		return err
	}
	if *top < 1 {
		return fmt.Errorf("--top must be at least 1 (got %d)", *top)
	}
	var i int
	g, p, err := openModel(*data, *ckPath, func(g *graph.Graph) error {
		var err error
		i, err = nodeByID(g, strings.TrimSpace(*node), "--node")
		return err
	})
	if err != nil {
		return err
	}
	sugg, err := p.Suggest(i, *top)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, sugg)
	}
	fmt.Fprintf(stdout, "new links suggested for %s:\n", printable.Name(g.IDs[i]))
	for k, s := range sugg {
		// Reasons, not the Reading, whose own p = xx.x% repeated the
		// column rounded (1.00 beside 0.9987).
		fmt.Fprintf(stdout, "%3d. %-12s p %-8s  %s\n", k+1, printable.Name(s.ID), explain.ProbIs(s.Prob, explain.ProbDigits), s.Explanation.Reasons())
	}
	if len(sugg) > 0 && sugg[0].TieNote != "" {
		fmt.Fprintf(stdout, "note: %s.\n", sugg[0].TieNote)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// maxRows caps the neighbours listed per side in the text output.
const maxRows = 10

// printExplanation writes e for people; calibrated says whether the
// model's probabilities were calibrated, for the legend.
func printExplanation(w io.Writer, e *explain.Explanation, calibrated bool, anchor float64) {
	fmt.Fprintf(w, "p(%s, %s) %s", printable.Listed(e.I.ID), printable.Listed(e.J.ID), explain.ProbIs(e.Prob, explain.ProbDigits))
	if e.Linked {
		fmt.Fprint(w, "  (linked in the graph")
		if e.Masked {
			fmt.Fprint(w, "; the link itself was masked")
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintf(w, "\n%s\n%s\n\n", e.Reading, e.Counterfactual())
	for _, s := range []explain.Side{e.I, e.J} {
		other := e.J.ID
		if s.Node == e.J.Node {
			other = e.I.ID
		}
		fmt.Fprintf(w, "neighbours of %s scored against %s:\n", printable.Name(s.ID), printable.Name(other))
		fmt.Fprintf(w, "  %4s  %-12s %8s %9s %8s %7s %11s %9s  %s\n", "rank", "id", "score", "structure", "features", "weight", "attribution", "p without", "")
		hidden := 0
		for r, n := range s.Neighbors {
			if r >= maxRows && !n.Selected && !n.Common {
				hidden++
				continue
			}
			mark := ""
			attr, without := "", ""
			if n.Selected {
				mark = "selected"
				attr, without = fmt.Sprintf("%+.4f", n.Attribution), explain.FormatProb(n.ProbWithout, explain.ProbDigits)
			}
			if n.Common {
				mark = strings.TrimSpace(mark + " common")
			}
			fmt.Fprintf(w, "  %4d  %-12s %8.4f %9.4f %8.4f %7.4f %11s %9s  %s\n", n.Rank, printable.Name(n.ID), n.Score, n.Structure, n.Features, n.Weight, attr, without, mark)
		}
		if hidden > 0 {
			fmt.Fprintf(w, "  ... and %d more (all of them with --json)\n", hidden)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "counterfactuals: random neighbours instead p %s; selected neighbours removed p %s; as many random neighbours removed p %s (mean of %d draws)\n\n",
		explain.ProbIs(e.ProbRandom, explain.ProbDigits), explain.ProbIs(e.ProbRemoved, explain.ProbDigits), explain.ProbIs(e.ProbRandomRemoved, explain.ProbDigits), e.RandomDraws)
	if calibrated {
		fmt.Fprint(w, definitionCalibrated)
	} else {
		fmt.Fprint(w, definitionUncalibrated)
	}
	fmt.Fprint(w, definitionStructure)
	if anchor != 0 {
		fmt.Fprintf(w, definitionAnchored, anchor, 1-anchor)
	} else {
		fmt.Fprint(w, definitionFeatures)
	}
	fmt.Fprint(w, definitions)
}

// definitionStructure is the legend's line for structure.
const definitionStructure = "structure    how close the neighbour is to the other end in the graph (diffusion similarity, scaled so the closest neighbour has 1)\n"

// The legend's line for p, with and without calibration.
const (
	definitionCalibrated   = "p            the model's probability of the link, calibrated on validation pairs: sigmoid(logit/T + c) with T and c fitted there, logit = h_i · h_j, h a node's representation with its selected neighbours added (eq 7-8)\n"
	definitionUncalibrated = "p            the model's own sigmoid(logit), not calibrated (too few validation pairs, or calibrating did not lower their ECE: train says which), logit = h_i · h_j, h a node's representation with its selected neighbours added (eq 7-8)\n"
)

// The legend's line for features, of a model with and without an anchor
// (docs/anchor.md).
const (
	definitionAnchored = "features     how alike the neighbour's and the other end's representations are, 0 to 1: %g of it from the encoder as it started, untrained, and %g from the learnt one, each sigmoid(h_c · h_j)\n"
	definitionFeatures = "features     how alike the neighbour's and the other end's learnt representations are: sigmoid(h^r_c · h^r_j), 0 to 1\n"
)

// definitions says what explain's other numbers mean, one line each.
const definitions = `score        structure and features combined (eq 5); the model selects the best-scored neighbours, common neighbours first
weight       b, a selected neighbour's share of its node's aggregate (eq 6); the weights of one end sum to 1
attribution  a selected neighbour's term in the logit h_i · h_j: β·b·(h^r_c · h of the other end); + pushes p up, - down
p without    p with that neighbour alone removed and the model selecting again
`
