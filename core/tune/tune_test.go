package tune

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/core/graph"
	"ilpgnn/core/loop"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

func TestDraw(t *testing.T) {
	space := []models.Dim{{Flag: "a", Values: []string{"1", "2", "3"}}, {Flag: "b", Values: []string{"x", "y"}}}
	all := Draw(space, 10, 7)
	if len(all) != 6 {
		t.Fatalf("%d points of a 3x2 grid", len(all))
	}
	seen := map[string]bool{}
	for _, p := range all {
		seen[p["a"]+p["b"]] = true
	}
	if len(seen) != 6 {
		t.Errorf("not every point: %v", all)
	}
	if again := Draw(space, 10, 7); !slices.EqualFunc(all, again, maps.Equal) {
		t.Error("the same seed drew another order")
	}
	if some := Draw(space, 4, 7); len(some) != 4 || !slices.EqualFunc(some, all[:4], maps.Equal) {
		t.Errorf("4 of them: %v, want the first 4 of %v", some, all)
	}
	if other := Draw(space, 10, 8); slices.EqualFunc(all, other, maps.Equal) {
		t.Error("another seed drew the same order")
	}
	if none := Draw(nil, 3, 1); len(none) != 1 || len(none[0]) != 0 {
		t.Errorf("an empty space: %v", none)
	}
}

// scored is a model whose validation AUC is worked out from its settings:
// q/10 + epochs/1000, so the best q wins whatever the round, and every
// trial's epochs show in its score.
var scored = models.Spec{
	Name: "scored", Learns: true,
	New:   func() models.Config { return &scoredConfig{Q: 1, Epochs: 100} },
	Space: []models.Dim{{Flag: "q", Values: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}}},
}

type scoredConfig struct {
	Q      float64
	Epochs int
	V, T   float64
}

func (c *scoredConfig) RegisterFlags(fs *flag.FlagSet) {
	fs.Float64Var(&c.Q, "q", c.Q, "")
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "")
}
func (c *scoredConfig) Validate() error { return nil }
func (c *scoredConfig) Loop() models.Loop {
	return models.Loop{Epochs: c.Epochs, Patience: 1, ValFrac: 0.1, TestFrac: 0.1}
}
func (c *scoredConfig) Train(_ context.Context, run models.Run, progress func(models.Progress)) (models.Trained, error) {
	for e := 1; e <= c.Epochs && progress != nil; e++ {
		// A preparation report and a mid-epoch one, which are not epochs.
		progress(models.Progress{Prepare: &models.Prepare{}})
		progress(models.Progress{Seed: run.Seed, Epoch: e, MaxEpochs: c.Epochs, Batch: 1, Batches: 2})
		progress(models.Progress{Seed: run.Seed, Epoch: e, MaxEpochs: c.Epochs, EpochDone: true})
	}
	return result{models.Result{Result: loop.Result{ValAUC: c.Q/10 + float64(c.Epochs)/1000 + float64(run.Seed)/1e6, Epochs: c.Epochs}}}, nil
}

type result struct{ r models.Result }

func (r result) Result() models.Result                             { return r.r }
func (r result) Ranker() explain.Ranker                            { return nil }
func (r result) Explainer(*graph.Graph) (explain.Explainer, error) { return nil, nil }
func (r result) Checkpoint(*graph.Graph, [32]byte) (*checkpoint.Checkpoint, error) {
	return nil, models.ErrNoCheckpoint
}

func noData(uint64) (*dataset.Dataset, *split.Split, error) { return nil, nil, nil }

