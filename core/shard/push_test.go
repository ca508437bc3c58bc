package shard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
)

// pushGraph is the shared run's training graph (synth:sparse).
func pushGraph(t testing.TB) *graph.Graph {
	t.Helper()
	sp, _, err := preparedRun(0)
	if err != nil {
		t.Fatal(err)
	}
	return sp.Train
}

// sameSimilarity fails t unless got is want bit for bit.
func sameSimilarity(t *testing.T, what string, got, want *diffusion.Similarity) {
	t.Helper()
	g, w := got.Columns(), want.Columns()
	if !slices.Equal(g.Indptr, w.Indptr) || !slices.Equal(g.Indices, w.Indices) || got.CappedColumns() != want.CappedColumns() {
		t.Fatalf("%s: S̃'s pattern differs from New's", what)
	}
	sameBits(t, what, g.Values, w.Values)
}

// garbling is a peer whose answers arrive with their range number
// changed, as a helper that lost its place would send them.
type garbling struct{ *pipe }

func (p garbling) Receive(ctx context.Context) ([]byte, error) {
	m, err := p.pipe.Receive(ctx)
	if err == nil && len(m) > 4 {
		m[4]++
	}
	return m, err
}

// TestPushSharedIsNew: S̃ pushed by 1 to 4 workers, with both
// normalisations, is diffusion.New's bit for bit; so it is when a helper
// fails after one answer or two, or garbles its answers, whose ranges the
// coordinator then pushes itself. Progress ends at every column, never
// going back.
func TestPushSharedIsNew(t *testing.T) {
	g := pushGraph(t)
	n := g.NumNodes()
	if pushChunk(n, 4) >= n/4 {
		t.Fatalf("%d nodes in ranges of %d: too few ranges to share", n, pushChunk(n, 4))
	}
	for _, z := range []diffusion.Normalization{diffusion.FullRowSums, diffusion.SparsifiedRowSums} {
		opt := diffusion.DefaultOptions()
		opt.Normalization = z
		want, err := diffusion.New(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			workers, failAfter int
			garble             bool
		}{{1, 0, false}, {2, 0, false}, {3, 0, false}, {4, 0, false}, {2, 1, false}, {3, 2, false}, {2, 0, true}} {
			t.Run(fmt.Sprintf("%v,workers=%d,fail=%d,garble=%v", z, tc.workers, tc.failAfter, tc.garble), func(t *testing.T) {
				var peers []Peer
				for range tc.workers - 1 {
					p := newPipe(tc.failAfter)
					defer p.Close()
					if tc.garble {
						peers = append(peers, garbling{p})
					} else {
						peers = append(peers, p)
					}
				}
				var ticks []int
				yields := 0
				got, err := PushShared(t.Context(), g, opt, peers, func() { yields++ }, func(done, total int) {
					if total != n {
						t.Errorf("progress of %d columns, want %d", total, n)
					}
					ticks = append(ticks, done)
				})
				if err != nil {
					t.Fatal(err)
				}
				sameSimilarity(t, "shared push", got, want)
				if len(ticks) == 0 || ticks[len(ticks)-1] != n || !slices.IsSorted(ticks) {
					t.Errorf("progress %v, want non-decreasing to %d", ticks, n)
				}
				if yields == 0 {
					t.Error("never yielded between the ranges pushed here")
				}
			})
		}
	}
}

