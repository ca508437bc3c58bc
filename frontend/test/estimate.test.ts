// The train panel's time-left estimate against hand-computed values.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EpochClock, describeEstimate, epochBeforeTraining, median, roughly } from "../src/app/estimate";

test("median of odd and even lists, unsorted", () => {
  assert.equal(median([5]), 5);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test("the estimate is the median of the recent epoch times × the epochs still allowed", () => {
  const c = new EpochClock(3);
  // Epoch ends at 100, 300, 400 ms: epoch times 100, 200, 100.
  assert.deepEqual(c.report({ epoch: 1, maxEpochs: 10, elapsedMs: 100, bestEpoch: 1 }), { epochMs: 100, epochsLeft: 9, atMostMs: 900 });
  assert.deepEqual(c.report({ epoch: 2, maxEpochs: 10, elapsedMs: 300, bestEpoch: 2 }), { epochMs: 150, epochsLeft: 8, atMostMs: 1200 });
  assert.deepEqual(c.report({ epoch: 3, maxEpochs: 10, elapsedMs: 400, bestEpoch: 2 }), { epochMs: 100, epochsLeft: 7, atMostMs: 700 });
  // A slow epoch (1000 ms) moves the median of (200, 100, 1000) to 200, not the mean's 433.
  assert.deepEqual(c.report({ epoch: 4, maxEpochs: 10, elapsedMs: 1400, bestEpoch: 2 }), { epochMs: 200, epochsLeft: 6, atMostMs: 1200 });
  // The window is 3: epoch 1's 100 ms has left it; (100, 1000, 300) → 300.
  assert.deepEqual(c.report({ epoch: 5, maxEpochs: 10, elapsedMs: 1700, bestEpoch: 2 }), { epochMs: 300, epochsLeft: 5, atMostMs: 1500 });
  assert.deepEqual([...c.recent()], [100, 1000, 300]);
  // The last epoch leaves nothing.
  const last = new EpochClock();
  assert.equal(last.report({ epoch: 1, maxEpochs: 1, elapsedMs: 50, bestEpoch: 1 })?.atMostMs, 0);
});

test("with patience, the estimate also says when early stopping would end the run", () => {
  const c = new EpochClock();
  c.report({ epoch: 1, maxEpochs: 1000, elapsedMs: 250, bestEpoch: 1, patience: 100 });
  // Epoch 20, best at 15, patience 100: the run ends at epoch 115 unless a better one comes.
  // Epoch times: 250, then (5000 − 250) / 19 = 250 each (reports skipped epochs 2..19).
  const e = c.report({ epoch: 20, maxEpochs: 1000, elapsedMs: 5000, bestEpoch: 15, patience: 100 });
  assert.deepEqual(e, { epochMs: 250, epochsLeft: 980, atMostMs: 245_000, stopEpoch: 115, stopMs: 23_750 });
  // Patience reaching past maxEpochs stops at maxEpochs.
  const f = c.report({ epoch: 950, maxEpochs: 1000, elapsedMs: 237_500, bestEpoch: 940, patience: 100 });
  assert.deepEqual(f, { epochMs: 250, epochsLeft: 50, atMostMs: 12_500, stopEpoch: 1000, stopMs: 12_500 });
});

test("the engine's stopEpoch supersedes bestEpoch + patience", () => {
  const c = new EpochClock();
  c.report({ epoch: 1, maxEpochs: 1000, elapsedMs: 250, bestEpoch: 1, patience: 20 });
  // Best at 15, patience 20, but two decays of the learning rate still to come: the
  // engine says epoch 75, 55 epochs of 250 ms after epoch 20.
  const e = c.report({ epoch: 20, maxEpochs: 1000, elapsedMs: 5000, bestEpoch: 15, patience: 20, stopEpoch: 75 });
  assert.deepEqual(e, { epochMs: 250, epochsLeft: 980, atMostMs: 245_000, stopEpoch: 75, stopMs: 13_750 });
});

test("mid-epoch reports count the rest of the epoch; before an epoch has ended, its pace", () => {
  const c = new EpochClock();
  // Nothing is known before a batch is done.
  assert.equal(c.report({ epoch: 1, maxEpochs: 4, elapsedMs: 10, bestEpoch: 0, batch: 0, batches: 10 }), undefined);
  // 2 of 8 batches in 500 ms: an epoch takes 2000 ms; 0.75 of it and 3 more epochs are left.
  assert.deepEqual(c.report({ epoch: 1, maxEpochs: 4, elapsedMs: 500, bestEpoch: 0, batch: 2, batches: 8 }), { epochMs: 2000, epochsLeft: 3.75, atMostMs: 7500 });
  // The epoch ends at 1800 ms (batch 8 of 8 is an epoch end).
  assert.deepEqual(c.report({ epoch: 1, maxEpochs: 4, elapsedMs: 1800, bestEpoch: 1, batch: 8, batches: 8 }), { epochMs: 1800, epochsLeft: 3, atMostMs: 5400 });
  // Half-way through epoch 2, the completed epochs' median is used.
  assert.deepEqual(c.report({ epoch: 2, maxEpochs: 4, elapsedMs: 2500, bestEpoch: 1, batch: 4, batches: 8 }), { epochMs: 1800, epochsLeft: 2.5, atMostMs: 4500 });
});

test("roughly rounds as a person would say it", () => {
  assert.equal(roughly(400), "0 s");
  assert.equal(roughly(44_400), "44 s");
  assert.equal(roughly(245_000), "4 min");
  assert.equal(roughly(3_900_000), "1 h 05 min");
  assert.equal(roughly(Number.NaN), "–");
});

test("describeEstimate leads with when patience may stop the run, then says the upper bound", () => {
  const text = describeEstimate({ epochMs: 250, epochsLeft: 980, atMostMs: 245_000, stopEpoch: 115, stopMs: 23_750 }, 10, 2);
  assert.equal(text, "early stopping ends it at epoch 115, in about 24 s, unless validation improves; at most about 4 min left (median of the last 2 epochs, 250 ms each, × 980 epochs to go)");
  // Patience at the end of the run adds nothing.
  assert.equal(describeEstimate({ epochMs: 2000, epochsLeft: 3.75, atMostMs: 7500 }, 10, 0), "at most about 8 s left (the pace of the current epoch, 2 s each, × 3.8 epochs to go)");
  assert.equal(describeEstimate({ epochMs: 1000, epochsLeft: 1, atMostMs: 1000 }, 10, 1), "at most about 1 s left (median of the last 1 epoch, 1 s each, × 1 epochs to go)");
});

test("before training, the epoch's estimate for the workers the run gets", () => {
  const est = [20.4, 11.6, 8.7];
  assert.equal(epochBeforeTraining(est, 1), "an epoch takes roughly 20 s on 1 worker");
  assert.equal(epochBeforeTraining(est, 2), "an epoch takes roughly 12 s on 2 workers");
  // More workers than estimates: the last; fewer than one: one.
  assert.equal(epochBeforeTraining(est, 8), "an epoch takes roughly 9 s on 3 workers");
  assert.equal(epochBeforeTraining(est, 0), "an epoch takes roughly 20 s on 1 worker");
  // 150 s rounds to minutes, as the time left does.
  assert.equal(epochBeforeTraining([150], 1), "an epoch takes roughly 3 min on 1 worker");
  assert.equal(epochBeforeTraining([0.4, 0.25], 2), "an epoch takes under a second on 2 workers");
  assert.equal(epochBeforeTraining([], 2), "");
  assert.equal(epochBeforeTraining([Number.NaN], 1), "");
});
