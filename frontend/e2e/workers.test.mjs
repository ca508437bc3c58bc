// Browser test of a sharded ILP-GNN run across Web Workers: the engine's
// worker starts helpers (nested Workers running worker.js?role=shard) for
// the shards of each epoch (core/shard). The weights must not depend on how
// many workers computed them, in the browser or natively. Run with
// `node --test frontend/e2e/workers.test.mjs` after `make build`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, openHarness, QUICK_PPR_EPS } from "./browser.mjs";

let server, browser;
const requests = [];

before(async () => {
  server = await serve();
  browser = await launch();
  // Every request of the page, its worker and the helpers, to prove none
  // leaves the origin.
  browser.context.on("request", (r) => requests.push(r.url()));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// synth:medium's epoch has a few thousand pairs: a batch size of 512 makes
// every epoch sharded (16 shards), as Amazon Photo's are with the default.
// A coarse push for S̃ (ppr-eps) keeps its preparation short; the bits
// compared are the epochs'.
const PRESET = "medium";
const EPOCHS = 3;
const BATCH = 512;
const CONFIG = { epochs: EPOCHS, "batch-size": BATCH, "ppr-eps": QUICK_PPR_EPS };

/** The tensor data of an encoded checkpoint, without its header (which holds the creation time); FORMAT.md. */
function weights(buf) {
  const d = Number(buf.readBigUInt64LE(16));
  return buf.subarray(buf.length - 4 - d, buf.length - 4);
}

function ok(step, what) {
  assert.ok(!step.error, `${what}: ${JSON.stringify(step.error)}`);
  return step.ok;
}

/** Trains CONFIG with workers and returns the run and its checkpoint's weights. */
async function trainWith(page, workers) {
  const run = ok(await page.evaluate(([c, w]) => window.harness.train(c, { select: "auc", workers: w }), [CONFIG, workers]), `train, ${workers} workers`);
  assert.equal(run.result.cancelled, false);
  assert.equal(run.result.epochs, EPOCHS);
  const exported = ok(await page.evaluate((k) => window.harness.exportCheckpoint(k), run.result.key), "export");
  return { run, weights: weights(Buffer.from(exported.base64, "base64")) };
}

/** The weights `ilpgnn train` writes for the same graph, seed and settings (the binary `make build` wrote beside the site). */
function nativeWeights() {
  const dir = mkdtempSync(join(tmpdir(), "ilpgnn-workers-"));
  try {
    const path = join(dir, "native.ckpt");
    execFileSync(join(root, "build", "ilpgnn"), ["train", "--data", `synth:${PRESET}:seed=0`, "--seeds", "0", "--epochs", String(EPOCHS),
      "--batch-size", String(BATCH), "--ppr-eps", QUICK_PPR_EPS, "--select", "auc", "--quiet", "--save", path], { cwd: root });
    return weights(readFileSync(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let oneWorker; // the 1-worker run's weights, which the later tests compare with

test("a sharded run has the same weights with 1 and 2 workers, and the command line's", async () => {
  const { page, errors, ready } = await openHarness(browser.context, server.origin);
  ok(ready, "ready");
  // The names CONFIG uses are the engine's hyperparameters.
  const names = (await page.evaluate(() => window.harness.engine.defaults("ilpgnn"))).map((h) => h.name);
  for (const name of Object.keys(CONFIG)) assert.ok(names.includes(name), `${name} is a hyperparameter: ${names}`);
  ok(await page.evaluate((p) => window.harness.generate(p, 0), PRESET), "generate");

  const helpersBefore = server.log.filter((r) => r.path.endsWith(".wasm")).length;
  const one = await trainWith(page, 1);
  assert.equal(server.log.filter((r) => r.path.endsWith(".wasm")).length, helpersBefore, "one worker starts no helper");
  const two = await trainWith(page, 2);
  // The whole graph was prepared by the first run; the training graph's
  // S̃ push is shared with one helper, the shards with another.
  assert.equal(server.log.filter((r) => r.path.endsWith(".wasm")).length, helpersBefore + 2, "two workers: a helper for the push and one for the shards loaded the module");
  oneWorker = one.weights;

  assert.equal(one.run.result.workers, 1);
  assert.equal(two.run.result.workers, 2);
  for (const { run } of [one, two]) {
    const want = run.result.workers;
    const ends = run.progress.filter((p) => p.phase === undefined);
    assert.deepEqual(ends.map((p) => p.epoch), [1, 2, 3], "one epoch-end event per epoch");
    assert.ok(run.progress.every((p) => p.workers === want), `every event says workers: ${want}: ${JSON.stringify(run.progress.map((p) => p.workers))}`);
    // The epoch reports its phases before it ends: at least one event
    // with a phase and shards still to do precedes the first epoch end.
    const first = run.progress.indexOf(ends[0]);
    const inEpoch = run.progress.slice(0, first).filter((p) => p.phase && (p.batch ?? 0) < p.batches);
    assert.ok(inEpoch.length > 0, `an in-epoch event before epoch 1 ends: ${JSON.stringify(run.progress.slice(0, first + 1))}`);
    assert.ok(inEpoch.every((p) => p.epoch === 1 && p.batches === 16), JSON.stringify(inEpoch));
  }

  assert.ok(one.weights.length > 1000);
  assert.ok(one.weights.equals(two.weights), "1 and 2 workers train identical weights");
  assert.ok(nativeWeights().equals(two.weights), "the browser's 2-worker weights are the command line's");
  assert.deepEqual(errors, []);
});

test("cancel within a sharded epoch ends the run before that epoch counts", async () => {
  const { page, errors } = await openHarness(browser.context, server.origin);
  // synth:dense's epochs are a few times longer than medium's: the cancel,
  // sent when the first in-epoch event reaches the page, has all the more
  // of the epoch left to arrive in.
  ok(await page.evaluate(() => window.harness.generate("dense", 0)), "generate");
  const out = await page.evaluate(async (batch) => {
    const ctl = new AbortController();
    const events = [];
    let trigger, cancelledAt;
    const result = await window.harness.engine.train({ epochs: 1000, patience: 1000, "batch-size": batch }, {
      workers: 2,
      select: "auc",
      signal: ctl.signal,
      onProgress: (p) => {
        if (p.prepare) return;
        events.push(p);
        if (trigger === undefined && p.phase !== undefined) {
          trigger = p;
          cancelledAt = performance.now();
          ctl.abort();
        }
      },
    });
    return { result, events, trigger, ms: performance.now() - cancelledAt };
  }, BATCH);
  // Most of the time to the result is after training stops (test AUC, and
  // the kept model re-opened from its checkpoint): trainSeconds is the loop's.
  console.log(`cancel to result: ${out.ms.toFixed(0)} ms (cancelled in epoch ${out.trigger.epoch}, phase ${out.trigger.phase}; training loop ${(out.result.trainSeconds * 1000).toFixed(0)} ms)`);
  assert.equal(out.result.cancelled, true);
  assert.equal(out.result.workers, 2);
  // The cancel came during epoch `trigger.epoch`, which must not complete:
  // the run counts the epochs before it.
  assert.ok((out.trigger.batch ?? 0) < out.trigger.batches, JSON.stringify(out.trigger));
  assert.equal(out.result.epochs, out.trigger.epoch - 1);
  const ends = out.events.filter((p) => p.phase === undefined);
  assert.ok(ends.every((p) => p.epoch < out.trigger.epoch), `no epoch ended after the cancel: ${JSON.stringify(ends)}`);
  // The engine serves the next request (the run released it and its helpers).
  ok(await page.evaluate(() => window.harness.describe()), "describe after cancel");
  assert.deepEqual(errors, []);
});

test("a helper that cannot start is dropped; its shards are computed by the engine's worker, same bits", async () => {
  const { page, errors, ready } = await openHarness(browser.context, server.origin);
  ok(ready, "ready");
  ok(await page.evaluate((p) => window.harness.generate(p, 0), PRESET), "generate");
  // The engine has its module; every later fetch of it (the helper's) fails.
  let refused = 0;
  const isModule = (url) => url.pathname === "/ilpgnn.wasm";
  const refuse = (route) => {
    refused++;
    return route.abort();
  };
  await browser.context.route(isModule, refuse);
  try {
    const run = await trainWith(page, 2);
    assert.ok(refused > 0, "the helper asked for the module");
    assert.equal(run.run.result.workers, 2, "the run started a helper");
    // The first test showed one worker's weights are the command line's.
    assert.ok(run.weights.equals(oneWorker ?? nativeWeights()), "the same weights as one worker alone");
  } finally {
    await browser.context.unroute(isModule, refuse);
  }
  assert.deepEqual(errors, []);
});

test("no request leaves the page's origin; the helpers are this site's worker.js and module", () => {
  assert.ok(requests.length > 0);
  const foreign = requests.filter((u) => !u.startsWith(server.origin + "/"));
  assert.deepEqual(foreign, []);
  const helpers = requests.filter((u) => new URL(u).searchParams.get("role") === "shard");
  assert.ok(helpers.length > 0, "helpers were started");
  for (const u of helpers) {
    const url = new URL(u);
    assert.equal(url.pathname, "/worker.js");
    assert.equal(url.searchParams.get("wasm"), `${server.origin}/ilpgnn.wasm`);
  }
});
