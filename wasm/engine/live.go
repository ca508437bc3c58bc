package engine

import (
	"context"
	"sync"

	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
	"ilpgnn/core/train"
)

// What the engine keeps so that nobody waits twice for the same work: the
// loaded graph's prepared inputs (its structure similarity above all,
// which a large graph takes a long time to compute), and, while an
// ILP-GNN run trains, its best weights so far, which answer explanations
// and suggestions before the run ends.

// preparedInputs are a graph's ilpgnn.Inputs, one per PrepareKey, computed
// once: by the first run or checkpoint that needs them.
type preparedInputs struct {
	mu    sync.Mutex
	byKey map[ilpgnn.PrepareKey]*ilpgnn.Inputs
}

// prepared returns l's whole graph prepared for cfg, preparing it with
// ctx (which may carry ilpgnn.WithPrepareProgress) on first use. Two
// callers never prepare the same key at once: the second waits for the
// first's result.
func (e *Engine) prepared(ctx context.Context, l *loaded, cfg ilpgnn.Config) (*ilpgnn.Inputs, error) {
	p := &l.prepared
	p.mu.Lock()
	defer p.mu.Unlock()
	key := cfg.PrepareKey()
	if in, ok := p.byKey[key]; ok {
		return in, nil
	}
	in, err := ilpgnn.PrepareContext(ctx, l.d.Graph, cfg)
	if err != nil {
		return nil, err
	}
	if p.byKey == nil {
		p.byKey = map[ilpgnn.PrepareKey]*ilpgnn.Inputs{}
	}
	p.byKey[key] = in
	return in, nil
}

// isPrepared reports whether l's whole graph is prepared for cfg already.
func (l *loaded) isPrepared(cfg ilpgnn.Config) bool {
	p := &l.prepared
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.byKey[cfg.PrepareKey()]
	return ok
}

// keptRun is the best model so far of the ILP-GNN run in progress: the
// weights of epoch k.Epoch, on the whole graph's inputs, its predictor
// built on first use (most kept epochs are never asked anything).
type keptRun struct {
	run   int64 // the train request's id
	k     train.Kept
	whole *ilpgnn.Inputs
	// start is a model of the run holding the start's H^0 on whole (nil
	// without an anchor): encoded once, at the first kept epoch, it is
	// every kept epoch's and the finished model's, which then encode H^r
	// alone.
	start *ilpgnn.Model
	mu    sync.Mutex
	pred  *ilpgnn.Predictor
}

// predictor returns the kept weights' predictor on the whole graph,
// building it on the first call.
func (kr *keptRun) predictor() *ilpgnn.Predictor {
	kr.mu.Lock()
	defer kr.mu.Unlock()
	if kr.pred == nil {
		kr.pred = models.KeptPredictor(kr.k, kr.whole, kr.start)
	}
	return kr.pred
}

// built returns the predictor if a request built it, else nil.
func (kr *keptRun) built() *ilpgnn.Predictor {
	kr.mu.Lock()
	defer kr.mu.Unlock()
	return kr.pred
}

// keep makes k the model that answers while run trains.
func (e *Engine) keep(run int64, k train.Kept, whole *ilpgnn.Inputs) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.training == nil || e.training.id != run {
		return
	}
	var start *ilpgnn.Model
	if e.kept != nil && e.kept.run == run {
		start = e.kept.start
	} else if k.Model.AnchorEmbeddings(whole) != nil {
		start = k.Model
	}
	e.kept = &keptRun{run: run, k: k, whole: whole, start: start}
}

// keptPredictor returns the predictor of the run's kept weights if a
// request built it, else nil (it builds nothing), and the run's model
// that holds the start's H^0 on the whole graph (nil without one).
func (e *Engine) keptPredictor() (*ilpgnn.Predictor, *ilpgnn.Model) {
	e.mu.Lock()
	kr := e.kept
	e.mu.Unlock()
	if kr == nil {
		return nil, nil
	}
	return kr.built(), kr.start
}

// keptEpoch is the epoch whose weights answer while run trains, 0 before
// any.
func (e *Engine) keptEpoch(run int64) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.kept == nil || e.kept.run != run {
		return 0
	}
	return e.kept.k.Epoch
}

// Weights says which weights answered a request: those of epoch Epoch of
// the run in progress (Training), absent when the current model answered.
type Weights struct {
	Epoch    int  `json:"epoch"`
	Training bool `json:"training"`
}

// answering returns the predictor that answers explain and suggest now:
// the current model's, or, while an ILP-GNN run trains, its best weights
// so far (with which epoch's they are). While a run trains without kept
// weights yet, or while another kind of run (a tuning search, a
// baseline) holds the engine, it answers busy.
func (e *Engine) answering(op string) (*loaded, *ilpgnn.Predictor, *Weights, error) {
	e.mu.Lock()
	r, kr, data := e.training, e.kept, e.data
	e.mu.Unlock()
	if r == nil {
		l, mo, err := e.modelAndGraph()
		if err != nil {
			return nil, nil, nil, err
		}
		return l, mo.pred, nil, nil
	}
	if kr == nil || kr.run != r.id || data == nil {
		return nil, nil, nil, errorf(CodeBusy, "%s: %s (request %d) is in progress; the best weights so far answer once its first epoch ends", op, r.doing(), r.id)
	}
	return data, kr.predictor(), &Weights{Epoch: kr.k.Epoch, Training: true}, nil
}
