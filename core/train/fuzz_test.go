package train

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/ilpgnn"
)

// FuzzLoadModel decodes bytes into a checkpoint and the checkpoint into a
// model on a small graph. Each input is tried as it is and with its three
// checksums recomputed (where its preamble says they are), so that the
// fuzzer explores what an edited and re-summed file can say to LoadModel
// rather than the checksums that stop random bytes. No input may panic or
// allocate beyond its own size; whatever LoadModel accepts must be a model
// of the graph's feature dimension holding exactly the file's finite
// weights, and it must predict without panicking.
func FuzzLoadModel(f *testing.F) {
	g := plantedGraph(f, 12, 1)
	good := untrainedCheckpoint(f, g, 4) // W2 is 4x4: "one +Inf" sets its value 13
	seeds := []func(testing.TB, *checkpoint.Checkpoint){
		func(testing.TB, *checkpoint.Checkpoint) {},
	}
	for _, tc := range hostileCases() {
		switch tc.name {
		case "feature_dim 10, tensors cut to match", "hidden 200000000", "one +Inf":
			seeds = append(seeds, tc.edit)
		}
	}
	for _, edit := range seeds {
		c := resum(f, good)
		edit(f, c)
		b, err := c.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	base, _, err := Verify(good, g)
	if err != nil {
		f.Fatal(err)
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
			m, cfg, err := LoadModel(c, g)
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
