package models_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/baselines/gnn"
	"ilpgnn/core/baselines/heuristic"
	"ilpgnn/core/dataset"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/models"
	"ilpgnn/core/models/modeltest"
	"ilpgnn/core/split"
)

func sparse(t *testing.T, seed uint64) (*dataset.Dataset, *split.Split) {
	t.Helper()
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(1)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	return d, sp
}

// configure returns name's configuration with flags set.
func configure(t *testing.T, reg models.Registry, name string, flags ...string) models.Config {
	t.Helper()
	spec, err := reg.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	c := spec.New()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	c.RegisterFlags(fs)
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRegistry(t *testing.T) {
	reg := models.Default()
	want := []string{"ilpgnn", "cn", "aa", "gae", "vgae", "gat", "seal", "wp", "conpi"}
	if !slices.Equal(reg.Names(), want) {
		t.Fatalf("names %v, want %v", reg.Names(), want)
	}
	_, err := reg.Lookup("nope")
	if err == nil || !strings.Contains(err.Error(), strings.Join(want, ", ")) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("Lookup(nope): %v", err)
	}
	// Every model takes the split's shares as flags, and a configuration
	// is fresh each time (setting one leaves the next untouched).
	for _, s := range reg {
		a := s.New()
		fs := flag.NewFlagSet(s.Name, flag.ContinueOnError)
		a.RegisterFlags(fs)
		for _, f := range []string{"val-frac", "test-frac"} {
			if fs.Lookup(f) == nil {
				t.Errorf("%s has no --%s", s.Name, f)
			}
		}
		if err := fs.Set("val-frac", "0.2"); err != nil {
			t.Fatal(err)
		}
		if a.Loop().ValFrac != 0.2 || s.New().Loop().ValFrac != split.DefaultValFrac {
			t.Errorf("%s: val-frac %v after setting, %v fresh", s.Name, a.Loop().ValFrac, s.New().Loop().ValFrac)
		}
	}
}

