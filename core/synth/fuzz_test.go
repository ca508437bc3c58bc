package synth

import (
	"bufio"
	"bytes"
	"errors"
	"slices"
	"testing"

	"ilpgnn/core/graph"
	"ilpgnn/core/load"
)

// FuzzGroundtruth feeds arbitrary bytes to ReadGroundtruth against the
// graph of handDataset: it must not panic, its errors must be *load.Errors
// naming the file, and the links it accepts must hold every invariant the
// format promises. Accepted links are written back and must read back the
// same.
func FuzzGroundtruth(f *testing.F) {
	d := handDataset(f)
	g := d.Graph
	h := GroundtruthHeader + "\n"
	f.Add([]byte(handFiles[GroundtruthFile]))
	f.Add([]byte("# c\r\n\r\n " + h + " e , c ,train, a  d ,b d\r\nb,d,test,c a,e c"))
	f.Add([]byte(h + "a,b,val,c,d\n"))
	f.Add([]byte(h + "a,b,val,c e,d c\nb,a,test,d c,c e\n"))        // duplicate
	f.Add([]byte(h + "a,d,val,c e,c e\n"))                          // not an edge
	f.Add([]byte(h + "c,e,train,e a,d a\n"))                        // other end
	f.Add([]byte(h + "c,e,train,d iso,d a\n"))                      // not a neighbour
	f.Add([]byte(h + "c,e,train,d a,d\n"))                          // lengths
	f.Add([]byte(h + "c,e,,d a,d a\n"))                             // role
	f.Add([]byte(h + "c,e,train,d a\n"))                            // fields
	f.Add([]byte(h + "c,e,train,,\n"))                              // empty lists
	f.Add([]byte("source,target\nc,e,train,d a,d a\n"))             // header
	f.Add([]byte(h))                                                // no links
	f.Add([]byte(h + "0,1,train,2,3\n" + "\x00,\xff,val,a,b\n\n#")) // junk
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, in []byte) {
		links, err := ReadGroundtruth(bytes.NewReader(in), "gt.csv", g)
		if err != nil {
			var le *load.Error
			if !errors.As(err, &le) || le.File != "gt.csv" || le.Line < 0 {
				t.Fatalf("error %q is a %T, not a *load.Error for gt.csv", err, err)
			}
			if lines := bytes.Count(in, []byte("\n")) + 1; le.Line > lines {
				t.Fatalf("error on line %d of %d: %v", le.Line, lines, err)
			}
			return
		}
		checkLinks(t, g, links)

		// What was accepted writes back and reads back the same.
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		(&Dataset{Graph: g, Links: links}).writeGroundtruth(w)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		again, err := ReadGroundtruth(&buf, "again.csv", g)
		if err != nil {
			t.Fatalf("accepted links do not read back: %v", err)
		}
		if !slices.EqualFunc(links, again, rtSameLink) {
			t.Fatalf("links read back differ: %v vs %v", again, links)
		}
	})
}

// checkLinks fails t unless links hold the invariants ReadGroundtruth
// promises: at least one link; each an edge of g, U < V, not repeated, with
// a valid role; every why list non-empty, as long as the others, without
// repeats, of neighbours of its end other than the link's other end.
func checkLinks(t *testing.T, g *graph.Graph, links []Link) {
	t.Helper()
	if len(links) == 0 {
		t.Fatal("no error and no links")
	}
	seen := map[graph.Edge]bool{}
	k := len(links[0].WhyU)
	for _, l := range links {
		e := l.Edge
		if e.U < 0 || e.U >= e.V || int(e.V) >= g.NumNodes() || !g.HasEdge(int(e.U), int(e.V)) {
			t.Fatalf("link %v is not an edge with U < V", e)
		}
		if seen[e] {
			t.Fatalf("link %v twice", e)
		}
		seen[e] = true
		if l.Role != Train && l.Role != Validation && l.Role != Test {
			t.Fatalf("link %v: role %v", e, l.Role)
		}
		for _, end := range []struct {
			at, other int32
			why       []int32
		}{{e.U, e.V, l.WhyU}, {e.V, e.U, l.WhyV}} {
			if len(end.why) == 0 || len(end.why) != k {
				t.Fatalf("link %v: groundtruth %v / %v, want %d nodes each", e, l.WhyU, l.WhyV, k)
			}
			for p, c := range end.why {
				if c < 0 || int(c) >= g.NumNodes() || c == end.other || !g.HasEdge(int(end.at), int(c)) ||
					slices.Contains(end.why[:p], c) {
					t.Fatalf("link %v: groundtruth node %d of %d is invalid (list %v)", e, c, end.at, end.why)
				}
			}
		}
	}
}

// FuzzReadFiles feeds arbitrary contents for the three files of a dataset
// folder (what `ilpgnn synth` writes and ReadDir reads): edges.csv and
// features.csv, which the edge-list loader and the renumbering by feature
// order read, and groundtruth.csv against the graph they make. It must not
// panic, its errors must be *load.Errors naming one of the files, and an
// accepted dataset must hold: links valid (checkLinks), Base and Links
// together exactly the graph's edges, and node order the features file's.
func FuzzReadFiles(f *testing.F) {
	f.Add([]byte(handFiles[EdgesFile]), []byte(handFiles[FeaturesFile]), []byte(handFiles[GroundtruthFile]))
	f.Add([]byte("\ufeffa,b\nb,c\n"), []byte("c\t1\na\t0\n"), []byte("\ufeff"+GroundtruthHeader+"\nb,c,test,a,x\n"))
	f.Add([]byte("a b\nb c\nc a\n"), []byte("a 1 2\nb 0\n"), []byte(GroundtruthHeader+"\na,b,val,c,c\n"))
	f.Add([]byte("x,y\n1,2\n2,3\n"), []byte("id,v\n3,1e400\n"), []byte(GroundtruthHeader+"\n1,2,train,3,3\n"))
	f.Fuzz(func(t *testing.T, edges, feats, gt []byte) {
		files := map[string][]byte{EdgesFile: edges, FeaturesFile: feats, GroundtruthFile: gt}
		d, err := ReadFiles("f", files)
		if err != nil {
			var le *load.Error
			if !errors.As(err, &le) || files[le.File] == nil || le.Line < 0 {
				t.Fatalf("error %q is a %T, not a *load.Error naming a file", err, err)
			}
			return
		}
		g := d.Graph
		checkLinks(t, g, d.Links)
		if len(d.Base)+len(d.Links) != g.NumEdges() {
			t.Fatalf("%d base edges and %d links for %d edges", len(d.Base), len(d.Links), g.NumEdges())
		}
		for _, e := range d.Base {
			if !g.HasEdge(int(e.U), int(e.V)) {
				t.Fatalf("base edge %v is not in the graph", e)
			}
		}
		if g.Features.Rows != g.NumNodes() || len(g.IDs) != g.NumNodes() {
			t.Fatalf("%d feature rows, %d ids for %d nodes", g.Features.Rows, len(g.IDs), g.NumNodes())
		}
		// Nodes without a features line are listed, and come last.
		for k, id := range g.MissingFeatures {
			if g.IDs[g.NumNodes()-len(g.MissingFeatures)+k] != id {
				t.Fatalf("missing %q are not the last nodes %q", g.MissingFeatures, g.IDs)
			}
		}
	})
}
