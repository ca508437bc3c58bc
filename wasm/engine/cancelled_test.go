package engine

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/wasm/store"
)

// cancelAt makes p's engine cancel its training run from the training
// goroutine itself after the epoch-th epoch, so where it stops does not
// depend on scheduling.
func cancelAt(p *page, epoch int) {
	var n atomic.Int64
	p.e.opt.Yield = func() {
		if n.Add(1) != int64(epoch) {
			return
		}
		p.mu.Lock()
		target := p.next
		p.mu.Unlock()
		p.send("cancel", map[string]any{"target": target}, nil)
	}
}

// storedMetric decodes the checkpoint stored under key with package
// checkpoint (not the store's Meta) and returns its metric name.
func storedMetric(t *testing.T, st store.Store, key, name string) (float64, bool) {
	t.Helper()
	data, err := st.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	ck, err := checkpoint.Unmarshal(data)
	if err != nil {
		t.Fatalf("decode %s: %v", key, err)
	}
	for _, m := range ck.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

func TestCancelledCheckpointMarked(t *testing.T) {
	st := &store.Memory{}
	p := newPage(t, st)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)

	var done TrainResult
	p.call("train", map[string]any{"config": map[string]any{"epochs": 3}, "seed": 7, "saveOnCancel": true}, &done)
	if done.Cancelled || !done.Saved.Saved || done.Epochs != 3 || done.CancelledAtEpoch != nil {
		t.Fatalf("completed run: %+v", done)
	}
	if v, ok := storedMetric(t, st, done.Key, store.CancelledMetric); ok {
		t.Errorf("completed run's checkpoint carries %s = %v", store.CancelledMetric, v)
	}

	cancelAt(p, 2)
	var cut TrainResult
	p.call("train", map[string]any{"config": map[string]any{"epochs": 50, "patience": 50}, "seed": 8, "saveOnCancel": true}, &cut)
	if !cut.Cancelled || !cut.Saved.Saved || cut.Epochs < 2 || cut.Epochs >= 50 || cut.Key == done.Key {
		t.Fatalf("cancelled run: %+v", cut)
	}
	if cut.CancelledAtEpoch == nil || *cut.CancelledAtEpoch != cut.Epochs {
		t.Fatalf("cancelled run's cancelledAtEpoch %v, want %d", cut.CancelledAtEpoch, cut.Epochs)
	}
	if v, ok := storedMetric(t, st, cut.Key, store.CancelledMetric); !ok || v != float64(cut.Epochs) {
		t.Errorf("cancelled run's checkpoint: %s = %v (present %v), want %d", store.CancelledMetric, v, ok, cut.Epochs)
	}

	// A reloaded page lists and restores each as what it is.
	q := newPage(t, st)
	q.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	var list CheckpointList
	q.call("checkpoints.list", nil, &list)
	if len(list.Checkpoints) != 2 {
		t.Fatalf("listing: %+v", list)
	}
	for _, c := range list.Checkpoints {
		epochs, cancelled := c.CancelledAt()
		want := c.Key == cut.Key
		if cancelled != want || (want && epochs != cut.Epochs) {
			t.Errorf("listed %s: cancelled %v after %d, want %v after %d", c.Key, cancelled, epochs, want, cut.Epochs)
		}
	}
	var mi ModelInfo
	q.call("checkpoints.load", map[string]any{"key": cut.Key}, &mi)
	if mi.CancelledAtEpoch == nil || *mi.CancelledAtEpoch != cut.Epochs {
		t.Errorf("restored cancelled run: cancelledAtEpoch %v, want %d", mi.CancelledAtEpoch, cut.Epochs)
	}
	var mc ModelInfo
	q.call("checkpoints.load", map[string]any{"key": done.Key}, &mc)
	if mc.CancelledAtEpoch != nil {
		t.Errorf("restored completed run: cancelledAtEpoch %d", *mc.CancelledAtEpoch)
	}
}

// A cancelled run with the same settings as a stored completed one has the
// same key; it must not replace the completed checkpoint.
func TestCancelledRunKeepsCompleted(t *testing.T) {
	nativeOnly(t, "which checkpoint a cancelled run may replace")
	st := &store.Memory{}
	p := newPage(t, st)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 0}, nil)
	args := map[string]any{"config": map[string]any{"epochs": 4}, "seed": 7, "saveOnCancel": true}
	var done TrainResult
	p.call("train", args, &done)
	kept, err := st.Get(context.Background(), done.Key)
	if err != nil {
		t.Fatal(err)
	}

	cancelAt(p, 1)
	var cut TrainResult
	p.call("train", args, &cut)
	if !cut.Cancelled || cut.Key != done.Key || cut.Saved.Saved || !strings.Contains(cut.Saved.Message, "completed run") {
		t.Fatalf("cancelled rerun: %+v", cut)
	}
	var saved SaveStatus
	p.call("checkpoints.save", nil, &saved)
	if saved.Saved || !strings.Contains(saved.Message, "completed run") {
		t.Errorf("explicit save of the cancelled rerun: %+v", saved)
	}
	if now, err := st.Get(context.Background(), done.Key); err != nil || !bytes.Equal(now, kept) {
		t.Fatalf("the completed checkpoint was replaced (%v)", err)
	}

	// A cancelled run may replace a cancelled one: nothing completed is lost.
	other := map[string]any{"config": map[string]any{"epochs": 40, "patience": 40}, "seed": 9, "saveOnCancel": true}
	cancelAt(p, 1)
	var first TrainResult
	p.call("train", other, &first)
	cancelAt(p, 3)
	var second TrainResult
	p.call("train", other, &second)
	if !first.Saved.Saved || !second.Saved.Saved || first.Key != second.Key || second.Epochs <= first.Epochs {
		t.Fatalf("cancelled runs of one key: %+v, then %+v", first, second)
	}
	if v, _ := storedMetric(t, st, second.Key, store.CancelledMetric); v != float64(second.Epochs) {
		t.Errorf("stored %s = %v, want the later run's %d", store.CancelledMetric, v, second.Epochs)
	}
}
