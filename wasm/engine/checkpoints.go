package engine

import (
	"context"
	"errors"
	"fmt"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/wasm/store"
)

// open builds the model of an encoded checkpoint on l's graph and makes it
// current; like, when not nil, is a predictor that may already hold its
// embeddings, and start a model of the same run that may hold its H^0
// (models.OpenPredictorReusing).
func (e *Engine) open(data []byte, l *loaded, like *ilpgnn.Predictor, start *ilpgnn.Model) (*model, error) {
	meta, err := store.MetaOf(data)
	if err != nil {
		return nil, errorf(CodeBadInput, "not a usable checkpoint: %v", err)
	}
	if meta.Fingerprint != l.info.Fingerprint {
		return nil, errorf(CodeMismatch, "checkpoint %q was trained on another graph (dataset %q) than the loaded %q; load that graph first",
			meta.Key, meta.Dataset, l.info.Name)
	}
	ck, err := checkpoint.Unmarshal(data)
	if err != nil {
		return nil, errorf(CodeBadInput, "not a usable checkpoint: %v", err)
	}
	cfg, _, err := models.VerifyILPGNNOf(ck, l.d.Graph, l.fingerprint)
	if err != nil {
		return nil, errorf(CodeBadInput, "checkpoint %q: %v", meta.Key, err)
	}
	// The graph is prepared once for all the models of the same settings:
	// a finished run's were prepared before it trained.
	in, err := e.prepared(e.sharingPush(context.Background(), 0), l, cfg.Model)
	if err != nil {
		return nil, errorf(CodeInternal, "%v: %v", models.ErrPreparing, err) // not the checkpoint's fault
	}
	pred, cfg, err := models.OpenPredictorReusing(ck, l.d.Graph, l.fingerprint, in, like, start)
	if err != nil {
		return nil, errorf(CodeBadInput, "checkpoint %q: %v", meta.Key, err)
	}
	mo := &model{meta: meta, ck: ck, data: data, cfg: cfg, m: pred.Model, pred: pred}
	e.mu.Lock()
	e.model = mo
	e.mu.Unlock()
	return mo, nil
}

func modelInfo(mo *model) ModelInfo {
	h := mo.meta
	out := ModelInfo{Key: h.Key, Dataset: h.Dataset, Seed: h.Seed, Created: h.Created,
		TestAUC: h.Metrics[models.TestAUCMetric], ValAUC: h.Metrics["val_auc"], BestEpoch: int(h.Metrics["best_epoch"]),
		Config:     models.Settings(&models.ILPGNNConfig{Config: mo.cfg}),
		Calibrated: mo.pred.Temperature != 1 || mo.pred.Bias != 0}
	if _, ok := h.Metrics[models.TestAUCMetric]; !ok {
		out.TestPending = true
	}
	if v, ok := h.Metrics["p_at_1"]; ok {
		out.P1 = &v
	}
	if v, ok := h.Metrics["p_at_2"]; ok {
		out.P2 = &v
	}
	if n, ok := h.CancelledAt(); ok {
		out.CancelledAtEpoch = &n
	}
	return out
}

// save stores mo's checkpoint. Failure is a status, not an error: the model
// stays usable, only not kept. Without persistent storage the checkpoint is
// held in memory, so it can still be listed, loaded and exported until the
// page closes, and the status says it was not saved.
func (e *Engine) save(ctx context.Context, mo *model) SaveStatus {
	if _, cancelled := mo.meta.CancelledAt(); cancelled {
		if st, ok := e.keepCompleted(ctx, mo.meta.Key); !ok {
			return st
		}
	}
	return e.put(ctx, mo.meta, mo.data)
}

// keepCompleted refuses to store a cancelled run's checkpoint under key
// when a completed run of the same graph and settings is stored there:
// that one would be lost for weights that are at best as good.
func (e *Engine) keepCompleted(ctx context.Context, key string) (SaveStatus, bool) {
	metas, err := e.opt.Store.List(ctx)
	if err != nil {
		return SaveStatus{Message: "not saved: " + err.Error()}, false
	}
	for _, m := range metas {
		if _, cancelled := m.CancelledAt(); m.Key == key && !cancelled {
			return SaveStatus{Message: "not saved: a completed run with the same settings is stored under this key and is kept"}, false
		}
	}
	return SaveStatus{}, true
}

func (e *Engine) put(ctx context.Context, m store.Meta, data []byte) SaveStatus {
	if err := e.opt.Store.Put(ctx, m, data); err != nil {
		return SaveStatus{Message: "not saved: " + err.Error()}
	}
	if !e.persistent {
		// Loadable for the rest of the session all the same.
		return SaveStatus{Key: m.Key, Message: "not saved: " + e.opt.StorageMessage}
	}
	return SaveStatus{Saved: true, Key: m.Key}
}

func storageError(doing string, err error) *Error {
	if errors.Is(err, store.ErrNotFound) {
		return errorf(CodeNotFound, "%s: %v", doing, err)
	}
	return errorf(CodeStorage, "%s: %v", doing, err)
}

func (e *Engine) list(ctx context.Context, _ Request) (any, []byte, error) {
	metas, err := e.opt.Store.List(ctx)
	if err != nil {
		return nil, nil, storageError("listing checkpoints", err)
	}
	fp := ""
	if l, err := e.graph(); err == nil {
		fp = l.info.Fingerprint
	}
	out := CheckpointList{Available: e.persistent, Checkpoints: make([]CheckpointEntry, 0, len(metas))}
	if !e.persistent {
		out.Message = e.opt.StorageMessage
	}
	for _, m := range metas {
		out.Checkpoints = append(out.Checkpoints, CheckpointEntry{Meta: m, Matches: m.Fingerprint == fp})
	}
	return out, nil, nil
}

