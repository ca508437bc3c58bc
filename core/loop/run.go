package loop

import (
	"context"
	"errors"
	"math"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/heart"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

// Trainer is what one model family brings to the loop: how it trains an
// epoch. Everything around the epochs — Adam and its learning rate,
// cancellation, the best weights' snapshot and restore, early stopping,
// the reports and the timing — is Run's.
type Trainer interface {
	// Epoch trains epoch e.Index. It takes each optimiser step through
	// e.Step, after e.CheckLoss has passed the step's loss, and calls
	// e.Judge once, at the moment the parameters hold the weights its
	// validation score is of (before the epoch's update or after it, as
	// the family decides). It returns the epoch's loss terms (Loss and
	// whichever of Cls, Pos, Neg, KL and PosShare the family has; Batch
	// and Batches if it steps per mini-batch); Run fills in the rest. An
	// error ends the run and the epoch does not count.
	Epoch(ctx context.Context, e *Epoch) (Progress, error)
}

// Options are a run's settings.
type Options struct {
	Seed   uint64          // reported in every Progress
	Params []*autograd.Var // the weights Adam steps, snapshots and restores
	// LR is Adam's learning rate; over the first Warmup epochs it rises
	// linearly from LR/Warmup (0 or 1: no warmup), and each of Stop's
	// decays multiplies it by Stop.Factor.
	LR          float64
	Warmup      int
	WeightDecay float64
	Epochs      int     // at most this many
	Stop        Plateau // early stopping on the judged scores
	// Progress, if non-nil, is called after every epoch and with every
	// report an epoch makes within (Epoch.Report).
	Progress func(Progress)
	// Kept, if non-nil, is called whenever an epoch judges better weights
	// than any before it (from Epoch.Judge, so before the rest of that
	// epoch and its Progress), with the epoch and the weights (in Params
	// order): the weights a run ending now would keep, so a caller can
	// use them while training goes on. They are the loop's own until the
	// next better epoch: the call must copy what it keeps and change
	// nothing.
	Kept func(epoch int, weights [][]float32)
}

// Result is what a finished (or cancelled) run measured; the parameters
// hold the weights of the best score when Run returns.
type Result struct {
	Epochs    int // epochs completed
	BestEpoch int // the epoch whose weights were kept
	// StoppedDuring is the epoch under way when the run was cancelled
	// within it (that epoch does not count in Epochs); 0 when the run
	// ended between epochs.
	StoppedDuring int
	// ValAUC and ValScore are the validation AUC and the selection score
	// (ValAUC unless the family judges on another) of the kept weights;
	// both are -1 when no epoch judged any.
	ValAUC   float64
	ValScore float64
	TestAUC  float64
	// TestHits is Hits@20, @50 and @100 of the test links against the
	// test non-links (OGB's protocol).
	TestHits eval.Hits
	// TestRanking ranks each test link among its own hard negatives
	// (split.Split.TestHard), and ValRanking each validation link
	// (ValHard), both with the kept weights; nil when the split has none.
	TestRanking, ValRanking *eval.Ranking
	// SuggestHits10 is the share of test links (heart.SuggestLinks at
	// most) whose other end is among the first 10 suggestions of their
	// first end, when the split names its known links (split.Known).
	SuggestHits10 *float64
	TrainSeconds  float64 // the epochs, validation included
	EpochMillis   float64 // TrainSeconds per epoch, in milliseconds
	TestSeconds   float64
	History       []Progress // one per completed epoch
}

// Epoch is the loop's side of one epoch, handed to Trainer.Epoch.
type Epoch struct {
	Index int     // 1-based
	LR    float64 // the learning rate of this epoch's steps
	run   *runState
	// judged holds the scores Judge was given.
	judged           bool
	valAUC, valScore float64
}

// CheckLoss returns an error wrapping optim.ErrDiverged, naming the epoch
// and its learning rate, when loss is not a finite number.
func (e *Epoch) CheckLoss(loss float64) error { return optim.CheckLoss(e.Index, loss, e.LR) }

// Step takes one Adam step on the parameters' gradients at the epoch's
// learning rate, then returns an error wrapping optim.ErrDiverged if a
// weight is no longer finite.
func (e *Epoch) Step() error {
	a := e.run.adam
	a.LR = e.LR
	a.Step()
	return a.CheckWeights(e.Index)
}

// Judge takes the validation AUC and the selection score (higher is
// better; the AUC itself for most families) of the weights the
// parameters hold now, and keeps a copy of them when the score is the
// best so far.
func (e *Epoch) Judge(auc, score float64) {
	r := e.run
	e.judged, e.valAUC, e.valScore = true, auc, score
	if score > r.bestScore {
		r.bestScore = score
		r.res.ValScore, r.res.ValAUC, r.res.BestEpoch = score, auc, e.Index
		r.best = autograd.Snapshot(r.opt.Params, r.best)
		if r.opt.Kept != nil {
			r.opt.Kept(e.Index, r.best)
		}
	}
}

// Report passes a report from within the epoch (a mini-batch done) to the
// run's progress, with the run's best so far filled in.
func (e *Epoch) Report(p Progress) {
	if e.run.opt.Progress != nil {
		e.run.opt.Progress(e.run.fill(p, e.Index))
	}
}

// runState is a run between epochs.
type runState struct {
	opt  Options
	res  *Result
	adam *optim.Adam
	stop Plateau
	best [][]float32 // the weights of the best score so far
	// bestScore is res.ValScore once an epoch is judged, -Inf before.
	bestScore float64
	start     time.Time
}

// fill completes a family's report of epoch with what the loop knows.
func (r *runState) fill(p Progress, epoch int) Progress {
	p.Seed, p.Epoch, p.MaxEpochs = r.opt.Seed, epoch, r.opt.Epochs
	p.BestValAUC, p.BestScore, p.BestEpoch = r.res.ValAUC, r.res.ValScore, r.res.BestEpoch
	p.Patience = r.stop.Patience
	p.StopEpoch = min(r.opt.Epochs, epoch+r.stop.Left(epoch))
	p.Elapsed = time.Since(r.start)
	return p
}

// Run trains with t for at most o.Epochs epochs. Before each it checks
// ctx; after each it asks o.Stop whether the judged score still makes
// progress. At the end the best judged weights (the initial ones when no
// epoch judged any) are restored into o.Params. It returns the result so
// far with the error that ended the run: ctx's, or the trainer's.
func Run(ctx context.Context, t Trainer, o Options) (*Result, error) {
	adam := optim.NewAdam(o.Params, o.LR)
	adam.WeightDecay = o.WeightDecay
	r := &runState{opt: o, res: &Result{ValAUC: -1, ValScore: -1}, adam: adam, stop: o.Stop, bestScore: math.Inf(-1),
		best: autograd.Snapshot(o.Params, nil), start: time.Now()}
	res := r.res
	var runErr error
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			runErr = err
			break
		}
		e := &Epoch{Index: epoch, run: r,
			LR: o.LR * min(1, float64(epoch)/float64(max(o.Warmup, 1))) * r.stop.Scale()}
		p, err := t.Epoch(ctx, e)
		if err != nil {
			runErr = err
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				res.StoppedDuring = epoch
			}
			break
		}
		res.Epochs = epoch
		stop := e.judged && r.stop.Observe(epoch, e.valScore)
		p.EpochDone, p.LR = true, e.LR
		if e.judged {
			p.ValAUC, p.Score = e.valAUC, e.valScore
		}
		p = r.fill(p, epoch)
		res.History = append(res.History, p)
		if o.Progress != nil {
			o.Progress(p)
		}
		if stop {
			break
		}
	}
	autograd.Restore(o.Params, r.best)
	res.TrainSeconds = time.Since(r.start).Seconds()
	res.EpochMillis = 1000 * res.TrainSeconds / float64(max(res.Epochs, 1))
	return res, runErr
}

