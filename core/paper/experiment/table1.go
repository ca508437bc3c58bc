package experiment

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
)

// Predictor is one column of table 1: a link predictor fitted on a split.
type Predictor struct {
	Name string // as `ilpgnn train --model` calls it: ilpgnn, cn, aa, ...
	// Fit trains (or, for a heuristic, just scores) on sp, a split of d
	// drawn with seed, and returns its validation and test AUC.
	Fit FitFunc
	// Tune, when not nil, chooses the predictor's settings on src before
	// its runs, on tuning seeds of its own, and returns the Fit that
	// measures what it chose and how it chose it. Nil for a predictor
	// measured as it is.
	Tune func(ctx context.Context, src *dataset.Source) (FitFunc, *Tuning, error)
}

// FitFunc trains (or, for a heuristic, just scores) on sp, a split of d
// drawn with seed, and returns its validation and test AUC.
type FitFunc func(ctx context.Context, d *dataset.Dataset, sp *split.Split, seed uint64) (Fit, error)

// Tuning is how a cell's settings were chosen (package tune).
type Tuning struct {
	// Settings are the chosen hyperparameters by flag name.
	Settings map[string]string `json:"settings"`
	// Seeds chose them, on validation AUC alone (ValAUC, their mean).
	Seeds  []uint64 `json:"seeds"`
	ValAUC float64  `json:"val_auc"`
	// Budget is the search's time budget ("5m"), Plan its rounds in
	// words, EstimatedSeconds their native time by the cost model and
	// Seconds the search's actual time.
	Budget           string  `json:"budget"`
	Plan             string  `json:"plan"`
	EstimatedSeconds float64 `json:"estimated_seconds"`
	Seconds          float64 `json:"seconds"`
}

// Fit is one predictor's run on one split.
type Fit struct {
	TestAUC  float64   `json:"test_auc"`
	TestHits eval.Hits `json:"test_hits"` // Hits@20, @50 and @100 of the test links (OGB's)
	// TestHeart ranks each test link among its own hard negatives, when
	// table 1 draws them (HardNegatives).
	TestHeart *eval.Ranking `json:"test_heart,omitempty"`
	// SuggestHits10 is the share of test links whose other end is among
	// the first 10 suggestions of their first end, with TestHeart.
	SuggestHits10 *float64 `json:"suggest_hits10,omitempty"`
	ValAUC        float64  `json:"val_auc"`
	Epochs        int      `json:"epochs"`
	TrainSeconds  float64  `json:"train_seconds"` // the epochs, validation included
	EpochMillis   float64  `json:"epoch_ms"`      // TrainSeconds per epoch (0 for heuristics)
}

// Table1Cell is one predictor on one dataset over every seed.
type Table1Cell struct {
	Model   string  `json:"model"`
	Runs    []Fit   `json:"runs"`
	TestAUC float64 `json:"test_auc_mean"`
	TestStd float64 `json:"test_auc_std"`
	// TestHits and TestHitsStd are the mean and std of the runs' TestHits.
	TestHits    eval.Hits `json:"test_hits_mean"`
	TestHitsStd eval.Hits `json:"test_hits_std"`
	// TestHeart and TestHeartStd are the mean and std of the runs'
	// TestHeart, when there are hard negatives.
	TestHeart    *eval.Ranking `json:"test_heart_mean,omitempty"`
	TestHeartStd *eval.Ranking `json:"test_heart_std,omitempty"`
	// SuggestHits10 is the mean of the runs' SuggestHits10.
	SuggestHits10 *float64 `json:"suggest_hits10_mean,omitempty"`
	ValAUC        float64  `json:"val_auc_mean"`
	Seconds       float64  `json:"seconds"` // all seeds, splits and scoring included
	// EpochMillis and TrainSeconds are the runs' mean time per epoch and
	// per training run.
	EpochMillis  float64 `json:"epoch_ms_mean"`
	TrainSeconds float64 `json:"train_seconds_mean"`
	// Paper is the paper's table 1 entry (AUC %), 0 when it has none.
	Paper float64 `json:"paper"`
	// Tuning says how the settings were chosen; nil when they are the
	// model's own (defaults, or flags and --set).
	Tuning *Tuning `json:"tuning,omitempty"`
}

