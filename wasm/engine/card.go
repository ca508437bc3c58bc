package engine

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"ilpgnn/core/bundle"
	"ilpgnn/core/bundle/site"
)

// CardExportArgs are the args of card.export: the pairs the example page
// shows (node indices; default: the best-connected node and its most
// likely new link). The card's files travel beside them, by name
// (site.CardFiles), as the page fetched them from its own origin, with
// their precompressed twins (site.TwinNames) where the page has them.
type CardExportArgs struct {
	Pairs []PairArgs `json:"pairs,omitempty"`
}

// cardExport zips the folder `ilpgnn export` writes for the current model
// and graph: the same files, made by the same code (package site).
func (e *Engine) cardExport(_ context.Context, req Request) (any, []byte, error) {
	var a CardExportArgs
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	l, mo, err := e.modelAndGraph()
	if err != nil {
		return nil, nil, err
	}
	pairs := make([][2]int, len(a.Pairs))
	for k, p := range a.Pairs {
		for _, x := range []struct {
			name string
			v    int
		}{{"i", p.I}, {"j", p.J}} {
			if err := e.node(l, "card.export", fmt.Sprintf("pairs[%d].%s", k, x.name), x.v); err != nil {
				return nil, nil, err
			}
		}
		if p.I == p.J {
			return nil, nil, errorf(CodeBadRequest, "card.export: pairs[%d] joins node %d to itself", k, p.I)
		}
		pairs[k] = [2]int{p.I, p.J}
	}
	for _, name := range site.CardFiles {
		if len(req.Files[name]) == 0 {
			return nil, nil, errorf(CodeBadRequest, "card.export: the card's %s is missing from the request's files", name)
		}
	}
	g := l.d.Graph
	b, err := bundle.New(mo.pred, g.Name, l.fingerprint, nil)
	if err != nil {
		return nil, nil, errorf(CodeInternal, "card.export: %v", err)
	}
	files, err := site.Files(b, pairs, req.Files)
	if err != nil {
		return nil, nil, errorf(CodeBadRequest, "card.export: %v", err)
	}
	// The twins the page fetched beside the card's files, and .gz of the rest.
	if err := site.AddTwins(files, req.Files); err != nil {
		return nil, nil, errorf(CodeInternal, "card.export: %v", err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	// Sorted names and the checkpoint's time: the same model gives the same zip.
	when := time.Unix(mo.meta.Created, 0).UTC()
	if when.Year() < 1980 { // the oldest time a zip entry holds
		when = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: when})
		if err != nil {
			return nil, nil, errorf(CodeInternal, "card.export: %v", err)
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, nil, errorf(CodeInternal, "card.export: %v", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, nil, errorf(CodeInternal, "card.export: %v", err)
	}
	return ExportResult{Filename: "ilpgnn-card-" + site.Folder(g.Name) + ".zip"}, buf.Bytes(), nil
}
