// Unit tests of the Tune button's text: the budget it accepts, the line a
// trial adds, the trials table and what the result says about seeds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { epochLine, epochsText, parseBudget, scoresText, seedsNote, settingsText, trialLine, trialRows, tuneShare, tuneSummary } from "../src/app/tune";
import type { TuneResult, TuneTrial } from "../src/protocol";

test("the budget is 1 to 60 minutes, in seconds", () => {
  assert.deepEqual(parseBudget("5"), { seconds: 300 });
  assert.deepEqual(parseBudget(" 1.5 "), { seconds: 90 });
  assert.deepEqual(parseBudget("60"), { seconds: 3600 });
  for (const bad of ["", "0", "0.5", "61", "abc", "Infinity", "-3"]) {
    const r = parseBudget(bad);
    assert.ok("error" in r, bad);
    assert.equal(r.error, `the tuning budget must be 1 to 60 minutes (got "${bad}")`);
  }
});

test("a trial reads as one line, settings in name order", () => {
  const p = { round: 2, candidate: 7, settings: { lr: "0.001", dropout: "0.2" }, epochs: 60, trained: 60, valScore: 0.95349, valAUC: 0.95349, seconds: 12.4, done: 4, planned: 13 };
  assert.equal(settingsText(p.settings), "dropout 0.2, lr 0.001");
  assert.equal(trialLine(p), "trial 4 of 13 · round 2 · 60 epochs · dropout 0.2, lr 0.001 · val AUC 95.3% · 12 s");
  assert.equal(tuneShare(p), 4 / 13);
  assert.equal(tuneShare({ done: 3, planned: 0 }), 0);
  assert.equal(tuneShare({ done: 9, planned: 8 }), 1);
});

test("inside a trial the line counts its epochs and the bar moves by its share of them", () => {
  const p = { round: 2, candidate: 7, settings: { lr: "0.001", dropout: "0.2" }, epochs: 60, trained: 0, valScore: 0, valAUC: 0, seconds: 0, done: 4, planned: 13, epoch: 30, trialEpochs: 120 };
  assert.equal(epochLine(p), "trial 5 of 13 · round 2 · epoch 30 of 120 · dropout 0.2, lr 0.001");
  assert.equal(tuneShare(p), (4 + 30 / 120) / 13);
  assert.equal(tuneShare({ ...p, epoch: 150 }), 5 / 13, "an epoch past the plan counts as the whole trial");
  assert.equal(tuneShare({ ...p, done: 13, epoch: 1 }), 1);
});

const trial = (round: number, candidate: number, lr: string, valAUC: number): TuneTrial => ({ round, candidate, settings: { lr }, epochs: 20 * round, trained: 20 * round, valScore: valAUC, valAUC, seconds: 1 });

function result(cancelled: boolean): TuneResult {
  const trials = [trial(1, 0, "0.01", 0.8), trial(1, 1, "0.001", 0.9), trial(1, 2, "0.005", 0.85), trial(2, 1, "0.001", 0.93), { ...trial(2, 3, "0.003", 0.92), current: true }];
  return {
    model: "ilpgnn", best: cancelled ? {} : { lr: "0.001", epochs: "40" }, valAUC: cancelled ? 0 : 0.93, cancelled, ...(cancelled ? {} : { currentValAUC: 0.92 }),
    plan: { budgetSeconds: 300, candidates: 3, eta: 3, minEpochs: 20, trials: cancelled ? 6 : 5, seeds: [0], estimatedSeconds: 250, summary: "3 candidates and the current settings, rounds of 20 and 60 epochs" },
    trials, seconds: 75,
  };
}

test("the trials table marks the chosen candidate's last trial, none when cancelled", () => {
  const rows = trialRows(result(false));
  assert.deepEqual(rows.map((r) => r.cells), [
    ["1", "0", "20 epochs", "AUC 80.00%", "lr 0.01"],
    ["1", "1", "20 epochs", "AUC 90.00%", "lr 0.001"],
    ["1", "2", "20 epochs", "AUC 85.00%", "lr 0.005"],
    ["2", "1", "40 epochs", "AUC 93.00%", "lr 0.001"],
    ["2", "current", "40 epochs", "AUC 92.00%", "lr 0.003"],
  ]);
  assert.deepEqual(rows.map((r) => r.chosen), [false, false, false, true, false]);
  assert.deepEqual(trialRows(result(true)).map((r) => r.chosen), [false, false, false, false, false]);
  // No candidate beat the current settings: their trial is the chosen one.
  const kept = { ...result(false), best: { lr: "0.003", epochs: "40" }, keptCurrent: true };
  assert.deepEqual(trialRows(kept).map((r) => r.chosen), [false, false, false, false, true]);
});