// Table1Row is one dataset.
type Table1Row struct {
	Dataset string       `json:"dataset"`
	Cells   []Table1Cell `json:"cells"`
}

// Table1Report is the paper's table 1 with our numbers.
type Table1Report struct {
	// Seeds measured every cell; the tuned cells' settings were chosen
	// on seeds of their own (Table1Cell.Tuning), never among these.
	Seeds []uint64    `json:"seeds"`
	Rows  []Table1Row `json:"rows"`
}

// paperTable1 holds the paper's table 1 (AUC %, the paper's table 1, beside ours in docs/results.md) by dataset name
// (the source's Name) and model.
var paperTable1 = map[string]map[string]float64{
	"cora":         {"cn": 75.57, "aa": 75.80, "vgae": 91.18, "gae": 91.57, "gat": 91.87, "seal": 92.21, "conpi": 89.69, "wp": 92.42, "ilpgnn": 93.21},
	"citeseer":     {"cn": 69.70, "aa": 69.80, "vgae": 91.42, "gae": 92.51, "gat": 93.57, "seal": 90.52, "conpi": 87.47, "wp": 91.37, "ilpgnn": 95.23},
	"amazon_photo": {"cn": 96.21, "aa": 96.59, "vgae": 97.03, "gae": 97.08, "gat": 96.47, "seal": 98.04, "conpi": 96.45, "wp": 98.12, "ilpgnn": 98.23},
}

// PaperTable1 returns the paper's table 1 entry for a model on a dataset
// (AUC %), and whether it has one. "photo" names amazon_photo.
func PaperTable1(dataset, model string) (float64, bool) {
	name := strings.ToLower(dataset)
	if name == "photo" || name == "amazon_electronics_photo" {
		name = "amazon_photo"
	}
	v, ok := paperTable1[name][model]
	return v, ok
}

// HardNegatives sets the hard negatives of sp's test links (its TestHard),
// sp being a split of d drawn with seed.
type HardNegatives func(d *dataset.Dataset, sp *split.Split, seed uint64) error

