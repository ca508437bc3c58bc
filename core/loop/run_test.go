package loop

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/optim"
)

// scripted is a one-weight trainer whose validation scores are given in
// advance: each epoch it sets the gradient of (w-3)², judges the weight it
// starts from with the next score, and steps. It records what it saw.
type scripted struct {
	w        *autograd.Var
	scores   []float64
	judgedW  []float32 // the weight each epoch judged
	lrs      []float64 // each epoch's learning rate
	grad     float32   // when non-zero, the gradient instead of (w-3)²'s
	onReport func(e *Epoch)
}

func (s *scripted) Epoch(_ context.Context, e *Epoch) (Progress, error) {
	s.lrs = append(s.lrs, e.LR)
	w := s.w.Value[0]
	loss := float64((w - 3) * (w - 3))
	if err := e.CheckLoss(loss); err != nil {
		return Progress{}, err
	}
	s.judgedW = append(s.judgedW, w)
	sc := s.scores[e.Index-1]
	e.Judge(sc/2, sc)
	if s.onReport != nil {
		s.onReport(e)
	}
	s.w.Grad[0] = 2 * (w - 3)
	if s.grad != 0 {
		s.w.Grad[0] = s.grad
	}
	if err := e.Step(); err != nil {
		return Progress{}, err
	}
	return Progress{Loss: loss}, nil
}

func newScripted(scores ...float64) *scripted {
	w := autograd.NewParam(1, 1)
	return &scripted{w: w, scores: scores}
}

