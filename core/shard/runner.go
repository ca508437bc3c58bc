package shard

import (
	"context"
	"errors"
	"fmt"
)

// Runner computes the shards of a run's epochs, wherever it computes them.
type Runner interface {
	// Epoch computes the gradient of e's loss with respect to H^r into
	// grad (N x d) and returns the shards' losses. progress, if not nil,
	// is called with the number of shards done each time it grows. It
	// returns ctx's error soon after ctx is done (between shards).
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
// with start instead of Local (the browser's engine hands out shards to
// Web Workers this way).
func WithStarter(ctx context.Context, start Starter) context.Context {
	return context.WithValue(ctx, starterKey{}, start)
}

// StarterFrom returns the Starter ctx carries, or Local.
func StarterFrom(ctx context.Context) Starter {
	if s, ok := ctx.Value(starterKey{}).(Starter); ok && s != nil {
		return s
	}
	return Local
}

// Local computes every shard in this process, one after another, each on
// all CPUs.
func Local(_ context.Context, kit *Kit) (Runner, error) {
	return &local{w: NewWorker(kit)}, nil
}

type local struct{ w *Worker }

func (l *local) Workers() int { return 1 }
func (l *local) Close() error { return nil }

func (l *local) Epoch(ctx context.Context, e *Epoch, grad []float32, progress func(int)) (Losses, error) {
	t := NewTree()
	done := 0
	err := l.w.Run(ctx, e, 0, Count, func(int) {
		done++
		if progress != nil {
			progress(done)
		}
	}, t.Add)
	if err != nil {
		return Losses{}, err
	}
	losses, err := t.Total(grad)
	l.w.Release(t.blocks[[2]int{0, Count}])
	return losses, err
}

// Peer is the coordinator's end of a connection to a helper that Serves.
type Peer interface {
	Send(msg []byte) error
	// Receive waits for the next message, or returns ctx's error, or the
	// error that ended the helper.
	Receive(ctx context.Context) ([]byte, error)
	Close() error
}

// Coordinate returns a runner that computes the first run of shards
// itself and hands the others to peers, one run each (Assign), and sends
// them kit first. A peer that fails is dropped and its shards computed
// here, so the run loses nothing and its bits stay the same.
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
		lo, hi := Assign(n, i+1)
		msg, err := encodeTask(c.gen, e, lo, hi)
		if err != nil {
			return Losses{}, err
		}
		if p.Send(msg) != nil {
			c.alive[i] = false
		}
	}
	t := NewTree()
	done := 0
	tick := func(int) {
		done++
		if progress != nil {
			progress(done)
		}
	}
	lo, hi := Assign(n, 0)
	if err := c.w.Run(ctx, e, lo, hi, tick, t.Add); err != nil {
		return Losses{}, err
	}
	for i, p := range c.peers {
		plo, phi := Assign(n, i+1)
		want := len(Blocks(plo, phi))
		for got := 0; c.alive[i] && got < want; {
			msg, err := p.Receive(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return Losses{}, ctx.Err()
				}
				c.alive[i] = false
				break
			}
			gen, b, err := decodeBlock(msg, len(grad))
			if err != nil {
				c.alive[i] = false
				break
			}
			if gen != c.gen {
				continue // a block of an epoch abandoned earlier
			}
			if err := t.Add(b); err != nil {
				c.alive[i] = false
				break
			}
			got++
			for range b.Hi - b.Lo {
				tick(0)
			}
		}
		if !c.alive[i] {
			// Its shards are computed here; blocks it did send are kept
			// (Run recomputes only whole blocks that are missing).
			for _, bl := range Blocks(plo, phi) {
				if t.have[bl[0]] {
					continue
				}
				if err := c.w.Run(ctx, e, bl[0], bl[1], tick, t.Add); err != nil {
					return Losses{}, err
				}
			}
		}
	}
	return t.Total(grad)
}

// Serve is a helper's side: it reads the kit, then computes the shards
// of each task it receives and sends their blocks back, until receive
// fails (the coordinator closed the connection: nil is returned when the
// error is io.EOF-like, as receive reports it).
func Serve(ctx context.Context, receive func() ([]byte, error), send func([]byte) error) error {
	first, err := receive()
	if err != nil {
		return err
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
		gen, e, lo, hi, err := decodeTask(msg, kit)
		if err != nil {
			return err
		}
		err = w.Run(ctx, e, lo, hi, nil, func(b Block) error {
			out := encodeBlock(gen, b)
			w.Release(b.Grad)
			return send(out)
		})
		if err != nil {
			return err
		}
	}
}
