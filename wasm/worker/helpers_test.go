//go:build js && wasm

package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall/js"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/shard"
	"ilpgnn/core/split"
)

// fakeWorkerJS is a stand-in for the Worker constructor under node: it
// delivers messages asynchronously, from the event loop, as a browser
// does. toHelper (set by the test) receives what the engine posts; reply
// and fail fire the Worker's events on the engine's side.
const fakeWorkerJS = `
return class FakeWorker {
  constructor(url, options) {
    this.url = url; this.options = options; this.transferred = []; this.terminated = false; this.replies = 0;
    FakeWorker.last = this;
  }
  postMessage(data, transfer) {
    this.transferred.push(Array.isArray(transfer) && transfer.length === 1 && transfer[0] === data.buffer);
    setTimeout(() => this.toHelper(data), 0);
  }
  terminate() { this.terminated = true; }
  reply(data) { this.replies++; setTimeout(() => { if (!this.terminated && this.onmessage) this.onmessage({ data }); }, 0); }
  fail(message) {
    const ev = { message, preventDefault: () => { this.prevented = true; } };
    setTimeout(() => { if (!this.terminated && this.onerror) this.onerror(ev); }, 0);
  }
};`

// withFakeWorker installs the fake Worker for the test.
func withFakeWorker(t *testing.T) js.Value {
	t.Helper()
	fake := js.Global().Get("Function").New(fakeWorkerJS).Invoke()
	old := js.Global().Get("Worker")
	js.Global().Set("Worker", fake)
	t.Cleanup(func() { js.Global().Set("Worker", old) })
	return fake
}

