// Package tune chooses a model's hyperparameters on validation AUC alone,
// by successive halving: it draws candidate settings from the model's
// search space (models.Spec.Space), trains every candidate for a few
// epochs, keeps the best 1/Eta of them and trains those for Eta times
// more epochs, until one is left. The last round also trains the current
// settings (the model's defaults with the user's fixed ones), and a
// search keeps them unless a candidate scores higher: it never returns a
// choice that did worse than what the user had. Every choice comes from
// the options' seeds, so the same call gives the same answer.
package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/models"
	"ilpgnn/core/split"
)

// Options configure a search.
type Options struct {
	// Candidates is how many settings are drawn from the search space's
	// grid (every point of it when the grid is smaller).
	Candidates int
	// Eta is the factor of each round: 1/Eta of the candidates go on, for
	// Eta times the epochs.
	Eta int
	// MinEpochs are the epochs of the first round; no round trains longer
	// than the model's own maximum.
	MinEpochs int
	// Seeds are the tuning seeds: a candidate's score is its mean
	// validation AUC over one run per seed (each seed its own split).
	Seeds []uint64
	// Seed draws the candidates from the grid.
	Seed uint64
	// Fixed are settings by flag name that every candidate keeps (the
	// user's own), left out of the search.
	Fixed map[string]string
	// Slowdown is the host's epoch time relative to the native one the
	// cost model estimates (WasmSlowdown in a browser; 0 means 1): Plan
	// fits and EstimateOf states the host's time.
	Slowdown float64
	// Progress, when not nil, is called after every trial.
	Progress func(Trial)
	// Epoch, when not nil, is called after every epoch inside a trial
	// with the trial (its ValAUC and Seconds not yet known) and its epochs
	// done so far, counted over its seeds' runs: on a large graph a trial
	// takes minutes, and a progress bar should move within it.
	Epoch func(t Trial, done int)
}

// DefaultOptions are 9 candidates, thirds kept, 20 epochs to start.
func DefaultOptions() Options {
	return Options{Candidates: 9, Eta: 3, MinEpochs: 20, Seeds: []uint64{0}}
}

// Trial is one candidate trained in one round.
type Trial struct {
	Round int // 1-based
	// Candidate is the index among the drawn candidates; the current
	// settings, trained in the last round, come after them.
	Candidate int
	Current   bool              // the current settings, not a drawn candidate
	Settings  map[string]string // by flag name, the searched ones
	Epochs    int               // at most this many in this round
	ValAUC    float64           // mean over the seeds
	Seconds   float64
}

// Result is a finished search.
type Result struct {
	Model string
	// Best are the chosen settings by flag name (the searched ones and
	// the fixed ones), ValAUC their score in the last round.
	Best   map[string]string
	ValAUC float64
	// KeptCurrent says no candidate beat the current settings in the
	// last round, so Best are they; CurrentValAUC is their score there.
	KeptCurrent   bool
	CurrentValAUC float64
	Trials        []Trial
	// Seconds is the search's actual time.
	Seconds float64
}

// Data loads the dataset and split of a tuning seed.
type Data func(seed uint64) (*dataset.Dataset, *split.Split, error)

// ErrNothingToTune is returned for a model without a search space.
var ErrNothingToTune = errors.New("tune: the model has no hyperparameters to search")

