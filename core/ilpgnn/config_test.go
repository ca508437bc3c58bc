package ilpgnn

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestConfigJSONRoundTrip checks that every named setting survives JSON,
// the form checkpoints store configs in, and that unknown names are refused
// with the offending value quoted.
func TestConfigJSONRoundTrip(t *testing.T) {
	for _, init := range []InitScheme{InitGlorot, InitIsometric} {
		for _, st := range []StructureScale{ScalePaper, ScaleMax} {
			c := DefaultConfig()
			c.Init, c.Structure, c.IsometricBranch = init, st, 0.7
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"`+init.String()+`"`) || !strings.Contains(string(b), `"`+st.String()+`"`) {
				t.Fatalf("%s does not name %v and %v", b, init, st)
			}
			var back Config
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back != c {
				t.Fatalf("round trip gave %+v, want %+v", back, c)
			}
		}
	}
	for _, bad := range []string{`{"Init":"xavier"}`, `{"Structure":"min"}`} {
		var c Config
		err := json.Unmarshal([]byte(bad), &c)
		if err == nil || !strings.Contains(err.Error(), "got") {
			t.Fatalf("%s: error %v, want one quoting the bad name", bad, err)
		}
	}
	c := DefaultConfig()
	c.Init = InitScheme(9)
	if err := c.Validate(); err == nil {
		t.Fatal("an unknown init scheme validated")
	}
}

// TestParamShapes: the shapes a configuration promises are those of the
// weights New allocates, for both init schemes and for d < d0 and d > d0.
func TestParamShapes(t *testing.T) {
	for _, tc := range []struct{ hidden, d0 int }{{3, 7}, {8, 2}, {5, 0}} {
		for _, init := range []InitScheme{InitGlorot, InitIsometric} {
			c := DefaultConfig()
			c.Hidden, c.Init = tc.hidden, init
			m, err := New(c, tc.d0, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			shapes := c.ParamShapes(tc.d0)
			if len(shapes) != len(m.Params()) || len(shapes) != len(ParamNames()) {
				t.Fatalf("%d shapes, %d params, %d names", len(shapes), len(m.Params()), len(ParamNames()))
			}
			for k, p := range m.Params() {
				if shapes[k] != [2]int{p.Rows, p.Cols} || len(p.Value) != p.Rows*p.Cols {
					t.Errorf("hidden %d, d0 %d, %v: %s is %dx%d, ParamShapes says %v",
						tc.hidden, tc.d0, init, ParamNames()[k], p.Rows, p.Cols, shapes[k])
				}
			}
		}
	}
}