// Nine candidates asked, thirds kept: the grid holds 8 besides the
// current q = 1, so the current settings train first to the model's 100
// epochs, then 8 trials of 5 epochs, then 2 of 15, and the best of those,
// q = 9, is chosen; its score (q/10 + 15/1000 and the mean of seeds 1 and
// 2 over 1e6) by hand. Its trial ran all its 15 epochs, so the choice
// says 15 epochs: training with it trains what was measured.
func TestSearchHalves(t *testing.T) {
	var progress []Trial
	// Inside each trial, the epochs done over its two seeds' runs count
	// 1, 2, ..., 2 x its epochs, each report naming the trial it is in.
	var epochs []int
	inside := 0
	opt := Options{Candidates: 9, Eta: 3, MinEpochs: 5, Seeds: []uint64{1, 2}, Seed: 3,
		Progress: func(tr Trial) {
			if want := 2 * tr.Epochs; len(epochs) != want || epochs[want-1] != want {
				t.Errorf("trial %+v: epoch reports %v, want 1 to %d", tr, epochs, want)
			}
			epochs, inside = nil, 0
			progress = append(progress, tr)
		},
		Epoch: func(tr Trial, done int) {
			if tr.Round < 1 || tr.Settings == nil || tr.ValAUC != 0 || done != len(epochs)+1 {
				t.Errorf("epoch report %d of %+v after %v", done, tr, epochs)
			}
			epochs = append(epochs, done)
			inside++
		},
	}
	res, err := Search(context.Background(), scored, noData, opt)
	if err != nil {
		t.Fatal(err)
	}
	if inside != 0 {
		t.Errorf("%d epoch reports after the last trial", inside)
	}
	if res.Best["q"] != "9" || res.Best["epochs"] != "15" || res.ValAUC != 0.9+0.015+1.5e-6 || len(res.Trials) != 11 || len(progress) != 11 ||
		res.KeptCurrent || res.CurrentValAUC != 0.1+0.1+1.5e-6 || res.Cut != "" {
		t.Fatalf("best %v (%v) after %d trials; current %v (%v); cut %q", res.Best, res.ValAUC, len(res.Trials), res.KeptCurrent, res.CurrentValAUC, res.Cut)
	}
	var round2 []string
	for k, tr := range res.Trials {
		wantRound, wantEpochs := 1, 5
		switch {
		case k == 0:
			wantEpochs = 100
		case k > 8:
			wantRound, wantEpochs = 2, 15
			round2 = append(round2, tr.Settings["q"])
		}
		if tr.Round != wantRound || tr.Epochs != wantEpochs || tr.Current != (k == 0) || (k > 0 && tr.Settings["q"] == "1") {
			t.Errorf("trial %d: %+v", k, tr)
		}
	}
	if !slices.Equal(round2, []string{"9", "8"}) {
		t.Errorf("round 2 trained %v, want the best two", round2)
	}
	// A fixed setting is not searched and is part of the answer.
	opt.Fixed, opt.Progress, opt.Epoch = map[string]string{"q": "4"}, nil, nil
	res, err = Search(context.Background(), scored, noData, opt)
	if err != nil || res.Best["q"] != "4" || len(res.Trials) != 1 {
		t.Errorf("fixed q: %+v, %v", res, err)
	}
	// No round trains past the user's maximum: round 2 gets 8 epochs,
	// not 15.
	opt.Fixed = map[string]string{"epochs": "8"}
	res, err = Search(context.Background(), scored, noData, opt)
	if err != nil || res.Trials[len(res.Trials)-1].Epochs != 8 || len(res.Trials) != 11 || res.Best["q"] != "9" || res.Best["epochs"] != "8" {
		t.Errorf("capped at 8 epochs: %d trials, last %+v, %v", len(res.Trials), res.Trials[len(res.Trials)-1], err)
	}
}