// TestPushSharedCancels: a cancel read between ranges ends the push with
// ctx's error, after no more than the range under way.
func TestPushSharedCancels(t *testing.T) {
	g := pushGraph(t)
	ctx, cancel := context.WithCancel(t.Context())
	p := newPipe(0)
	defer p.Close()
	ranges := 0
	_, err := PushShared(ctx, g, diffusion.DefaultOptions(), []Peer{p}, func() {
		ranges++
		cancel()
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if ranges != 1 {
		t.Errorf("%d ranges pushed here after the cancel, want 1", ranges)
	}
	exact := diffusion.DefaultOptions()
	exact.Method = diffusion.Exact
	if _, err := PushShared(t.Context(), g, exact, nil, nil, nil); err == nil {
		t.Error("a shared push with Method Exact: no error")
	}
}

// TestPushWireRoundTrip: a job, a range and a part decode to what was
// encoded; a part answering another range, or cut short, is refused.
func TestPushWireRoundTrip(t *testing.T) {
	g := pushGraph(t)
	opt := diffusion.DefaultOptions()
	job, err := encodePushJob(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	g2, opt2, err := decodePushJob(job)
	if err != nil {
		t.Fatal(err)
	}
	if opt2 != opt || !slices.Equal(g2.Indptr, g.Indptr) || !slices.Equal(g2.Indices, g.Indices) {
		t.Fatal("the push job does not decode to its graph and options")
	}
	if _, _, err := decodePushJob(job[:len(job)-4]); err == nil {
		t.Error("a push job cut short: no error")
	}
	c, lo, hi, err := decodePushRange(encodePushRange(3, 192, 256))
	if err != nil || c != 3 || lo != 192 || hi != 256 {
		t.Errorf("range decodes to %d [%d, %d) (%v), want 3 [192, 256)", c, lo, hi, err)
	}
	rp, err := diffusion.NewRangePusher(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	part, err := rp.Push(10, 20)
	if err != nil {
		t.Fatal(err)
	}
	msg := encodePushPart(5, part)
	back, err := decodePushPart(msg, 5, 10, 20)
	if err != nil {
		t.Fatal(err)
	}
	if back.Lo != part.Lo || back.Hi != part.Hi || back.Capped != part.Capped || !slices.Equal(back.Indptr, part.Indptr) ||
		!slices.Equal(back.Rows, part.Rows) || !slices.Equal(back.Vals, part.Vals) {
		t.Error("the part does not decode to what was encoded")
	}
	for name, f := range map[string]func() error{
		"another range":   func() error { _, err := decodePushPart(msg, 6, 10, 20); return err },
		"other sources":   func() error { _, err := decodePushPart(msg, 5, 10, 21); return err },
		"cut short":       func() error { _, err := decodePushPart(msg[:len(msg)-8], 5, 10, 20); return err },
		"not a part":      func() error { _, err := decodePushPart(job, 5, 10, 20); return err },
		"range with more": func() error { _, _, _, err := decodePushRange(append(encodePushRange(1, 0, 64), 0)); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzDecodePush: whatever the bytes, the push messages' decoders return
// a value or an error and never panic, and a job they accept builds a
// RangePusher that pushes every source.
func FuzzDecodePush(f *testing.F) {
	g := pushGraph(f)
	job, _ := encodePushJob(g, diffusion.DefaultOptions())
	f.Add(job)
	rp, _ := diffusion.NewRangePusher(g, diffusion.DefaultOptions())
	part, _ := rp.Push(0, 4)
	f.Add(encodePushPart(0, part))
	f.Add(encodePushRange(0, 0, 4))
	small := &graph.Graph{Indptr: []int32{0, 1, 2}, Indices: []int32{1, 0}}
	job, _ = encodePushJob(small, diffusion.DefaultOptions())
	f.Add(job)
	f.Fuzz(func(t *testing.T, b []byte) {
		decodePushRange(b)
		decodePushPart(b, 0, 0, 4)
		g, opt, err := decodePushJob(b)
		// Only pushes that end soon: a tiny ε or teleport, or no work cap, is
		// slow, not wrong.
		if err != nil || g.NumNodes() > 64 || opt.Epsilon < 1e-4 || opt.Gamma < 0.01 || opt.MaxWork < 0 {
			return
		}
		rp, err := diffusion.NewRangePusher(g, opt)
		if err != nil {
			return
		}
		if _, err := rp.Push(0, g.NumNodes()); err != nil {
			t.Fatal(err)
		}
	})
}
