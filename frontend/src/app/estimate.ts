// The time left in a training run, estimated on the page from the progress
// events' elapsed times (training time, after the preparation).
//
// An epoch's time is the difference of two consecutive epoch ends. The
// estimate takes the median of the last WINDOW of them, so that one slow
// epoch (a garbage collection, another tab busy) does not swing it, and
// multiplies by the epochs the run may still take: maxEpochs − epoch, plus
// the rest of the current epoch when a report comes mid-epoch. That is an
// upper bound, hence "at most": early stopping ends the run at the
// engine's `stopEpoch` (or else `patience` epochs after its best one)
// unless validation improves, which is often far sooner; `stopEpoch` and
// `stopMs` say when that would be.

import { duration } from "./format";

/** The fields of a progress event the estimate reads. */
export interface EpochReport {
  /** 1-based; mid-epoch reports name the epoch in progress. */
  epoch: number;
  maxEpochs: number;
  /** Training time so far, ms. */
  elapsedMs: number;
  bestEpoch: number;
  /** Early stopping's patience, when the engine reports it. */
  patience?: number;
  /** The last epoch the run takes unless validation improves, when the engine reports it (it supersedes bestEpoch + patience). */
  stopEpoch?: number;
  /** Mid-epoch position of models that report per mini-batch, or of a sharded ILP-GNN epoch (shards done). */
  batch?: number;
  batches?: number;
  /** Set on every report from within a sharded ILP-GNN epoch, the last ("backward", all shards done) included. */
  phase?: string;
}

/** What the estimate says after one report. */
export interface Estimate {
  /** The epoch time used: the median of the recent epochs (or, before an epoch has ended, the current one's pace). */
  epochMs: number;
  /** How many epoch times the upper bound counts (fractional mid-epoch). */
  epochsLeft: number;
  /** Upper bound of the time left: epochMs × epochsLeft. */
  atMostMs: number;
  /** The epoch at which early stopping ends the run if no better epoch comes (known when patience is). */
  stopEpoch?: number;
  /** Time left until stopEpoch. */
  stopMs?: number;
}

/** Median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Collects one run's epoch ends and estimates the time left after each report. */
export class EpochClock {
  /** Epoch time durations, oldest first (at most `window`). */
  private readonly times: number[] = [];
  private lastEpoch = 0;
  private lastEndMs = 0;

  /** `window`: how many recent epochs the median takes. */
  constructor(readonly window = 10) {}

  /** The recent epoch times the median is taken over, oldest first. */
  recent(): readonly number[] {
    return this.times;
  }

  /**
   * Takes one progress report and returns the estimate after it, or
   * undefined before anything can be said (a mid-epoch report with no
   * batch done yet).
   */
  report(p: EpochReport): Estimate | undefined {
    const counted = p.batch !== undefined && p.batches !== undefined && p.batches > 0;
    const midEpoch = p.phase !== undefined || (counted && p.batch! < p.batches!);
    let epochMs: number;
    let partLeft = 0; // the fraction of the current epoch still to run
    if (midEpoch) {
      const done = counted ? Math.min(1, p.batch! / p.batches!) : 0;
      partLeft = 1 - done;
      if (this.times.length > 0) epochMs = median(this.times);
      else if (done > 0) epochMs = (p.elapsedMs - this.lastEndMs) / done;
      else return undefined;
    } else {
      if (p.epoch > this.lastEpoch) {
        // Reports may skip epochs (a throttled sender): spread the span evenly.
        const span = (p.elapsedMs - this.lastEndMs) / (p.epoch - this.lastEpoch);
        this.times.push(span);
        if (this.times.length > this.window) this.times.shift();
        this.lastEpoch = p.epoch;
        this.lastEndMs = p.elapsedMs;
      }
      if (this.times.length === 0) return undefined;
      epochMs = median(this.times);
    }
    const epochsLeft = Math.max(0, p.maxEpochs - p.epoch) + partLeft;
    const out: Estimate = { epochMs, epochsLeft, atMostMs: epochMs * epochsLeft };
    const stopAt = p.stopEpoch !== undefined && p.stopEpoch > 0 ? p.stopEpoch : p.patience !== undefined && p.patience > 0 ? p.bestEpoch + p.patience : undefined;
    if (stopAt !== undefined) {
      const stopEpoch = Math.min(p.maxEpochs, Math.max(stopAt, p.epoch));
      out.stopEpoch = stopEpoch;
      out.stopMs = epochMs * (stopEpoch - p.epoch + partLeft);
    }
    return out;
  }
}

/** A time left, rounded as a person would say it: "40 s", "4 min", "1 h 05 min". */
export function roughly(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** The estimate in words: when early stopping ends the run unless validation improves, where that comes before the upper bound, then the upper bound. */
export function describeEstimate(e: Estimate, window: number, counted: number): string {
  const basis = counted > 0 ? `median of the last ${Math.min(counted, window)} epoch${counted === 1 ? "" : "s"}` : "the pace of the current epoch";
  const cap = `at most about ${roughly(e.atMostMs)} left (${basis}, ${duration(e.epochMs)} each, × ${fmtEpochs(e.epochsLeft)} epochs to go)`;
  // What will most likely happen leads; the cap of the epochs is the bound behind it.
  if (e.stopEpoch !== undefined && e.stopMs !== undefined && e.stopMs < e.atMostMs) {
    return `early stopping ends it at epoch ${e.stopEpoch}, in about ${roughly(e.stopMs)}, unless validation improves; ${cap}`;
  }
  return cap;
}

function fmtEpochs(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/**
 * The estimate of an epoch before training, from the engine's
 * `trainEpochSeconds` ([k]: seconds on k+1 workers) for a run on
 * `workers`: "an epoch takes roughly 12 s on 2 workers". Workers beyond
 * the estimates take the last one; an epoch under a second says so
 * rather than "0 s". Empty when there is no estimate.
 */
export function epochBeforeTraining(secondsByWorkers: readonly number[], workers: number): string {
  if (secondsByWorkers.length === 0) return "";
  const k = Math.min(Math.max(Math.round(workers), 1), secondsByWorkers.length) - 1;
  const s = secondsByWorkers[k]!;
  if (!Number.isFinite(s) || s < 0) return "";
  const time = s < 1 ? "under a second" : `roughly ${roughly(1000 * s)}`;
  return `an epoch takes ${time} on ${k + 1} worker${k === 0 ? "" : "s"}`;
}
