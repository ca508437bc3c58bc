// Package tune chooses a model's hyperparameters by successive halving:
// it draws candidate settings from the model's search space
// (models.Spec.Space), trains every candidate for a few epochs, keeps the
// best 1/Eta of them and trains those for Eta times more epochs, until
// one is left. Candidates keep their weights and are compared as the
// final training keeps weights (Options.Select): on validation AUC, or on
// the validation links' explanation precision on a graph with
// groundtruth. The current settings (the model's defaults with the
// user's fixed ones) train first, as train would train them, and a search
// keeps them unless a candidate scores higher on what the training keeps
// and no lower on validation AUC or precision: it never returns a choice
// that did worse than what the user had. Every choice comes from the
// options' seeds, so the same call gives the same answer, unless a
// budget cut it short on a machine slower than planned (Result.Cut).
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
	// Seeds are the tuning seeds: a candidate's score is its mean over
	// one run per seed (each seed its own split).
	Seeds []uint64
	// Seed draws the candidates from the grid.
	Seed uint64
	// Fixed are settings by flag name that every candidate keeps (the
	// user's own), left out of the search.
	Fixed map[string]string
	// Select is the rule the final training keeps its weights by
	// (models.Run.Select; "" is models.SelectAuto). Every trial keeps
	// weights by it, and candidates are ranked on what it keeps them by,
	// so that a choice is judged as the training that uses it judges.
	Select models.Selection
	// Rank compares candidates on how they rank each validation link
	// among hard negatives of its own (the MRR of loop.Result.ValRanking;
	// Data's splits carry them, split.Split.ValHard) instead of on what
	// kept the weights: a candidate wins with a higher MRR and a
	// validation AUC at most RankAUCSlack below the current one.
	Rank bool
	// Budget, when positive, is the search's time: before each candidate's
	// trial the search checks, from the time its trials took so far, that
	// the trial fits what is left, and ends the search with the trials
	// that did when it does not (Result.Cut says so). The current
	// settings' trial always runs.
	Budget time.Duration
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
	// now is the clock that times trials (time.Now when nil), which tests
	// replace.
	now func() time.Time
}

// clock returns opt's clock.
func (opt Options) clock() func() time.Time {
	if opt.now != nil {
		return opt.now
	}
	return time.Now
}

// DefaultOptions are 9 candidates, thirds kept, 20 epochs to start.
func DefaultOptions() Options {
	return Options{Candidates: 9, Eta: 3, MinEpochs: 20, Seeds: []uint64{0}}
}

// Trial is one candidate trained in one round.
type Trial struct {
	Round int // 1-based
	// Candidate is the index among the drawn candidates; the current
	// settings, trained first, come after them.
	Candidate int
	Current   bool              // the current settings, not a drawn candidate
	Settings  map[string]string // by flag name, the searched ones
	// Epochs is the most this trial trains; the current settings train to
	// the user's maximum, stopping early as train does.
	Epochs int
	// Trained is the most epochs one of its seeds' runs trained; Capped
	// says one ran all Epochs without stopping early, so that training
	// longer might have kept other weights.
	Trained int
	Capped  bool
	// SelectedOn is the rule that kept its weights: models.SelectPrecision
	// or models.SelectAUC.
	SelectedOn models.Selection
	// ValScore is the mean over the seeds of what kept the weights: the
	// validation AUC, or validation Precision@1 + Precision@2 under
	// models.SelectPrecision. ValAUC is the mean validation AUC, ValP1 and
	// ValP2 the mean validation precision of the kept weights'
	// explanations on a graph with groundtruth (nil elsewhere).
	ValScore     float64
	ValAUC       float64
	ValP1, ValP2 *float64
	// ValMRR is the mean validation MRR among hard negatives, under
	// Options.Rank (nil elsewhere).
	ValMRR  *float64
	Seconds float64
}

// RankAUCSlack is how far below the current settings' validation AUC a
// candidate compared on MRR (Options.Rank) may fall and still win.
const RankAUCSlack = 0.003

