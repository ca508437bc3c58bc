// A training run as the panel shows it, DOM-free (the unit tests drive
// it): where the run stands in words and as the bar's share, and whether
// Cancel has been pressed. A progress event within an epoch (a sharded
// ILP-GNN epoch's phase, a pair model's mini-batch) moves the bar by the
// part of the epoch done; only the event that ends an epoch has a
// validation AUC of its own.

import type { PrepareProgress, TrainProgress, TrainResult } from "../protocol";
import { coresText, workersOf } from "./cores";
import { roughly, type Estimate } from "./estimate";
import { duration, fixed, percent } from "./format";

/** What the progress line says from the moment Cancel is pressed until the run ends. */
export const CANCELLING = "Cancelling…";

/** The phase of a sharded ILP-GNN epoch whose batch of batches counts the shards done. */
export const SHARDS_PHASE = "selection and losses";

/** The fields of a progress event the words and the bar read. */
export type RunReport = Pick<TrainProgress, "epoch" | "maxEpochs" | "loss" | "valAUC" | "bestValAUC" | "bestEpoch" | "elapsedMs" | "batch" | "batches" | "phase" | "workers" | "keptEpoch">;

/** "training on 2 cores". */
export function trainingOn(workers: number): string {
  return `training on ${coresText(workers)}`;
}

/** Whether a report comes from within an epoch (a phase, or a mini-batch before the last), not from its end. */
export function withinEpoch(p: RunReport): boolean {
  return p.phase !== undefined || (p.batch !== undefined && p.batches !== undefined && p.batch < p.batches);
}

/** Epochs done, with the part of the current one (batch of batches) when the report is from within it. */
export function epochsDone(p: RunReport): number {
  if (!withinEpoch(p)) return p.epoch;
  const part = p.batches !== undefined && p.batches > 0 ? Math.min(1, (p.batch ?? 0) / p.batches) : 0;
  return p.epoch - 1 + part;
}

/** The bar's value: epochs done of the most the run may take, in [0, 1]. */
export function progressShare(p: RunReport): number {
  return p.maxEpochs > 0 ? Math.min(1, epochsDone(p) / p.maxEpochs) : 0;
}

/** What a sharded epoch is doing: its phase, with the shards done in the phase that counts them ("selection and losses 5/16"). */
export function phaseText(p: RunReport): string {
  const phase = p.phase ?? "";
  return phase === SHARDS_PHASE && p.batch !== undefined && p.batches !== undefined ? `${phase} ${p.batch}/${p.batches}` : phase;
}

/** The best validation AUC so far, for a report that has none of its own. */
function bestSoFar(p: RunReport): string {
  return p.bestEpoch > 0 ? `best validation AUC ${percent(p.bestValAUC)} at epoch ${p.bestEpoch}` : "validation after the first epoch";
}

/** Options of {@link progressLine}. */
export interface LineOptions {
  /** An ILP-GNN run: the line says how many cores train it, and when its first model answers. */
  ilpgnn: boolean;
  /** The estimate of the time left, when there is one. */
  estimate?: Estimate | undefined;
}

/**
 * What the run's estimate says will happen next, most useful first: for
 * an ILP-GNN run without kept weights yet, when the first model to
 * question comes (at the end of the epoch under way); then when early
 * stopping ends the run unless validation improves, or, where that is
 * not known or not sooner, the upper bound of the time left.
 */
export function leadText(p: RunReport, opts: LineOptions): string[] {
  const e = opts.estimate;
  if (e === undefined) return [];
  const out: string[] = [];
  if (opts.ilpgnn && p.keptEpoch === undefined && withinEpoch(p)) {
    const partLeft = e.epochsLeft - Math.max(0, p.maxEpochs - p.epoch);
    out.push(`a model to question in about ${roughly(e.epochMs * partLeft)}`);
  }
  if (e.stopMs !== undefined && e.stopMs < e.atMostMs) out.push(`early stopping in about ${roughly(e.stopMs)} unless validation improves`);
  else out.push(`at most about ${roughly(e.atMostMs)} left`);
  return out;
}

/**
 * The progress line of a report, e.g. "epoch 1 of at most 1000 ·
 * selection and losses 5/16 · training on 2 cores · validation after the
 * first epoch · 3 s elapsed · a model to question in about 8 s · early
 * stopping in about 9 min unless validation improves". An epoch's end
 * gives its loss and validation AUC; a report within an epoch, what the
 * epoch is doing and the best AUC so far (the loss it carries is the
 * previous epoch's).
 */
