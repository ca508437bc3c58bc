package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/shard"
	"ilpgnn/core/split"
)

// pipePeer is a helper served on a goroutine of this process, as a Web
// Worker would serve it: shard.Serve over two channels.
type pipePeer struct {
	in, out chan []byte
	once    sync.Once
}

func newPipePeer() *pipePeer {
	p := &pipePeer{in: make(chan []byte, 4), out: make(chan []byte, 32)}
	go func() {
		defer close(p.out)
		_ = shard.Serve(context.Background(), func() ([]byte, error) {
			m, ok := <-p.in
			if !ok {
				return nil, io.EOF
			}
			return m, nil
		}, func(m []byte) error { p.out <- m; return nil })
	}()
	return p
}

func (p *pipePeer) Send(m []byte) error { p.in <- bytes.Clone(m); return nil }

func (p *pipePeer) Receive(ctx context.Context) ([]byte, error) {
	select {
	case m, ok := <-p.out:
		if !ok {
			return nil, errors.New("helper gone")
		}
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipePeer) Close() error { p.once.Do(func() { close(p.in) }); return nil }

// pipeHelpers is Options.Helpers with in-process helpers; started counts
// the helpers asked for.
func pipeHelpers(started *int) func(context.Context, *shard.Kit, int) (shard.Runner, error) {
	return func(_ context.Context, kit *shard.Kit, n int) (shard.Runner, error) {
		*started += n
		peers := make([]shard.Peer, n)
		for i := range peers {
			peers[i] = newPipePeer()
		}
		return shard.Coordinate(kit, peers)
	}
}

// pipePush is Options.Push with in-process helpers; asked records the
// helpers of each push.
func pipePush(asked *[]int) func(context.Context, *graph.Graph, diffusion.Options, int, func(int, int)) (*diffusion.Similarity, error) {
	return func(ctx context.Context, g *graph.Graph, opt diffusion.Options, n int, progress func(int, int)) (*diffusion.Similarity, error) {
		*asked = append(*asked, n)
		peers := make([]shard.Peer, n)
		for i := range peers {
			p := newPipePeer()
			defer p.Close()
			peers[i] = p
		}
		return shard.PushShared(ctx, g, opt, peers, nil, progress)
	}
}

// TestTrainWorkersSameBits: a sharded run (batches of 200 pairs on
// synth:sparse) trained with 1, 3 and the default number of workers on
// a 4-core machine gives the same checkpoint bytes, S̃'s pushes of the
// whole and the training graph shared between as many; the progress events
// within its epochs name their phase and the workers, and the result says
// how many computed its shards.
func TestTrainWorkersSameBits(t *testing.T) {
	var ckpts [][]byte
	for _, workers := range []any{1, 3, nil} {
		started := 0
		var pushes []int
		p := newPageWith(t, nil, nil, func(o *Options) { o.Helpers, o.Push, o.Cores = pipeHelpers(&started), pipePush(&pushes), 4 })
		p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
		args := map[string]any{"seed": 2, "select": "auc", "config": map[string]any{"batch-size": 200, "epochs": 3}}
		if workers != nil {
			args["workers"] = workers
		}
		id := p.send("train", args, nil)
		r := p.wait(id)
		if r.Type != "result" {
			t.Fatalf("workers %v: %s %+v", workers, r.Type, r.Error)
		}
		var tr TrainResult
		roundTrip(t, r.Result, &tr)
		want := DefaultWorkers(4) // 3: one core left to the page
		if workers != nil {
			want = workers.(int)
		}
		if tr.Workers != want || started != want-1 {
			t.Fatalf("workers %v: result says %d workers, %d helpers started; want %d", workers, tr.Workers, started, want)
		}
		if len(pushes) != 2 || pushes[0] != want-1 || pushes[1] != want-1 {
			t.Fatalf("workers %v: pushes with %v helpers, want the whole and the training graph's with %d", workers, pushes, want-1)
		}
		p.mu.Lock()
		events := p.events[id]
		p.mu.Unlock()
		phases := map[string]bool{}
		for _, e := range events {
			if e.Phase != "" {
				phases[e.Phase] = true
				if e.Workers != want || e.Batches != shard.Count || e.Batch > e.Batches {
					t.Fatalf("workers %v: progress within an epoch %+v", workers, e)
				}
			}
		}
		if !phases["selection and losses"] {
			t.Fatalf("workers %v: no progress within an epoch among %d events", workers, len(events))
		}
		ckpts = append(ckpts, p.call("checkpoints.export", map[string]any{"key": tr.Key}, nil).Bytes)
	}
	for k := 1; k < len(ckpts); k++ {
		if !bytes.Equal(ckpts[0], ckpts[k]) {
			t.Fatalf("the checkpoint of run %d differs from one worker's", k)
		}
	}
}

// TestDefaultWorkers: one worker per core but the page's, except that
// two cores train on both and one on its one.
func TestDefaultWorkers(t *testing.T) {
	for cores, want := range map[int]int{0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 16: 15} {
		if got := DefaultWorkers(cores); got != want {
			t.Errorf("DefaultWorkers(%d) = %d, want %d", cores, got, want)
		}
	}
}

func TestTrainWorkersOutOfRange(t *testing.T) {
	p := newPage(t, nil)
	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	for _, n := range []int{0, -1, shard.Count + 1} {
		if e := p.callErr("train", map[string]any{"workers": n}, nil); e.Code != CodeBadRequest {
			t.Errorf("workers %d: %+v", n, e)
		}
	}
}

// TestWorkersCount: the default is one fewer than the cores, at least one
// and at most shard.Count, and the workers' estimated memory fits
// WorkersBudget.
func TestWorkersCount(t *testing.T) {
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
	kit := &shard.Kit{Model: cfg, BatchSize: 200, Inputs: in, Pos: sp.TrainPos}
	helper := shard.HelperMemory(kit)
	for _, c := range []struct {
		asked, cores int
		coordinator  int64
		want         int
	}{
		{0, 8, 0, 7}, {0, 1, 0, 1}, {0, 0, 0, 1}, {0, 64, 0, shard.Count}, {5, 2, 0, 5}, {1, 16, 0, 1},
		// Room for exactly two helpers beside the coordinator.
		{0, 8, WorkersBudget - 2*helper, 3},
		{0, 8, WorkersBudget, 1},
	} {
		if got := Workers(c.asked, c.cores, c.coordinator, kit); got != c.want {
			t.Errorf("Workers(%d, %d cores, coordinator %d) = %d, want %d", c.asked, c.cores, c.coordinator, got, c.want)
		}
	}
}

// TestCancelWithinEpoch: a cancel delivered at the engine's yield after
// the third shard of a sharded run's first epoch ends the run before the
// epoch does: cancelled, no epoch completed, no shard after the third.
func TestCancelWithinEpoch(t *testing.T) {
	p := newPageWith(t, nil, nil, func(o *Options) { o.Cores = 1 })
	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	cancelAt(p, 5) // the yields of epoch 1: encoder, validation, then one per shard
	id := p.send("train", map[string]any{"seed": 2, "config": map[string]any{"batch-size": 200, "epochs": 3}}, nil)
	r := p.wait(id)
	var tr TrainResult
	roundTrip(t, r.Result, &tr)
	if !tr.Cancelled || tr.Epochs != 0 {
		t.Fatalf("result %+v, want cancelled within the first epoch", tr)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.events[id] {
		if e.Phase == "" || e.Batch > 3 {
			t.Fatalf("a report after the cancel: %+v", e)
		}
	}
}

// TestCancelDuringSharedPush: a cancel read between the ranges of the
// whole graph's shared push ends the run at once, before anything
// trained: cancelled with no checkpoint, the push ended by the cancel
// after no more ranges here, the training graph never prepared.
func TestCancelDuringSharedPush(t *testing.T) {
	var pushes, yields int
	var pushErr error
	p := newPageWith(t, nil, nil, func(o *Options) { o.Cores = 2 })
	p.e.opt.Push = func(ctx context.Context, g *graph.Graph, opt diffusion.Options, n int, progress func(int, int)) (*diffusion.Similarity, error) {
		pushes++
		peer := newPipePeer()
		defer peer.Close()
		s, err := shard.PushShared(ctx, g, opt, []shard.Peer{peer}, func() {
			if yields++; yields == 2 {
				p.mu.Lock()
				target := p.next
				p.mu.Unlock()
				p.send("cancel", map[string]any{"target": target}, nil)
			}
		}, progress)
		pushErr = err
		return s, err
	}
	p.call("generate", map[string]any{"preset": "sparse", "seed": 1}, nil)
	r := p.wait(p.send("train", map[string]any{"seed": 2, "config": map[string]any{"epochs": 3}}, nil))
	var tr TrainResult
	roundTrip(t, r.Result, &tr)
	if !tr.Cancelled || tr.Key != "" || tr.Epochs != 0 {
		t.Fatalf("result %+v, want cancelled before anything trained", tr)
	}
	if pushes != 1 || !errors.Is(pushErr, context.Canceled) || yields != 2 {
		t.Fatalf("%d pushes, the last ending with %v after %d ranges here; want 1, cancelled, 2", pushes, pushErr, yields)
	}
}