// Result is a finished search.
type Result struct {
	Model string
	// Best are the chosen settings by flag name (the searched ones and
	// the fixed ones, and the epochs of its trial when that trial was
	// capped, so that training with Best trains what the search measured),
	// ValAUC their validation AUC, Chosen their trial.
	Best   map[string]string
	ValAUC float64
	Chosen Trial
	// KeptCurrent says no candidate beat the current settings, so Best
	// are they; CurrentValAUC is their validation AUC, Current their trial.
	KeptCurrent   bool
	CurrentValAUC float64
	Current       Trial
	Trials        []Trial
	// Cut says what the budget left out, "" when the search ran as
	// planned. When the budget ran out during the current settings' own
	// run, Current holds no scores and Best are the current settings.
	Cut string
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
	maxEpochs := max(base.Loop().Epochs, 1)
	space := free(spec.Space, opt.Fixed)
	current := currentSettings(base, space)
	cands := drawExcept(space, opt.Candidates, opt.Seed, current)
	alive := make([]int, len(cands))
	for k := range alive {
		alive[k] = k
	}
	s := &search{ctx: ctx, spec: spec, data: data, opt: opt, start: opt.clock()(), res: &Result{Model: spec.Name}, maxEpochs: maxEpochs}
	// The current settings first, as train trains them: the bar a choice
	// must clear is measured before any candidate, and it times the
	// machine. Within the budget: a machine so slow that their run
	// outlasts it leaves them as they are, with nothing else trained.
	curCtx, stop := ctx, context.CancelFunc(func() {})
	if opt.Budget > 0 {
		curCtx, stop = context.WithTimeout(ctx, opt.Budget)
	}
	s.ctx = curCtx
	cur, err := s.run(Trial{Round: 1, Candidate: len(cands), Current: true, Settings: current, Epochs: maxEpochs}, false)
	s.ctx = ctx
	timedOut := curCtx.Err() != nil && ctx.Err() == nil
	stop()
	switch {
	case err != nil && timedOut:
		s.res.Cut = "the budget ran out during the current settings' own run, so no candidate trained"
		cur.Current, cur.Settings = true, current
		s.choose(cur, nil)
		return s.res, nil
	case err != nil:
		return nil, err
	}
	var scored []Trial // the latest round's trials, best first
	epochs := opt.MinEpochs
	for round := 1; len(alive) > 0; round++ {
		epochs = min(epochs, maxEpochs)
		last := max(1, len(alive)/opt.Eta) == 1 || epochs >= maxEpochs
		var this []Trial
		for k, c := range alive {
			if !s.fits(epochs) {
				s.res.Cut = fmt.Sprintf("round %d trained %d of its %d candidates, to keep to the budget", round, k, len(alive))
				break
			}
			tr, err := s.run(Trial{Round: round, Candidate: c, Settings: cands[c], Epochs: epochs}, true)
			if err != nil {
				return nil, err
			}
			this = append(this, tr)
		}
		if len(this) > 0 {
			// Best first; ties go to the earlier candidate, so the order
			// is total and the same on every machine.
			slices.SortStableFunc(this, func(a, b Trial) int {
				if c := cmp.Compare(b.ValScore, a.ValScore); c != 0 {
					return c
				}
				return cmp.Compare(a.Candidate, b.Candidate)
			})
			scored = this
		}
		if last || s.res.Cut != "" {
			break
		}
		alive = alive[:0]
		for _, t := range this[:max(1, len(this)/opt.Eta)] {
			alive = append(alive, t.Candidate)
		}
		epochs *= opt.Eta
	}
	s.choose(cur, scored)
	return s.res, nil
}

// search is one Search under way.
type search struct {
	ctx   context.Context
	spec  models.Spec
	data  Data
	opt   Options
	start time.Time
	res   *Result
	// maxEpochs is the user's maximum (or the model's).
	maxEpochs int
	// seconds and epochs are the time and the epochs (over all seeds'
	// runs) of the trials so far, which time the machine.
	seconds float64
	epochs  int
}

// fits says a trial of epochs per seed fits the budget's rest, by the
// time an epoch of the trials so far took; always without a budget.
func (s *search) fits(epochs int) bool {
	if s.opt.Budget <= 0 || s.epochs == 0 {
		return true
	}
	perEpoch := s.seconds / float64(s.epochs)
	need := perEpoch * float64(epochs*len(s.opt.Seeds))
	return s.opt.clock()().Sub(s.start).Seconds()+need <= s.opt.Budget.Seconds()
}