// Adding a model is one file (modeltest.Tiny) and its place in a registry:
// it then trains, reports progress and explains through the registry's
// interfaces alone. Tiny's AUCs are the cn heuristic's, computed here
// directly.
func TestTinyModel(t *testing.T) {
	reg := append(models.Default(), modeltest.Tiny)
	d, sp := sparse(t, 3)
	c := configure(t, reg, "tiny", "-weight", "2.5")
	var reports []models.Progress
	tr, err := c.Train(context.Background(), models.Run{Data: d, Split: sp, Seed: 3}, func(p models.Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	val, test := heuristic.SplitAUC(sp, heuristic.CommonNeighbours)
	r := tr.Result()
	if r.ValAUC != val || r.TestAUC != test || len(reports) != 1 || reports[0].Remaining() != 0 {
		t.Errorf("tiny: val %v test %v (%d reports), want %v %v", r.ValAUC, r.TestAUC, len(reports), val, test)
	}
	if _, err := tr.Checkpoint(d.Graph, fingerprint.Of(d.Graph)); !errors.Is(err, models.ErrNoCheckpoint) {
		t.Errorf("tiny checkpoint: %v", err)
	}
	p1, p2 := models.TestPrecision(tr.Ranker(), d.Truth)
	if p1 == nil || p2 == nil || *p1 < 0 || *p1 > 1 {
		t.Errorf("tiny precision %v %v", p1, p2)
	}
}

// Each built-in model trains through the registry exactly as through its
// own package (the autoencoders checked against gnn.RunSplit), and offers
// a ranker, an explainer and a checkpoint where it has them.
func TestModelsTrain(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every model")
	}
	reg := models.Default()
	d, sp := sparse(t, 4)
	short := map[string][]string{
		"ilpgnn": {"-epochs", "2", "-ppr-eps", "1e-3"}, "gae": {"-epochs", "2"}, "vgae": {"-epochs", "2"}, "gat": {"-epochs", "2"},
		"seal": {"-epochs", "1", "-pairs-per-epoch", "32"}, "wp": {"-epochs", "1", "-pairs-per-epoch", "32"},
		"conpi": {"-epochs", "1", "-pairs-per-epoch", "200", "-hidden", "16", "-dim", "16"},
	}
	for _, s := range reg {
		c := configure(t, reg, s.Name, short[s.Name]...)
		tr, err := c.Train(context.Background(), models.Run{Data: d, Split: sp, Seed: 4, Select: models.SelectAUC}, nil)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		r := tr.Result()
		if !(r.TestAUC > 0.3 && r.TestAUC <= 1) || r.Split != sp {
			t.Errorf("%s: test AUC %v", s.Name, r.TestAUC)
		}
		if has := tr.Ranker() != nil; has != (s.Explanation != "") {
			t.Errorf("%s: ranker %v, explanation %q", s.Name, has, s.Explanation)
		}
		ex, err := tr.Explainer(d.Graph)
		if err != nil {
			t.Fatalf("%s explainer: %v", s.Name, err)
		}
		if wantEx := !slices.Contains([]string{"cn", "aa", "seal", "wp"}, s.Name); (ex != nil) != wantEx {
			t.Errorf("%s: explainer %v", s.Name, ex)
		}
		if ex != nil {
			rk, err := ex.Explain(3, 40, 2)
			if err != nil || len(rk.I) > 2 || len(rk.I) != min(2, len(ex.Rank(3, 40))) {
				t.Errorf("%s explains (3, 40): %+v, %v", s.Name, rk, err)
			}
		}
		if _, err := tr.Checkpoint(d.Graph, fingerprint.Of(d.Graph)); (err == nil) != s.Saves {
			t.Errorf("%s: checkpoint error %v, saves %v", s.Name, err, s.Saves)
		}
		if kind, err := gnn.ParseKind(s.Name); err == nil {
			cfg := gnn.DefaultConfig(kind)
			cfg.Epochs, cfg.Seed = 2, 4
			want, err := gnn.RunSplit(context.Background(), sp, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.TestAUC != want.TestAUC || r.ValAUC != want.ValAUC || r.Epochs != want.Epochs {
				t.Errorf("%s: %+v, want %v / %v", s.Name, r, want.TestAUC, want.ValAUC)
			}
		}
	}
}

func TestSelection(t *testing.T) {
	for in, want := range map[string]models.Selection{"": models.SelectAuto, "auto": models.SelectAuto, "auc": models.SelectAUC,
		"precision": models.SelectPrecision, "unsupervised": models.SelectUnsupervised} {
		if got, err := models.ParseSelection(in); err != nil || got != want {
			t.Errorf("ParseSelection(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := models.ParseSelection("best"); err == nil || !strings.Contains(err.Error(), `"best"`) {
		t.Errorf("ParseSelection(best): %v", err)
	}
	d, _ := sparse(t, 0)
	plain := &dataset.Dataset{Graph: d.Graph}
	if models.SelectPrecision.Check(d) != nil || !errors.Is(models.SelectPrecision.Check(plain), models.ErrNoGroundtruth) || models.SelectAuto.Check(plain) != nil {
		t.Error("precision needs groundtruth, and only precision")
	}
}

// TestSelectUnsupervised: on a graph with groundtruth, SelectUnsupervised
// keeps the weights that the same graph without its groundtruth gets under
// SelectAuto, bit for bit, with the same epochs: what a user's graph gets.
// SelectAuto with the groundtruth keeps others (it selects on precision).
func TestSelectUnsupervised(t *testing.T) {
	d, sp := sparse(t, 2)
	plain := &dataset.Dataset{Graph: d.Graph}
	c := configure(t, models.Default(), "ilpgnn", "-epochs", "20", "-anchor", "0.5", "-ppr-eps", "1e-3")
	run := func(d *dataset.Dataset, sel models.Selection) (*models.ILPGNN, []byte) {
		tr, err := c.Train(context.Background(), models.Run{Data: d, Split: sp, Seed: 2, Select: sel}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ck, err := tr.Checkpoint(d.Graph, fingerprint.Of(d.Graph))
		if err != nil {
			t.Fatal(err)
		}
		b, err := ck.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return tr.(*models.ILPGNN), b
	}
	un, unBytes := run(d, models.SelectUnsupervised)
	user, userBytes := run(plain, models.SelectAuto)
	if !bytes.Equal(unBytes, userBytes) || un.Run.BestEpoch != user.Run.BestEpoch || un.SelectedOn != models.SelectAUC {
		t.Errorf("unsupervised kept epoch %d (%v), the graph without groundtruth epoch %d; checkpoints equal: %v",
			un.Run.BestEpoch, un.SelectedOn, user.Run.BestEpoch, bytes.Equal(unBytes, userBytes))
	}
	if auto, _ := run(d, models.SelectAuto); auto.SelectedOn != models.SelectPrecision {
		t.Errorf("auto on a graph with groundtruth selected on %v", auto.SelectedOn)
	}
}

// Remaining, worked by hand: 10 s for 4 epochs, best at 3, patience 5 of
// at most 20 epochs: 4 more epochs (to epoch 8) at 2.5 s each.
func TestRemaining(t *testing.T) {
	p := models.Progress{Epoch: 4, MaxEpochs: 20, BestEpoch: 3, Patience: 5, Elapsed: 10 * time.Second}
	if got := p.Remaining(); got != 10*time.Second {
		t.Errorf("per epoch: %v, want 10s", got)
	}
	// Half way through epoch 2 of batches: 1.5 epochs in 3 s, so 2 s per
	// epoch; the rest of epoch 2 and 3 more (patience 4 after best 1, at
	// most 10 epochs): 3.5 epochs, 7 s.
	p = models.Progress{Epoch: 2, MaxEpochs: 10, BestEpoch: 1, Patience: 4, Batch: 5, Batches: 10, Elapsed: 3 * time.Second}
	if got := p.Remaining(); got != 7*time.Second {
		t.Errorf("per batch: %v, want 7s", got)
	}
	// A StopEpoch (decays still to come) supersedes best + patience: 2.5 s
	// an epoch, epochs 5 to 12 left, 20 s.
	p = models.Progress{Epoch: 4, MaxEpochs: 20, BestEpoch: 3, Patience: 5, StopEpoch: 12, Elapsed: 10 * time.Second}
	if got := p.Remaining(); got != 20*time.Second {
		t.Errorf("with a stop epoch: %v, want 20s", got)
	}
}

// Set applies settings by flag name, and says which one it could not.
func TestSet(t *testing.T) {
	reg := models.Default()
	spec, err := reg.Lookup("gae")
	if err != nil {
		t.Fatal(err)
	}
	c := spec.New()
	if err := models.Set(c, map[string]string{"lr": "0.02", "normalize-features": "true"}); err != nil {
		t.Fatal(err)
	}
	if s := models.Settings(c); s["lr"] != "0.02" || s["normalize-features"] != "true" || s["epochs"] != models.Settings(spec.New())["epochs"] {
		t.Errorf("after Set: %v", s)
	}
	var se *models.SettingError
	// Names are tried in order, so the first problem is the same every time.
	err = models.Set(spec.New(), map[string]string{"zeta": "1", "alpha": "1", "lr": "fast"})
	if !errors.As(err, &se) || se.Name != "alpha" || se.Err != nil || err.Error() != `no hyperparameter "alpha"` {
		t.Errorf("unknown name: %v", err)
	}
	err = models.Set(spec.New(), map[string]string{"lr": "fast", "weight-decay": "x"})
	if !errors.As(err, &se) || se.Name != "lr" || se.Value != "fast" || se.Err == nil || !strings.HasPrefix(err.Error(), "lr=fast: ") {
		t.Errorf("bad value: %v", err)
	}
}
