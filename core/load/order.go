package load

import (
	"slices"
	"strings"

	"ilpgnn/core/graph"
)

// CompareIDs is the order in which the edge-list, GraphML, GEXF and JSON
// readers number nodes (docs/model.md §1): the natural order of their ids,
// so that a graph is numbered by its content, not by the order its file
// happens to list nodes and edges in, and every seeded draw (the split,
// negatives, fallback features, initial weights) follows the content.
//
// An id is read as a sequence of runs: maximal runs of ASCII digits,
// which compare as whole numbers of any length (leading zeros aside), and
// maximal runs of other bytes, which compare byte by byte (for UTF-8, code
// point order). A '-' that starts an id and is followed by a digit makes
// that first number negative. A number sorts before text at the same
// place, and an id that is a prefix of another, in runs, before it. Ids
// whose runs tie ("01" and "1", "-0" and "0") are ordered by their bytes,
// so that distinct ids never compare equal.
//
// So ids that are all integers come in numeric order (-3, 2, 10, 100),
// "n2" before "n10", and "a" before "a1" before "ab". Decimals are not
// read as such: "1.10" follows "1.9". CompareIDs returns -1, 0 or +1, as
// strings.Compare, and is 0 only for equal strings.
func CompareIDs(a, b string) int {
	if c := compareRuns(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareRuns compares a and b run by run (see CompareIDs), 0 when their
// runs tie.
func compareRuns(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, rb := nextRun(a, i), nextRun(b, j)
		if c := ra.compare(rb); c != 0 {
			return c
		}
		i, j = ra.end, rb.end
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return 0
}

// run is one run of an id: s[digits:end] is a number's digits (neg when
// it is negative), or s[start:end] is text.
type run struct {
	s                  string
	start, digits, end int
	number, neg        bool
}

// nextRun returns the run of s that starts at i (i < len(s)).
func nextRun(s string, i int) run {
	r := run{s: s, start: i, digits: i}
	if i == 0 && len(s) > 1 && s[0] == '-' && isDigit(s[1]) {
		r.neg, r.digits = true, 1
	}
	if isDigit(s[r.digits]) {
		r.number, r.end = true, r.digits
		for r.end < len(s) && isDigit(s[r.end]) {
			r.end++
		}
		return r
	}
	r.end = i
	for r.end < len(s) && !isDigit(s[r.end]) {
		r.end++
	}
	return r
}

// compare orders two runs: numbers by value, before text; text by bytes.
func (r run) compare(o run) int {
	switch {
	case r.number && o.number:
		return compareNumbers(r.s[r.digits:r.end], r.neg, o.s[o.digits:o.end], o.neg)
	case r.number:
		return -1
	case o.number:
		return 1
	}
	return strings.Compare(r.s[r.start:r.end], o.s[o.start:o.end])
}

// compareNumbers compares the integers whose decimal digits are a and b,
// negative when negA and negB; any length, so ids beyond int64 compare
// by value too. Minus zero equals zero.
func compareNumbers(a string, negA bool, b string, negB bool) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	negA, negB = negA && a != "", negB && b != ""
	switch {
	case negA != negB && negA:
		return -1
	case negA != negB:
		return 1
	}
	c := 0
	switch {
	case len(a) != len(b):
		c = -1
		if len(a) > len(b) {
			c = 1
		}
	default:
		c = strings.Compare(a, b)
	}
	if negA { // both negative: the larger magnitude is the smaller number
		return -c
	}
	return c
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// canonical renumbers n's nodes in the order of CompareIDs and returns
// each former node's new number, or nil when they are in that order
// already (as the ids "0".."N-1" of a graph written by this repository
// are), so that such a graph keeps its numbering without a copy.
func (n *nodeIDs) canonical() []int32 {
	if slices.IsSortedFunc(n.ids, CompareIDs) {
		return nil
	}
	order := make([]int32, len(n.ids)) // new node -> former node
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(p, q int32) int { return CompareIDs(n.ids[p], n.ids[q]) })
	newOf := make([]int32, len(order))
	ids := make([]string, len(order))
	for k, old := range order {
		newOf[old] = int32(k)
		ids[k] = n.ids[old]
		n.index[ids[k]] = int32(k)
	}
	n.ids = ids
	return newOf
}

// renumberEdges rewrites edges in place with the new node numbers of
// newOf (nil: unchanged).
func renumberEdges(edges []graph.Edge, newOf []int32) {
	if newOf == nil {
		return
	}
	for k, e := range edges {
		edges[k] = graph.Edge{U: newOf[e.U], V: newOf[e.V]}
	}
}

// renumberNodes rewrites a list of node numbers in place (see
// renumberEdges).
func renumberNodes(nodes []int32, newOf []int32) {
	if newOf == nil {
		return
	}
	for k, i := range nodes {
		nodes[k] = newOf[i]
	}
}