// Table1 fits every predictor on every source with every seed; the seeds'
// splits are shared by all predictors, so they are compared on exactly the
// same validation and test pairs. With hard, each split's test links also
// get hard negatives, drawn once per source and seed and the same for
// every predictor.
func Table1(ctx context.Context, sources []*dataset.Source, preds []Predictor, seeds []uint64, hard HardNegatives, log io.Writer) (*Table1Report, error) {
	rep := &Table1Report{Seeds: seeds}
	type drawn struct {
		pairs   []graph.Edge
		perLink int
		known   *graph.Graph
	}
	hardOf := map[uint64]drawn{} // this source's, by seed
	valFrac, testFrac := split.DefaultValFrac, split.DefaultTestFrac
	for _, src := range sources {
		clear(hardOf)
		row := Table1Row{Dataset: src.Name()}
		for _, p := range preds {
			cell := Table1Cell{Model: p.Name}
			cell.Paper, _ = PaperTable1(src.Name(), p.Name)
			fit := p.Fit
			if p.Tune != nil {
				var err error
				if fit, cell.Tuning, err = p.Tune(ctx, src); err != nil {
					return nil, fmt.Errorf("%s on %s: %w", p.Name, src.Name(), err)
				}
				// A seed that chose the settings must not measure them.
				for _, s := range cell.Tuning.Seeds {
					if slices.Contains(seeds, s) {
						return nil, fmt.Errorf("%s on %s: seed %d both chose the settings and measures them", p.Name, src.Name(), s)
					}
				}
			}
			start := time.Now()
			for _, seed := range seeds {
				d, err := src.Load(seed)
				if err != nil {
					return nil, err
				}
				sp, err := d.Split(seed, valFrac, testFrac)
				if err != nil {
					return nil, fmt.Errorf("%s seed %d: %w", src.Name(), seed, err)
				}
				if hard != nil {
					h, ok := hardOf[seed]
					if !ok {
						if err := hard(d, sp, seed); err != nil {
							return nil, fmt.Errorf("%s seed %d: %w", src.Name(), seed, err)
						}
						h = drawn{sp.TestHard, sp.HardPerLink, sp.Known}
						hardOf[seed] = h
					}
					sp.TestHard, sp.HardPerLink, sp.Known = h.pairs, h.perLink, h.known
				}
				f, err := fit(ctx, d, sp, seed)
				if err != nil {
					return nil, fmt.Errorf("%s on %s seed %d: %w", p.Name, src.Name(), seed, err)
				}
				cell.Runs = append(cell.Runs, f)
				if log != nil {
					heart := ""
					if f.TestHeart != nil {
						heart = fmt.Sprintf(", HeaRT MRR %.4f", f.TestHeart.MRR)
					}
					fmt.Fprintf(log, "table1 %s %s seed %d: test AUC %.4f%s (val %.4f, %d epochs)\n", src.Name(), p.Name, seed, f.TestAUC, heart, f.ValAUC, f.Epochs)
				}
			}
			cell.Seconds = since(start)
			cell.TestAUC, cell.TestStd = meanStd(len(cell.Runs), func(k int) float64 { return cell.Runs[k].TestAUC })
			hits := make([]eval.Hits, len(cell.Runs))
			for k, r := range cell.Runs {
				hits[k] = r.TestHits
			}
			cell.TestHits, cell.TestHitsStd = eval.MeanStdHits(hits)
			rankings, suggest := make([]*eval.Ranking, len(cell.Runs)), make([]*float64, len(cell.Runs))
			for k, r := range cell.Runs {
				rankings[k], suggest[k] = r.TestHeart, r.SuggestHits10
			}
			cell.TestHeart, cell.TestHeartStd = eval.MeanStdRanking(rankings)
			cell.SuggestHits10 = eval.MeanOfAll(suggest)
			cell.ValAUC, _ = meanStd(len(cell.Runs), func(k int) float64 { return cell.Runs[k].ValAUC })
			cell.EpochMillis, _ = meanStd(len(cell.Runs), func(k int) float64 { return cell.Runs[k].EpochMillis })
			cell.TrainSeconds, _ = meanStd(len(cell.Runs), func(k int) float64 { return cell.Runs[k].TrainSeconds })
			row.Cells = append(row.Cells, cell)
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// WriteTable1 renders the report as markdown: one row per dataset, one
// column per model, our test AUC % (mean ± std) with the paper's beside it,
// then a table of run times.
func WriteTable1(w io.Writer, rep *Table1Report) error {
	if len(rep.Rows) == 0 {
		return nil
	}
	var b strings.Builder
	models := rep.Rows[0].Cells
	header := func() {
		b.WriteString("| dataset |")
		for _, c := range models {
			fmt.Fprintf(&b, " %s |", c.Model)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(models)) + "\n")
	}
	fmt.Fprintf(&b, "Test AUC %% over seeds %v (the paper's table 1 in brackets); %s:\n\n", rep.Seeds, chosenBy(rep))
	header()
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| %s |", r.Dataset)
		for _, c := range r.Cells {
			fmt.Fprintf(&b, " %.2f ± %.2f", 100*c.TestAUC, 100*c.TestStd)
			if c.Paper > 0 {
				fmt.Fprintf(&b, " (%.2f)", c.Paper)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\nTest Hits@20 / @50 / @100 %, mean over seeds (OGB's: test links scoring above the k-th best test non-link):\n\n")
	header()
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| %s |", r.Dataset)
		for _, c := range r.Cells {
			fmt.Fprintf(&b, " %.2f / %.2f / %.2f |", 100*c.TestHits.At20, 100*c.TestHits.At50, 100*c.TestHits.At100)
		}
		b.WriteString("\n")
	}
	if rep.Rows[0].Cells[0].TestHeart != nil {
		b.WriteString("\nHeaRT: each test link ranked among hard negatives of its own (docs/heart.md); MRR % (mean ± std), Hits@10 % and, after the slash, the share of test links among the first 10 suggestions of their first end %; the best MRR in bold:\n\n")
		header()
		for _, r := range rep.Rows {
			best := 0.0
			for _, c := range r.Cells {
				if c.TestHeart != nil {
					best = max(best, c.TestHeart.MRR)
				}
			}
			fmt.Fprintf(&b, "| %s |", r.Dataset)
			for _, c := range r.Cells {
				if c.TestHeart == nil {
					b.WriteString(" – |")
					continue
				}
				mrr := fmt.Sprintf("%.2f ± %.2f", 100*c.TestHeart.MRR, 100*c.TestHeartStd.MRR)
				if c.TestHeart.MRR == best {
					mrr = "**" + mrr + "**"
				}
				suggest := "–"
				if c.SuggestHits10 != nil {
					suggest = fmt.Sprintf("%.2f", 100**c.SuggestHits10)
				}
				fmt.Fprintf(&b, " %s; %.2f / %s |", mrr, 100*c.TestHeart.Hits10, suggest)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nSeconds for all seeds (validation AUC % in brackets):\n\n")
	header()
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| %s |", r.Dataset)
		for _, c := range r.Cells {
			fmt.Fprintf(&b, " %.1f (%.2f) |", c.Seconds, 100*c.ValAUC)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nTraining time per run, mean over seeds: seconds / ms per epoch / epochs:\n\n")
	header()
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "| %s |", r.Dataset)
		for _, c := range r.Cells {
			epochs, _ := meanStd(len(c.Runs), func(k int) float64 { return float64(c.Runs[k].Epochs) })
			if epochs == 0 {
				fmt.Fprintf(&b, " %.2f / – / – |", c.TrainSeconds)
				continue
			}
			fmt.Fprintf(&b, " %.1f / %.0f / %.0f |", c.TrainSeconds, c.EpochMillis, epochs)
		}
		b.WriteString("\n")
	}
	writeTunings(&b, rep)
	_, err := io.WriteString(w, b.String())
	return err
}

// chosenBy says which seeds chose the settings of the report's cells.
func chosenBy(rep *Table1Report) string {
	var tuned, own []string
	var tuneSeeds [][]uint64
	for _, c := range rep.Rows[0].Cells {
		if c.Tuning == nil {
			own = append(own, c.Model)
			continue
		}
		tuned = append(tuned, c.Model)
		if !slices.ContainsFunc(tuneSeeds, func(s []uint64) bool { return slices.Equal(s, c.Tuning.Seeds) }) {
			tuneSeeds = append(tuneSeeds, c.Tuning.Seeds)
		}
	}
	var parts []string
	if len(tuned) > 0 {
		seeds := make([]string, len(tuneSeeds))
		for k, s := range tuneSeeds {
			seeds[k] = fmt.Sprint(s)
		}
		parts = append(parts, fmt.Sprintf("the settings of %s chosen by tune on seeds %s on validation AUC alone, measured on seeds %v", strings.Join(tuned, ", "), strings.Join(seeds, " and "), rep.Seeds))
	}
	if len(own) > 0 {
		parts = append(parts, fmt.Sprintf("%s with their own settings, not tuned here (defaults, flags and --set; ILP-GNN's defaults were chosen by hand on seeds 0–4, docs/defaults.md)", strings.Join(own, ", ")))
	}
	return strings.Join(parts, "; ")
}

// writeTunings writes, for a report with tuned cells, each one's chosen
// settings, the seeds that chose them and the search's plan and time.
func writeTunings(b *strings.Builder, rep *Table1Report) {
	head := false
	for _, r := range rep.Rows {
		for _, c := range r.Cells {
			t := c.Tuning
			if t == nil {
				continue
			}
			if !head {
				fmt.Fprintf(b, "\nSettings chosen by tune, on validation AUC of the tuning seeds only; the table's seeds %v measured them:\n\n", rep.Seeds)
				b.WriteString("| dataset | model | chosen on seeds | validation AUC % | budget | plan | estimated / actual seconds | settings |\n|---|---|---|---|---|---|---|---|\n")
				head = true
			}
			fmt.Fprintf(b, "| %s | %s | %v | %.2f | %s | %s | %.0f / %.0f | %s |\n", r.Dataset, c.Model, t.Seeds, 100*t.ValAUC, t.Budget, t.Plan, t.EstimatedSeconds, t.Seconds, flagsText(t.Settings))
		}
	}
}

// flagsText writes settings as --flag value pairs in name order.
func flagsText(s map[string]string) string {
	names := slices.Sorted(maps.Keys(s))
	parts := make([]string, len(names))
	for k, n := range names {
		parts[k] = "--" + n + " " + s[n]
	}
	return strings.Join(parts, " ")
}