export function progressLine(p: RunReport, opts: LineOptions): string {
  const cores = opts.ilpgnn ? trainingOn(workersOf(p)) : null;
  const of = `of at most ${p.maxEpochs}`;
  let parts: Array<string | null>;
  if (p.phase !== undefined) {
    parts = [`epoch ${p.epoch} ${of}`, phaseText(p), cores, bestSoFar(p)];
  } else if (withinEpoch(p)) {
    parts = [`epoch ${p.epoch} (batch ${p.batch} of ${p.batches}) ${of}`, `loss ${fixed(p.loss)}`, bestSoFar(p)];
  } else {
    parts = [`epoch ${p.epoch} ${of}`, `loss ${fixed(p.loss)}`, `validation AUC ${percent(p.valAUC)} (best ${percent(p.bestValAUC)} at epoch ${p.bestEpoch})`, cores];
  }
  parts.push(`${duration(p.elapsedMs)} elapsed`, ...leadText(p, opts));
  return parts.filter((s): s is string => s !== null).join(" · ");
}

/** Where a run stands: none, under way, or asked to stop and not yet stopped. */
export type RunState = "idle" | "running" | "cancelling";

/**
 * One run at a time (train or tune) and its Cancel: {@link begin} gives
 * the signal the engine request takes; {@link cancel} aborts it (the
 * client then sends the engine `cancel`) and from then on the run is
 * "cancelling", so that the page says so at once and takes no second
 * press, until {@link end}.
 */
export class RunControl {
  private controller: AbortController | null = null;
  private asked = false;

  get state(): RunState {
    if (this.controller === null) return "idle";
    return this.asked ? "cancelling" : "running";
  }

  /** Whether Cancel takes a press now: a run is under way and not already cancelling. */
  get cancellable(): boolean {
    return this.state === "running";
  }

  /** Starts a run; returns the signal its engine request takes. */
  begin(): AbortSignal {
    this.controller = new AbortController();
    this.asked = false;
    return this.controller.signal;
  }

  /** Cancel pressed: aborts the run's signal. True when this press asked it; false when no run is under way or it was already asked. */
  cancel(): boolean {
    if (!this.cancellable) return false;
    this.asked = true;
    this.controller!.abort();
    return true;
  }

  /** The run ended (finished, cancelled or failed). */
  end(): void {
    this.controller = null;
    this.asked = false;
  }

  /** The progress line to show: `line`, or {@link CANCELLING} once Cancel was pressed. */
  say(line: string): string {
    return this.state === "cancelling" ? CANCELLING : line;
  }
}

/** What Train and Tune depend on before they can start a run. */
export interface RunPrerequisites {
  /** The engine has said it is ready. */
  engineReady: boolean;
  /** The engine is gone (out of memory, say) and takes no more requests. */
  engineStopped: boolean;
  /** A graph is loaded. */
  graph: boolean;
  /** A run (train or tune) is under way. */
  training: boolean;
}

/**
 * Why Train and Tune cannot start a run now, as their buttons' title says
 * it, or null when they can: pressing a button that does nothing (while
 * the engine starts, say) must not look possible.
 */
export function runBlocked(s: RunPrerequisites): string | null {
  if (s.engineStopped) return "The engine stopped: reload the page to start it again.";
  if (!s.engineReady) return "The engine is starting; training is possible once it is ready.";
  if (!s.graph) return "No graph is loaded yet: pick one or open your files.";
  if (s.training) return "A run is under way: wait for it or cancel it.";
  return null;
}

/** What a preparation report prepares: the whole graph (which the model explains on) or the split's training graph. */
export function preparingWhat(p: PrepareProgress): string {
  return p.graph === "training" ? "Preparing the training graph" : "Preparing the graph";
}

/**
 * How a cancelled run ended, in the words of what happened: the epoch it
 * stopped during (or after) and the epoch whose weights the model keeps.
 */
export function stoppedText(r: Pick<TrainResult, "epochs" | "bestEpoch" | "stoppedDuring" | "trainSeconds">): string {
  const when = r.stoppedDuring !== undefined && r.stoppedDuring > 0 ? `Stopped during epoch ${r.stoppedDuring}` : r.epochs > 0 ? `Stopped after epoch ${r.epochs}` : "Stopped before the first epoch";
  // An epoch judges the weights it starts from, so the epoch under way may
  // be the kept one: then say which weights those are.
  const started = r.stoppedDuring !== undefined && r.stoppedDuring > 0 && r.bestEpoch === r.stoppedDuring ? ", the ones it started from" : "";
  const kept = r.bestEpoch > 0 ? `the model keeps epoch ${r.bestEpoch}'s weights${started}` : "no epoch was judged, so the model keeps its starting weights";
  return `${when} (${duration(r.trainSeconds * 1000)}); ${kept}.`;
}
