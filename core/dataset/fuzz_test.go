package dataset

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/synth"
)

// FuzzParse checks Parse against the grammar written out independently:
// "synth:PRESET" or "synth:PRESET:seed=N" (N decimal, fits in 64 bits) is
// a preset, any other non-empty string a path. An accepted preset spec
// round-trips through the spec written from its parts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"synth:sparse", "synth:dense:seed=3", "synth:medium:seed=007", "synth:medium:3",
		"synth:huge", "synth:", "", "../shared/datasets/cora", "synth:sparse:seed=18446744073709551616"} {
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
		name, opt, hasOpt := strings.Cut(rest, ":")
		wantOK := slices.Contains(synth.Presets(), name)
		var wantSeed uint64
		if hasOpt {
			digits, ok := strings.CutPrefix(opt, "seed=")
			wantOK = wantOK && ok && digits != "" && strings.Trim(digits, "0123456789") == ""
			if wantOK {
				v, err := strconv.ParseUint(digits, 10, 64)
				wantOK = err == nil // else out of range
				wantSeed = v
			}
		}
		if (err == nil) != wantOK {
			t.Fatalf("Parse(%q): error %v, want accepted %v", spec, err, wantOK)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dataset: "+strconv.Quote(spec)+": ") {
				t.Fatalf("Parse(%q): error %q does not quote the spec", spec, err)
			}
			return
		}
		if !src.Synthetic() || src.name != name || src.seeded != hasOpt || src.seed != wantSeed || src.String() != spec {
			t.Fatalf("Parse(%q) = %+v", spec, src)
		}
		if p, _ := synth.Preset(name); src.preset != p {
			t.Fatalf("Parse(%q): preset %+v, want %+v", spec, src.preset, p)
		}
		canon := "synth:" + name
		if hasOpt {
			canon += ":seed=" + strconv.FormatUint(wantSeed, 10)
		}
		again, err := Parse(canon)
		if err != nil || again.name != src.name || again.seeded != src.seeded || again.seed != src.seed {
			t.Fatalf("Parse(%q) = %+v, %v; Parse(%q) = %+v", canon, again, err, spec, src)
		}
	})
}
