import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { EngineClient, EngineError } from "../src/client";
import type { Explanation, FidelityResult, Insight, RankingResult, StepProgress, TrainProgress, TrainResult, TuneProgress, TuneResult } from "../src/protocol";
import { FakeWorker } from "./fake-worker";

function setup(): { worker: FakeWorker; client: EngineClient; warnings: string[] } {
  const worker = new FakeWorker();
  const warnings: string[] = [];
  const client = new EngineClient(worker, { onWarning: (message) => warnings.push(message) });
  return { worker, client, warnings };
}

/** Resolves after pending promise callbacks have run. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Records whether a promise has settled, without awaiting it. */
function track<T>(promise: Promise<T>): { settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled };
}

const trainResult = (cancelled: boolean): Partial<TrainResult> => ({ key: "k", cancelled, epochs: 3 });

describe("EngineClient", () => {
  test("ready resolves with the engine info", async () => {
    const { worker, client } = setup();
    worker.ready();
    const info = await client.ready;
    assert.equal(info.protocol, 1);
    assert.equal(info.version, "test");
  });

  test("routes interleaved replies by id", async () => {
    const { worker, client, warnings } = setup();
    const explain = client.explain(1, 2);
    const suggest = client.suggest(3);
    const describeP = client.describe();
    const ids = worker.posted.map((p) => p.message.id);
    assert.equal(new Set(ids).size, 3, "ids are unique");
    const [a, b, c] = ids as [number, number, number];

    worker.result(c, { name: "described" });
    worker.result(a, { prob: 0.5 });
    worker.result(b, [{ node: 7 }]);

    assert.deepEqual(await explain, { prob: 0.5 });
    assert.deepEqual(await suggest, [{ node: 7 }]);
    assert.deepEqual(await describeP, { name: "described" });
    assert.equal(client.pendingCount, 0);
    assert.deepEqual(warnings, []);
  });

  test("calls onProgress in order, before the result", async () => {
    const { worker, client, warnings } = setup();
    const events: string[] = [];
    const train = client.train({ epochs: 3 }, { onProgress: (p) => events.push(`epoch ${p.epoch}`) });
    const id = worker.last.id;
    worker.progress(id, { epoch: 1 });
    worker.progress(id, { epoch: 2 });
    worker.progress(id, { epoch: 3 });
    worker.result(id, trainResult(false));
    const result = await train;
    events.push("result");
    assert.deepEqual(events, ["epoch 1", "epoch 2", "epoch 3", "result"]);
    assert.equal(result.cancelled, false);

    worker.progress(id, { epoch: 4 }); // after the end: unknown id
    assert.deepEqual(events, ["epoch 1", "epoch 2", "epoch 3", "result"]);
    assert.equal(warnings.length, 1);
  });

  test("fidelity reports progress per M, in order, before the result", async () => {
    const { worker, client, warnings } = setup();
    const seen: StepProgress[] = [];
    const fidelity = client.fidelity(3, { onProgress: (p) => seen.push(p) });
    const { id, op, args } = worker.last;
    assert.equal(op, "fidelity");
    assert.deepEqual(args, { maxM: 3 });
    const steps: StepProgress[] = [1, 2, 3].map((step) => ({ step, steps: 3, elapsedMs: 10 * step }));
    for (const progress of steps) worker.emit({ v: 1, type: "progress", id, progress });
    assert.deepEqual(seen, steps);
    const result: FidelityResult = {
      auc: 0.9,
      points: [0.85, 0.8, 0.7].map((auc, k) => ({ m: k + 1, deltaAUC: 0.9 - auc, auc, randomDeltaAUC: 0.01 * k, randomAUC: 0.9 - 0.01 * k })),
      ms: 31,
    };
    worker.result(id, result);
    assert.deepEqual(await fidelity, result);
    assert.equal(seen.length, 3, "no progress after the result");
    assert.deepEqual(warnings, []);
  });

  test("ranking sends no args and reports the drawing and each chunk, in order, before the result", async () => {
    const { worker, client, warnings } = setup();
    const seen: StepProgress[] = [];
    const ranking = client.ranking({ onProgress: (p) => seen.push(p) });
    const { id, op } = worker.last;
    assert.equal(op, "ranking");
    assert.equal("args" in worker.last, false);
    const steps: StepProgress[] = [1, 2, 3].map((step) => ({ step, steps: 3, elapsedMs: 5 * step }));
    for (const progress of steps) worker.emit({ v: 1, type: "progress", id, progress });
    assert.deepEqual(seen, steps);
    const scores = { mrr: 0.5, hits1: 0.25, hits3: 0.5, hits10: 0.75, hits20: 1, hits50: 1, hits100: 1 };
    const result: RankingResult = { model: scores, cn: { ...scores, mrr: 0.2 }, aa: { ...scores, mrr: 0.3 }, links: 4, perLink: 500, features: true, reused: false, drawMs: 2, ms: 7 };
    worker.result(id, result);
    assert.deepEqual(await ranking, result);
    assert.deepEqual(warnings, []);
  });

  test("insight resolves with the engine's distributions", async () => {
    const { worker, client } = setup();
    const insight = client.insight();
    assert.equal(worker.last.op, "insight");
    assert.equal("args" in worker.last, false);
    const dist = { weight: [0.6, 0.4], attribution: [0.31, -0.05], score: [0.8, 0.5], structure: [1, 0.5], features: [0.7, 0.6], prob: [0.9] };
    const calibration = { temperature: 0.5, bias: -1.9, calibrated: true, ece: 0.02, ece_uncalibrated: 0.21, reliability: [{ lo: 0, hi: 0.1, count: 2, mean_predicted: 0.05, observed: 0 }] };
    const result: Insight = { k: 3, linked: dist, unlinked: { ...dist, prob: [0.2] }, pairs: { linked: 1, unlinked: 1 }, calibration };
    worker.result(worker.last.id, result);
    assert.deepEqual(await insight, result);
  });

  test("aborting fidelity rejects at once and drops its late progress and result", async () => {
    const { worker, client, warnings } = setup();
    const controller = new AbortController();
    const seen: StepProgress[] = [];
    const fidelity = client.fidelity(undefined, { signal: controller.signal, onProgress: (p) => seen.push(p) });
    const { id } = worker.last;
    worker.emit({ v: 1, type: "progress", id, progress: { step: 1, steps: 4, elapsedMs: 5 } });
    controller.abort();
    await assert.rejects(fidelity, (e: unknown) => e instanceof DOMException && e.name === "AbortError");
    assert.equal(worker.posted.length, 1, "fidelity cannot be cancelled in the engine: nothing is sent");
    worker.emit({ v: 1, type: "progress", id, progress: { step: 2, steps: 4, elapsedMs: 9 } });
    worker.result(id, { auc: 0.5, points: [], ms: 1 });
    assert.equal(seen.length, 1);
    assert.deepEqual(warnings, []);
    assert.equal(client.pendingCount, 0);
  });

  test("a throwing onProgress is reported, not thrown", async () => {
    const { worker, client, warnings } = setup();
    const train = client.train(undefined, {
      onProgress: () => {
        throw new Error("page bug");
      },
    });
    const id = worker.last.id;
    worker.progress(id, { epoch: 1 });
    worker.result(id, trainResult(false));
    await train;
    assert.match(warnings[0] ?? "", /onProgress/);
  });

  test("error replies reject with a readable EngineError", async () => {
    const { worker, client } = setup();
    const load = client.loadFiles({ "cora.cites": new Uint8Array([1]), "cora.content": new Uint8Array([2]) });
    worker.error(worker.last.id, { code: "bad_input", message: "expected two fields", file: "cora.cites", line: 12 });
    const error: unknown = await load.catch((e: unknown) => e);
    assert.ok(error instanceof EngineError);
    assert.equal(error.name, "EngineError");
    assert.equal(error.code, "bad_input");
    assert.equal(error.file, "cora.cites");
    assert.equal(error.line, 12);
    assert.equal(error.op, "load");
    assert.equal(error.detail, "expected two fields");
    assert.equal(error.message, "cora.cites line 12: expected two fields");

    const noLine = client.loadFiles({ "x.npz": new Uint8Array([1]) });
    worker.error(worker.last.id, { code: "bad_input", message: "not a zip file", file: "x.npz", line: 0 });
    await assert.rejects(noLine, { message: "x.npz: not a zip file" });

    const explain = client.explain(0, 1);
    worker.error(worker.last.id, { code: "no_model", message: "train or load a model first" });
    await assert.rejects(explain, { name: "EngineError", code: "no_model", op: "explain", message: "train or load a model first" });
  });

  test("aborting train sends cancel and resolves with the engine's cancelled result", async () => {
    const { worker, client, warnings } = setup();
    const controller = new AbortController();
    const progress: TrainProgress[] = [];
    const train = client.train({ lr: 0.01 }, { signal: controller.signal, onProgress: (p) => progress.push(p) });
    const trainId = worker.last.id;
    worker.progress(trainId, { epoch: 1 });

    controller.abort();
    assert.equal(worker.posted.length, 2);
    const cancel = worker.last;
    assert.equal(cancel.op, "cancel");
    assert.deepEqual(cancel.args, { target: trainId });
    assert.notEqual(cancel.id, trainId);

    const state = track(train);
    worker.result(cancel.id, { cancelled: true });
    await tick();
    assert.equal(state.settled(), false, "train waits for the engine's result");

    worker.progress(trainId, { epoch: 2 }); // the last epoch still runs
    worker.result(trainId, trainResult(true));
    const result = await train;
    assert.equal(result.cancelled, true);
    assert.equal(progress.length, 2);
    assert.deepEqual(warnings, []);
  });

  test("tune sends its budget and settings; aborting it sends cancel and resolves with the trials done", async () => {
    const { worker, client, warnings } = setup();
    const controller = new AbortController();
    const progress: TuneProgress[] = [];
    const tune = client.tune(120, { epochs: 30 }, { model: "gae", seed: 3, signal: controller.signal, onProgress: (p) => progress.push(p) });
    const tuneId = worker.last.id;
    assert.equal(worker.last.op, "tune");
    assert.deepEqual(worker.last.args, { model: "gae", config: { epochs: 30 }, seed: 3, budgetSeconds: 120 });
    worker.progress(tuneId, { done: 1, planned: 4 });

    controller.abort();
    const cancel = worker.last;
    assert.equal(cancel.op, "cancel");
    assert.deepEqual(cancel.args, { target: tuneId });
    worker.result(cancel.id, { cancelled: true });
    const state = track(tune);
    await tick();
    assert.equal(state.settled(), false, "tune waits for the engine's result");

    const partial: Partial<TuneResult> = { cancelled: true, best: {}, trials: [] };
    worker.result(tuneId, partial);
    const result = await tune;
    assert.equal(result.cancelled, true);
    assert.deepEqual(progress, [{ done: 1, planned: 4 }]);
    assert.deepEqual(warnings, []);
  });

  test("aborting another op rejects with AbortError and drops the late reply", async () => {
    const { worker, client, warnings } = setup();
    const controller = new AbortController();
    const explain = client.request("explain", { i: 1, j: 2 }, { signal: controller.signal });
    const id = worker.last.id;
    controller.abort();
    await assert.rejects(explain, (e: unknown) => e instanceof DOMException && e.name === "AbortError");
    assert.equal(worker.posted.length, 1, "nothing is sent for a non-train abort");
    assert.equal(client.pendingCount, 0);

    worker.result(id, { prob: 1 }); // late reply
    assert.deepEqual(warnings, [], "an aborted request's reply is expected, not a warning");
    worker.result(id, { prob: 1 }); // a second one is a protocol violation
    assert.equal(warnings.length, 1);
  });

  test("an already aborted signal rejects without sending", async () => {
    const { worker, client } = setup();
    const signal = AbortSignal.abort();
    await assert.rejects(client.train(undefined, { signal }), { name: "AbortError" });
    await assert.rejects(client.request("describe", undefined, { signal }), { name: "AbortError" });
    assert.equal(worker.posted.length, 0);
  });

  test("ignores unknown ids, wrong versions and junk, with warnings", async () => {
    const { worker, client, warnings } = setup();
    const suggest = client.suggest(1, 5);
    const id = worker.last.id;
    const state = track(suggest);

    assert.doesNotThrow(() => {
      worker.result(id + 100, []);
      worker.emit({ v: 2, type: "result", id, result: ["wrong version"] });
      worker.emit({ type: "result", id, result: ["no version"] });
      worker.emit(null);
      worker.emit("hello");
      worker.emit({ v: 1, type: "mystery", id });
      worker.emit({ v: 1, type: "result", id: "1", result: [] });
      worker.emit({ v: 1, type: "error", id: -1, error: { code: "bad_request", message: "id is not a number" } });
    });
    await tick();
    assert.equal(state.settled(), false);
    assert.equal(warnings.length, 8);
    assert.match(warnings[0] ?? "", /unknown request id/);
    assert.match(warnings[1] ?? "", /protocol version 2/);

    worker.result(id, ["ok"]);
    assert.deepEqual(await suggest, ["ok"]);
  });

  test("fatal rejects ready and every pending request", async () => {
    const worker = new FakeWorker();
    const fatals: EngineError[] = [];
    const client = new EngineClient(worker, { onFatal: (e) => fatals.push(e) });
    const describeP = client.describe();
    const train = client.train();
    worker.emit({ v: 1, type: "fatal", message: "ilpgnn.wasm: HTTP 404" });

    await assert.rejects(client.ready, { name: "EngineError", code: "fatal", message: "ilpgnn.wasm: HTTP 404" });
    await assert.rejects(describeP, { code: "fatal", op: "describe" });
    await assert.rejects(train, { code: "fatal", op: "train" });
    await assert.rejects(client.info(), { code: "fatal" }, "later requests fail at once");
    assert.equal(fatals.length, 1);
    assert.equal(client.error?.code, "fatal");
  });

  test("a storage message reaches onStorage, and a malformed one only warns", async () => {
    const worker = new FakeWorker();
    const news: unknown[] = [];
    const warnings: string[] = [];
    const client = new EngineClient(worker, { onStorage: (s) => news.push(s), onWarning: (m) => warnings.push(m) });
    worker.ready();
    await client.ready;
    worker.emit({ v: 1, type: "storage", storage: { available: false, message: "this app was updated in another tab: reload to keep working" } });
    worker.emit({ v: 1, type: "storage" });
    await tick();
    assert.deepEqual(news, [{ available: false, message: "this app was updated in another tab: reload to keep working" }]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? "", /storage message without storage info/);
  });

  test("fatal after ready rejects pending requests; ready stays resolved", async () => {
    const { worker, client } = setup();
    worker.ready();
    const train = client.train();
    worker.emit({ v: 1, type: "fatal", message: "the engine stopped (exit code 2)" });
    await assert.rejects(train, { code: "fatal" });
    assert.equal((await client.ready).version, "test");
  });

  test("a worker error event before ready is fatal", async () => {
    const { worker, client } = setup();
    const info = client.info();
    worker.emitError("worker.js: 404");
    await assert.rejects(client.ready, { code: "fatal", message: /worker\.js: 404/ });
    await assert.rejects(info, { code: "fatal" });
  });

  test("terminate rejects pending requests and stops the worker", async () => {
    const { worker, client } = setup();
    worker.ready();
    const train = client.train();
    const list = client.listCheckpoints();
    client.terminate();
    assert.equal(worker.terminated, true);
    await assert.rejects(train, { name: "EngineError", code: "terminated", op: "train" });
    await assert.rejects(list, { code: "terminated", op: "checkpoints.list" });
    await assert.rejects(client.describe(), { code: "terminated" });
    assert.doesNotThrow(() => client.terminate());
  });

  test("terminate before ready rejects ready", async () => {
    const { client } = setup();
    client.terminate();
    await assert.rejects(client.ready, { code: "terminated" });
  });

  test("transfers file buffers", () => {
    const { worker, client } = setup();
    const cites = new Uint8Array([1, 2, 3]);
    const content = new Uint8Array([4, 5]);
    void client.loadFiles({ "cora.cites": cites, "cora.content": content }, { name: "cora" });
    const { message, transfer } = worker.posted[0]!;
    assert.equal(message.op, "load");
    assert.deepEqual(message.args, { name: "cora" });
    assert.equal(transfer.length, 2);
    assert.ok(transfer.includes(cites.buffer) && transfer.includes(content.buffer));
    assert.equal(cites.byteLength, 0, "the caller's array is detached");
    assert.deepEqual([...message.files!["cora.cites"]!], [1, 2, 3]);
    assert.deepEqual([...message.files!["cora.content"]!], [4, 5]);
  });

  test("copies partial views and repeated buffers instead of transferring them", () => {
    const { worker, client } = setup();
    const big = new Uint8Array([9, 9, 1, 2, 9]);
    const part = big.subarray(2, 4);
    const whole = new Uint8Array([7]);
    void client.loadFiles({ "a.txt": part, "b.txt": whole, "c.txt": whole });
    const { message, transfer } = worker.posted[0]!;
    assert.equal(transfer.length, 3);
    assert.ok(!transfer.includes(big.buffer), "the larger buffer is not given away");
    assert.equal(big.byteLength, 5);
    assert.deepEqual([...message.files!["a.txt"]!], [1, 2]);
    assert.equal(message.files!["a.txt"]!.buffer.byteLength, 2, "only the viewed bytes cross");
    assert.deepEqual([...message.files!["c.txt"]!], [7]);
  });

  test("transfer: false copies and leaves the caller's arrays intact", () => {
    const { worker, client } = setup();
    const bytes = new Uint8Array([1, 2]);
    void client.loadFiles({ "edges.csv": bytes }, { transfer: false });
    assert.deepEqual(worker.posted[0]!.transfer, []);
    assert.equal(bytes.byteLength, 2);
  });

  test("a failing postMessage rejects the request", async () => {
    const { worker, client } = setup();
    const bytes = new Uint8Array([1]);
    structuredClone(bytes, { transfer: [bytes.buffer] }); // detach it
    // Browsers throw a DataCloneError; node's structuredClone a plain Error.
    await assert.rejects(client.importCheckpoint("x.ckpt", bytes));
    assert.equal(client.pendingCount, 0);
    assert.equal(worker.posted.length, 0);
  });

  test("loadFileList reads File objects", async () => {
    const { worker, client } = setup();
    const load = client.loadFileList([new File(["1 2\n"], "edges.txt"), new File(["f"], "features.csv")]);
    await tick();
    const { message, transfer } = worker.posted[0]!;
    assert.equal(message.op, "load");
    assert.deepEqual(Object.keys(message.files!), ["edges.txt", "features.csv"]);
    assert.equal(new TextDecoder().decode(message.files!["edges.txt"]), "1 2\n");
    assert.equal(transfer.length, 2);
    worker.result(message.id, { name: "edges" });
    assert.deepEqual(await load, { name: "edges" });
  });

  test("convenience methods send the right op and args", async () => {
    const { worker, client } = setup();
    const calls: [() => Promise<unknown>, string, unknown][] = [
      [() => client.info(), "info", undefined],
      [() => client.defaults(), "defaults", undefined],
      [() => client.defaults("gat"), "defaults", { model: "gat" }],
      [() => client.generate("dense", 7), "generate", { preset: "dense", seed: 7 }],
      [() => client.describe(), "describe", undefined],
      [() => client.train(), "train", {}],
      [
        () => client.train({ epochs: 5, lr: 0.01 }, { seed: 3, select: "auc", save: false, saveOnCancel: true }),
        "train",
        { config: { epochs: 5, lr: 0.01 }, seed: 3, select: "auc", save: false, saveOnCancel: true },
      ],
      [
        () => client.train({ heads: 4 }, { model: "gat" }),
        "train",
        { model: "gat", config: { heads: 4 } },
      ],
      [() => client.evaluate(), "evaluate", undefined],
      [() => client.explain(4, 9), "explain", { i: 4, j: 9 }],
      [() => client.insight(), "insight", undefined],
      [() => client.fidelity(), "fidelity", {}],
      [() => client.fidelity(6), "fidelity", { maxM: 6 }],
      [() => client.suggest(2), "suggest", { node: 2 }],
      [() => client.suggest(2, 3), "suggest", { node: 2, top: 3 }],
      [() => client.compare(4, 9), "compare", { i: 4, j: 9 }],
      [() => client.compare(4, 9, 2), "compare", { i: 4, j: 9, top: 2 }],
      [() => client.listCheckpoints(), "checkpoints.list", undefined],
      [() => client.saveCheckpoint(), "checkpoints.save", undefined],
      [() => client.loadCheckpoint("abc"), "checkpoints.load", { key: "abc" }],
      [() => client.deleteCheckpoint("abc"), "checkpoints.delete", { key: "abc" }],
      [() => client.exportCheckpoint(), "checkpoints.export", {}],
      [() => client.exportCheckpoint("abc"), "checkpoints.export", { key: "abc" }],
      [() => client.request("cancel", { target: 12 }), "cancel", { target: 12 }],
      // Untyped callers may pass undefined members; they are dropped from the wire.
      [() => client.request("suggest", { node: 1, top: undefined } as unknown as { node: number }), "suggest", { node: 1 }],
    ];
    for (const [call, op, args] of calls) {
      void call().catch(() => undefined);
      const sent = worker.last;
      assert.equal(sent.v, 1);
      assert.equal(sent.op, op);
      assert.deepEqual(sent.args, args, `${op} args`);
      assert.equal("args" in sent, args !== undefined, `${op}: args present only when given`);
      assert.equal(sent.files, undefined);
    }

    void client.importCheckpoint("model.ilpgnn", new Uint8Array([1, 2])).catch(() => undefined);
    assert.equal(worker.last.op, "checkpoints.import");
    assert.deepEqual(Object.keys(worker.last.files ?? {}), ["model.ilpgnn"]);
    client.terminate();
  });

  test("results are unwrapped as the convenience methods promise", async () => {
    const { worker, client } = setup();
    const defaults = client.defaults();
    worker.result(worker.last.id, { hyperparameters: [{ name: "epochs", value: "200", help: "h" }] });
    assert.deepEqual(await defaults, [{ name: "epochs", value: "200", help: "h" }]);

    const exported = client.exportCheckpoint("abc");
    worker.result(worker.last.id, { filename: "cora-abc.ilpgnn" }, new Uint8Array([5, 6]));
    const { filename, bytes } = await exported;
    assert.equal(filename, "cora-abc.ilpgnn");
    assert.deepEqual([...bytes], [5, 6]);

    const missing = client.exportCheckpoint();
    worker.result(worker.last.id, { filename: "x" });
    await assert.rejects(missing, { code: "internal", op: "checkpoints.export" });
  });

  test("request is typed end to end", () => {
    const { client } = setup();
    // Compile-time checks (tsc -p frontend/tsconfig.test.json); the calls below never get replies.
    const explanation: Promise<Explanation> = client.request("explain", { i: 1, j: 2 });
    const exported: Promise<{ filename: string; bytes: Uint8Array }> = client.request("checkpoints.export", {});
    void client.request("train", {}, { onProgress: (p) => p.bestScore });
    void client.request("fidelity", {}, { onProgress: (p) => p.step / p.steps });
    const insight: Promise<Insight> = client.request("insight");
    void explanation.then((e) => e.groundtruth?.role === "test" && e.groundtruth.i.length + e.groundtruth.j.length);
    // @ts-expect-error fidelity progress is not train progress
    void client.fidelity(2, { onProgress: (p) => p.epoch });
    // @ts-expect-error maxM is a number
    void client.request("fidelity", { maxM: "4" });
    // @ts-expect-error insight reports no progress
    void client.request("insight", {}, { onProgress: () => undefined });
    // @ts-expect-error explain needs i and j
    void client.request("explain", { i: 1 });
    // @ts-expect-error explain needs args
    void client.request("explain");
    // @ts-expect-error no such op
    void client.request("explode", {});
    // @ts-expect-error load needs files
    void client.request("load", { name: "x" });
    // @ts-expect-error only train reports progress
    void client.request("describe", {}, { onProgress: () => undefined });
    // @ts-expect-error wrong preset
    void client.generate("huge", 1);
    void explanation;
    void exported;
    void insight;
    assert.ok(true);
  });
});