// testEpoch is a kit and an epoch of a fresh model on synth:sparse, in
// batches of 50 pairs.
func testEpoch(t *testing.T) (*shard.Kit, *shard.Epoch) {
	t.Helper()
	src, err := dataset.Parse("synth:sparse:seed=1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(1)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(1, split.DefaultValFrac, split.DefaultTestFrac)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ilpgnn.DefaultConfig()
	in, err := ilpgnn.Prepare(sp.Train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ilpgnn.New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obj := ilpgnn.Objective{Lambda: 1, Delta: 0.5}
	P := len(sp.TrainPos)
	pairs := append(append([]graph.Edge{}, sp.TrainPos...), make([]graph.Edge, P)...)
	labels := make([]float32, 2*P)
	for k := range P {
		labels[k] = 1
	}
	split.NewNegativeSampler(1).Sample(pairs[P:], sp.Train)
	hr := m.Encode(nil, in, 0, nil).Value
	kit := &shard.Kit{Model: cfg, Objective: obj, BatchSize: 50, Inputs: in, Pos: sp.TrainPos, Anchor: m.AnchorEmbeddings(in)}
	return kit, &shard.Epoch{Index: 1, Seed: 7, Norms: m.EpochNorms(in, pairs, labels, obj), HR: hr, Neg: pairs[P:]}
}

// localEpoch is the epoch's gradient and losses computed here alone.
func localEpoch(t *testing.T, kit *shard.Kit, e *shard.Epoch) ([]float32, shard.Losses) {
	t.Helper()
	r, _ := shard.Local(t.Context(), kit)
	grad := make([]float32, len(e.HR))
	losses, err := r.Epoch(t.Context(), e, grad, nil)
	if err != nil {
		t.Fatal(err)
	}
	return grad, losses
}

// serveFake connects the fake worker to shard.Serve on a goroutine of this
// program: the helper's side, as helper.go runs it in a Worker.
func serveFake(w js.Value) {
	in := newQueue[received]()
	w.Set("toHelper", js.FuncOf(func(_ js.Value, args []js.Value) any {
		in.push(fromEngine(args[0]))
		return nil
	}))
	go shard.Serve(context.Background(), func() ([]byte, error) {
		r := in.pop()
		return r.data, r.err
	}, func(b []byte) error {
		arr := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(arr, b)
		w.Call("reply", arr)
		return nil
	})
}

// TestHelpersRoundTrip: a run whose shards go half to a helper Worker, in
// bytes through postMessage, has the bits of one computed here alone, and
// every message's buffer is transferred.
func TestHelpersRoundTrip(t *testing.T) {
	fake := withFakeWorker(t)
	kit, e := testEpoch(t)
	want, wantLosses := localEpoch(t, kit, e)

	r, err := startHelpers(js.ValueOf("worker.js?role=shard"))(t.Context(), kit, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := fake.Get("last")
	if w.Get("url").String() != "worker.js?role=shard" || r.Workers() != 2 {
		t.Fatalf("started %s, %d workers", w.Get("url").String(), r.Workers())
	}
	serveFake(w)
	for epoch := range 2 {
		grad := make([]float32, len(e.HR))
		losses, err := r.Epoch(t.Context(), e, grad, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(grad, want) || losses != wantLosses {
			t.Fatalf("epoch %d: the gradient or losses differ from one worker's", epoch)
		}
	}
	// The helper did its half, the odd shards (shard.Owner), each sent as
	// it was done.
	if n := w.Get("replies").Int(); n != 2*shard.Count/2 {
		t.Errorf("the helper sent %d shards in 2 epochs, want %d", n, 2*shard.Count/2)
	}
	// The kit and one task per epoch, each moved, not copied.
	var moved []bool
	for k := range w.Get("transferred").Length() {
		moved = append(moved, w.Get("transferred").Index(k).Bool())
	}
	if !slices.Equal(moved, []bool{true, true, true}) {
		t.Errorf("transferred %v, want 3 messages moved", moved)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if !w.Get("terminated").Bool() || !w.Get("onmessage").IsNull() {
		t.Error("Close leaves the worker running or its handler set")
	}
}

// TestHelperFailure: a helper that reports a failure, or whose Worker
// fires error, is terminated and its shards are computed here: the same
// bits.
func TestHelperFailure(t *testing.T) {
	fake := withFakeWorker(t)
	kit, e := testEpoch(t)
	want, _ := localEpoch(t, kit, e)
	for _, tc := range []struct {
		name string
		fail func(w js.Value)
	}{
		{"failure message", func(w js.Value) {
			msg := js.Global().Get("Object").New()
			msg.Set("type", helperFailed)
			msg.Set("message", "the engine could not start")
			w.Call("reply", msg)
		}},
		{"error event", func(w js.Value) { w.Call("fail", "Script error") }},
		{"not bytes", func(w js.Value) { w.Call("reply", "hello") }},
	} {
		r, err := startHelpers(js.ValueOf("worker.js"))(t.Context(), kit, 1)
		if err != nil {
			t.Fatal(err)
		}
		w := fake.Get("last")
		w.Set("toHelper", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
		tc.fail(w)
		grad := make([]float32, len(e.HR))
		if _, err := r.Epoch(t.Context(), e, grad, nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(grad, want) {
			t.Errorf("%s: the gradient differs from one worker's", tc.name)
		}
		if !w.Get("terminated").Bool() {
			t.Errorf("%s: the failed helper was not terminated", tc.name)
		}
		if tc.name == "error event" && !w.Get("prevented").Truthy() {
			t.Errorf("%s: the error event goes on to this worker's handlers", tc.name)
		}
		r.Close()
	}
}

// TestReceiveCancel: Receive, waiting on a silent helper, returns when a
// JavaScript callback cancels its context (as the page's cancel message
// does), and the helper stays usable.
func TestReceiveCancel(t *testing.T) {
	withFakeWorker(t)
	p, err := newWorkerPeer("worker.js")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(t.Context())
	stop := js.FuncOf(func(js.Value, []js.Value) any { cancel(); return nil })
	defer stop.Release()
	js.Global().Call("setTimeout", stop, 10)
	if _, err := p.Receive(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Receive: %v, want context.Canceled", err)
	}
	arr := js.Global().Get("Uint8Array").New(2)
	js.CopyBytesToJS(arr, []byte{4, 2})
	p.worker.Call("reply", arr)
	if b, err := p.Receive(t.Context()); err != nil || !slices.Equal(b, []byte{4, 2}) {
		t.Fatalf("Receive after a cancel: %v, %v", b, err)
	}
}

// TestNoWorker: where a worker cannot start workers of its own, starting
// helpers fails (the engine then trains alone), and with no helper script
// there is no Helpers at all.
func TestNoWorker(t *testing.T) {
	old := js.Global().Get("Worker")
	js.Global().Set("Worker", js.Undefined())
	defer js.Global().Set("Worker", old)
	if _, err := startHelpers(js.ValueOf("worker.js"))(t.Context(), &shard.Kit{}, 2); err == nil || !strings.Contains(err.Error(), "cannot start workers") {
		t.Errorf("no Worker: %v", err)
	}
	if startHelpers(js.Undefined()) != nil {
		t.Error("Helpers without a script")
	}
}
