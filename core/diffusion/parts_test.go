package diffusion

import (
	"slices"
	"testing"

	"ilpgnn/core/graph"
)

// TestAssembleSameBits checks that S̃ assembled from parts pushed
// separately equals New's bit for bit, cut into 1, 2 and 3 parts, with
// both normalisations.
func TestAssembleSameBits(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *graph.Graph
	}{
		{"random", randomGraph(t, 500, 3000, 7)},
		{"cora", loadCora(t)},
	} {
		for _, z := range []Normalization{FullRowSums, SparsifiedRowSums} {
			opt := DefaultOptions()
			opt.Normalization = z
			want, err := New(tc.g, opt)
			if err != nil {
				t.Fatal(err)
			}
			n := tc.g.NumNodes()
			for parts := 1; parts <= 3; parts++ {
				var ps []*Part
				rp, err := NewRangePusher(tc.g, opt)
				if err != nil {
					t.Fatal(err)
				}
				for k := range parts {
					p, err := rp.Push(k*n/parts, (k+1)*n/parts)
					if err != nil {
						t.Fatal(err)
					}
					ps = append(ps, p)
				}
				got, err := Assemble(tc.g, opt, ps)
				if err != nil {
					t.Fatal(err)
				}
				w, g := want.Columns(), got.Columns()
				if !slices.Equal(w.Indptr, g.Indptr) || !slices.Equal(w.Indices, g.Indices) || !slices.Equal(w.Values, g.Values) ||
					want.CappedColumns() != got.CappedColumns() {
					t.Errorf("%s, %v, %d parts: assembled S̃ differs from New's", tc.name, z, parts)
				}
			}
		}
	}
}

// TestAssembleRefuses checks that parts which miss or repeat sources are
// refused.
func TestAssembleRefuses(t *testing.T) {
	g := randomGraph(t, 50, 200, 3)
	opt := DefaultOptions()
	rp, err := NewRangePusher(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := rp.Push(0, 20)
	b, _ := rp.Push(20, 50)
	c, _ := rp.Push(25, 50)
	for name, ps := range map[string][]*Part{"gap": {a, c}, "short": {a}, "order": {b, a}} {
		if _, err := Assemble(g, opt, ps); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := rp.Push(10, 60); err == nil {
		t.Error("a range past the nodes: no error")
	}
	exact := opt
	exact.Method = Exact
	if _, err := NewRangePusher(g, exact); err == nil {
		t.Error("a range pusher for Method Exact: no error")
	}
}
