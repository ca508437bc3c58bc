package main

import (
	"fmt"
	"io"
	"time"

	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/models"
)

// reporter shows a training command's progress on stderr: a line
// rewritten in place on a terminal, else a heartbeat that names each phase
// and repeats the latest status every so often, so a long read or run does
// not look hung.
type reporter struct {
	stderr   io.Writer
	terminal bool       // rewrite one line in place
	hb       *heartbeat // nil on a terminal or when quiet
	quiet    bool
}

func newReporter(stderr io.Writer, quiet bool) *reporter {
	r := &reporter{stderr: stderr, quiet: quiet, terminal: !quiet && isTerminal(stderr)}
	if !quiet && !r.terminal {
		r.stderr = &lockedWriter{w: stderr}
		r.hb = startHeartbeat(r.stderr, heartbeatPeriod)
	}
	return r
}

func (r *reporter) close() { r.hb.close() }

// clearLine clears the terminal's progress line.
func (r *reporter) clearLine() {
	if r.terminal {
		fmt.Fprint(r.stderr, "\r\033[K")
	}
}

// show shows seed's status: in place on a terminal, else at the
// heartbeat's pace.
func (r *reporter) show(seed uint64, status string) {
	if r.terminal {
		fmt.Fprintf(r.stderr, "\rseed %d  %s ", seed, status)
	}
	r.hb.update(fmt.Sprintf("seed %d: training", seed), status)
}

// progress returns the progress callback of seed's run, nil when quiet;
// byPrecision says that the run keeps the weights of its best validation
// explanation precision, not of its best validation AUC.
func (r *reporter) progress(seed uint64, byPrecision bool) func(models.Progress) {
	if r.quiet {
		return nil
	}
	return func(p models.Progress) {
		if p.Prepare != nil {
			r.prepare(seed, p)
			return
		}
		r.show(seed, epochStatus(p, byPrecision))
	}
}

// epochStatus is one report's status line. The kept epoch is named with
// what it was kept on: its validation AUC, or with byPrecision its
// validation precision and, beside it, its AUC.
func epochStatus(p models.Progress, byPrecision bool) string {
	elapsed := p.Elapsed.Round(100 * time.Millisecond)
	if p.Phase != "" {
		// Within an ILP-GNN epoch: the shards done, and the last epoch's loss.
		return fmt.Sprintf("epoch %4d/%d  %s %2d/%d  %s  %s",
			p.Epoch, p.MaxEpochs, p.Phase, p.Batch, p.Batches, kept(p, byPrecision), elapsed)
	}
	if p.Batches > 0 {
		return fmt.Sprintf("epoch %4d/%d  batch %4d/%d  loss %.4f  %s  %s",
			p.Epoch, p.MaxEpochs, p.Batch, p.Batches, p.Loss, kept(p, byPrecision), elapsed)
	}
	terms := ""
	if p.Pos != 0 || p.Neg != 0 {
		terms = fmt.Sprintf(" (cls %.4f pos %.4f neg %.4f)", p.Cls, p.Pos, p.Neg)
	}
	if byPrecision {
		return fmt.Sprintf("epoch %4d/%d  loss %.4f%s  val AUC %.4f  val precision %.4f  kept @%d: val precision %.4f (val AUC %.4f)  %s",
			p.Epoch, p.MaxEpochs, p.Loss, terms, p.ValAUC, p.Score, p.BestEpoch, p.BestScore, p.BestValAUC, elapsed)
	}
	return fmt.Sprintf("epoch %4d/%d  loss %.4f%s  val AUC %.4f  best val AUC %.4f @%d  %s",
		p.Epoch, p.MaxEpochs, p.Loss, terms, p.ValAUC, p.BestValAUC, p.BestEpoch, elapsed)
}

// kept names the kept epoch within an epoch's reports.
func kept(p models.Progress, byPrecision bool) string {
	if byPrecision {
		return fmt.Sprintf("kept @%d: val precision %.4f (val AUC %.4f)", p.BestEpoch, p.BestScore, p.BestValAUC)
	}
	return fmt.Sprintf("best val AUC %.4f @%d", p.BestValAUC, p.BestEpoch)
}

// prepare shows a step of the preparation before the first epoch.
func (r *reporter) prepare(seed uint64, p models.Progress) {
	pr := p.Prepare
	if r.terminal {
		fmt.Fprintf(r.stderr, "\rseed %d  %s \033[K", seed, prepareStatus(p))
	}
	if pr.Done < pr.Total {
		r.hb.update(fmt.Sprintf("seed %d: prepare: %s", seed, pr.Phase), prepareDetail(pr))
		return
	}
	// A phase reports its end, not its start: name what runs next, up to
	// the first epoch (which runs until the first progress report).
	switch pr.Phase {
	case ilpgnn.PhaseSimilarity:
		r.hb.phase(fmt.Sprintf("seed %d: prepare: %s", seed, ilpgnn.PhaseFeatures))
	case ilpgnn.PhaseFeatures:
		r.hb.phase(fmt.Sprintf("seed %d: prepare: %s", seed, ilpgnn.PhaseAdjacency))
	case ilpgnn.PhaseAdjacency:
		r.hb.phase(fmt.Sprintf("seed %d: training", seed))
	}
}

// prepareStatus describes a step of the preparation, e.g. "prepare:
// structure similarity 42% (71k/169k columns, 12 s)".
func prepareStatus(p models.Progress) string {
	secs := p.Elapsed.Round(100 * time.Millisecond)
	if p.Prepare.Phase != ilpgnn.PhaseSimilarity {
		return fmt.Sprintf("prepare: %s (%v)", p.Prepare.Phase, secs)
	}
	return fmt.Sprintf("prepare: %s %d%% (%s/%s columns, %v)", p.Prepare.Phase, percent(p.Prepare), thousands(p.Prepare.Done), thousands(p.Prepare.Total), secs)
}

// prepareDetail is how far a phase with countable work has got, "42%
// (71k/169k columns)", or "" for the others; the heartbeat prints it after
// the phase's name and seconds.
func prepareDetail(p *models.Prepare) string {
	if p.Phase != ilpgnn.PhaseSimilarity {
		return ""
	}
	return fmt.Sprintf("%d%% (%s/%s columns)", percent(p), thousands(p.Done), thousands(p.Total))
}

func percent(p *models.Prepare) int {
	if p.Total <= 0 {
		return 100
	}
	return 100 * p.Done / p.Total
}

// thousands writes n as "71k" from 10,000 on, else in full.
func thousands(n int) string {
	if n < 10000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%dk", n/1000)
}
