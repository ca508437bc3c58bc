// Preparation (docs/model.md §2-3): Ã, the normalised features and S̃ of one graph, computed once.

package ilpgnn

import (
	"context"
	"fmt"
	"math"
	"time"

	"ilpgnn/core/autograd"
	"ilpgnn/core/diffusion"
	"ilpgnn/core/f32"
	"ilpgnn/core/graph"
)

// Inputs is what a model reads from one message-passing graph: Ã, the
// (normalised) features and the structure similarity S̃. It is computed once
// per graph (paper sec. 4.4) and shared by training and inference.
type Inputs struct {
	Graph    *graph.Graph
	Adj      *autograd.Sparse // Ã = D̂^-1/2 (A+I) D̂^-1/2
	Features *autograd.Sparse // X, L2-normalised per row when configured
	Sim      *diffusion.Similarity
}

// Prepare computes the Inputs of g under cfg.
func Prepare(g *graph.Graph, cfg Config) (*Inputs, error) {
	return PrepareContext(context.Background(), g, cfg)
}

// Prepare's phases, as PrepareProgress names them.
const (
	PhaseSimilarity = "structure similarity" // S̃ by PPR push, Done/Total in columns
	PhaseFeatures   = "features"             // X, rows normalised, and Xᵀ
	PhaseAdjacency  = "adjacency"            // Ã and Ãᵀ
)

// PrepareProgress is a report of PrepareContext: Phase (one of the Phase
// constants) has done Done of its Total units and has run for Elapsed.
// Each phase reports at least once, its last report with Done == Total.
type PrepareProgress struct {
	Phase       string
	Done, Total int
	Elapsed     time.Duration
}

type prepareTraceKey struct{}

// WithPrepareProgress returns a copy of ctx that makes PrepareContext
// report to progress (as net/http/httptrace carries its hooks): so a
// caller deep above Prepare, such as the command line above train.Run,
// can show how far a long preparation is without every layer in between
// passing a callback. progress is called from one goroutine at a time.
func WithPrepareProgress(ctx context.Context, progress func(PrepareProgress)) context.Context {
	return context.WithValue(ctx, prepareTraceKey{}, progress)
}

// SimilarityFunc computes S̃ of g under opt (Method Push) as
// diffusion.NewWithProgress does, to the bit, reporting its progress alike;
// it returns ctx's error if ctx is done first.
type SimilarityFunc func(ctx context.Context, g *graph.Graph, opt diffusion.Options, progress func(done, total int)) (*diffusion.Similarity, error)

type similarityKey struct{}

// WithSimilarity returns a copy of ctx that makes PrepareContext compute
// a push S̃ with f: the browser's engine shares the push between its Web
// Workers this way (shard.PushShared).
func WithSimilarity(ctx context.Context, f SimilarityFunc) context.Context {
	return context.WithValue(ctx, similarityKey{}, f)
}

// PrepareContext is Prepare reporting its phases to the progress function
// ctx carries (WithPrepareProgress), if any. It returns ctx's error if ctx
// is done before a phase starts.
func PrepareContext(ctx context.Context, g *graph.Graph, cfg Config) (*Inputs, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	progress, _ := ctx.Value(prepareTraceKey{}).(func(PrepareProgress))
	report := func(phase string, start time.Time, done, total int) {
		if progress != nil {
			progress(PrepareProgress{Phase: phase, Done: done, Total: total, Elapsed: time.Since(start)})
		}
	}
	start := time.Now()
	similarity := func(ctx context.Context, g *graph.Graph, opt diffusion.Options, progress func(done, total int)) (*diffusion.Similarity, error) {
		return diffusion.NewWithProgress(g, opt, progress)
	}
	if f, ok := ctx.Value(similarityKey{}).(SimilarityFunc); ok && cfg.Diffusion.Method == diffusion.Push {
		similarity = f
	}
	sim, err := similarity(ctx, g, cfg.Diffusion, func(done, total int) {
		if done < total { // the last report waits for the row sums and normalisation
			report(PhaseSimilarity, start, done, total)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("ilpgnn: structure similarity: %w", err)
	}
	report(PhaseSimilarity, start, g.NumNodes(), g.NumNodes())
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start = time.Now()
	x := g.Features
	if cfg.NormalizeFeatures {
		x = x.NormalizeRows()
	}
	features := autograd.NewSparse(x)
	report(PhaseFeatures, start, 1, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start = time.Now()
	adj := autograd.NewSparse(gcnAdjacency(g))
	report(PhaseAdjacency, start, 1, 1)
	return &Inputs{Graph: g, Adj: adj, Features: features, Sim: sim}, nil
}

// gcnAdjacency returns Ã = D̂^-1/2 (A+I) D̂^-1/2 with D̂ the degrees of A+I.
func gcnAdjacency(g *graph.Graph) *f32.CSR {
	n := g.NumNodes()
	a := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1),
		Indices: make([]int32, 0, len(g.Indices)+n), Values: make([]float32, 0, len(g.Indices)+n)}
	inv := make([]float64, n)
	for i := range inv {
		inv[i] = 1 / math.Sqrt(float64(g.Degree(i)+1))
	}
	for i := 0; i < n; i++ {
		selfDone := false
		for _, c := range g.Neighbors(i) {
			if !selfDone && int(c) > i {
				a.Indices = append(a.Indices, int32(i))
				a.Values = append(a.Values, float32(inv[i]*inv[i]))
				selfDone = true
			}
			a.Indices = append(a.Indices, c)
			a.Values = append(a.Values, float32(inv[i]*inv[c]))
		}
		if !selfDone {
			a.Indices = append(a.Indices, int32(i))
			a.Values = append(a.Values, float32(inv[i]*inv[i]))
		}
		a.Indptr[i+1] = int32(len(a.Indices))
	}
	return a
}

// PrepareKey is what of a Config Prepare reads: configurations with equal
// keys prepare a graph into equal Inputs, so one preparation serves them
// all (the browser's engine keeps a graph's Inputs by it).
type PrepareKey struct {
	Diffusion         diffusion.Options
	NormalizeFeatures bool
}

// PrepareKey returns the settings of c that Prepare reads.
func (c Config) PrepareKey() PrepareKey {
	return PrepareKey{Diffusion: c.Diffusion, NormalizeFeatures: c.NormalizeFeatures}
}
