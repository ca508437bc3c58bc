package models_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/f32"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
)

// FuzzOpenILPGNN decodes bytes into a checkpoint and the checkpoint into
// a model on a small graph (OpenILPGNN). Each input is tried as it is and with its three
// checksums recomputed (where its preamble says they are), so that the
// fuzzer explores what an edited and re-summed file can say to OpenILPGNN
// rather than the checksums that stop random bytes. No input may panic or
// allocate beyond its own size; whatever OpenILPGNN accepts must be a model
// of the graph's feature dimension holding exactly the file's finite
// weights, and it must predict without panicking.
func FuzzOpenILPGNN(f *testing.F) {
	g := tinyGraph(f)
	// A hand-written config with only the settings that validation needs
	// and a one-unit model keep the seeds under 400 bytes: the fuzzer
	// minimises every input that finds new code in time quadratic in its
	// length, and at the 1 kB of a full config that takes it a minute.
	good := &checkpoint.Checkpoint{
		Model: "ilpgnn", Dataset: g.Name, Fingerprint: fingerprint.Of(g),
		Config: []byte(`{"config":{"Model":{"Hidden":1,"K":1,"Tau":1,"Diffusion":{"Gamma":0.5,"Epsilon":0.5}},` +
			`"LR":1,"Epochs":1,"Patience":1,"ValFrac":0.1,"TestFrac":0.1},"feature_dim":2}`),
	}
	for k, shape := range [][2]int{{2, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {2, 1}} {
		data := make([]float32, shape[0]*shape[1])
		for i := range data {
			data[i] = float32(k+i) / 4
		}
		good.Tensors = append(good.Tensors, checkpoint.Tensor{Name: ilpgnn.ParamNames()[k], Rows: shape[0], Cols: shape[1], Data: data})
	}
	base, _, err := models.VerifyILPGNN(good, g)
	if err != nil {
		f.Fatalf("the seed checkpoint: %v", err)
	}
	for _, edit := range []func(c *checkpoint.Checkpoint){
		func(*checkpoint.Checkpoint) {},
		func(c *checkpoint.Checkpoint) { // a huge model behind small tensors
			c.Config = bytes.Replace(c.Config, []byte(`"Hidden":1`), []byte(`"Hidden":200000000`), 1)
		},
		func(c *checkpoint.Checkpoint) { // fewer features than the graph, tensors cut to match
			c.Config = bytes.Replace(c.Config, []byte(`"feature_dim":2`), []byte(`"feature_dim":1`), 1)
			for _, k := range []int{0, 5} {
				c.Tensors[k].Rows, c.Tensors[k].Data = 1, c.Tensors[k].Data[:1]
			}
		},
		func(c *checkpoint.Checkpoint) { c.Tensors[2].Data[0] = float32(math.Inf(1)) },
	} {
		c := resum(f, good)
		edit(c)
		b, err := c.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	in, err := ilpgnn.Prepare(g, base.Model)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, resummed(data)} {
			c, err := checkpoint.Unmarshal(b)
			if err != nil {
				continue
			}
			m, cfg, err := models.OpenILPGNN(c, g)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				continue
			}
			if m.FeatureDim != g.FeatureDim() {
				t.Fatalf("loaded a model of %d features on a graph of %d", m.FeatureDim, g.FeatureDim())
			}
			if err := cfg.Validate(); err != nil {
				t.Fatalf("loaded an invalid config: %v", err)
			}
			for k, p := range m.Params() {
				x, err := c.Tensor(ilpgnn.ParamNames()[k])
				if err != nil || x.Rows != p.Rows || x.Cols != p.Cols {
					t.Fatalf("param %d is %dx%d, the file's tensor %v", k, p.Rows, p.Cols, x)
				}
				for i, v := range p.Value {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || v != x.Data[i] {
						t.Fatalf("param %d value %d is %v, the file says %v", k, i, v, x.Data[i])
					}
				}
			}
			// The prepared inputs hold for the configs that prepare alike.
			if cfg.Model.Diffusion == base.Model.Diffusion && cfg.Model.NormalizeFeatures == base.Model.NormalizeFeatures {
				_ = ilpgnn.NewPredictor(m, in).Prob(0, 1)
			}
		}
	})
}

// tinyGraph is a 4-cycle with a chord and two features per node.
func tinyGraph(t testing.TB) *graph.Graph {
	t.Helper()
	x := &f32.CSR{Rows: 4, Cols: 2, Indptr: []int32{0, 2, 4, 6, 8},
		Indices: []int32{0, 1, 0, 1, 0, 1, 0, 1}, Values: []float32{1, 0, 0.5, 0.5, 0, 1, 0.25, 0.75}}
	g, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}, {U: 0, V: 2}}, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Name = "tiny"
	return g
}

// resummed returns a copy of b with the checksums recomputed at the offsets
// its preamble gives, as far as b reaches.
func resummed(b []byte) []byte {
	b = append([]byte(nil), b...)
	if len(b) < 28 {
		return b
	}
	le := binary.LittleEndian
	tab := crc32.MakeTable(crc32.Castagnoli)
	h, d := uint64(le.Uint32(b[12:])), le.Uint64(b[16:])
	for _, end := range []uint64{24, 28 + h, 32 + h + d} {
		if end < 24 || end+4 > uint64(len(b)) { // end < 24: 32+h+d wrapped
			break
		}
		le.PutUint32(b[end:], crc32.Checksum(b[:end], tab))
	}
	return b
}