// TestRunKeepsBestAndStops: with patience 2 the run stops two epochs after
// its best score, reports every epoch with the best so far, and leaves the
// weight that best epoch judged (before its update) in the parameter.
func TestRunKeepsBestAndStops(t *testing.T) {
	s := newScripted(0.5, 0.7, 0.6, 0.65, 0.9, 0.9)
	var reports []Progress
	res, err := Run(context.Background(), s, Options{Seed: 7, Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 6,
		Stop: Plateau{Patience: 2}, Progress: func(p Progress) { reports = append(reports, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Epochs != 4 || res.BestEpoch != 2 || res.ValScore != 0.7 || res.ValAUC != 0.35 {
		t.Fatalf("epochs %d, best %d (score %v, AUC %v); want 4, 2 (0.7, 0.35)", res.Epochs, res.BestEpoch, res.ValScore, res.ValAUC)
	}
	if got, want := s.w.Value[0], s.judgedW[1]; got != want || want == s.judgedW[3] {
		t.Errorf("restored weight %v, want epoch 2's %v (and not the last judged %v)", got, want, s.judgedW[3])
	}
	if len(reports) != 4 || len(res.History) != 4 {
		t.Fatalf("%d reports, %d history entries; want 4", len(reports), len(res.History))
	}
	wantBest := []int{1, 2, 2, 2}
	wantStop := []int{3, 4, 4, 4}
	for k, p := range reports {
		if p.Epoch != k+1 || p.MaxEpochs != 6 || p.Seed != 7 || !p.EpochDone || p.Score != s.scores[k] || p.ValAUC != s.scores[k]/2 ||
			p.BestEpoch != wantBest[k] || p.StopEpoch != wantStop[k] || p.Patience != 2 || p.LR != 0.1 {
			t.Errorf("report %d: %+v", k+1, p)
		}
		if want := float64((s.judgedW[k] - 3) * (s.judgedW[k] - 3)); p.Loss != want {
			t.Errorf("report %d: loss %v, want the trainer's %v", k+1, p.Loss, want)
		}
	}
	if !(res.EpochMillis >= 0) || res.TrainSeconds < 0 {
		t.Errorf("times %v s, %v ms an epoch", res.TrainSeconds, res.EpochMillis)
	}
}

// TestRunLearningRate: the warmup rises linearly over its epochs, and each
// decay of the plateau multiplies the rate by its factor.
func TestRunLearningRate(t *testing.T) {
	s := newScripted(1, 1, 1, 1, 1, 1, 1, 1)
	_, err := Run(context.Background(), s, Options{Params: []*autograd.Var{s.w}, LR: 0.8, Warmup: 4, Epochs: 8,
		Stop: Plateau{Patience: 2, Decays: 1, Factor: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	// Scores never rise after epoch 1: epoch 3 ends the first wait (a
	// decay), epoch 5 the second (the stop).
	want := []float64{0.2, 0.4, 0.6, 0.4, 0.4}
	if len(s.lrs) != len(want) {
		t.Fatalf("learning rates %v, want %v", s.lrs, want)
	}
	for k := range want {
		if math.Abs(s.lrs[k]-want[k]) > 1e-15 {
			t.Errorf("learning rates %v, want %v", s.lrs, want)
			break
		}
	}
}

// TestRunCancel: a cancel ends the run with ctx's error before the next
// epoch, and the weights are the best judged.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := newScripted(0.9, 0.5, 0.4, 0.3)
	s.onReport = func(e *Epoch) {
		if e.Index == 3 {
			cancel()
		}
	}
	// The trainer does not look at ctx: the loop stops before epoch 4.
	res, err := Run(ctx, s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 4, Stop: Plateau{Patience: 10}})
	if err != context.Canceled || res.Epochs != 3 || res.BestEpoch != 1 || s.w.Value[0] != 0 || res.StoppedDuring != 0 {
		t.Errorf("err %v, %d epochs, best %d, weight %v, stopped during %d; want Canceled, 3, 1, the initial 0 and between epochs (0)",
			err, res.Epochs, res.BestEpoch, s.w.Value[0], res.StoppedDuring)
	}
}

// cancelledWithin is a scripted trainer that returns ctx's error from
// epoch at, as a trainer stopping between two of its shards does.
type cancelledWithin struct {
	*scripted
	at     int
	cancel context.CancelFunc
}

func (c *cancelledWithin) Epoch(ctx context.Context, e *Epoch) (Progress, error) {
	if e.Index == c.at {
		c.cancel()
		return Progress{}, ctx.Err()
	}
	return c.scripted.Epoch(ctx, e)
}

// TestRunCancelWithinEpoch: a trainer cancelled inside epoch 3 leaves 2
// epochs done, names epoch 3 as the one it stopped during, and keeps the
// best weights judged before.
func TestRunCancelWithinEpoch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &cancelledWithin{scripted: newScripted(0.5, 0.8, 0.9), at: 3, cancel: cancel}
	res, err := Run(ctx, s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 5, Stop: Plateau{Patience: 10}})
	if err != context.Canceled || res.Epochs != 2 || res.StoppedDuring != 3 || res.BestEpoch != 2 || s.w.Value[0] != s.judgedW[1] {
		t.Errorf("err %v, %d epochs, stopped during %d, best %d, weight %v; want Canceled, 2, 3, 2 and epoch 2's %v",
			err, res.Epochs, res.StoppedDuring, res.BestEpoch, s.w.Value[0], s.judgedW[1])
	}
}

// TestRunKept: Kept is called when an epoch judges a better score,
// before that epoch's Progress, with the epoch and the weights it judged;
// after the run the parameters hold the last weights Kept was given.
func TestRunKept(t *testing.T) {
	s := newScripted(0.5, 0.7, 0.6, 0.8, 0.75)
	type kept struct {
		epoch    int
		w        float32
		reported int // progress reports before the call
	}
	var got []kept
	reports := 0
	_, err := Run(context.Background(), s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 5, Stop: Plateau{Patience: 10},
		Progress: func(Progress) { reports++ },
		Kept:     func(epoch int, w [][]float32) { got = append(got, kept{epoch, w[0][0], reports}) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []kept{{1, s.judgedW[0], 0}, {2, s.judgedW[1], 1}, {4, s.judgedW[3], 3}}
	if len(got) != len(want) {
		t.Fatalf("Kept calls %+v, want %+v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("Kept call %d: %+v, want %+v", k, got[k], want[k])
		}
	}
	if s.w.Value[0] != got[len(got)-1].w {
		t.Errorf("restored weight %v, want the last kept %v", s.w.Value[0], got[len(got)-1].w)
	}
}

// TestRunDiverges: a step that makes the weight infinite ends the run with
// ErrDiverged naming the epoch; the epoch does not count and the weights
// go back to the best judged (here the initial ones).
func TestRunDiverges(t *testing.T) {
	s := newScripted(0.5, 0.6)
	s.grad = float32(math.Inf(1))
	res, err := Run(context.Background(), s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 2, Stop: Plateau{Patience: 1}})
	if !errors.Is(err, optim.ErrDiverged) || !strings.Contains(err.Error(), "epoch 1: ") {
		t.Fatalf("err = %v, want ErrDiverged at epoch 1", err)
	}
	if res.Epochs != 0 || len(res.History) != 0 || s.w.Value[0] != 0 {
		t.Errorf("%d epochs, weight %v; want 0 and the initial 0", res.Epochs, s.w.Value[0])
	}
}

// TestReportWithinEpoch: a report from within an epoch carries the best so
// far from the epochs before it.
func TestReportWithinEpoch(t *testing.T) {
	s := newScripted(0.6, 0.4)
	var within []Progress
	s.onReport = func(e *Epoch) {
		if e.Index == 2 {
			e.Report(Progress{Batch: 1, Batches: 3, Loss: 5})
		}
	}
	_, err := Run(context.Background(), s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 2, Stop: Plateau{Patience: 5},
		Progress: func(p Progress) {
			if !p.EpochDone {
				within = append(within, p)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(within) != 1 || within[0].Epoch != 2 || within[0].Batch != 1 || within[0].Loss != 5 || within[0].BestEpoch != 1 || within[0].BestScore != 0.6 {
		t.Errorf("reports within: %+v", within)
	}
}

// TestRunNothingJudged: a run that ends before any epoch judged reports -1
// for the kept scores (JSON has no -Inf) and keeps the initial weights.
func TestRunNothingJudged(t *testing.T) {
	s := newScripted(0.5)
	s.w.Value[0] = float32(math.NaN())
	res, err := Run(context.Background(), s, Options{Params: []*autograd.Var{s.w}, LR: 0.1, Epochs: 1, Stop: Plateau{Patience: 1}})
	if !errors.Is(err, optim.ErrDiverged) || !strings.Contains(err.Error(), "the loss is NaN") {
		t.Fatalf("err = %v, want a NaN loss", err)
	}
	if res.ValScore != -1 || res.ValAUC != -1 || res.BestEpoch != 0 || res.Epochs != 0 || !math.IsNaN(float64(s.w.Value[0])) {
		t.Errorf("score %v, AUC %v, best %d, epochs %d, weight %v", res.ValScore, res.ValAUC, res.BestEpoch, res.Epochs, s.w.Value[0])
	}
}