// Test scores the test pairs of sp with logits (the links, then the
// non-links), records their AUC, Hits and the time taken in r, and
// returns the scores. When sp has hard negatives it scores them too, in
// pieces (ScoreInPieces), and records how each link ranks among its
// own (TestRanking).
func (r *Result) Test(sp *split.Split, logits func([]graph.Edge) []float32) []float32 {
	start := time.Now()
	pairs := append(append([]graph.Edge{}, sp.TestPos...), sp.TestNeg...)
	s := logits(pairs)
	n := len(sp.TestPos)
	r.TestAUC, r.TestHits = eval.AUC(s[:n], s[n:]), eval.HitsOf(s[:n], s[n:])
	r.TestRanking = ranking(s[:n], sp.TestHard, logits)
	if sp.Known != nil {
		pairs, starts, own := heart.SuggestionPairs(sp.Train, sp.Known, sp.TestPos)
		h := heart.SuggestionHits(pairs, starts, own, ScoreInPieces(pairs, logits), 10)
		r.SuggestHits10 = &h
	}
	if len(sp.ValHard) > 0 {
		r.ValRanking = ranking(logits(sp.ValPos), sp.ValHard, logits)
	}
	r.TestSeconds = time.Since(start).Seconds()
	return s
}

// ranking scores hard, the hard negatives of links scored pos, and ranks
// each link among its own; nil without negatives.
func ranking(pos []float32, hard []graph.Edge, logits func([]graph.Edge) []float32) *eval.Ranking {
	if len(hard) == 0 {
		return nil
	}
	r := eval.RankingOf(pos, ScoreInPieces(hard, logits))
	return &r
}

// ScoreInPieces scores pairs with logits pieceSize pairs at a time: enough
// that a model which embeds the graph for each call does so rarely, few
// enough that the scores' working memory stays small.
func ScoreInPieces(pairs []graph.Edge, logits func([]graph.Edge) []float32) []float32 {
	out := make([]float32, 0, len(pairs))
	for lo := 0; lo < len(pairs); lo += pieceSize {
		out = append(out, logits(pairs[lo:min(lo+pieceSize, len(pairs))])...)
	}
	return out
}

const pieceSize = 1 << 17

// ValidationPairs returns sp's validation links followed by its
// validation non-links, the order Judge's AUC is computed on.
func ValidationPairs(sp *split.Split) []graph.Edge {
	return append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
}

// AUC returns the AUC of scores whose first nPos are of links and the
// rest of non-links.
func AUC(scores []float32, nPos int) float64 { return eval.AUC(scores[:nPos], scores[nPos:]) }

// TrainingPairs returns the pairs of a full-batch epoch on sp — its
// training links, then room for as many negatives, which each epoch draws
// afresh — and their labels, 1 then 0.
func TrainingPairs(sp *split.Split) ([]graph.Edge, []float32) {
	P := len(sp.TrainPos)
	pairs := make([]graph.Edge, 2*P)
	copy(pairs, sp.TrainPos)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	return pairs, labels
}