func (e *Engine) loadStored(ctx context.Context, req Request) (any, []byte, error) {
	key, err := keyArg(req)
	if err != nil {
		return nil, nil, err
	}
	l, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	data, err := e.opt.Store.Get(ctx, key)
	if err != nil {
		return nil, nil, storageError("loading checkpoint "+key, err)
	}
	mo, err := e.open(data, l, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return modelInfo(mo), nil, nil
}

func (e *Engine) export(ctx context.Context, req Request) (any, []byte, error) {
	var a struct {
		Key string `json:"key"`
	}
	if err := decode(req, &a); err != nil {
		return nil, nil, err
	}
	var data []byte
	if a.Key == "" {
		mo, err := e.current()
		if err != nil {
			return nil, nil, err
		}
		data = mo.data
	} else {
		var err error
		if data, err = e.opt.Store.Get(ctx, a.Key); err != nil {
			return nil, nil, storageError("exporting checkpoint "+a.Key, err)
		}
	}
	meta, err := store.MetaOf(data)
	if err != nil {
		return nil, nil, errorf(CodeInternal, "stored checkpoint is damaged: %v", err)
	}
	name := fmt.Sprintf("%s-seed%d-%s.ckpt", meta.Dataset, meta.Seed, meta.Key[len(meta.Key)-16:])
	return map[string]string{"filename": name}, data, nil
}

func (e *Engine) importFile(ctx context.Context, req Request) (any, []byte, error) {
	if len(req.Files) != 1 {
		return nil, nil, errorf(CodeBadRequest, "checkpoints.import: want exactly one file, got %d", len(req.Files))
	}
	for name, data := range req.Files {
		// File names the file; the page puts it before the message, so
		// the message leaves it out (else it reads "a.ckpt: a.ckpt: ...").
		meta, err := store.MetaOf(data)
		if err != nil {
			return nil, nil, &Error{Code: CodeBadInput, Message: fmt.Sprintf("not a usable checkpoint: %v", err), File: name}
		}
		// The checksums only catch accidents: refuse a file whose sizes or
		// weights lie before it is stored, checked against the loaded graph
		// when it is the checkpoint's (else that check waits for loading).
		fp := ""
		var on *loaded
		if l, err := e.graph(); err == nil {
			fp = l.info.Fingerprint
			if fp == meta.Fingerprint {
				on = l
			}
		}
		ck, err := checkpoint.Unmarshal(data)
		if err == nil && on != nil {
			_, _, err = models.VerifyILPGNNOf(ck, on.d.Graph, on.fingerprint)
		} else if err == nil {
			_, _, err = models.VerifyILPGNN(ck, nil)
		}
		if err != nil {
			return nil, nil, &Error{Code: CodeBadInput, Message: fmt.Sprintf("not a usable checkpoint: %v", err), File: name}
		}
		st := e.put(ctx, meta, data)
		return map[string]any{"meta": CheckpointEntry{Meta: meta, Matches: meta.Fingerprint == fp}, "status": st}, nil, nil
	}
	panic("unreachable")
}

// deleteStored deletes the stored checkpoint args.key.
func (e *Engine) deleteStored(ctx context.Context, req Request) (any, []byte, error) {
	key, err := keyArg(req)
	if err != nil {
		return nil, nil, err
	}
	if err := e.opt.Store.Delete(ctx, key); err != nil {
		return nil, nil, storageError("deleting", err)
	}
	return map[string]bool{"deleted": true}, nil, nil
}

// saveCurrent stores the current model's checkpoint.
func (e *Engine) saveCurrent(ctx context.Context, _ Request) (any, []byte, error) {
	mo, err := e.current()
	if err != nil {
		return nil, nil, err
	}
	st := e.save(ctx, mo)
	if st.Key != "" {
		mo.stored = true
	}
	return st, nil, nil
}

// finishTest measures the current model on its test pairs when the run
// that trained it left that to later (a run the user stopped), and keeps
// the measurements with the model: in its checkpoint (stored again, when
// it was stored) and its calibration error.
func (e *Engine) finishTest(ctx context.Context, mo *model) error {
	r := mo.run
	if r == nil || !r.TestPending() {
		return nil
	}
	r.FinishTest()
	ck := *mo.ck
	ck.Metrics = append(append([]checkpoint.Metric(nil), ck.Metrics...), models.TestMetrics(r)...)
	data, err := ck.MarshalBinary()
	if err != nil {
		return errorf(CodeInternal, "encoding the checkpoint: %v", err)
	}
	meta, err := store.MetaOf(data)
	if err != nil {
		return errorf(CodeInternal, "reading the checkpoint back: %v", err)
	}
	e.mu.Lock()
	mo.ck, mo.data, mo.meta = &ck, data, meta
	mo.pred.CalibrationError = r.Calibration.ECE
	if mo.held != nil {
		mo.held.pred.CalibrationError = r.Calibration.ECE
	}
	e.mu.Unlock()
	if mo.stored {
		if st := e.put(ctx, meta, data); st.Key == "" {
			return errorf(CodeStorage, "keeping the test measurements: %s", st.Message)
		}
	}
	return nil
}
