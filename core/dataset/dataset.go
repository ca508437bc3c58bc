// Package dataset resolves what every command's --data names: a file or
// folder the loaders read (package load), or a synthetic graph generated in
// memory ("synth:medium", "synth:dense:seed=3"). Synthetic graphs, and
// folders written by `ilpgnn synth`, carry their own split and the
// groundtruth explanation of their held-out links.
package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ilpgnn/core/graph"
	"ilpgnn/core/load"
	"ilpgnn/core/split"
	"ilpgnn/core/synth"
)

// Source is a parsed --data value.
type Source struct {
	spec   string
	path   string       // a file or folder, or "" for a preset
	preset synth.Config // for synth: specs
	name   string       // preset name
	seed   uint64       // the generator seed, when fixed
	seeded bool         // the spec fixes the generator seed
	cached *Dataset     // a path's dataset, read once
}

// Dataset is a graph ready for training, with its groundtruth when it has
// one.
type Dataset struct {
	Graph *graph.Graph
	// Truth is the generated dataset behind a synthetic graph (its split
	// and groundtruth explanations), or nil.
	Truth *synth.Dataset
}

// Parse reads a --data value. "synth:" starts a generated graph: a preset
// name (one of synth.Presets()), parameters KEY=VALUE, or a preset followed
// by parameters, separated by colons: "synth:medium", "synth:dense:seed=3",
// "synth:nodes=169343:edges=1166243:dim=128:seed=0". The keys are nodes,
// edges, dim, groups and kgt (positive integers that override the preset's,
// or synth.DefaultConfig's without one), method (exact or sampled; by
// default synth.AutoMethod of the node count, so presets keep the exact
// process) and seed (the generator seed; without it each run's seed is
// used). Each key may appear once. Anything else is a path.
func Parse(spec string) (*Source, error) {
	rest, ok := strings.CutPrefix(spec, "synth:")
	if !ok {
		if spec == "" {
			return nil, fmt.Errorf("dataset: empty --data")
		}
		return &Source{spec: spec, path: spec}, nil
	}
	s, err := parseSynth(rest)
	if err != nil {
		return nil, fmt.Errorf("dataset: %q: %w", spec, err)
	}
	s.spec = spec
	return s, nil
}

// synthKeys are the integer parameters of a synth: spec and the fields
// they set.
var synthKeys = map[string]func(*synth.Config) *int{
	"nodes":  func(c *synth.Config) *int { return &c.Nodes },
	"edges":  func(c *synth.Config) *int { return &c.Edges },
	"dim":    func(c *synth.Config) *int { return &c.FeatureDim },
	"groups": func(c *synth.Config) *int { return &c.Groups },
	"kgt":    func(c *synth.Config) *int { return &c.KGT },
}

// parseSynth reads what follows "synth:".
func parseSynth(rest string) (*Source, error) {
	fields := strings.Split(rest, ":")
	s := &Source{preset: synth.DefaultConfig()}
	if !strings.Contains(fields[0], "=") {
		cfg, err := synth.Preset(fields[0])
		if err != nil {
			return nil, err
		}
		s.preset, s.name = cfg, fields[0]
		fields = fields[1:]
	}
	seen := map[string]bool{}
	var method string
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not KEY=VALUE (keys: nodes, edges, dim, groups, kgt, method, seed)", f)
		}
		if seen[key] {
			return nil, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		switch field, isInt := synthKeys[key]; {
		case isInt:
			v, err := strconv.ParseInt(val, 10, 32)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("%s=%s: want a positive integer", key, val)
			}
			*field(&s.preset) = int(v)
		case key == "seed":
			seed, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("seed=%s: want seed=N with N a non-negative integer", val)
			}
			s.seed, s.seeded = seed, true
		case key == "method":
			method = val
		default:
			return nil, fmt.Errorf("unknown key %q (keys: nodes, edges, dim, groups, kgt, method, seed)", key)
		}
	}
	s.preset.Method = synth.AutoMethod(s.preset.Nodes)
	if method != "" {
		m, err := synth.ParseMethod(method)
		if err != nil {
			return nil, fmt.Errorf("method=%s: %w", method, err)
		}
		s.preset.Method = m
	}
	s.name = synth.PresetName(s.preset) // "" once a knob differs
	if err := s.preset.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// String returns the spec as given.
func (s *Source) String() string { return s.spec }

// Name is a short name for tables and legends: the spec of a synthetic
// source, the last element of a path without its extension ("cora" for
// ../shared/datasets/cora, "photo" for photo.npz).
func (s *Source) Name() string {
	if s.Synthetic() {
		return s.spec
	}
	base := filepath.Base(filepath.Clean(s.path))
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Synthetic reports whether the source is generated in memory.
func (s *Source) Synthetic() bool { return s.path == "" }

// Generator returns the generator's settings of a synthetic source, and
// false for a file or folder.
func (s *Source) Generator() (synth.Config, bool) { return s.preset, s.Synthetic() }

// Load returns the dataset for a run with the given seed. A synthetic spec
// without a seed of its own is generated from the run's seed, so a set of
// seeds covers a set of graphs, as a set of splits does for a real one. A
// path is read once and shared by every run.
func (s *Source) Load(runSeed uint64) (*Dataset, error) {
	if !s.Synthetic() {
		if s.cached == nil {
			d, err := loadPath(s.path)
			if err != nil {
				return nil, err
			}
			s.cached = d
		}
		return s.cached, nil
	}
	seed := runSeed
	if s.seeded {
		seed = s.seed
	}
	if s.cached != nil && s.seeded {
		return s.cached, nil
	}
	t, err := synth.Generate(s.preset, seed)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Graph: t.Graph, Truth: t}
	if s.seeded {
		s.cached = d
	}
	return d, nil
}

func loadPath(p string) (*Dataset, error) {
	// A groundtruth file marks a folder written by `ilpgnn synth`.
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		if _, err := os.Stat(filepath.Join(p, synth.GroundtruthFile)); err == nil {
			t, err := synth.ReadDir(p)
			if err != nil {
				return nil, err
			}
			return &Dataset{Graph: t.Graph, Truth: t}, nil
		}
	}
	g, err := load.Path(p)
	if err != nil {
		return nil, err
	}
	// Featureless graphs get the same fallback features for training and
	// for explaining.
	return &Dataset{Graph: graph.WithFallbackFeatures(g, 0)}, nil
}

// Split returns the split of a run: the generator's own for a synthetic
// dataset (negatives drawn from seed), else split.New with the shares.
func (d *Dataset) Split(seed uint64, valFrac, testFrac float64) (*split.Split, error) {
	if d.Truth != nil {
		return d.Truth.Split(seed)
	}
	return split.New(d.Graph, seed, valFrac, testFrac)
}
