package experiment

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/train"
)

// TestAttributionComparison measures attribution_spearman_mean for every
// ilpgnn.Attribution kind, the comparison docs/attribution.md
// records. It trains, so it runs only when ILPGNN_ATTRIBUTION names the
// data (comma-separated), with the seeds in ILPGNN_SEEDS (default 0) and
// β in ILPGNN_BETA (default the model's):
//
//	ILPGNN_ATTRIBUTION=/work/shared/datasets/cora,synth:medium ILPGNN_SEEDS=0,1,2 \
//	  go test -count=1 -run TestAttributionComparison -v -timeout 1h ./core/paper/experiment
func TestAttributionComparison(t *testing.T) {
	data := os.Getenv("ILPGNN_ATTRIBUTION")
	if data == "" {
		t.Skip("set ILPGNN_ATTRIBUTION to the data to measure on")
	}
	seeds := []uint64{0}
	if s := os.Getenv("ILPGNN_SEEDS"); s != "" {
		seeds = nil
		for f := range strings.SplitSeq(s, ",") {
			v, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, v)
		}
	}
	cfg := train.DefaultConfig()
	if b := os.Getenv("ILPGNN_BETA"); b != "" {
		v, err := strconv.ParseFloat(b, 64)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Model.Beta = v
	}
	kinds := []ilpgnn.Attribution{ilpgnn.AttributionWeight, ilpgnn.AttributionTerm, ilpgnn.AttributionReplaced, ilpgnn.AttributionOcclusion}
	for name := range strings.SplitSeq(data, ",") {
		src, err := dataset.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		sum := make([]float64, len(kinds))
		var line strings.Builder
		for _, seed := range seeds {
			f, err := fit(context.Background(), src, &Options{}, cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			f.pred.Seed = seed
			fmt.Fprintf(&line, "%s seed %d:", src, seed)
			for k, kind := range kinds {
				f.pred.Attribution = kind
				fa, err := faithfulness(context.Background(), f.pred, f.split.TestPos)
				if err != nil {
					t.Fatal(err)
				}
				sum[k] += fa.AttributionSpearmanMean / float64(len(seeds))
				fmt.Fprintf(&line, " %s %.3f (%d pairs; beats random %.3f, substitutes %.3f)", kind, fa.AttributionSpearmanMean, fa.SpearmanPairs, fa.SelectedBeatsRandomShare, fa.SelectedBeatsSubstitutesShare)
			}
			t.Log(line.String())
			line.Reset()
		}
		for k, kind := range kinds {
			t.Logf("%s %s: attribution_spearman_mean %.3f over seeds %v", src, kind, sum[k], seeds)
		}
	}
}