// choose sets the result: the best of scored, the last round's trials
// best first, that beats cur on what the runs kept their weights by and
// is no lower on validation AUC and, under precision selection, on
// validation precision; cur when none does.
func (s *search) choose(cur Trial, scored []Trial) {
	r := s.res
	r.Current, r.CurrentValAUC = cur, cur.ValAUC
	r.Seconds = s.opt.clock()().Sub(s.start).Seconds()
	for _, t := range scored {
		if beats(t, cur) {
			r.Chosen, r.ValAUC = t, t.ValAUC
			r.Best = merge(t.Settings, s.opt.Fixed)
			if _, ok := models.Settings(s.spec.New())["epochs"]; ok && t.Capped && t.Epochs < s.maxEpochs {
				r.Best["epochs"] = strconv.Itoa(t.Epochs)
			}
			return
		}
	}
	r.Chosen, r.ValAUC, r.KeptCurrent = cur, cur.ValAUC, true
	r.Best = merge(cur.Settings, s.opt.Fixed)
}

// beats says t scores higher than cur on what kept the weights and no
// lower on validation AUC, nor on validation precision when that kept
// them.
func beats(t, cur Trial) bool {
	if t.ValMRR != nil && cur.ValMRR != nil {
		return *t.ValMRR > *cur.ValMRR && t.ValAUC >= cur.ValAUC-RankAUCSlack
	}
	if !(t.ValScore > cur.ValScore) || t.ValAUC < cur.ValAUC {
		return false
	}
	if t.SelectedOn == models.SelectPrecision && t.ValP1 != nil && cur.ValP1 != nil {
		return *t.ValP1 >= *cur.ValP1 && *t.ValP2 >= *cur.ValP2
	}
	return true
}

// run trains t (its epochs at most when capped, else as the settings
// say), reports it and adds it to the result.
func (s *search) run(t Trial, capped bool) (Trial, error) {
	tr, err := trial(s.ctx, s.spec, s.data, s.opt, t, capped)
	if err != nil {
		name := fmt.Sprintf("candidate %d", t.Candidate)
		if t.Current {
			name = "the current settings"
		}
		return tr, fmt.Errorf("tune: %s %s (%v): %w", s.spec.Name, name, t.Settings, err)
	}
	s.seconds += tr.Seconds
	s.epochs += max(tr.Trained, 1) * len(s.opt.Seeds)
	s.res.Trials = append(s.res.Trials, tr)
	if s.opt.Progress != nil {
		s.opt.Progress(tr)
	}
	return tr, nil
}

// trial trains out's candidate on every seed, for out.Epochs at most
// when capped, keeping weights by opt.Select, and returns out with its
// scores, the mean over the seeds, and the time taken.
func trial(ctx context.Context, spec models.Spec, data Data, opt Options, out Trial, capped bool) (Trial, error) {
	now := opt.clock()
	start := now()
	run := merge(out.Settings, opt.Fixed)
	if _, ok := models.Settings(spec.New())["epochs"]; ok && capped {
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
	given := make(map[string]bool, len(opt.Fixed))
	for name := range opt.Fixed {
		given[name] = true
	}
	n := float64(len(opt.Seeds))
	var p1, p2, mrr float64
	precise := true
	for _, seed := range opt.Seeds {
		d, sp, err := data(seed)
		if err != nil {
			return out, err
		}
		t, err := cfg.Train(ctx, models.Run{Data: d, Split: sp, Seed: seed, Select: opt.Select, Given: given}, progress)
		if err != nil {
			return out, err
		}
		r := t.Result()
		out.ValAUC += r.ValAUC / n
		out.SelectedOn = r.SelectedOn
		if r.SelectedOn == models.SelectPrecision {
			out.ValScore += r.ValScore / n
		} else {
			out.ValScore += r.ValAUC / n
		}
		if opt.Rank {
			if r.ValRanking == nil {
				return out, fmt.Errorf("tune: ranking on hard negatives, but seed %d's split has none", seed)
			}
			mrr += r.ValRanking.MRR / n
		}
		out.Trained = max(out.Trained, r.Epochs)
		out.Capped = out.Capped || r.Epochs >= out.Epochs
		var v1, v2 *float64
		if d != nil {
			v1, v2 = models.ValidationPrecision(t, d.Truth)
		}
		if v1 != nil {
			p1, p2 = p1+*v1/n, p2+*v2/n
		} else {
			precise = false
		}
	}
	if opt.Rank {
		out.ValMRR, out.ValScore = &mrr, mrr
	}
	if precise {
		out.ValP1, out.ValP2 = &p1, &p2
	}
	out.Seconds = now().Sub(start).Seconds()
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
