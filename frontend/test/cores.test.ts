// Training on every core, the app's side: the cores choice and its link
// parameter, the request it makes, the progress line within a sharded
// epoch, and Cancel's "Cancelling…" until the run ends.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EngineClient } from "../src/client";
import { coreChoices, coreOptions, coresText, defaultWorkers, linkWorkers, parseChoice, workersOf, workersOption } from "../src/app/cores";
import { EpochClock } from "../src/app/estimate";
import { formatHash, parseHash } from "../src/app/hash";
import { CANCELLING, RunControl, SHARDS_PHASE, epochsDone, phaseText, preparingWhat, progressLine, progressShare, stoppedText, withinEpoch, type RunReport } from "../src/app/run";
import type { TrainArgs, TrainResult } from "../src/protocol";
import { FakeWorker } from "./fake-worker";

/** Resolves after pending promise callbacks have run. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A progress report of epoch `epoch` (of 1000), 3 s in, with the best so far at epoch 2. */
function report(epoch: number, extra: Partial<RunReport> = {}): RunReport {
  return { epoch, maxEpochs: 1000, loss: 0.5, valAUC: 0.9, bestValAUC: 0.91, bestEpoch: 2, elapsedMs: 3000, ...extra };
}

test("cores are counted in words, absent workers meaning one", () => {
  assert.equal(coresText(1), "1 core");
  assert.equal(coresText(2), "2 cores");
  assert.equal(workersOf({}), 1);
  assert.equal(workersOf({ workers: 4 }), 4);
});

test("the choices run from 1 to the machine's cores, capped at the engine's most; auto is the engine's default", () => {
  for (const cores of [1, 2, 3, 8, 16, 17, 64]) {
    const info = { cores, maxWorkers: 16, defaultWorkers: 1 };
    const choices = coreChoices(info);
    // Brute force: every n the engine accepts that the machine has cores for (one at least).
    const want: number[] = [];
    for (let n = 1; n <= 16; n++) if (n <= Math.max(1, cores)) want.push(n);
    assert.deepEqual(choices, want, `${cores} cores`);
  }
  // Auto is the engine's own default (engine.DefaultWorkers, tested in Go), whatever the page would guess.
  for (const n of [1, 2, 3]) assert.equal(defaultWorkers({ cores: 4, maxWorkers: 16, defaultWorkers: n }), n);
  assert.equal(coreOptions({ cores: 2, maxWorkers: 16, defaultWorkers: 2 }, null)[0]!.label, "auto (2)");
  const options = coreOptions({ cores: 4, maxWorkers: 16, defaultWorkers: 3 }, null);
  assert.deepEqual(options.map((o) => o.label), ["auto (3)", "1", "2", "3", "4"]);
  assert.deepEqual(options.map((o) => parseChoice(o.value)), [null, 1, 2, 3, 4], "each option reads back as its choice");
  // A link's 8 on a 4-core machine is shown, not dropped.
  assert.deepEqual(coreOptions({ cores: 4, maxWorkers: 16, defaultWorkers: 3 }, 8).map((o) => o.label), ["auto (3)", "1", "2", "3", "4", "8"]);
});

test("the workers link parameter: 1 to maxWorkers is taken, anything else ignored with a note", () => {
  assert.equal(parseHash("#data=synth:sparse&workers=2").workers, "2");
  assert.equal(parseHash("#data=synth:sparse").workers, null);
  assert.deepEqual(linkWorkers(null, 16), { workers: null }, "no parameter: auto, nothing to say");
  for (let n = 1; n <= 16; n++) assert.deepEqual(linkWorkers(parseHash(`#workers=${n}`).workers, 16), { workers: n });
  for (const bad of ["0", "17", "100", "-1", "2.5", "1e1", "abc", "", " 2", "2 cores", "0x2", "99999999999"]) {
    const got = linkWorkers(parseHash(`#workers=${encodeURIComponent(bad)}`).workers, 16);
    assert.equal(got.workers, null, `workers=${bad}`);
    assert.match(got.note ?? "", /^Ignored workers=“.*” in the link: it must be a whole number of cores from 1 to 16\./, `workers=${bad}`);
  }
  // The limit is the engine's, not a constant.
  assert.deepEqual(linkWorkers("8", 8), { workers: 8 });
  assert.equal(linkWorkers("9", 8).workers, null);
  // A long value is cut in the note.
  assert.ok((linkWorkers("x".repeat(500), 16).note ?? "").length < 200);
  // The chosen number goes into the page's link and reads back.
  const hash = formatHash({ data: "synth:sparse", seed: 0, workers: "3" });
  assert.equal(hash, "#data=synth:sparse&seed=0&workers=3");
  assert.deepEqual(linkWorkers(parseHash(hash).workers, 16), { workers: 3 });
  assert.equal(formatHash({ data: "synth:sparse", seed: 0, workers: null }), "#data=synth:sparse&seed=0");
});

