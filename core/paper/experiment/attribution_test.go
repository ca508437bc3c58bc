package experiment

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/core/dataset"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/train"
)

var (
	measureData  = flag.String("measure.data", "", "BenchmarkAttributionComparison: comma-separated --data values to measure on")
	measureSeeds = flag.String("measure.seeds", "0", "BenchmarkAttributionComparison: comma-separated seeds")
	measureFlags = flag.String("measure.flags", "", "BenchmarkAttributionComparison: hyperparameters, as ilpgnn train takes them (--beta 0.3)")
)

// BenchmarkAttributionComparison measures attribution_spearman_mean for
// every ilpgnn.Attribution kind, the comparison docs/attribution.md
// records, on the data -measure.data names (comma-separated), with the
// seeds of -measure.seeds and the hyperparameters of -measure.flags (the
// defaults where it gives none, β with --beta). It trains, so it skips
// without -measure.data; each op is one such report:
//
//	go test ./core/paper/experiment -run '^$' -bench AttributionComparison -benchtime 1x -timeout 1h \
//	  -measure.data "$PWD/../shared/datasets/cora,synth:medium" -measure.seeds 0,1,2
//
// (go test runs in the package's folder, hence the absolute path.)
func BenchmarkAttributionComparison(b *testing.B) {
	if *measureData == "" {
		b.Skip("pass -measure.data to measure")
	}
	var seeds []uint64
	for f := range strings.SplitSeq(*measureSeeds, ",") {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			b.Fatalf("-measure.seeds: %v", err)
		}
		seeds = append(seeds, v)
	}
	cfg := train.DefaultConfig()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(strings.Fields(*measureFlags)); err != nil {
		b.Fatalf("-measure.flags: %v", err)
	}
	for b.Loop() {
		compareAttributions(b, *measureData, seeds, cfg)
	}
}

// compareAttributions logs, per dataset of data and seed, the faithfulness
// of each attribution kind, then their means over the seeds.
func compareAttributions(b *testing.B, data string, seeds []uint64, cfg train.Config) {
	kinds := []ilpgnn.Attribution{ilpgnn.AttributionWeight, ilpgnn.AttributionTerm, ilpgnn.AttributionReplaced, ilpgnn.AttributionOcclusion}
	for name := range strings.SplitSeq(data, ",") {
		src, err := dataset.Parse(name)
		if err != nil {
			b.Fatal(err)
		}
		sum := make([]float64, len(kinds))
		var line strings.Builder
		for _, seed := range seeds {
			f, err := fit(context.Background(), src, &Options{}, cfg, seed)
			if err != nil {
				b.Fatal(err)
			}
			f.pred.Seed = seed
			fmt.Fprintf(&line, "%s seed %d:", src, seed)
			for k, kind := range kinds {
				f.pred.Attribution = kind
				fa, err := faithfulness(context.Background(), f.pred, f.split.TestPos)
				if err != nil {
					b.Fatal(err)
				}
				sum[k] += fa.AttributionSpearmanMean / float64(len(seeds))
				fmt.Fprintf(&line, " %s %.3f (%d pairs; beats random %.3f, substitutes %.3f)", kind, fa.AttributionSpearmanMean, fa.SpearmanPairs, fa.SelectedBeatsRandomShare, fa.SelectedBeatsSubstitutesShare)
			}
			b.Log(line.String())
			line.Reset()
		}
		for k, kind := range kinds {
			b.Logf("%s %s: attribution_spearman_mean %.3f over seeds %v", src, kind, sum[k], seeds)
		}
	}
}
