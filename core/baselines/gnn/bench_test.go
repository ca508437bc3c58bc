package gnn

import (
	"flag"
	"math/rand/v2"
	"os"
	"testing"

	"ilpgnn/core/autograd"
	"ilpgnn/core/graph"
	"ilpgnn/core/internal/cputime"
	"ilpgnn/core/load"
	"ilpgnn/core/loop"
	"ilpgnn/core/optim"
	"ilpgnn/core/split"
)

// BenchmarkGAEEpoch is one training epoch of GAE with DefaultConfig on
// Cora, the body of RunSplit's loop: fresh negatives, the training pass
// (dropout 0.5), the evaluation pass and validation AUC, Backward and an
// Adam step. It reads the dataset given by -data (default
// ../../../../shared/datasets/cora) and skips when it is missing. Run it on one
// thread, e.g.
//
//	GOMAXPROCS=1 go test -run='^$' -bench=GAEEpoch ./core/baselines/gnn
//
// (GOMAXPROCS in the environment, not -cpu 1: see f32's minParallelWork).
// Besides wall time per epoch it reports CPU time per epoch, which other
// processes on a shared machine disturb less.
// core/baselines/gnn/torchref/gae_epoch.py is the same epoch in PyTorch, and
// `make bench-torch` runs both.
var benchData = flag.String("data", "../../../../shared/datasets/cora", "the dataset of BenchmarkGAEEpoch")

func BenchmarkGAEEpoch(b *testing.B) {
	path := *benchData
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no dataset at %s (give -data): %v", path, err)
	}
	g, err := load.Path(path)
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig(GAE)
	sp, err := split.New(g, cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		b.Fatal(err)
	}
	in := Prepare(sp.Train, cfg)
	model, err := New(cfg, sp.Train.FeatureDim(), rand.New(rand.NewPCG(cfg.Seed, streamInit)))
	if err != nil {
		b.Fatal(err)
	}
	params := model.Params()
	adam := optim.NewAdam(params, cfg.LR)
	adam.WeightDecay = cfg.WeightDecay
	sampler := split.NewNegativeSampler(cfg.Seed)
	dropRNG := rand.New(rand.NewPCG(cfg.Seed, streamDropout))
	pairs, labels := loop.TrainingPairs(sp)
	P := len(sp.TrainPos)
	ia, ib := make([]int32, 2*P), make([]int32, 2*P)
	valPairs := append(append([]graph.Edge{}, sp.ValPos...), sp.ValNeg...)
	tape := autograd.NewTape()
	var auc float64
	epoch := func() {
		tape.Reset()
		for _, p := range params {
			p.ZeroGrad()
		}
		sampler.Sample(pairs[P:], sp.Train)
		for k, e := range pairs {
			ia[k], ib[k] = e.U, e.V
		}
		loss, _, _, _ := model.loss(tape, in, ia, ib, labels, float32(cfg.Dropout), dropRNG, nil)
		auc += aucOf(model.EmbedInputs(in), valPairs, len(sp.ValPos))
		tape.Backward(loss)
		adam.Step()
	}
	epoch() // the first epoch fills the tape's free list
	cpu0, cpuOK := cputime.Used()
	b.ReportAllocs()
	for b.Loop() {
		epoch()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/epoch")
	if cpu1, ok := cputime.Used(); ok && cpuOK {
		// CPU time is steadier than wall time on a shared machine.
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/epoch")
	}
	b.ReportMetric(float64(2*P), "pairs")
	if auc <= 0.5*float64(b.N+1) {
		b.Errorf("mean validation AUC %.3f: the model does not learn", auc/float64(b.N+1))
	}
}