test("the chosen number of cores is sent as train's workers; auto sends none", async () => {
  const worker = new FakeWorker();
  const client = new EngineClient(worker);
  worker.ready();
  await client.ready;
  const sent: Array<TrainArgs | undefined> = [];
  for (const value of ["", "1", "3", "16"]) {
    const run = client.train({}, { model: "ilpgnn", seed: 0, ...workersOption(parseChoice(value)) });
    const posted = worker.last;
    assert.equal(posted.op, "train");
    sent.push(posted.args as TrainArgs | undefined);
    worker.result(posted.id, { cancelled: false, epochs: 1 });
    await run;
  }
  assert.equal(sent[0] !== undefined && "workers" in sent[0], false, "auto: no workers in the request");
  assert.deepEqual(sent.slice(1).map((a) => a?.workers), [1, 3, 16]);
});

test("a report within a sharded epoch moves the bar by the shards done and says the phase", () => {
  // One epoch as the engine reports it (core/train): encoder, validation,
  // the 16 shards, backward, then the epoch's end.
  const epoch = 3;
  const within: RunReport[] = [
    report(epoch, { phase: "encoder", batch: 0, batches: 16, workers: 2 }),
    report(epoch, { phase: "validation", batch: 0, batches: 16, workers: 2 }),
    ...Array.from({ length: 16 }, (_, k) => report(epoch, { phase: SHARDS_PHASE, batch: k + 1, batches: 16, workers: 2 })),
    report(epoch, { phase: "backward", batch: 16, batches: 16, workers: 2 }),
  ];
  const end = report(epoch, { workers: 2 });
  let last = -1;
  for (const p of within) {
    assert.equal(withinEpoch(p), true, p.phase);
    // The oracle: epochs done before this one plus the shards' share of it.
    assert.equal(epochsDone(p), epoch - 1 + p.batch! / 16, `${p.phase} ${p.batch}`);
    assert.equal(progressShare(p), (epoch - 1 + p.batch! / 16) / 1000);
    assert.ok(progressShare(p) >= last, "the bar never goes back");
    last = progressShare(p);
  }
  assert.equal(withinEpoch(end), false);
  assert.equal(progressShare(end), epoch / 1000);
  assert.deepEqual(within.map(phaseText).slice(0, 4), ["encoder", "validation", "selection and losses 1/16", "selection and losses 2/16"]);
  assert.equal(phaseText(within.at(-1)!), "backward");

  assert.equal(
    progressLine(report(1, { phase: SHARDS_PHASE, batch: 5, batches: 16, workers: 2, bestEpoch: 0 }), { ilpgnn: true }),
    "epoch 1 of at most 1000 · selection and losses 5/16 · training on 2 cores · validation after the first epoch · 3 s elapsed",
  );
  // Before any weights are kept, when the first model to question comes
  // (the rest of this epoch) leads; early stopping, when sooner than the
  // cap, comes before the cap, which it then replaces.
  const early = { epochMs: 8000, epochsLeft: 999.5, atMostMs: 7_996_000, stopEpoch: 51, stopMs: 404_000 };
  assert.equal(
    progressLine(report(1, { phase: SHARDS_PHASE, batch: 8, batches: 16, workers: 2, bestEpoch: 0 }), { ilpgnn: true, estimate: early }),
    "epoch 1 of at most 1000 · selection and losses 8/16 · training on 2 cores · validation after the first epoch · 3 s elapsed · a model to question in about 4 s · early stopping in about 7 min unless validation improves",
  );
  assert.equal(
    progressLine(report(3, { phase: "encoder", batch: 0, batches: 16, workers: 1, keptEpoch: 2 }), { ilpgnn: true, estimate: { epochMs: 125, epochsLeft: 1000, atMostMs: 125_000 } }),
    "epoch 3 of at most 1000 · encoder · training on 1 core · best validation AUC 91.0% at epoch 2 · 3 s elapsed · at most about 2 min left",
  );
  // An epoch's end: its loss and AUC, then the cores (none named: one batch, one core).
  assert.equal(
    progressLine(report(3, { keptEpoch: 2 }), { ilpgnn: true, estimate: { epochMs: 40, epochsLeft: 1000, atMostMs: 40_000 } }),
    "epoch 3 of at most 1000 · loss 0.500 · validation AUC 90.0% (best 91.0% at epoch 2) · training on 1 core · 3 s elapsed · at most about 40 s left",
  );
  // A pair model's mini-batch: no phase, no cores.
  assert.equal(
    progressLine(report(3, { batch: 4, batches: 10 }), { ilpgnn: false }),
    "epoch 3 (batch 4 of 10) of at most 1000 · loss 0.500 · best validation AUC 91.0% at epoch 2 · 3 s elapsed",
  );
  assert.equal(progressShare(report(3, { batch: 4, batches: 10 })), 2.4 / 1000);
});

