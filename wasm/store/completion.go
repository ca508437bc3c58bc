package store

import "math"

// CancelledMetric is the checkpoint metric that marks the weights of a
// cancelled run: its value is the number of epochs the run had done when
// it was cancelled. A checkpoint without it (every checkpoint written
// before it existed included) is of a run that ended by itself, so a page
// restoring "the newest model" can pass over the cancelled ones.
const CancelledMetric = "cancelled_at_epoch"

// CancelledAt reports whether m is the checkpoint of a cancelled run and,
// if so, after how many epochs. An epoch count that is not a whole number
// in range (a hand-made file) still marks the run cancelled, with 0 epochs.
func (m Meta) CancelledAt() (epochs int, cancelled bool) {
	v, ok := m.Metrics[CancelledMetric]
	if !ok {
		return 0, false
	}
	if v >= 0 && v <= math.MaxInt32 && v == math.Trunc(v) {
		return int(v), true
	}
	return 0, true
}
