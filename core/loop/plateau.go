package loop

import (
	"flag"
	"fmt"
	"math"
)

// Plateau is early stopping with learning-rate decay: it watches each
// epoch's validation score and, once Patience epochs have passed without
// the score rising MinDelta above where it last rose, either multiplies
// the learning rate by Factor (the first Decays times) or stops the run.
// A rise smaller than MinDelta is not progress, so a run creeping up by
// hundredths of a point ends instead of waiting on each creep; the weights
// a run keeps are still those of its best score, however small the rise.
//
// The zero MinDelta and Decays are early stopping as it was: stop
// Patience epochs after the last better score.
type Plateau struct {
	Patience int     // epochs without progress before a decay or the stop
	MinDelta float64 // the smallest rise that counts as progress
	Decays   int     // decays of the learning rate before a plateau stops the run
	Factor   float64 // the learning rate's multiplier at each decay, in (0, 1)

	ref      float64 // the score at the last progress
	since    int     // the epoch of the last progress or decay
	decayed  int     // decays so far
	observed bool
}

// Observe takes epoch's score (epochs counted from 1, in order) and says
// whether the run should stop after this epoch.
func (p *Plateau) Observe(epoch int, score float64) (stop bool) {
	if !p.observed || score > p.ref+p.MinDelta {
		p.observed, p.ref, p.since = true, score, epoch
		return false
	}
	if epoch-p.since < p.Patience {
		return false
	}
	if p.decayed < p.Decays {
		p.decayed++
		p.since = epoch
		return false
	}
	return true
}

// Scale is the learning rate's multiplier now: Factor to the number of
// decays so far.
func (p *Plateau) Scale() float64 {
	return math.Pow(p.Factor, float64(p.decayed))
}

// Left is how many more epochs after epoch the run takes if its score
// never makes progress again: what is left of the current wait and a
// whole one for each decay to come.
func (p *Plateau) Left(epoch int) int {
	return max(p.Patience-(epoch-p.since), 0) + (p.Decays-p.decayed)*p.Patience
}

// RegisterPlateau binds MinDelta, Decays and Factor to the flags
// min-delta, decays and decay-factor of fs; Patience is bound by
// Settings.Register. score names the score, as there.
func RegisterPlateau(fs *flag.FlagSet, minDelta *float64, decays *int, factor *float64, score string) {
	fs.Float64Var(minDelta, "min-delta", *minDelta, "the smallest rise of the "+score+" that counts as progress for --patience (0: any rise)")
	fs.IntVar(decays, "decays", *decays, "times the learning rate is multiplied by --decay-factor after --patience epochs without progress, before such a wait stops the run")
	fs.Float64Var(factor, "decay-factor", *factor, "the learning rate's multiplier at each of --decays")
}

// ValidatePlateau reports a plateau setting out of range, quoting its
// value.
func ValidatePlateau(minDelta float64, decays int, factor float64) error {
	switch {
	case !(minDelta >= 0) || math.IsInf(minDelta, 1):
		return fmt.Errorf("min-delta must be non-negative and finite (got %g)", minDelta)
	case decays < 0:
		return fmt.Errorf("decays must be non-negative (got %d)", decays)
	case decays > 0 && !(factor > 0 && factor < 1):
		return fmt.Errorf("decay factor must be in (0, 1) (got %g)", factor)
	}
	return nil
}
