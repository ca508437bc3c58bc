package models_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"runtime"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/internal/golden"
	"ilpgnn/core/models"
	"ilpgnn/core/train"
)

var updatePortable = flag.Bool("update-portable", false, "rewrite testdata/portable.sha256 after a deliberate change to the training arithmetic")

// portableGolden holds the SHA-256 of the checkpoint portableRun writes
// unbatched, portableBatchedGolden batched. The same tests run natively and
// under js/wasm (make wasm-unit), so both platforms must produce these
// exact bytes.
const (
	portableGolden        = "testdata/portable.sha256"
	portableBatchedGolden = "testdata/portable-batched.sha256"
)

// portableRun trains synth:sparse (seed 3) for a few epochs with the
// default configuration, in batches of batchSize pairs (0: the whole
// epoch), and returns the checkpoint's bytes. Its criterion grows every
// epoch, so the last epoch's weights are kept: selecting on validation
// AUC kept the first epoch's, untrained, and the hash checked nothing of
// training.
func portableRun(t *testing.T, batchSize int) []byte {
	t.Helper()
	src, err := dataset.Parse("synth:sparse:seed=3")
	if err != nil {
		t.Fatal(err)
	}
	d, err := src.Load(3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := train.DefaultConfig()
	cfg.Patience = 100 // the setting the recorded hashes were made with
	cfg.Seed = 3
	cfg.Epochs = 6
	cfg.Dropout = 0.1 // exercise the dropout stream too
	cfg.BatchSize, cfg.Model.Candidates = batchSize, 0
	sp, err := d.Split(cfg.Seed, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		t.Fatal(err)
	}
	epochs := 0
	latest := func(*ilpgnn.Predictor) float64 { epochs++; return float64(epochs) }
	res, err := train.RunSplitSelect(context.Background(), sp, cfg, latest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.BestEpoch != cfg.Epochs {
		t.Fatalf("the run kept epoch %d's weights of %d: the hash would not check the last updates", res.BestEpoch, cfg.Epochs)
	}
	ck, err := models.ILPGNNCheckpoint(res, d.Graph, fingerprint.Of(d.Graph))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ck.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckpointPortable checks that training is a pure function of the
// seed: the checkpoint's bytes do not depend on the number of threads and
// match the recorded hash on every platform (the browser must reproduce
// the command line's models bit for bit).
func TestCheckpointPortable(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	checkPortable(t, 0, portableGolden)
}

// TestCheckpointPortableBatched is TestCheckpointPortable for training in
// batches (Model.LossGrad's tapeless gradient, shard by shard: package
// shard): an epoch's 6,790 pairs in 16 shards of about 424, each in
// batches of at most 200.
func TestCheckpointPortableBatched(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	checkPortable(t, 200, portableBatchedGolden)
}

func checkPortable(t *testing.T, batchSize int, goldenFile string) {
	sum := sha256.Sum256(portableRun(t, batchSize))
	got := hex.EncodeToString(sum[:])

	if runtime.GOARCH != "wasm" {
		prev := runtime.GOMAXPROCS(1)
		one := sha256.Sum256(portableRun(t, batchSize))
		runtime.GOMAXPROCS(prev)
		if h := hex.EncodeToString(one[:]); h != got {
			t.Fatalf("checkpoint differs with one thread (%s) and %d (%s)", h, prev, got)
		}
	}
	golden.Check(t, goldenFile, got, *updatePortable, "checkpoint hash")
}
