// Which stored checkpoint a reload or deep link restores.

import { test } from "node:test";
import assert from "node:assert/strict";
import { CANCELLED_METRIC, cancelledAt, chooseRestore, describeModel, runState, shortKey } from "../src/app/restore";
import type { CheckpointMeta } from "../src/protocol";

const FP = "ab".repeat(32);

function meta(key: string, created: number, metrics: Record<string, number>, over: Partial<CheckpointMeta> = {}): CheckpointMeta {
  return { key, schema: 1, model: "ilpgnn", dataset: "synth-sparse-0", fingerprint: FP, seed: 0, created, metrics, config: "{}", size: 100, matches: true, ...over };
}

test("cancelledAt reads the mark; without it a run is completed", () => {
  assert.equal(cancelledAt(meta("k", 1, { test_auc: 0.7 })), undefined);
  assert.equal(cancelledAt(meta("k", 1, {})), undefined);
  assert.equal(cancelledAt(meta("k", 1, { [CANCELLED_METRIC]: 4 })), 4);
  assert.equal(cancelledAt(meta("k", 1, { [CANCELLED_METRIC]: 0 })), 0);
  // A hand-made value still marks the run cancelled, as the engine reads it.
  assert.equal(cancelledAt(meta("k", 1, { [CANCELLED_METRIC]: 2.5 })), 0);
  assert.equal(cancelledAt(meta("k", 1, { [CANCELLED_METRIC]: -3 })), 0);
});

test("chooseRestore takes the newest completed run over a newer cancelled one", () => {
  // The case: a completed run (71.1%), then a later cancelled one (64.7%).
  const done = meta(`${FP}-0000000000000001`, 1000, { test_auc: 0.711 });
  const cut = meta(`${FP}-0000000000000002`, 2000, { test_auc: 0.647, [CANCELLED_METRIC]: 4 });
  const older = meta(`${FP}-0000000000000003`, 500, { test_auc: 0.69 });
  assert.deepEqual(chooseRestore([cut, done, older]), { meta: done, completed: true });
  // The listing's order is not trusted for "newest".
  assert.deepEqual(chooseRestore([older, cut, done]), { meta: done, completed: true });
});

test("chooseRestore skips other graphs and baselines, and offers a cancelled run only when nothing completed is stored", () => {
  const otherGraph = meta("o-1", 3000, { test_auc: 0.9 }, { matches: false });
  const baseline = meta("b-1", 3000, { test_auc: 0.9 }, { model: "gae" });
  const cutOld = meta("c-1", 1000, { [CANCELLED_METRIC]: 2 });
  const cutNew = meta("c-2", 2000, { [CANCELLED_METRIC]: 7 });
  assert.deepEqual(chooseRestore([otherGraph, baseline, cutOld, cutNew]), { meta: cutNew, completed: false });
  assert.equal(chooseRestore([otherGraph, baseline]), undefined);
  assert.equal(chooseRestore([]), undefined);
});

test("describeModel says which checkpoint and whether its run completed", () => {
  const key = `${FP}-0123456789abcdef`;
  assert.equal(shortKey(key), "abababab…-0123456789abcdef");
  assert.equal(runState(undefined), "completed run");
  assert.equal(runState(1), "cancelled after 1 epoch");
  assert.equal(runState(4), "cancelled after 4 epochs");
  const d = describeModel({ key, dataset: "cora", created: 1_790_000_000, testAUC: 0.647, cancelledAtEpoch: 4 });
  assert.match(d, /^checkpoint abababab…-0123456789abcdef of cora, trained \d{4}-\d\d-\d\d \d\d:\d\d, test AUC 64\.70%, cancelled after 4 epochs$/);
  assert.match(describeModel({ key, dataset: "cora", created: 0, testAUC: 0.711 }), /test AUC 71\.10%, completed run$/);
});
