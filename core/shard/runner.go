package shard

import (
	"context"
	"errors"
	"fmt"
	"ilpgnn/core/ilpgnn"
	"runtime"
	"sync"
)

// Runner computes the shards of a run's epochs, wherever it computes them.
type Runner interface {
	// Epoch computes the gradient of e's loss with respect to H^r into
	// grad (N x d) and returns the shards' losses. progress, if not nil,
	// is called with the number of shards added so far, from one
	// goroutine at a time. It returns ctx's error soon after ctx is done
	// (before the next shard starts).
	Epoch(ctx context.Context, e *Epoch, grad []float32, progress func(done int)) (Losses, error)
	// Workers is how many workers compute the shards, this one included.
	Workers() int
	// Close lets the helpers go.
	Close() error
}

// Starter starts the runner of a run.
type Starter func(ctx context.Context, kit *Kit) (Runner, error)

type starterKey struct{}

// WithStarter returns a copy of ctx that makes training start its runner
// with start instead of Parallel (the browser's engine hands out shards
// to Web Workers this way).
func WithStarter(ctx context.Context, start Starter) context.Context {
	return context.WithValue(ctx, starterKey{}, start)
}

// StarterFrom returns the Starter ctx carries, or Parallel.
func StarterFrom(ctx context.Context) Starter {
	if s, ok := ctx.Value(starterKey{}).(Starter); ok && s != nil {
		return s
	}
	return Parallel
}

// Local computes every shard in this process, one after another, each on
// all CPUs. The browser's engine uses it: with one thread, a shard
// computed on a goroutine of its own (Parallel) would hold the event loop,
// and a cancel, until it is done.
func Local(_ context.Context, kit *Kit) (Runner, error) {
	return &local{w: NewWorker(kit)}, nil
}

type local struct{ w *Worker }

func (l *local) Workers() int { return 1 }
func (l *local) Close() error { return nil }

func (l *local) Epoch(ctx context.Context, e *Epoch, grad []float32, progress func(int)) (Losses, error) {
	var losses Losses
	validateHere(l.w, e)
	for s := range Count {
		if err := ctx.Err(); err != nil {
			return losses, err
		}
		leaf := l.w.buffer(len(grad))
		losses[s] = l.w.Shard(e, s, leaf)
		add(grad, leaf, s)
		if progress != nil {
			progress(s + 1)
		}
	}
	return losses, nil
}

// validateHere computes every validation logit of e with w and hands them
// to e.Validate, if it is set.
func validateHere(w *Worker, e *Epoch) {
	if e.Validate == nil {
		return
	}
	e.Validate(ilpgnn.PredictorFrom(w.model, w.kit.Inputs, e.HR).Logits(w.kit.Val))
}

// buffer returns the worker's shard gradient buffer of n floats.
func (w *Worker) buffer(n int) []float32 {
	if cap(w.leaf) < n {
		w.leaf = make([]float32, n)
	}
	return w.leaf[:n]
}

// Parallel computes the shards on goroutines, as many as the CPUs (at most
// Count), each shard on one goroutine: goroutine k takes shards k, k+n, …
// (Owner), and the caller adds them up in shard order as they come. It
// holds a shard's gradient per goroutine.
func Parallel(_ context.Context, kit *Kit) (Runner, error) {
	n := min(runtime.GOMAXPROCS(0), Count)
	p := &parallel{workers: make([]*Worker, n)}
	for k := range p.workers {
		p.workers[k] = NewWorker(kit)
		p.workers[k].batch.Threads = 1
	}
	return p, nil
}

type parallel struct{ workers []*Worker }

func (p *parallel) Workers() int { return 1 }
func (p *parallel) Close() error { return nil }

// computed is a shard's gradient and losses, or why it is missing.
type computed struct {
	leaf []float32
	loss Loss
	err  error
}

func (p *parallel) Epoch(ctx context.Context, e *Epoch, grad []float32, progress func(int)) (Losses, error) {
	validateHere(p.workers[0], e)
	ctx, stop := context.WithCancel(ctx)
	n := len(p.workers)
	var slots [Count]chan computed
	for s := range slots {
		slots[s] = make(chan computed, 1)
	}
	// A goroutine computes its next shard once the collector has added
	// its last one and handed its buffer back.
	back := make([]chan struct{}, n)
	var wg sync.WaitGroup
	for k, w := range p.workers {
		back[k] = make(chan struct{}, 1)
		back[k] <- struct{}{}
		wg.Go(func() {
			for s := k; s < Count; s += n {
				select {
				case <-back[k]:
				case <-ctx.Done():
					slots[s] <- computed{err: ctx.Err()}
					return
				}
				if err := ctx.Err(); err != nil {
					slots[s] <- computed{err: err}
					return
				}
				leaf := w.buffer(len(grad))
				slots[s] <- computed{leaf: leaf, loss: w.Shard(e, s, leaf)}
			}
		})
	}
	defer func() {
		stop() // a goroutine waiting for its buffer back gives up
		wg.Wait()
	}()
	var losses Losses
	for s := range Count {
		if err := ctx.Err(); err != nil {
			return losses, err
		}
		c := <-slots[s]
		if c.err != nil {
			return losses, c.err
		}
		add(grad, c.leaf, s)
		losses[s] = c.loss
		back[Owner(n, s)] <- struct{}{}
		if progress != nil {
			progress(s + 1)
		}
	}
	return losses, nil
}

// Peer is the coordinator's end of a connection to a helper that Serves.
type Peer interface {
	Send(msg []byte) error
	// Receive waits for the next message, or returns ctx's error, or the
	// error that ended the helper.
	Receive(ctx context.Context) ([]byte, error)
	Close() error
}

