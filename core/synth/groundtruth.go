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
	gr := &groundtruthReader{file: file, g: g, lineOf: make(map[graph.Edge]int), kgt: -1}
	var (
		header bool
		links  []Link
	)
	for sc.Scan() {
		gr.line++
		raw := sc.Bytes()
		if gr.line == 1 {
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
				return nil, gr.fail("expected the header %q, got %q", GroundtruthHeader, clip(text))
			}
			header = true
			continue
		}
		l, err := gr.link(fields)
		if err != nil {
			return nil, err
		}
		links = append(links, l)
	}
	if err := sc.Err(); err != nil {
		gr.line++ // the line that could not be read
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, gr.fail("line is longer than %d MiB", maxGroundtruthLine>>20)
		}
		return nil, &load.Error{File: file, Line: gr.line, Err: err}
	}
	if !header {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no header %q", load.ErrEmpty, GroundtruthHeader)}
	}
	if len(links) == 0 {
		return nil, &load.Error{File: file, Err: fmt.Errorf("%w: no links after the header", load.ErrEmpty)}
	}
	return links, nil
}

// groundtruthReader checks the lines of a groundtruth file against g.
type groundtruthReader struct {
	file    string
	g       *graph.Graph
	line    int                // number of the line being read
	lineOf  map[graph.Edge]int // link -> its line
	kgt     int                // length of every why list (-1 before the first)
	kgtLine int                // the line that set kgt
}

// fail is an error at the current line.
func (gr *groundtruthReader) fail(format string, args ...any) error {
	return &load.Error{File: gr.file, Line: gr.line, Err: fmt.Errorf(format, args...)}
}

// node is the node of id, named what in an error.
func (gr *groundtruthReader) node(id, what string) (int32, error) {
	i, ok := gr.g.NodeIndex(id)
	if !ok || i < 0 || i >= gr.g.NumNodes() {
		return 0, gr.fail("%s: unknown node id %q", what, clip(id))
	}
	return int32(i), nil
}

// link checks one line's five fields and returns its link.
func (gr *groundtruthReader) link(fields []string) (Link, error) {
	if len(fields) != 5 {
		return Link{}, gr.fail("expected 5 fields (%s), got %d", GroundtruthHeader, len(fields))
	}
	u, err := gr.node(fields[0], "source")
	if err != nil {
		return Link{}, err
	}
	v, err := gr.node(fields[1], "target")
	if err != nil {
		return Link{}, err
	}
	switch {
	case u == v:
		return Link{}, gr.fail("link %q-%q is a self-loop", clip(fields[0]), clip(fields[1]))
	case !gr.g.HasEdge(int(u), int(v)):
		return Link{}, gr.fail("link %q-%q is not an edge of the graph", clip(fields[0]), clip(fields[1]))
	}
	role, err := ParseRole(fields[2])
	if err != nil {
		return Link{}, gr.fail("%v", err)
	}
	e := graph.Edge{U: min(u, v), V: max(u, v)}
	if at, dup := gr.lineOf[e]; dup {
		return Link{}, gr.fail("link %q-%q already on line %d", clip(fields[0]), clip(fields[1]), at)
	}
	gr.lineOf[e] = gr.line
	whyU, err := gr.why(fields[3], u, v, "why_source")
	if err != nil {
		return Link{}, err
	}
	whyV, err := gr.why(fields[4], v, u, "why_target")
	if err != nil {
		return Link{}, err
	}
	if u > v {
		whyU, whyV = whyV, whyU
	}
	return Link{Edge: e, Role: role, WhyU: whyU, WhyV: whyV}, nil
}

// why parses the groundtruth list of end (of the link with other end
// other), named by its column.
func (gr *groundtruthReader) why(field string, end, other int32, column string) ([]int32, error) {
	ids := strings.Fields(field)
	if len(ids) == 0 {
		return nil, gr.fail("%s: empty groundtruth list", column)
	}
	out := make([]int32, len(ids))
	for k, id := range ids {
		c, err := gr.node(id, column)
		if err != nil {
			return nil, err
		}
		switch {
		case c == other:
			return nil, gr.fail("%s: groundtruth node %q is the link's other end", column, clip(id))
		case !gr.g.HasEdge(int(end), int(c)):
			return nil, gr.fail("%s: groundtruth node %q is not a neighbour of %q", column, clip(id), clip(nodeID(gr.g, end)))
		case slices.Contains(out[:k], c):
			return nil, gr.fail("%s: groundtruth node %q appears twice", column, clip(id))
		}
		out[k] = c
	}
	if gr.kgt < 0 {
		gr.kgt, gr.kgtLine = len(out), gr.line
	} else if len(out) != gr.kgt {
		return nil, gr.fail("%s: %d groundtruth nodes, but the lists of line %d have %d (K_gt is the same for every link)",
			column, len(out), gr.kgtLine, gr.kgt)
	}
	return out, nil
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
