package shard

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// The messages of a shared S̃ push (PushShared): the job a helper is sent
// first (the options and the graph's adjacency), the ranges of sources it
// is asked for, and the parts it answers with, in the order asked.
const (
	tagPushJob   = "PJB1"
	tagPushRange = "PRG1"
	tagPushPart  = "PPT1"
)

// pushInFlight is how many ranges each helper is asked for ahead: one to
// compute and one waiting, so that a helper never idles while its last
// answer waits for the coordinator, whose event loop runs between its own
// ranges only.
const pushInFlight = 2

// pushJob is the part of a push job that is not an array.
type pushJob struct {
	Diffusion diffusion.Options
	Nodes     int
	Adjacency int // stored neighbours: 2 per edge
}

// encodePushJob is the first message to a helper of a shared push: opt
// and g's adjacency (no features: the push reads only the structure).
func encodePushJob(g *graph.Graph, opt diffusion.Options) ([]byte, error) {
	head, err := json.Marshal(pushJob{Diffusion: opt, Nodes: g.NumNodes(), Adjacency: len(g.Indices)})
	if err != nil {
		return nil, fmt.Errorf("shard: push job: %w", err)
	}
	b := make([]byte, 0, 8+len(head)+4*(len(g.Indptr)+len(g.Indices)))
	b = append(b, tagPushJob...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(head)))
	b = append(b, head...)
	b = appendInt32s(b, g.Indptr)
	return appendInt32s(b, g.Indices), nil
}

// decodePushJob reads a push job, checking the graph it carries.
func decodePushJob(data []byte) (*graph.Graph, diffusion.Options, error) {
	r := reader{b: data}
	var h pushJob
	if r.tag() != tagPushJob {
		return nil, h.Diffusion, errors.New("shard: not a push job")
	}
	n := int(r.u32())
	if err := json.Unmarshal(r.bytes(n), &h); err != nil || r.err != nil {
		return nil, h.Diffusion, fmt.Errorf("shard: push job header: %w", errors.Join(err, r.err))
	}
	if err := h.Diffusion.Validate(); err != nil {
		return nil, h.Diffusion, fmt.Errorf("shard: push job: %w", err)
	}
	if h.Nodes < 0 || h.Adjacency < 0 || h.Nodes > len(data) || h.Adjacency > len(data) ||
		4*(h.Nodes+1+h.Adjacency) != len(r.b)-r.at {
		return nil, h.Diffusion, errors.New("shard: push job: sizes do not match its length")
	}
	g := &graph.Graph{Indptr: r.int32s(h.Nodes + 1), Indices: r.int32s(h.Adjacency)}
	adj := f32.CSR{Rows: h.Nodes, Cols: h.Nodes, Indptr: g.Indptr, Indices: g.Indices, Values: make([]float32, h.Adjacency)}
	if err := adj.Validate(); err != nil {
		return nil, h.Diffusion, fmt.Errorf("shard: push job adjacency: %w", err)
	}
	return g, h.Diffusion, r.err
}