// Coordinate returns a runner that shares each epoch's shards between
// itself (worker 0) and peers (workers 1, 2, …) by Owner, after sending
// peers kit. It adds the shards up in order as they come, waiting for a
// helper's when it is that shard's turn. A peer that fails is dropped and
// its shards computed here, so the run loses nothing and its bits stay the
// same.
func Coordinate(kit *Kit, peers []Peer) (Runner, error) {
	if len(peers)+1 > Count {
		return nil, fmt.Errorf("shard: %d workers for %d shards", len(peers)+1, Count)
	}
	data, err := kit.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := &coordinator{w: NewWorker(kit), peers: peers, alive: make([]bool, len(peers))}
	for i, p := range peers {
		c.alive[i] = p.Send(data) == nil
	}
	return c, nil
}

type coordinator struct {
	w     *Worker
	peers []Peer
	alive []bool
	gen   int // epochs started: the messages of an abandoned one are told apart
}

func (c *coordinator) Workers() int { return len(c.peers) + 1 }

func (c *coordinator) Close() error {
	var errs []error
	for _, p := range c.peers {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}

func (c *coordinator) Epoch(ctx context.Context, e *Epoch, grad []float32, progress func(int)) (Losses, error) {
	c.gen++
	n := c.Workers()
	for i, p := range c.peers {
		if !c.alive[i] {
			continue
		}
		if p.Send(encodeTask(c.gen, e, i+1, n)) != nil {
			c.alive[i] = false
		}
	}
	if e.Validate != nil {
		logits, err := c.validation(ctx, e)
		if err != nil {
			return Losses{}, err
		}
		e.Validate(logits)
	}
	var losses Losses
	for s := range Count {
		if err := ctx.Err(); err != nil {
			return losses, err
		}
		leaf, loss, err := c.fromPeer(ctx, s, len(grad))
		if err != nil {
			return losses, err
		}
		if leaf == nil { // ours, or a failed helper's
			leaf = c.w.buffer(len(grad))
			loss = c.w.Shard(e, s, leaf)
		}
		add(grad, leaf, s)
		losses[s] = loss
		if progress != nil {
			progress(s + 1)
		}
	}
	return losses, nil
}

// validation gathers the validation logits of e: the coordinator's chunks
// (Owner 0) computed here, each helper's received (its first answer to the
// task), a failed helper's computed here.
func (c *coordinator) validation(ctx context.Context, e *Epoch) ([]float32, error) {
	n := c.Workers()
	logits := make([]float32, len(c.w.kit.Val))
	placeLogits(logits, c.w.ownedLogits(e, 0, n), 0, n)
	for i := range c.peers {
		k := i + 1
		msg, err := c.next(ctx, i)
		if err != nil {
			return nil, err
		}
		if msg != nil {
			got, err := decodeLogits(msg, c.gen, ownedCount(len(logits), k, n))
			if err == nil {
				placeLogits(logits, got, k, n)
				continue
			}
			c.alive[i] = false
		}
		placeLogits(logits, c.w.ownedLogits(e, k, n), k, n)
	}
	return logits, nil
}

// next returns helper i's next answer to the current epoch, skipping
// those of abandoned epochs. It returns nil when the helper is, or now
// is, dropped, and an error only when ctx is done.
func (c *coordinator) next(ctx context.Context, i int) ([]byte, error) {
	for c.alive[i] {
		msg, err := c.peers[i].Receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			c.alive[i] = false
			break
		}
		if !stale(msg, c.gen) {
			return msg, nil
		}
	}
	return nil, nil
}

// fromPeer receives shard s from the helper that owns it. It returns a
// nil leaf when the shard is the coordinator's own or its helper has
// failed (and is now dropped), and an error only when ctx is done.
func (c *coordinator) fromPeer(ctx context.Context, s, size int) ([]float32, Loss, error) {
	i := Owner(c.Workers(), s) - 1
	if i < 0 {
		return nil, Loss{}, nil
	}
	msg, err := c.next(ctx, i)
	if err != nil || msg == nil {
		return nil, Loss{}, err
	}
	gen, got, leaf, loss, err := decodeLeaf(msg, c.w.buffer(size))
	if err != nil || gen != c.gen || got != s {
		c.alive[i] = false
		return nil, Loss{}, nil
	}
	return leaf, loss, nil
}

// Serve is a helper's side: it reads the kit, then computes the shards
// of each task it receives and sends each one back as it is done, until
// receive or send fails, whose error it returns. A helper whose first
// message is a push job (PushShared) pushes the ranges it is asked for
// instead.
func Serve(ctx context.Context, receive func() ([]byte, error), send func([]byte) error) error {
	first, err := receive()
	if err != nil {
		return err
	}
	if len(first) >= len(tagPushJob) && string(first[:len(tagPushJob)]) == tagPushJob {
		return servePush(ctx, first, receive, send)
	}
	kit, err := UnmarshalKit(first)
	if err != nil {
		return err
	}
	w := NewWorker(kit)
	for {
		msg, err := receive()
		if err != nil {
			return err
		}
		gen, e, k, n, validate, err := decodeTask(msg, kit)
		if err != nil {
			return err
		}
		if validate {
			if err := send(encodeLogits(gen, w.ownedLogits(e, k, n))); err != nil {
				return err
			}
		}
		for s := k; s < Count; s += n {
			if err := ctx.Err(); err != nil {
				return err
			}
			leaf := w.buffer(len(e.HR))
			loss := w.Shard(e, s, leaf)
			if err := send(encodeLeaf(gen, s, loss, leaf)); err != nil {
				return err
			}
		}
	}
}