// Search runs successive halving for spec on data.
func Search(ctx context.Context, spec models.Spec, data Data, opt Options) (*Result, error) {
	if len(spec.Space) == 0 {
		return nil, ErrNothingToTune
	}
	if opt.Candidates < 1 || opt.Eta < 2 || opt.MinEpochs < 1 || len(opt.Seeds) == 0 {
		return nil, fmt.Errorf("tune: want at least 1 trial, eta at least 2, 1 epoch in the first round and 1 seed (got %d, %d, %d, %d)",
			opt.Candidates, opt.Eta, opt.MinEpochs, len(opt.Seeds))
	}
	base, err := Configure(spec, opt.Fixed)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	// The user's own maximum (or the model's) caps every round.
	maxEpochs := base.Loop().Epochs
	space := free(spec.Space, opt.Fixed)
	current := currentSettings(base, space)
	cands := drawExcept(space, opt.Candidates, opt.Seed, current)
	alive := make([]int, len(cands))
	for k := range alive {
		alive[k] = k
	}
	start := time.Now()
	res := &Result{Model: spec.Name}
	epochs := opt.MinEpochs
	for round := 1; ; round++ {
		epochs = min(epochs, max(maxEpochs, 1))
		last := max(1, len(alive)/opt.Eta) == 1 || epochs >= maxEpochs
		scores := make(map[int]float64, len(alive))
		run := func(t Trial) (float64, error) {
			tr, err := trial(ctx, spec, data, opt, t)
			if err != nil {
				return 0, fmt.Errorf("tune: %s candidate %d (%v): %w", spec.Name, t.Candidate, t.Settings, err)
			}
			res.Trials = append(res.Trials, tr)
			if opt.Progress != nil {
				opt.Progress(tr)
			}
			return tr.ValAUC, nil
		}
		for _, c := range alive {
			if scores[c], err = run(Trial{Round: round, Candidate: c, Settings: cands[c], Epochs: epochs}); err != nil {
				return nil, err
			}
		}
		if last {
			// The current settings at the last round's epochs: the bar a
			// choice must clear.
			if res.CurrentValAUC, err = run(Trial{Round: round, Candidate: len(cands), Current: true, Settings: current, Epochs: epochs}); err != nil {
				return nil, err
			}
		}
		// Best first; ties go to the earlier candidate, so the order is
		// total and the same on every machine.
		slices.SortStableFunc(alive, func(a, b int) int {
			if c := cmp.Compare(scores[b], scores[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		alive = alive[:min(len(alive), max(1, len(alive)/opt.Eta))]
		if last {
			if len(alive) == 0 || res.CurrentValAUC >= scores[alive[0]] {
				res.Best, res.ValAUC, res.KeptCurrent = merge(current, opt.Fixed), res.CurrentValAUC, true
			} else {
				res.Best, res.ValAUC = merge(cands[alive[0]], opt.Fixed), scores[alive[0]]
			}
			res.Seconds = time.Since(start).Seconds()
			return res, nil
		}
		epochs *= opt.Eta
	}
}

// trial trains out's candidate for its epochs on every seed and returns
// out with the mean validation AUC and the time taken.
func trial(ctx context.Context, spec models.Spec, data Data, opt Options, out Trial) (Trial, error) {
	start := time.Now()
	run := merge(out.Settings, opt.Fixed)
	if _, ok := models.Settings(spec.New())["epochs"]; ok {
		run = merge(run, map[string]string{"epochs": fmt.Sprint(out.Epochs)})
	}
	var progress func(models.Progress)
	if opt.Epoch != nil {
		running, done := out, 0 // out gathers the score; reports show none
		progress = func(p models.Progress) {
			if p.Prepare == nil && p.EpochDone {
				done++
				opt.Epoch(running, done)
			}
		}
	}
	cfg, err := Configure(spec, run)
	if err != nil {
		return out, err
	}
	for _, seed := range opt.Seeds {
		d, sp, err := data(seed)
		if err != nil {
			return out, err
		}
		t, err := cfg.Train(ctx, models.Run{Data: d, Split: sp, Seed: seed, Select: models.SelectAUC}, progress)
		if err != nil {
			return out, err
		}
		out.ValAUC += t.Result().ValAUC / float64(len(opt.Seeds))
	}
	out.Seconds = time.Since(start).Seconds()
	return out, nil
}

// Configure returns spec's configuration with settings applied by flag
// name (models.Set), checked.
func Configure(spec models.Spec, settings map[string]string) (models.Config, error) {
	cfg := spec.New()
	if err := models.Set(cfg, settings); err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	return cfg, cfg.Validate()
}

// currentSettings are cfg's values of the flags of space: the point of
// the grid a search starts from.
func currentSettings(cfg models.Config, space []models.Dim) map[string]string {
	all := models.Settings(cfg)
	out := make(map[string]string, len(space))
	for _, d := range space {
		out[d.Flag] = all[d.Flag]
	}
	return out
}

// drawExcept is Draw without the point except: n other points of the
// grid (all of them when there are fewer), in the order drawn.
func drawExcept(space []models.Dim, n int, seed uint64, except map[string]string) []map[string]string {
	out := slices.DeleteFunc(Draw(space, n+1, seed), func(p map[string]string) bool { return sameSettings(p, except) })
	return out[:min(n, len(out))]
}

// sameSettings says a and b set the same flags to the same values,
// numbers compared as numbers ("0.10" is "0.1").
func sameSettings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok {
			return false
		}
		x, errX := strconv.ParseFloat(v, 64)
		y, errY := strconv.ParseFloat(w, 64)
		if v != w && (errX != nil || errY != nil || x != y) {
			return false
		}
	}
	return true
}

// Draw returns n points of the grid of space (every point when the grid
// has at most n), drawn without replacement by seed, in the order drawn.
func Draw(space []models.Dim, n int, seed uint64) []map[string]string {
	size := 1
	for _, d := range space {
		size *= len(d.Values)
	}
	order := make([]int, size)
	for k := range order {
		order[k] = k
	}
	rng := rand.New(rand.NewPCG(seed, 0x74756e65)) // "tune"
	rng.Shuffle(size, func(a, b int) { order[a], order[b] = order[b], order[a] })
	out := make([]map[string]string, 0, min(n, size))
	for _, point := range order[:min(n, size)] {
		m := make(map[string]string, len(space))
		for _, d := range space {
			m[d.Flag] = d.Values[point%len(d.Values)]
			point /= len(d.Values)
		}
		out = append(out, m)
	}
	return out
}

// free is space without the dimensions fixed names.
func free(space []models.Dim, fixed map[string]string) []models.Dim {
	var out []models.Dim
	for _, d := range space {
		if _, ok := fixed[d.Flag]; !ok {
			out = append(out, d)
		}
	}
	return out
}

// merge returns a's settings with b's over them.
func merge(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