// A search keeps the current settings unless a candidate beats them:
// with q = 9 already the best point, trained to its 100 epochs, every
// candidate scores below it (ties go to the current too), and with q
// fixed by the user the current settings are the whole search.
func TestSearchKeepsCurrent(t *testing.T) {
	best := scored
	best.New = func() models.Config { return &scoredConfig{Q: 9, Epochs: 100} }
	res, err := Search(context.Background(), best, noData, Options{Candidates: 4, Eta: 2, MinEpochs: 5, Seeds: []uint64{0}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.KeptCurrent || res.Best["q"] != "9" || res.ValAUC != res.CurrentValAUC || res.ValAUC != 0.9+0.1 {
		t.Errorf("kept %v: %v (%v), current %v", res.KeptCurrent, res.Best, res.ValAUC, res.CurrentValAUC)
	}
	for _, tr := range res.Trials {
		if !tr.Current && tr.Settings["q"] == "9" {
			t.Errorf("the current q was drawn as a candidate: %+v", tr)
		}
	}
	// A grid of one point: nothing to draw, the current settings alone.
	one := scored
	one.Space = []models.Dim{{Flag: "q", Values: []string{"1"}}}
	res, err = Search(context.Background(), one, noData, Options{Candidates: 4, Eta: 2, MinEpochs: 5, Seeds: []uint64{0}})
	if err != nil || !res.KeptCurrent || len(res.Trials) != 1 || !res.Trials[0].Current {
		t.Errorf("a one-point grid: %+v, %v", res, err)
	}
}

// Every built-in space names flags of its model, each value is accepted,
// and the model's default is among the values tried.
func TestSpaces(t *testing.T) {
	for _, spec := range models.Default() {
		defaults := models.Settings(spec.New())
		for _, d := range spec.Space {
			def, ok := defaults[d.Flag]
			if !ok {
				t.Errorf("%s has no flag %q", spec.Name, d.Flag)
				continue
			}
			if !slices.ContainsFunc(d.Values, func(v string) bool { return sameValue(v, def) }) {
				t.Errorf("%s: --%s's default %s is not among %v", spec.Name, d.Flag, def, d.Values)
			}
			for _, v := range d.Values {
				if _, err := Configure(spec, map[string]string{d.Flag: v}); err != nil {
					t.Errorf("%s --%s %s: %v", spec.Name, d.Flag, v, err)
				}
			}
		}
	}
}

func sameValue(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return x == y
	}
	return a == b
}

// The same search twice chooses the same settings with the same scores,
// on a real model and graph.
func TestSearchDeterministic(t *testing.T) {
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	data := func(seed uint64) (*dataset.Dataset, *split.Split, error) {
		d, err := src.Load(seed)
		if err != nil {
			return nil, nil, err
		}
		sp, err := d.Split(seed, split.DefaultValFrac, split.DefaultTestFrac)
		return d, sp, err
	}
	spec, err := models.Default().Lookup("gae")
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Candidates: 4, Eta: 2, MinEpochs: 3, Seeds: []uint64{0, 1}, Seed: 5}
	a, err := Search(context.Background(), spec, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Search(context.Background(), spec, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(a.Best, b.Best) || a.ValAUC != b.ValAUC || len(a.Trials) != 7 {
		t.Errorf("two searches: %v (%v), %v (%v), %d trials", a.Best, a.ValAUC, b.Best, b.ValAUC, len(a.Trials))
	}
	for k := range a.Trials {
		if a.Trials[k].ValAUC != b.Trials[k].ValAUC || fmt.Sprint(a.Trials[k].Settings) != fmt.Sprint(b.Trials[k].Settings) {
			t.Errorf("trial %d differs: %+v, %+v", k, a.Trials[k], b.Trials[k])
		}
	}
}

// kept is a model that keeps its weights on a score of its own unless
// told to keep them on AUC, as ILP-GNN does on a graph with groundtruth:
// its kept score is a/10 and its validation AUC b/10.
var kept = models.Spec{
	Name: "kept", Learns: true,
	New: func() models.Config { return &keptConfig{A: 2, B: 2, Epochs: 10} },
	Space: []models.Dim{
		{Flag: "a", Values: []string{"1", "2", "3"}},
		{Flag: "b", Values: []string{"1", "2", "3"}},
	},
}

type keptConfig struct {
	A, B   float64
	Epochs int
}

func (c *keptConfig) RegisterFlags(fs *flag.FlagSet) {
	fs.Float64Var(&c.A, "a", c.A, "")
	fs.Float64Var(&c.B, "b", c.B, "")
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "")
}
func (c *keptConfig) Validate() error { return nil }
func (c *keptConfig) Loop() models.Loop {
	return models.Loop{Epochs: c.Epochs, Patience: 1, ValFrac: 0.1, TestFrac: 0.1}
}
func (c *keptConfig) Train(_ context.Context, run models.Run, _ func(models.Progress)) (models.Trained, error) {
	r := models.Result{Result: loop.Result{ValAUC: c.B / 10, ValScore: c.B / 10, Epochs: c.Epochs}, SelectedOn: models.SelectAUC}
	if run.Select != models.SelectAUC {
		r.ValScore, r.SelectedOn = c.A/10, models.SelectPrecision
	}
	return result{r}, nil
}

// Candidates are compared on what the training keeps its weights by, and
// one replaces the current settings (a = b = 2) only when it is no lower
// on validation AUC: under the kept score a = 3 wins, but never with
// b = 1; under AUC, b = 3 wins.
func TestSearchComparesAsTrainKeeps(t *testing.T) {
	// Every point of the grid in one round (eta above the candidates).
	opt := Options{Candidates: 8, Eta: 9, MinEpochs: 10, Seeds: []uint64{0}}
	res, err := Search(context.Background(), kept, noData, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.KeptCurrent || res.Best["a"] != "3" || res.Best["b"] == "1" || res.Chosen.ValScore != 0.3 || res.ValAUC < res.CurrentValAUC ||
		res.Current.ValScore != 0.2 || res.Chosen.SelectedOn != models.SelectPrecision {
		t.Errorf("kept on the score: best %v, chosen %+v, current %+v", res.Best, res.Chosen, res.Current)
	}
	// The chosen trial trained all 10 epochs, the model's maximum, so
	// the choice needs no epochs of its own.
	if _, ok := res.Best["epochs"]; ok {
		t.Errorf("best %v names epochs at the model's maximum", res.Best)
	}
	opt.Select = models.SelectAUC
	if res, err = Search(context.Background(), kept, noData, opt); err != nil || res.KeptCurrent || res.Best["b"] != "3" || res.ValAUC != 0.3 {
		t.Errorf("kept on AUC: best %v (%v), %v", res.Best, res.ValAUC, err)
	}
	// A candidate higher on the kept score but lower on AUC does not
	// replace the current settings.
	for _, c := range []struct {
		t    Trial
		want bool
	}{
		{Trial{ValScore: 0.3, ValAUC: 0.2}, true},
		{Trial{ValScore: 0.3, ValAUC: 0.1}, false},
		{Trial{ValScore: 0.2, ValAUC: 0.3}, false}, // a tie on what is kept keeps the current
	} {
		if got := beats(c.t, Trial{ValScore: 0.2, ValAUC: 0.2}); got != c.want {
			t.Errorf("beats(%+v) = %v", c.t, got)
		}
	}
	// Under precision selection, no lower on either precision either.
	p := func(v float64) *float64 { return &v }
	cur := Trial{SelectedOn: models.SelectPrecision, ValScore: 1.5, ValAUC: 0.9, ValP1: p(0.8), ValP2: p(0.7)}
	for _, c := range []struct {
		p1, p2 float64
		want   bool
	}{{0.85, 0.7, true}, {0.9, 0.65, false}, {0.75, 0.8, false}} {
		cand := Trial{SelectedOn: models.SelectPrecision, ValScore: c.p1 + c.p2, ValAUC: 0.9, ValP1: p(c.p1), ValP2: p(c.p2)}
		if got := beats(cand, cur); got != c.want {
			t.Errorf("P@1 %v, P@2 %v against 0.8, 0.7: beats = %v", c.p1, c.p2, got)
		}
	}
}

// A budget the trials outrun ends the search with the trials that fit,
// by a clock that each epoch moves one second: the current settings take
// 100 s, round 1's eight candidates 5 s each, and round 2's 15 s trials
// no longer fit 150 s, so round 1's best is chosen at its 5 epochs.
func TestSearchKeepsToBudget(t *testing.T) {
	var clock time.Time
	ticking := scored
	ticking.New = func() models.Config { return &tickingConfig{scoredConfig{Q: 1, Epochs: 100}, &clock} }
	opt := Options{Candidates: 9, Eta: 3, MinEpochs: 5, Seeds: []uint64{1}, Seed: 3, Budget: 150 * time.Second,
		now: func() time.Time { return clock }}
	res, err := Search(context.Background(), ticking, noData, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cut == "" || len(res.Trials) != 9 || res.Best["q"] != "9" || res.Best["epochs"] != "5" || res.Seconds != 140 {
		t.Errorf("cut %q after %d trials in %v s: best %v", res.Cut, len(res.Trials), res.Seconds, res.Best)
	}
	// With room for round 2, the search runs as planned.
	clock = time.Time{}
	opt.Budget = 170 * time.Second
	if res, err = Search(context.Background(), ticking, noData, opt); err != nil || res.Cut != "" || len(res.Trials) != 11 || res.Best["epochs"] != "15" || res.Seconds != 170 {
		t.Errorf("a budget that fits: cut %q, %d trials in %v s, best %v, %v", res.Cut, len(res.Trials), res.Seconds, res.Best, err)
	}
}

// tickingConfig is scoredConfig moving a clock one second per epoch.
type tickingConfig struct {
	scoredConfig
	clock *time.Time
}

func (c *tickingConfig) Train(ctx context.Context, run models.Run, progress func(models.Progress)) (models.Trained, error) {
	*c.clock = c.clock.Add(time.Duration(c.Epochs) * time.Second)
	return c.scoredConfig.Train(ctx, run, progress)
}

// A machine so slow that the current settings' own run outlasts the
// budget: the run is stopped at the budget, no candidate trains, and the
// current settings stay, with the cut said.
func TestSearchBudgetEndsCurrentRun(t *testing.T) {
	waiting := scored
	waiting.New = func() models.Config { return &waitingConfig{scoredConfig{Q: 1, Epochs: 100}} }
	res, err := Search(context.Background(), waiting, noData, Options{Candidates: 3, Eta: 3, MinEpochs: 5, Seeds: []uint64{0}, Budget: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.KeptCurrent || res.Best["q"] != "1" || len(res.Trials) != 0 || res.Cut == "" {
		t.Errorf("kept %v, best %v, %d trials, cut %q", res.KeptCurrent, res.Best, len(res.Trials), res.Cut)
	}
	// The caller's own cancel is an error, not a cut.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, waiting, noData, Options{Candidates: 3, Eta: 3, MinEpochs: 5, Seeds: []uint64{0}, Budget: time.Hour}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// waitingConfig is scoredConfig whose training lasts until its context
// ends.
type waitingConfig struct{ scoredConfig }

func (c *waitingConfig) Train(ctx context.Context, _ models.Run, _ func(models.Progress)) (models.Trained, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// rankedConfig's validation MRR is a/10 and its validation AUC 0.9 −
// b/1000: under Options.Rank a candidate wins on MRR while its AUC stays
// within RankAUCSlack of the current settings' (a = b = 2).
type rankedConfig struct{ keptConfig }

func (c *rankedConfig) Train(_ context.Context, run models.Run, _ func(models.Progress)) (models.Trained, error) {
	r := models.Result{Result: loop.Result{ValAUC: 0.9 - c.B/1000, ValScore: 0.9 - c.B/1000, Epochs: c.Epochs}, SelectedOn: models.SelectAUC}
	r.ValRanking = &eval.Ranking{MRR: c.A / 10}
	return result{r}, nil
}

var ranked = models.Spec{
	Name:   "ranked",
	New:    func() models.Config { return &rankedConfig{keptConfig{A: 2, B: 2, Epochs: 10}} },
	Learns: true,
	Space:  kept.Space,
}

func TestSearchRanksOnHardNegatives(t *testing.T) {
	opt := Options{Candidates: 8, Eta: 9, MinEpochs: 10, Seeds: []uint64{0, 1}, Rank: true}
	res, err := Search(context.Background(), ranked, noData, opt)
	if err != nil {
		t.Fatal(err)
	}
	// a = 3 has the highest MRR; b = 3 costs 0.001 of AUC (within the
	// slack), so any b goes with it, and the ties go to the first drawn.
	if res.KeptCurrent || res.Best["a"] != "3" || res.Chosen.ValMRR == nil || math.Abs(*res.Chosen.ValMRR-0.3) > 1e-12 || math.Abs(*res.Current.ValMRR-0.2) > 1e-12 {
		t.Fatalf("best %v, chosen %+v", res.Best, res.Chosen)
	}
	p := func(v float64) *float64 { return &v }
	cur := Trial{ValMRR: p(0.2), ValAUC: 0.9}
	for _, c := range []struct {
		mrr, auc float64
		want     bool
	}{{0.3, 0.9, true}, {0.3, 0.9 - RankAUCSlack + 1e-9, true}, {0.3, 0.9 - RankAUCSlack - 1e-9, false}, {0.2, 0.95, false}} {
		if got := beats(Trial{ValMRR: p(c.mrr), ValAUC: c.auc}, cur); got != c.want {
			t.Errorf("MRR %v, AUC %v against 0.2, 0.9: beats = %v", c.mrr, c.auc, got)
		}
	}
	// A split without hard negatives cannot be ranked.
	if _, err := Search(context.Background(), kept, noData, opt); err == nil || !strings.Contains(err.Error(), "has none") {
		t.Fatalf("ranking without negatives: err = %v", err)
	}
}
