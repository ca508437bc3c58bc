package engine

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"ilpgnn/core/dataset"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/load"
	"ilpgnn/core/shard"
	"ilpgnn/core/synth"
	"ilpgnn/core/train"
	"ilpgnn/core/tune"
)

// setGraph replaces the graph; a model of another graph goes with it.
func (e *Engine) setGraph(l *loaded) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.model != nil && e.model.meta.Fingerprint != l.info.Fingerprint {
		e.model = nil
	}
	if e.data == nil || e.data.info.Fingerprint != l.info.Fingerprint {
		e.trained = nil
	}
	e.data = l
}

func newLoaded(d *dataset.Dataset, syn *Synthetic) *loaded {
	g := d.Graph
	st := g.Stats()
	fp := fingerprint.Of(g)
	return &loaded{d: d, synthetic: syn, fingerprint: fp, info: GraphInfo{
		Name: g.Name, Fingerprint: hex.EncodeToString(fp[:]),
		Nodes: st.Nodes, Edges: st.Edges, FeatureDim: st.FeatureDim,
		Stats: GraphStats{Density: st.Density, MinDegree: st.MinDegree, MaxDegree: st.MaxDegree,
			MeanDegree: st.MeanDegree, MedianDegree: st.MedianDegree, Isolated: st.Isolated,
			Components: st.Components, LargestComponent: st.LargestComponent},
		HasLabels: g.Labels != nil, HasGroundtruth: d.Truth != nil, Synthetic: syn,
		MadeUpFeatures:  g.MadeUpFeatures,
		MissingFeatures: st.MissingFeatures, MissingFeatureIDs: append([]string{}, st.MissingFeatureIDs...),
		InputNotes:        append([]string{}, st.InputNotes...),
		TrainMemoryBytes:  train.EstimateMemory(g, train.DefaultConfig()).Bytes,
		TrainEpochSeconds: epochSeconds(tune.SizeOf(g)),
	}}
}

// epochSeconds returns GraphInfo.TrainEpochSeconds of a graph of size s.
func epochSeconds(s tune.Size) []float64 {
	one := tune.EpochSeconds("ilpgnn", s) * tune.WasmSlowdown
	out := make([]float64, shard.Count)
	for k := range out {
		out[k] = tune.OnThreads(one, k+1)
	}
	return out
}

func (e *Engine) load(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Name string `json:"name"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if len(req.Files) == 0 {
		return nil, nil, errorf(CodeBadRequest, "load: no files were given")
	}
	d, err := loadFiles(req.Files)
	if err != nil {
		return nil, nil, inputError(err)
	}
	if a.Name != "" {
		d.Graph.Name = a.Name
	}
	l := newLoaded(d, nil)
	e.setGraph(l)
	return l.info, nil, nil
}

// loadFiles reads what the command line's --data reads, from bytes: the
// three files `ilpgnn synth` writes (with their groundtruth), or anything
// load.Bytes detects.
func loadFiles(files map[string][]byte) (*dataset.Dataset, error) {
	if _, ok := files[synth.GroundtruthFile]; ok {
		t, err := synth.ReadFiles("synthetic", files)
		if err != nil {
			return nil, err
		}
		return &dataset.Dataset{Graph: t.Graph, Truth: t}, nil
	}
	g, err := load.Bytes(files)
	if err != nil {
		return nil, err
	}
	// Featureless graphs get the command line's fallback features, so a
	// checkpoint trained here explains the same there.
	return &dataset.Dataset{Graph: graph.WithFallbackFeatures(g, 0)}, nil
}

// inputError turns a loader's error into a bad_input reply naming the file
// and line. They go in File and Line only: the page puts them before the
// message, so the message drops the loader's "edges.csv:2: " (else the
// page reads "edges.csv line 2: edges.csv:2: ...").
func inputError(err error) *Error {
	out := &Error{Code: CodeBadInput, Message: err.Error()}
	var le *load.Error
	if errors.As(err, &le) {
		out.File, out.Line = le.File, le.Line
		out.Message = strings.Replace(out.Message, le.Error(), le.Err.Error(), 1)
	}
	return out
}

func (e *Engine) generate(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Preset string  `json:"preset"`
		Seed   *uint64 `json:"seed"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Seed == nil {
		return nil, nil, errorf(CodeBadRequest, "generate: args.seed is required")
	}
	src, err := dataset.Parse(fmt.Sprintf("synth:%s:seed=%d", a.Preset, *a.Seed))
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "generate: %v", err)
	}
	d, err := src.Load(*a.Seed)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "generate: %v", err)
	}
	l := newLoaded(d, &Synthetic{Preset: a.Preset, Seed: *a.Seed})
	e.setGraph(l)
	return l.info, nil, nil
}

func describeGraph(l *loaded) Description {
	g := l.d.Graph
	n := g.NumNodes()
	out := Description{GraphInfo: l.info, IDs: g.IDs, Degrees: make([]int, n), Labels: g.Labels,
		ClassNames: g.ClassNames, EdgeList: make([]int32, 0, 2*g.NumEdges())}
	for i := range n {
		out.Degrees[i] = g.Degree(i)
		for _, j := range g.Neighbors(i) {
			if int(j) > i {
				out.EdgeList = append(out.EdgeList, int32(i), j)
			}
		}
	}
	return out
}

// describe answers with the loaded graph and everything needed to draw it.
func (e *Engine) describe(context.Context, Request) (any, []byte, error) {
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	return describeGraph(l), nil, nil
}
