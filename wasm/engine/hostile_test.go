package engine

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/explain"
	"ilpgnn/wasm/store"
)

// hostile rewrites the encoded checkpoint good as change says and encodes
// it again, which recomputes every checksum: an edited and re-summed file.
func hostile(t *testing.T, good []byte, change func(c *checkpoint.Checkpoint, cfg map[string]any)) []byte {
	t.Helper()
	c, err := checkpoint.Unmarshal(good)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(c.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	change(c, cfg)
	if c.Config, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustTensor(t *testing.T, c *checkpoint.Checkpoint, name string) *checkpoint.Tensor {
	t.Helper()
	x, err := c.Tensor(name)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestHostileCheckpoints imports checkpoints edited to lie and re-summed:
// each is refused with the file and the problem named and is not stored,
// the engine keeps its model and keeps explaining, and a lie only the
// graph can show, imported before the graph is there, is refused when
// loaded.
func TestHostileCheckpoints(t *testing.T) {
	nativeOnly(t, "refuses edited checkpoints")
	st := &store.Memory{}
	p := newPage(t, st)
	var gi GraphInfo
	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, &gi)
	var tr TrainResult
	p.call("train", trainArgs(2), &tr)
	good := p.call("checkpoints.export", map[string]any{"key": tr.Key}, nil).Bytes
	var before explain.Explanation
	p.call("explain", map[string]any{"i": 3, "j": 40}, &before)

	ck, err := checkpoint.Unmarshal(good)
	if err != nil {
		t.Fatal(err)
	}
	w1 := mustTensor(t, ck, "W1")
	d0, hidden := w1.Rows, w1.Cols
	if d0 != gi.FeatureDim {
		t.Fatalf("W1 is %dx%d on a graph of %d features", d0, hidden, gi.FeatureDim)
	}
	model := func(cfg map[string]any) map[string]any {
		return cfg["config"].(map[string]any)["Model"].(map[string]any)
	}
	fewer := func(c *checkpoint.Checkpoint, cfg map[string]any) {
		cfg["feature_dim"] = d0 - 1
		for _, n := range []string{"W1", "Wx"} {
			x := mustTensor(t, c, n)
			x.Rows, x.Data = d0-1, x.Data[:(d0-1)*x.Cols]
		}
	}
	cases := []struct {
		file string
		data []byte
		want string
	}{
		{"features.ckpt", hostile(t, good, fewer),
			`feature_dim is ` + itoa(d0-1) + `, but graph "` + gi.Name + `" has ` + itoa(d0) + ` features per node`},
		{"hidden.ckpt", hostile(t, good, func(_ *checkpoint.Checkpoint, cfg map[string]any) { model(cfg)["Hidden"] = 200_000_000 }),
			"tensor W1 is " + itoa(d0) + "x" + itoa(hidden) + ", but its config (hidden 200000000, feature_dim " + itoa(d0) + ") needs " + itoa(d0) + "x200000000"},
		{"nan.ckpt", hostile(t, good, func(c *checkpoint.Checkpoint, _ map[string]any) {
			for i := range c.Tensors {
				for j := range c.Tensors[i].Data {
					c.Tensors[i].Data[j] = float32(math.NaN())
				}
			}
		}), "tensor W1 has a non-finite weight, NaN, at index 0 (row 0, col 0)"},
		{"inf.ckpt", hostile(t, good, func(c *checkpoint.Checkpoint, _ map[string]any) {
			mustTensor(t, c, "W2").Data[hidden+2] = float32(math.Inf(1))
		}), "tensor W2 has a non-finite weight, +Inf, at index " + itoa(hidden+2) + " (row 1, col 2)"},
		{"garbage.ckpt", append([]byte(checkpoint.Magic), strings.Repeat("random bytes", 4)...),
			"not a checkpoint, or damaged"},
	}
	for _, tc := range cases {
		e := p.callErr("checkpoints.import", nil, map[string][]byte{tc.file: tc.data})
		if e.Code != CodeBadInput || e.File != tc.file || !strings.HasPrefix(e.Message, "not a usable checkpoint: ") || !strings.Contains(e.Message, tc.want) {
			t.Errorf("import %s: %+v, want %q", tc.file, e, tc.want)
		}
	}
	var list CheckpointList
	p.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 1 || list.Checkpoints[0].Key != tr.Key {
		t.Errorf("the hostile files were stored: %+v", list)
	}
	var after explain.Explanation
	p.call("explain", map[string]any{"i": 3, "j": 40}, &after)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("explanation changed after the hostile imports:\n%+v\n%+v", before, after)
	}

	// Stored by an older release or in another tab, a hostile checkpoint
	// is refused when loaded, and the current model stays.
	for _, tc := range cases[:4] {
		m, err := store.MetaOf(tc.data)
		if err != nil {
			t.Fatal(err)
		}
		m.Key = tc.file // the edits that keep the config share the good key
		if err := st.Put(t.Context(), m, tc.data); err != nil {
			t.Fatal(err)
		}
		e := p.callErr("checkpoints.load", map[string]any{"key": tc.file}, nil)
		if e.Code != CodeBadInput || !strings.Contains(e.Message, tc.want) {
			t.Errorf("load %s: %+v, want %q", tc.file, e, tc.want)
		}
	}
	p.call("explain", map[string]any{"i": 3, "j": 40}, &after)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("explanation changed after the hostile loads")
	}

	// A fresh page with no graph cannot see the feature_dim lie, a file
	// consistent in itself; loading it on the graph refuses it, and the
	// good checkpoint then loads and explains as before.
	q := newPage(t, &store.Memory{})
	var imp struct {
		Meta CheckpointEntry `json:"meta"`
	}
	importOK(q, "features.ckpt", cases[0].data, &imp)
	q.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	if e := q.callErr("checkpoints.load", map[string]any{"key": imp.Meta.Key}, nil); e.Code != CodeBadInput || !strings.Contains(e.Message, cases[0].want) {
		t.Errorf("load of the feature_dim lie: %+v", e)
	}
	if e := q.callErr("explain", map[string]any{"i": 3, "j": 40}, nil); e.Code != CodeNoModel {
		t.Errorf("a refused checkpoint left a model behind: %+v", e)
	}
	importOK(q, "good.ckpt", good, &imp)
	q.call("checkpoints.load", map[string]any{"key": imp.Meta.Key}, nil)
	q.call("explain", map[string]any{"i": 3, "j": 40}, &after)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the good checkpoint explains differently after the hostile one")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// importOK imports data as the file name and decodes the reply into out.
func importOK(p *page, name string, data []byte, out any) {
	p.t.Helper()
	r := p.wait(p.send("checkpoints.import", nil, map[string][]byte{name: data}))
	if r.Type != "result" {
		p.t.Fatalf("import %s: %s reply: %+v", name, r.Type, r.Error)
	}
	roundTrip(p.t, r.Result, out)
}
