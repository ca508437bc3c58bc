// Which stored checkpoint a page restores without retraining, and how the
// page names the model it restored. A run cancelled part way is saved too
// (its best weights so far), marked by the metric cancelled_at_epoch; it
// must not pass silently for the newest model when a completed run exists.

import type { CheckpointMeta } from "../protocol";
import { createdTime, percent } from "./format";

/** The checkpoint metric that marks a cancelled run (the engine's store.CancelledMetric). */
export const CANCELLED_METRIC = "cancelled_at_epoch";

/**
 * The epochs a cancelled run had done, or undefined for a completed run
 * (checkpoints from before the mark included). A count that is not a
 * whole number in range still means cancelled, as 0 epochs, as the engine
 * reads it.
 */
export function cancelledAt(meta: Pick<CheckpointMeta, "metrics">): number | undefined {
  const v = meta.metrics[CANCELLED_METRIC];
  if (v === undefined) return undefined;
  return Number.isInteger(v) && v >= 0 && v <= 2 ** 31 - 1 ? v : 0;
}

/** What to restore on opening a graph: `completed` may be restored unasked; a cancelled run only offered. */
export interface RestoreChoice {
  meta: CheckpointMeta;
  completed: boolean;
}

/**
 * The newest completed ILP-GNN checkpoint trained on the loaded graph,
 * else the newest cancelled one, else undefined. Newest is by creation
 * time; among equal times the listing's order (the engine's) decides.
 */
export function chooseRestore(entries: readonly CheckpointMeta[]): RestoreChoice | undefined {
  let completed: CheckpointMeta | undefined;
  let cancelled: CheckpointMeta | undefined;
  for (const c of entries) {
    if (!c.matches || c.model !== "ilpgnn") continue;
    if (cancelledAt(c) === undefined) {
      if (completed === undefined || c.created > completed.created) completed = c;
    } else if (cancelled === undefined || c.created > cancelled.created) {
      cancelled = c;
    }
  }
  if (completed) return { meta: completed, completed: true };
  return cancelled ? { meta: cancelled, completed: false } : undefined;
}

/** A checkpoint key for people: the graph fingerprint's first 8 hex digits and the settings' hash. */
export function shortKey(key: string): string {
  const dash = key.indexOf("-");
  return dash > 8 ? `${key.slice(0, 8)}…${key.slice(dash)}` : key;
}

/** "completed run" or "cancelled after N epochs". */
export function runState(cancelledAtEpoch: number | undefined): string {
  if (cancelledAtEpoch === undefined) return "completed run";
  return `cancelled after ${cancelledAtEpoch} epoch${cancelledAtEpoch === 1 ? "" : "s"}`;
}

/** Names a stored or current model: key, graph, training time (when it has one), test AUC and whether its run completed. */
export function describeModel(m: { key: string; dataset: string; created: number; testAUC: number; cancelledAtEpoch?: number | undefined }): string {
  const when = createdTime(m.created);
  return `checkpoint ${shortKey(m.key)} of ${m.dataset}, ${when === undefined ? "" : `trained ${when}, `}test AUC ${percent(m.testAUC, 2)}, ${runState(m.cancelledAtEpoch)}`;
}

/** describeModel of a listed checkpoint. */
export function describeMeta(c: CheckpointMeta): string {
  return describeModel({ key: c.key, dataset: c.dataset, created: c.created, testAUC: c.metrics["test_auc"] ?? NaN, cancelledAtEpoch: cancelledAt(c) });
}

/**
 * The early-stopping patience a run that keeps its weights on validation
 * explanation precision takes unless the user sets one (the engine's
 * core/models.PrecisionPatience): a default the model chose, not a change.
 */
export const PRECISION_PATIENCE = "30";

/**
 * The settings of a model's configuration that differ from the defaults
 * it was trained from, by name. `defaults` are the model's listed defaults
 * (name → value); settings without a listed default are left out. A model
 * that kept its weights on precision (a graph with groundtruth, as the
 * page trains) started from patience {@link PRECISION_PATIENCE}, so that
 * value is its default, not a change.
 */
export function changedSettings(config: Readonly<Record<string, string>>, defaults: ReadonlyMap<string, string>, precisionSelected: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(config)) {
    let d = defaults.get(name);
    if (name === "patience" && precisionSelected) d = PRECISION_PATIENCE;
    if (d !== undefined && d !== value) out[name] = value;
  }
  return out;
}
