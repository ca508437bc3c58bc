package engine

import (
	"context"
	"errors"
	"fmt"

	"ilpgnn/core/graphexport"
	"ilpgnn/core/loop"
)

// The bounds of graph.export, whose zip the tab holds whole: the engine's
// buffer, then the page's copy and the download's blob, so three times
// its size at the peak. A graph beyond them belongs to the command line
// (ilpgnn export-graph), which streams to disk.
const (
	// MaxGraphExportZip bounds the zip: 256 MiB, three times over, still
	// leaves most of a tab's memory (TabMemory) to the graph and the model.
	MaxGraphExportZip = 256 << 20
	// MaxGraphExportFeatures bounds the dense features the engine
	// compresses (1 GiB, a quarter of the command line's
	// graphexport.MaxFeatureBytes): they pass through Deflate on one thread
	// of the tab, so a graph past it would keep the page waiting for long
	// only to be refused for its zip.
	MaxGraphExportFeatures = 1 << 30
)

// GraphExportArgs are the args of graph.export. By default the split is
// the current model's (its seed and shares), else the one a train request
// with the defaults makes.
type GraphExportArgs struct {
	// Format is the export's format: dgl, DGL's chunked graph format.
	Format string `json:"format"`
	// Seed is the split's seed, as train's.
	Seed uint64 `json:"seed,omitempty"`
	// ValFrac and TestFrac are the shares of the edges held out for
	// validation and testing, as train's val-frac and test-frac; a
	// synthetic graph's split is its own, and refuses them.
	ValFrac  float64 `json:"valFrac,omitempty"`
	TestFrac float64 `json:"testFrac,omitempty"`
}

// GraphExportResult is the result of graph.export; the zip travels as
// the reply's bytes.
type GraphExportResult struct {
	Filename string `json:"filename"`
	// Seed, ValFrac and TestFrac are the split's (the shares are absent
	// for a synthetic graph's own split).
	Seed     uint64  `json:"seed"`
	ValFrac  float64 `json:"valFrac,omitempty"`
	TestFrac float64 `json:"testFrac,omitempty"`
	// Nodes and Edges are the exported graph's; ZipBytes the zip's length.
	Nodes    int `json:"nodes"`
	Edges    int `json:"edges"`
	ZipBytes int `json:"zipBytes"`
}

// graphProducer is what README.md and export.json say made the export.
const graphProducer = "the ilpgnn app's \"Download for a distributed engine\" (the same files as `ilpgnn export-graph --format dgl`)"

// graphExport zips what `ilpgnn export-graph` writes for the loaded graph
// and the split a train request trains on (package graphexport).
func (e *Engine) graphExport(_ context.Context, req Request) (any, []byte, error) {
	var a struct {
		Format   string   `json:"format"`
		Seed     *uint64  `json:"seed"`
		ValFrac  *float64 `json:"valFrac"`
		TestFrac *float64 `json:"testFrac"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	if a.Format != "dgl" {
		return nil, nil, errorf(CodeBadRequest, "graph.export: format %q: the formats are dgl (DGL's chunked graph format)", a.Format)
	}
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	ex, err := e.exportSplit(l, a.Seed, a.ValFrac, a.TestFrac)
	if err != nil {
		return nil, nil, err
	}
	g := l.d.Graph
	if size := graphexport.DenseFeatureBytes(g); size > MaxGraphExportFeatures {
		return nil, nil, errorf(CodeBadRequest, "graph.export: %d nodes × %d features take %.1f GiB written dense, above the %d GiB a tab compresses; %s",
			g.NumNodes(), g.FeatureDim(), float64(size)/(1<<30), MaxGraphExportFeatures>>30, commandLine(ex))
	}
	name := fmt.Sprintf("ilpgnn-dgl-%s-seed%d", graphexport.GraphName(g.Name), ex.Seed)
	b, m, err := graphexport.ZipBytes(ex, name, MaxGraphExportZip)
	switch {
	case errors.Is(err, graphexport.ErrZipTooLarge):
		return nil, nil, errorf(CodeBadRequest, "graph.export: %v, the most a tab holds for a download; %s", err, commandLine(ex))
	case err != nil:
		return nil, nil, errorf(CodeBadRequest, "graph.export: %v", err)
	}
	return GraphExportResult{Filename: name + ".zip", Seed: m.Seed, ValFrac: m.ValFrac, TestFrac: m.TestFrac,
		Nodes: m.Nodes, Edges: m.Edges, ZipBytes: len(b)}, b, nil
}

// exportSplit returns the export of l's graph with its split: by seed and
// shares where given, else the current model's, else train's defaults
// (the defaults' shares and runSeed's seed), so that the split is the one
// train makes with the same seed and shares.
func (e *Engine) exportSplit(l *loaded, seed *uint64, valFrac, testFrac *float64) (graphexport.Export, error) {
	ex := graphexport.Export{Graph: l.d.Graph, Producer: graphProducer}
	def := e.opt.Models[0].New().Loop()
	ex.Seed, ex.ValFrac, ex.TestFrac = runSeed(l, nil, 0), def.ValFrac, def.TestFrac
	if mo := e.currentModel(); mo != nil {
		ex.Seed, ex.ValFrac, ex.TestFrac = mo.cfg.Seed, mo.cfg.ValFrac, mo.cfg.TestFrac
	}
	if seed != nil {
		ex.Seed = *seed
	}
	if l.d.Truth != nil {
		if valFrac != nil || testFrac != nil {
			return ex, errorf(CodeBadRequest, "graph.export: %s has its own split: a synthetic graph's links get their roles when it is generated, so valFrac and testFrac do not apply", l.d.Graph.Name)
		}
		ex.Links = l.d.Truth.Links
	}
	if syn := l.synthetic; syn != nil {
		ex.Source = fmt.Sprintf("synth:%s:seed=%d", syn.Preset, syn.Seed)
	}
	if valFrac != nil {
		ex.ValFrac = *valFrac
	}
	if testFrac != nil {
		ex.TestFrac = *testFrac
	}
	if err := loop.ValidateShares(ex.ValFrac, ex.TestFrac); err != nil {
		return ex, errorf(CodeBadRequest, "graph.export: %v", err)
	}
	sp, err := l.d.Split(ex.Seed, ex.ValFrac, ex.TestFrac)
	if err != nil {
		return ex, errorf(CodeBadRequest, "graph.export: seed %d: %v", ex.Seed, err)
	}
	ex.Split = sp
	return ex, nil
}

// commandLine says how the command line makes ex's export, which streams
// to disk and has none of a tab's bounds.
func commandLine(ex graphexport.Export) string {
	data := ex.Source
	if data == "" {
		data = "YOUR_GRAPH"
	}
	return fmt.Sprintf("export it with the command line: ilpgnn export-graph --format dgl --data %s --seed %d --out DIR", data, ex.Seed)
}

// currentModel returns the current model, nil when there is none.
func (e *Engine) currentModel() *model {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.model
}