test("the summary states the plan, the time and the choice; the note which seeds chose and measured", () => {
  assert.equal(tuneSummary(result(false)),
    "Tuned ilpgnn: 5 of 5 trials in 1 min 15 s (budget 5 min 00 s). Plan: 3 candidates and the current settings, rounds of 20 and 60 epochs, a third kept each round, estimated at most 4 min 10 s in this browser. Chosen on validation AUC: epochs 40, lr 0.001 (validation AUC 93.00%; the current settings AUC 92.00%).");
  assert.equal(tuneSummary({ ...result(false), best: { lr: "0.003", epochs: "40" }, valAUC: 0.92, keptCurrent: true }),
    "Tuned ilpgnn: 5 of 5 trials in 1 min 15 s (budget 5 min 00 s). Plan: 3 candidates and the current settings, rounds of 20 and 60 epochs, a third kept each round, estimated at most 4 min 10 s in this browser. No candidate beat the current settings on validation AUC (validation AUC 92.00%), so they stay.");
  assert.equal(tuneSummary(result(true)),
    "Tuning cancelled: 5 of 6 trials in 1 min 15 s (budget 5 min 00 s); the hyperparameters are unchanged. Plan: 3 candidates and the current settings, rounds of 20 and 60 epochs, a third kept each round, estimated at most 4 min 10 s in this browser.");
  assert.equal(seedsNote({ seeds: [0] }, 0), "Settings chosen on the validation links of seed 0; the test AUC is measured on the test links of seed 0 (the same split's, which no trial saw).");
  assert.equal(seedsNote({ seeds: [1, 2] }, 0), "Settings chosen on the validation links of seed 1, 2; the test AUC is measured on the test links of seed 0.");
});

test("on a graph with groundtruth a trial reads its precision first, and the summary says what kept weights and what the budget cut", () => {
  const t: TuneTrial = { round: 1, candidate: 0, settings: { lr: "0.01" }, epochs: 100, trained: 57, selectedOn: "precision", valScore: 1.79, valAUC: 0.91063, valP1: 0.931, valP2: 0.859, seconds: 6 };
  const cur: TuneTrial = { round: 1, candidate: 3, current: true, settings: { lr: "0.001" }, epochs: 1000, trained: 127, selectedOn: "precision", valScore: 1.835, valAUC: 0.91654, valP1: 0.956, valP2: 0.879, seconds: 9 };
  assert.equal(epochsText(t), "57 of 100 epochs");
  assert.equal(epochsText(cur), "127 epochs, stopped early");
  assert.equal(epochsText({ ...t, trained: 100, capped: true }), "100 epochs");
  assert.equal(scoresText(t, 2), "P@1 93.1%, P@2 85.9%, AUC 91.06%");
  assert.equal(scoresText({ ...t, selectedOn: "auc" }), "AUC 91.1%, P@1 93.1%, P@2 85.9%");
  const r: TuneResult = { ...result(false), best: { lr: "0.001" }, keptCurrent: true, valAUC: cur.valAUC, current: cur, chosen: cur, trials: [cur, t], cut: "round 2 trained 1 of its 3 candidates, to keep to the budget" };
  assert.equal(tuneSummary(r),
    "Tuned ilpgnn: 2 of 5 trials in 1 min 15 s (budget 5 min 00 s). Plan: 3 candidates and the current settings, rounds of 20 and 60 epochs, a third kept each round, estimated at most 4 min 10 s in this browser. This machine ran slower than planned: round 2 trained 1 of its 3 candidates, to keep to the budget. No candidate beat the current settings on validation explanation precision (P@1 + P@2, as training keeps weights on this graph) without a lower validation AUC (validation P@1 95.6%, P@2 87.9%, AUC 91.65%), so they stay.");
  assert.deepEqual(trialRows(r).map((row) => row.chosen), [true, false]);
  const ranOut: TuneResult = { ...r, trials: [], current: { ...cur, trained: 0, valScore: 0, valAUC: 0 }, cut: "the budget ran out during the current settings' own run, so no candidate trained" };
  assert.equal(tuneSummary(ranOut),
    "Tuned ilpgnn: 0 of 5 trials in 1 min 15 s (budget 5 min 00 s). Plan: 3 candidates and the current settings, rounds of 20 and 60 epochs, a third kept each round, estimated at most 4 min 10 s in this browser. This machine ran slower than planned: the budget ran out during the current settings' own run, so no candidate trained. The current settings stay.");
});
