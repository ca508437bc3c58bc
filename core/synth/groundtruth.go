package synth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// GroundtruthHeader is the required first line of a groundtruth file.
const GroundtruthHeader = "source,target,role,why_source,why_target"

// maxGroundtruthLine is the longest groundtruth line ReadGroundtruth
// accepts: room for ~100k node ids, far more than any K_gt.
const maxGroundtruthLine = 1 << 20

// ReadGroundtruth reads a groundtruth file (the format WriteDir writes)
// whose node ids name nodes of g (not nil), and returns its links in file
// order. file names the input in errors.
//
// The first line that is neither blank nor a comment (starting with '#')
// must be GroundtruthHeader; blank and comment lines are skipped anywhere.
// Every other line is "<source>,<target>,<role>,<why source>,<why target>":
// fields are trimmed of surrounding blanks, role is train, val or test, and
// the why lists are node ids separated by blanks. Links are stored with
// Edge.U < Edge.V as nodes of g; WhyU is the list of the smaller node,
// whichever column it was in.
//
// It is an error, returned as a *load.Error naming file and line, when the
// header is missing or wrong, a line has other than 5 fields or is longer
// than 1 MiB, an id is not a node of g, a role is unknown, a link is not an
// edge of g or repeats an earlier link (in either orientation), a why list
// is empty, repeats a node, holds the link's other end, or holds a node that
// is not a neighbour of its end in g, or a why list's length differs from
// that of the first link's lists (K_gt is the same for all links of a
// file). A file with no link is an error wrapping load.ErrEmpty.
//
// A groundtruth node should be a neighbour of its end in the graph the link
// was drawn from, a subgraph of g; only adjacency in g can be checked here.
func ReadGroundtruth(r io.Reader, file string, g *graph.Graph) ([]Link, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxGroundtruthLine)
	n := g.NumNodes()
	var (
		line    int // number of the line being read
		header  bool
		links   []Link
		lineOf  = make(map[graph.Edge]int) // link -> its line
		kgt     = -1                       // length of every why list
		kgtLine int                        // the line that set kgt
	)
	fail := func(format string, args ...any) error {
		return &load.Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
	}
	node := func(id, what string) (int32, error) {
		i, ok := g.NodeIndex(id)
		if !ok || i < 0 || i >= n {
			return 0, fail("%s: unknown node id %q", what, clip(id))
		}
		return int32(i), nil
	}
	// why parses the groundtruth list of end (of the link with other end
	// other), named by its column.
	why := func(field string, end, other int32, column string) ([]int32, error) {
		ids := strings.Fields(field)
		if len(ids) == 0 {
			return nil, fail("%s: empty groundtruth list", column)
		}
		out := make([]int32, len(ids))
		for k, id := range ids {
			c, err := node(id, column)
			if err != nil {
				return nil, err
			}
			switch {
			case c == other:
				return nil, fail("%s: groundtruth node %q is the link's other end", column, clip(id))
			case !g.HasEdge(int(end), int(c)):
				return nil, fail("%s: groundtruth node %q is not a neighbour of %q", column, clip(id), clip(nodeID(g, end)))
			case slices.Contains(out[:k], c):
				return nil, fail("%s: groundtruth node %q appears twice", column, clip(id))
			}
			out[k] = c
		}
		if kgt < 0 {
			kgt, kgtLine = len(out), line
		} else if len(out) != kgt {
			return nil, fail("%s: %d groundtruth nodes, but the lists of line %d have %d (K_gt is the same for every link)",
				column, len(out), kgtLine, kgt)
		}
		return out, nil
	}

	for sc.Scan() {
		line++
		raw := sc.Bytes()
		if line == 1 {
			raw = load.TrimBOM(raw)
		}
		text := strings.TrimSpace(string(raw))
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, ",")
		for k := range fields {
			fields[k] = strings.TrimSpace(fields[k])
		}
		if !header {
			if strings.Join(fields, ",") != GroundtruthHeader {
				return nil, fail("expected the header %q, got %q", GroundtruthHeader, clip(text))
			}
			header = true
			continue
		}
		if len(fields) != 5 {
			return nil, fail("expected 5 fields (%s), got %d", GroundtruthHeader, len(fields))
		}
		u, err := node(fields[0], "source")
		if err != nil {
			return nil, err
		}
		v, err := node(fields[1], "target")
		if err != nil {
			return nil, err
		}
		switch {
		case u == v:
			return nil, fail("link %q-%q is a self-loop", clip(fields[0]), clip(fields[1]))
		case !g.HasEdge(int(u), int(v)):
			return nil, fail("link %q-%q is not an edge of the graph", clip(fields[0]), clip(fields[1]))
		}
		role, err := ParseRole(fields[2])
		if err != nil {
			return nil, fail("%v", err)
		}
		e := graph.Edge{U: min(u, v), V: max(u, v)}
		if at, dup := lineOf[e]; dup {
			return nil, fail("link %q-%q already on line %d", clip(fields[0]), clip(fields[1]), at)
		}
		lineOf[e] = line
		whyU, err := why(fields[3], u, v, "why_source")
		if err != nil {
			return nil, err
		}
		whyV, err := why(fields[4], v, u, "why_target")
		if err != nil {
			return nil, err
		}
		if u > v {
			whyU, whyV = whyV, whyU
		}
		links = append(links, Link{Edge: e, Role: role, WhyU: whyU, WhyV: whyV})
	}
	if err := sc.Err(); err != nil {
		line++ // the line that could not be read
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail("line is longer than %d MiB", maxGroundtruthLine>>20)
		}
		return nil, &load.Error{File: file, Line: line, Err: err}
	}
	if !header {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no header %q", load.ErrEmpty, GroundtruthHeader)}
	}
	if len(links) == 0 {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no links after the header", load.ErrEmpty)}
	}
	return links, nil
}

// isASCIIBlank reports whether r is a blank that separates the fields of a
// whitespace-separated file to the loaders: space, tab, CR, VT or FF.
func isASCIIBlank(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f'
}

// clip shortens s for an error message.
func clip(s string) string {
	const most = 64
	if len(s) <= most {
		return s
	}
	return s[:most] + "..."
}