test("the time-left clock counts an epoch once, at its end, not at its backward report (all shards done)", () => {
  const clock = new EpochClock();
  const at = (epoch: number, elapsedMs: number, extra: Partial<RunReport> = {}) => clock.report({ ...report(epoch, extra), elapsedMs });
  assert.equal(at(1, 0, { phase: "encoder", batch: 0, batches: 16 }), undefined, "nothing done yet: no estimate");
  // Half the shards in 400 ms: the epoch's pace says 800 ms an epoch.
  assert.equal(at(1, 400, { phase: SHARDS_PHASE, batch: 8, batches: 16 })?.epochMs, 800);
  at(1, 900, { phase: "backward", batch: 16, batches: 16 });
  assert.equal(clock.recent().length, 0, "the backward report is not an epoch's end");
  assert.equal(at(1, 1000)?.epochMs, 1000);
  at(2, 1500, { phase: "backward", batch: 16, batches: 16 });
  const e = at(2, 2200);
  assert.deepEqual(clock.recent(), [1000, 1200]);
  assert.equal(e?.epochMs, 1100);
  assert.equal(e?.epochsLeft, 998);
});

test("Cancel: the run says Cancelling… at once and takes no second press, then ends as cancelled", async () => {
  const worker = new FakeWorker();
  const client = new EngineClient(worker);
  worker.ready();
  await client.ready;
  const control = new RunControl();
  assert.equal(control.state, "idle");
  assert.equal(control.cancel(), false, "nothing to cancel");
  const lines: string[] = [];
  const done = client.train({}, { signal: control.begin(), onProgress: (p) => lines.push(control.say(progressLine(p, { ilpgnn: true }))) });
  const trainId = worker.last.id;
  assert.equal(control.state, "running");
  assert.equal(control.cancellable, true);
  worker.progress(trainId, report(1, { phase: SHARDS_PHASE, batch: 3, batches: 16, workers: 2 }));
  assert.equal(lines.at(-1), progressLine(report(1, { phase: SHARDS_PHASE, batch: 3, batches: 16, workers: 2 }), { ilpgnn: true }));

  const posted = worker.posted.length;
  assert.equal(control.cancel(), true);
  // Before the engine answers: the state, the words and the request sent.
  assert.equal(control.state, "cancelling");
  assert.equal(control.cancellable, false, "the Cancel button is disabled");
  assert.equal(control.say("anything"), CANCELLING);
  assert.equal(worker.posted.length, posted + 1);
  assert.deepEqual({ op: worker.last.op, args: worker.last.args }, { op: "cancel", args: { target: trainId } });
  assert.equal(control.cancel(), false, "a second press does nothing");
  assert.equal(worker.posted.length, posted + 1, "and sends nothing");

  // The engine finishes its shard and reports before it stops: the line still says Cancelling….
  worker.progress(trainId, report(1, { phase: SHARDS_PHASE, batch: 4, batches: 16, workers: 2 }));
  assert.equal(lines.at(-1), CANCELLING);
  worker.result(worker.last.id, { cancelled: true });
  worker.result(trainId, { cancelled: true, epochs: 0 } satisfies Partial<TrainResult>);
  const res = await done;
  assert.equal(res.cancelled, true);
  control.end();
  await tick();
  assert.equal(control.state, "idle");
  assert.equal(control.cancellable, false);
  assert.equal(control.say("Cancelled after 0 epochs"), "Cancelled after 0 epochs");

  // The next run starts afresh.
  const signal = control.begin();
  assert.equal(signal.aborted, false);
  assert.equal(control.cancellable, true);
});

test("a stopped run says the epoch it stopped during or after, and whose weights the model keeps", () => {
  assert.equal(stoppedText({ epochs: 2, bestEpoch: 2, stoppedDuring: 3, trainSeconds: 74 }), "Stopped during epoch 3 (1 min 14 s); the model keeps epoch 2's weights.");
  assert.equal(stoppedText({ epochs: 3, bestEpoch: 1, trainSeconds: 2 }), "Stopped after epoch 3 (2 s); the model keeps epoch 1's weights.");
  // Epoch 3 judged the weights it started from before it was stopped.
  assert.equal(stoppedText({ epochs: 2, bestEpoch: 3, stoppedDuring: 3, trainSeconds: 20 }), "Stopped during epoch 3 (20 s); the model keeps epoch 3's weights, the ones it started from.");
  assert.equal(stoppedText({ epochs: 0, bestEpoch: 0, stoppedDuring: 1, trainSeconds: 1 }), "Stopped during epoch 1 (1 s); no epoch was judged, so the model keeps its starting weights.");
  assert.equal(preparingWhat({ phase: "features", done: 1, total: 1, graph: "training" }), "Preparing the training graph");
  assert.equal(preparingWhat({ phase: "features", done: 1, total: 1, graph: "whole" }), "Preparing the graph");
});
