package loop

import "time"

// Progress reports a finished epoch, a mini-batch of one (families that
// step per batch of pairs), or a step of the preparation before the
// first. Every model family reports this one type.
type Progress struct {
	Seed             uint64
	Epoch, MaxEpochs int // Epoch is 1-based
	// Batch of Batches is the place within the epoch of families that
	// step per mini-batch; EpochDone marks the report that ends an epoch
	// (every report of the other families), and only it carries ValAUC,
	// Score and LR.
	Batch, Batches int
	EpochDone      bool
	// Phase, in a report within an epoch, is what the epoch is doing
	// (ILP-GNN's sharded epochs: train.PhaseEncoder and the others, with
	// Batch of Batches the shards done).
	Phase string
	Loss  float64 // the total minimised (in a batch report: the mean of the epoch's batches so far)
	// Cls is the loss's cross-entropy term; Pos and Neg are ILP-GNN's
	// explanation losses (L^p_dis and L^n_dis), KL the variational
	// autoencoder's.
	Cls, Pos, Neg, KL float64
	// PosShare is the fraction of ILP-GNN's training positives that feed
	// L^p_dis.
	PosShare   float64
	ValAUC     float64
	BestValAUC float64
	// Score is the selection criterion (validation AUC, or validation
	// precision where the run selects on it) and BestScore its best so
	// far, at BestEpoch.
	Score, BestScore float64
	BestEpoch        int
	LR               float64 // of this epoch's update
	Patience         int
	// StopEpoch, where set, is the last epoch the run takes unless its
	// score makes progress (early stopping that also decays the learning
	// rate waits more than Patience past BestEpoch).
	StopEpoch int
	Elapsed   time.Duration
	// Prepare, when set, makes this a report of the preparation before the
	// first epoch (Epoch 0).
	Prepare *Prepare
}

// Prepare is how far the preparation of a graph has got: Phase has done
// Done of Total units.
type Prepare struct {
	Phase       string
	Done, Total int
}

// Remaining estimates the time left from the mean epoch so far: at most
// MaxEpochs run, and early stopping ends the run at StopEpoch, or else
// Patience epochs after the best one, unless a better one comes.
func (p Progress) Remaining() time.Duration {
	done := float64(p.Epoch)
	if p.Batches > 0 {
		done = float64(p.Epoch-1) + float64(p.Batch)/float64(p.Batches)
	}
	if done <= 0 {
		return 0
	}
	stop := p.BestEpoch + p.Patience
	if p.StopEpoch > 0 {
		stop = p.StopEpoch
	}
	left := float64(p.Epoch) - done + float64(min(p.MaxEpochs-p.Epoch, max(stop-p.Epoch, 0)))
	return time.Duration(float64(p.Elapsed) / done * left)
}
