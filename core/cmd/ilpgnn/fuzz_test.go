package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/baselines/conpi"
	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/seal"
	"ilpgnn/core/baselines/walkpool"
	"ilpgnn/core/models"
	"ilpgnn/core/train"
)

// FuzzPair checks parsePair against the rule written out independently
// (two comma-separated fields, each non-empty once trimmed, different), and
// that an accepted pair round-trips through formatPair.
func FuzzPair(f *testing.F) {
	for _, s := range []string{"n0,n1", " 35 , 36 ", "35,35", "a,", ",b", "a,b,c", "", "a b,c\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, err := parsePair(s)
		fields := strings.Split(s, ",")
		wantOK := len(fields) == 2
		if wantOK {
			x, y := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
			wantOK = x != "" && y != "" && x != y
		}
		if (err == nil) != wantOK {
			t.Fatalf("parsePair(%q) = %q, %q, %v; want accepted %v", s, a, b, err, wantOK)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--pair: ") {
				t.Fatalf("parsePair(%q): error %q does not name --pair", s, err)
			}
			return
		}
		if a != strings.TrimSpace(fields[0]) || b != strings.TrimSpace(fields[1]) {
			t.Fatalf("parsePair(%q) = %q, %q", s, a, b)
		}
		a2, b2, err := parsePair(formatPair(a, b))
		if err != nil || a2 != a || b2 != b {
			t.Fatalf("parsePair(formatPair(%q, %q)) = %q, %q, %v", a, b, a2, b2, err)
		}
	})
}

// FuzzSet runs experiment table1's --models and --set through predictors
// (which builds the columns without training) and compares its verdict with
// the rule written out independently: MODEL.FLAG=VALUE is accepted when every
// model of --models is known, MODEL is one of them (spaces around the names
// ignored) that has hyperparameters, FLAG is one of its flags, which takes
// VALUE, and the resulting settings are valid.
func FuzzSet(f *testing.F) {
	for _, s := range [][2]string{
		{"cn,seal", "seal.hops=2"}, {"gat, conpi", "conpi.lr=0.001"}, {"gae", "gae.epochs=x"},
		{"wp", "wp.hops"}, {"cn", "cn.k=1"}, {"seal", "gat.lr=1"}, {"seal", ".=1"}, {"seal", "seal.hops=0"},
	} {
		f.Add(s[0], s[1])
	}
	cfg := train.DefaultConfig()
	reg := models.Default()
	f.Fuzz(func(t *testing.T, names, set string) {
		_, err := predictors(reg, names, cfg, []string{set})
		want := wantSet(names, set)
		if (err == nil) != want {
			t.Fatalf("--models %q --set %q: error %v, want accepted %v", names, set, err, want)
		}
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "--set") && !strings.HasPrefix(msg, "--models") {
				t.Fatalf("--models %q --set %q: error %q names neither flag", names, set, msg)
			}
		}
	})
}

// wantSet is FuzzSet's oracle.
func wantSet(models, set string) bool {
	var names []string
	for _, m := range strings.Split(models, ",") {
		m = strings.TrimSpace(m)
		if !slices.Contains([]string{"ilpgnn", "cn", "aa", "gae", "vgae", "gat", "seal", "wp", "conpi"}, m) {
			return false
		}
		names = append(names, m)
	}
	key, val, ok := strings.Cut(set, "=")
	model, name, ok2 := strings.Cut(key, ".")
	if !ok || !ok2 || !slices.Contains(names, model) {
		return false
	}
	fs := flag.NewFlagSet(model, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var validate func() error
	switch model {
	case "gae", "vgae", "gat":
		kind, err := gnn.ParseKind(model)
		if err != nil {
			panic(err)
		}
		c := gnn.DefaultConfig(kind)
		c.RegisterFlags(fs)
		validate = func() error { return c.Validate() } // c as set, not as now
	case "seal":
		c := seal.DefaultConfig()
		c.RegisterFlags(fs)
		validate = func() error { return c.Validate() }
	case "wp":
		c := walkpool.DefaultConfig()
		c.RegisterFlags(fs)
		validate = func() error { return c.Validate() }
	case "conpi":
		c := conpi.DefaultConfig()
		c.RegisterFlags(fs)
		validate = func() error { return c.Validate() }
	default: // ilpgnn, cn, aa: nothing to set
		return false
	}
	if model != "gae" && model != "vgae" && model != "gat" {
		// The pair models' configurations hold no split; the registry
		// gives them the shares' flags, which must leave edges to train on.
		v, t := new(float64), new(float64)
		fs.Float64Var(v, "val-frac", 0.05, "")
		fs.Float64Var(t, "test-frac", 0.1, "")
		model := validate
		validate = func() error {
			if err := model(); err != nil {
				return err
			}
			if !(*v > 0 && *t > 0 && *v+*t < 1) {
				return errors.New("shares")
			}
			return nil
		}
	}
	return fs.Lookup(name) != nil && fs.Set(name, val) == nil && validate() == nil
}
