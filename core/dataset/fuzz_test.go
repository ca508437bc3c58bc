package dataset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/synth"
)

// FuzzParse checks Parse against the grammar written out independently.
// Outside "synth:", any non-empty string is a path. "synth:PRESET" and
// "synth:PRESET:seed=N" (N decimal, fits in 64 bits) are the preset; other
// synth specs (KEY=VALUE parameters, after a preset or alone) are accepted
// only with a valid configuration, and an accepted spec round-trips
// through the canonical spec written from its configuration.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"synth:sparse", "synth:dense:seed=3", "synth:medium:seed=007", "synth:medium:3",
		"synth:huge", "synth:", "", "../shared/datasets/cora", "synth:sparse:seed=18446744073709551616",
		"synth:nodes=3000:edges=20000:dim=8:seed=1", "synth:medium:method=sampled", "synth:nodes=5:nodes=6",
		"synth:nodes=100000:method=exact", "synth:dim=0", "synth:groups=2:kgt=4:edges=900"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		src, err := Parse(spec)
		rest, synthetic := strings.CutPrefix(spec, "synth:")
		if !synthetic {
			if (err != nil) != (spec == "") {
				t.Fatalf("Parse(%q): error %v", spec, err)
			}
			if err == nil && (src.Synthetic() || src.path != spec || src.String() != spec) {
				t.Fatalf("Parse(%q) = %+v, want the path itself", spec, src)
			}
			return
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dataset: "+strconv.Quote(spec)+": ") {
				t.Fatalf("Parse(%q): error %q does not quote the spec", spec, err)
			}
		}
		name, opt, hasOpt := strings.Cut(rest, ":")
		if slices.Contains(synth.Presets(), name) && (!hasOpt || strings.HasPrefix(opt, "seed=") && !strings.Contains(opt, ":")) {
			// The preset grammar: accepted exactly when the seed is a
			// decimal that fits in 64 bits.
			wantOK, wantSeed := true, uint64(0)
			if hasOpt {
				digits := strings.TrimPrefix(opt, "seed=")
				v, perr := strconv.ParseUint(digits, 10, 64)
				wantOK = digits != "" && strings.Trim(digits, "0123456789") == "" && perr == nil
				wantSeed = v
			}
			if (err == nil) != wantOK {
				t.Fatalf("Parse(%q): error %v, want accepted %v", spec, err, wantOK)
			}
			if err != nil {
				return
			}
			if !src.Synthetic() || src.name != name || src.seeded != hasOpt || src.seed != wantSeed || src.String() != spec {
				t.Fatalf("Parse(%q) = %+v", spec, src)
			}
			if p, _ := synth.Preset(name); src.preset != p {
				t.Fatalf("Parse(%q): preset %+v, want %+v", spec, src.preset, p)
			}
		}
		if err != nil {
			return
		}
		if verr := src.preset.Validate(); verr != nil {
			t.Fatalf("Parse(%q) accepted an invalid configuration: %v", spec, verr)
		}
		c := src.preset
		canon := fmt.Sprintf("synth:nodes=%d:edges=%d:dim=%d:groups=%d:kgt=%d:method=%s", c.Nodes, c.Edges, c.FeatureDim, c.Groups, c.KGT, c.Method)
		if src.seeded {
			canon += ":seed=" + strconv.FormatUint(src.seed, 10)
		}
		again, err := Parse(canon)
		if err != nil || again.preset != src.preset || again.name != src.name || again.seeded != src.seeded || again.seed != src.seed {
			t.Fatalf("Parse(%q) = %+v, %v; Parse(%q) = %+v", canon, again, err, spec, src)
		}
	})
}