// encodePushRange asks for the sources [lo, hi), the chunk-th range.
func encodePushRange(chunk, lo, hi int) []byte {
	b := make([]byte, 0, 28)
	b = append(b, tagPushRange...)
	for _, v := range []int{chunk, lo, hi} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

func decodePushRange(data []byte) (chunk, lo, hi int, err error) {
	r := reader{b: data}
	if r.tag() != tagPushRange {
		return 0, 0, 0, errors.New("shard: not a range to push")
	}
	chunk, lo, hi = r.int(), r.int(), r.int()
	if r.err == nil && len(r.b) != r.at {
		r.err = errors.New("shard: a range to push with bytes after it")
	}
	return chunk, lo, hi, r.err
}

// encodePushPart is a helper's answer to the chunk-th range.
func encodePushPart(chunk int, p *diffusion.Part) []byte {
	b := make([]byte, 0, 44+4*len(p.Indptr)+12*len(p.Rows))
	b = append(b, tagPushPart...)
	for _, v := range []int{chunk, p.Lo, p.Hi, p.Capped, len(p.Rows)} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	b = appendInt32s(b, p.Indptr)
	b = appendInt32s(b, p.Rows)
	for _, v := range p.Vals {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// decodePushPart reads the answer to the chunk-th range, [lo, hi), of a
// graph. Assemble checks the columns' rows.
func decodePushPart(data []byte, chunk, lo, hi int) (*diffusion.Part, error) {
	r := reader{b: data}
	if r.tag() != tagPushPart {
		return nil, errors.New("shard: not a pushed part")
	}
	c, plo, phi, capped, nnz := r.int(), r.int(), r.int(), r.int(), r.int()
	if r.err != nil {
		return nil, r.err
	}
	if c != chunk || plo != lo || phi != hi || capped > hi-lo ||
		4*(hi-lo+1)+12*nnz != len(r.b)-r.at {
		return nil, fmt.Errorf("shard: a pushed part of sources [%d, %d) does not answer range %d, [%d, %d)", plo, phi, chunk, lo, hi)
	}
	p := &diffusion.Part{Lo: lo, Hi: hi, Capped: capped, Indptr: r.int32s(hi - lo + 1), Rows: r.int32s(nnz), Vals: make([]float64, nnz)}
	for i := range p.Vals {
		p.Vals[i] = r.f64()
	}
	return p, r.err
}

// servePush is a helper's side of a shared push whose job is first: it
// pushes every range it is asked for and answers with its part, until
// receive or send fails.
func servePush(ctx context.Context, first []byte, receive func() ([]byte, error), send func([]byte) error) error {
	g, opt, err := decodePushJob(first)
	if err != nil {
		return err
	}
	rp, err := diffusion.NewRangePusher(g, opt)
	if err != nil {
		return err
	}
	for {
		msg, err := receive()
		if err != nil {
			return err
		}
		chunk, lo, hi, err := decodePushRange(msg)
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := rp.Push(lo, hi)
		if err != nil {
			return err
		}
		if err := send(encodePushPart(chunk, p)); err != nil {
			return err
		}
	}
}

// pushChunk is how many sources one range of a shared push holds for a
// graph of n nodes over workers workers: small enough that the workers
// finish together and a cancel is read soon (the coordinator reads it
// between its own ranges), large enough that the messages cost little.
func pushChunk(n, workers int) int {
	return min(max((n+24*workers-1)/(24*max(workers, 1)), 64), 2048)
}

// PushShared computes S̃ of g under opt (Method Push) with the helpers
// peers and this goroutine sharing the sources, range by range
// (pushChunk), and returns diffusion.New's result bit for bit: each column
// is pushed by one RangePusher and diffusion.Assemble puts the ranges
// together in source order. Each peer is sent the job, then kept
// pushInFlight ranges ahead; the ranges of a peer that fails are pushed
// here, so the result is the same. yield, if not nil, is called after
// each range pushed here (the browser's engine lets its event loop run,
// delivering the helpers' answers and a cancel); progress, if not nil, is
// called with the columns done so far and n, from one goroutine at a
// time. It returns ctx's error soon after ctx is done, leaving the peers
// to the caller to close.
func PushShared(ctx context.Context, g *graph.Graph, opt diffusion.Options, peers []Peer, yield func(), progress func(done, total int)) (*diffusion.Similarity, error) {
	n := g.NumNodes()
	rp, err := diffusion.NewRangePusher(g, opt)
	if err != nil {
		return nil, err
	}
	job, err := encodePushJob(g, opt)
	if err != nil {
		return nil, err
	}
	size := pushChunk(n, len(peers)+1)
	s := &sharedPush{n: n, size: size, chunks: (n + size - 1) / size, progress: progress}
	s.parts = make([]*diffusion.Part, s.chunks)
	ctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// No helper's goroutine outlives the call (nor reports progress after it).
	defer func() {
		stop()
		wg.Wait()
	}()
	for _, p := range peers {
		if p.Send(job) != nil {
			continue
		}
		wg.Go(func() { s.serve(ctx, p) })
	}
	local := func() error {
		for c := s.take(); c >= 0; c = s.take() {
			if err := ctx.Err(); err != nil {
				return err
			}
			lo, hi := s.bounds(c)
			part, err := rp.Push(lo, hi)
			if err != nil {
				return err
			}
			s.done(c, part)
			if yield != nil {
				yield()
			}
		}
		return nil
	}
	if err := local(); err != nil {
		return nil, err
	}
	// The helpers' last ranges; what a helper failing now leaves is
	// pushed here after.
	wg.Wait()
	if err := local(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return diffusion.Assemble(g, opt, s.parts)
}

// sharedPush is the state of one PushShared: which ranges are handed out,
// which are back to be pushed again (from a failed helper), and the parts.
type sharedPush struct {
	n, size, chunks int
	progress        func(done, total int)

	mu      sync.Mutex
	next    int   // the first range never handed out
	redo    []int // ranges a failed helper had
	parts   []*diffusion.Part
	columns int // columns done
}

func (s *sharedPush) bounds(c int) (lo, hi int) { return c * s.size, min((c+1)*s.size, s.n) }

// take hands out a range to push, or -1 when none is left.
func (s *sharedPush) take() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := len(s.redo); k > 0 {
		c := s.redo[k-1]
		s.redo = s.redo[:k-1]
		return c
	}
	if s.next < s.chunks {
		s.next++
		return s.next - 1
	}
	return -1
}

// done keeps range c's part and reports progress.
func (s *sharedPush) done(c int, p *diffusion.Part) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parts[c] = p
	s.columns += p.Hi - p.Lo
	if s.progress != nil {
		s.progress(s.columns, s.n)
	}
}

// giveBack returns ranges a helper will not answer to be pushed by others.
func (s *sharedPush) giveBack(cs []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redo = append(s.redo, cs...)
}

// serve keeps peer pushInFlight ranges ahead until none is left, or the
// peer fails (its ranges are given back), or ctx is done.
func (s *sharedPush) serve(ctx context.Context, peer Peer) {
	var asked []int // in the order asked, which is the order answered
	defer func() { s.giveBack(asked) }()
	for {
		for len(asked) < pushInFlight {
			c := s.take()
			if c < 0 {
				break
			}
			lo, hi := s.bounds(c)
			asked = append(asked, c)
			if peer.Send(encodePushRange(c, lo, hi)) != nil {
				return
			}
		}
		if len(asked) == 0 {
			return
		}
		msg, err := peer.Receive(ctx)
		if err != nil {
			return
		}
		c := asked[0]
		lo, hi := s.bounds(c)
		part, err := decodePushPart(msg, c, lo, hi)
		if err != nil {
			return
		}
		asked = asked[1:]
		s.done(c, part)
	}
}
