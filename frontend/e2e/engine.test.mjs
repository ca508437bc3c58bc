// Browser test of the engine: the real worker, the real WebAssembly module
// and IndexedDB, in headless Chromium. Run with `node --test frontend/e2e/`
// after `make site`.
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
  // Every request of the page and of its worker, to prove none leaves the
  // origin.
  browser.context.on("request", (r) => requests.push(r.url()));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// weights returns the tensor data of an encoded checkpoint (FORMAT.md: D,
// its length, is the uint64 at offset 16; the data sits before the final
// CRC), leaving out the header, whose creation time differs between runs.
function weights(buf) {
  const d = Number(buf.readBigUInt64LE(16));
  return buf.subarray(buf.length - 4 - d, buf.length - 4);
}

function ok(step, what) {
  assert.ok(!step.error, `${what}: ${JSON.stringify(step.error)}`);
  return step.ok;
}

test("train, explain, save, reload, load the checkpoint, same explanation", async () => {
  let { page, errors, ready } = await openHarness(browser.context, server.origin);
  const info = ok(ready, "ready");
  assert.equal(info.protocol, 1);
  assert.equal(info.storage.available, true, `IndexedDB should be available: ${info.storage.message}`);

  const g = ok(await page.evaluate(() => window.harness.generate("sparse", 0)), "generate");
  assert.equal(g.hasGroundtruth, true);
  assert.deepEqual(g.synthetic, { preset: "sparse", seed: 0 });

  const run = ok(await page.evaluate(() => window.harness.train({ epochs: 5 }, { select: "auc" })), "train");
  assert.equal(run.progress.length, 5, "one progress event per epoch");
  // The preparation reports its phases first, each ending at done == total.
  const phases = [...new Set(run.prepares.map((p) => p.prepare.phase))];
  assert.deepEqual(phases, ["structure similarity", "features", "adjacency"]);
  for (const phase of phases) {
    const last = run.prepares.filter((p) => p.prepare.phase === phase).at(-1).prepare;
    assert.equal(last.done, last.total, `${phase} ends complete`);
  }
  assert.ok(run.prepares.every((p) => p.epoch === 0 && p.maxEpochs === 5), JSON.stringify(run.prepares[0]));
  run.progress.forEach((p, k) => {
    assert.equal(p.epoch, k + 1);
    assert.equal(p.maxEpochs, 5);
    assert.ok(p.valAUC > 0.5 && p.loss > 0 && p.elapsedMs > 0, JSON.stringify(p));
  });
  const res = run.result;
  assert.equal(res.cancelled, false);
  assert.equal(res.saved.saved, true, JSON.stringify(res.saved));
  assert.ok(res.testAUC > 0.5 && res.p1 > 0, JSON.stringify(res));
  // OGB's Hits@k: a larger k lowers the bar, so the shares cannot fall with k.
  const h = res.testHits;
  assert.ok(h && 0 <= h["20"] && h["20"] <= h["50"] && h["50"] <= h["100"] && h["100"] <= 1, JSON.stringify(h));
  assert.ok(res.bestEpoch > 1, `the kept weights have been trained (best epoch ${res.bestEpoch})`);

  const before = ok(await page.evaluate(() => window.harness.explain(3, 40)), "explain");
  assert.ok(before.prob > 0 && before.prob < 1);
  assert.equal(before.i.node, 3);
  assert.ok(before.reading.length > 0);
  const exported = ok(await page.evaluate((k) => window.harness.exportCheckpoint(k), res.key), "export");
  assert.match(exported.filename, /\.ckpt$/);

  // The command line, natively, trains the same weights bit for bit (the
  // binary `make build` wrote beside the site, from the same sources).
  const dir = mkdtempSync(join(tmpdir(), "ilpgnn-native-"));
  try {
    const path = join(dir, "native.ckpt");
    execFileSync(join(root, "build", "ilpgnn"), ["train", "--data", "synth:sparse:seed=0", "--seeds", "0", "--epochs", "5", "--select", "auc", "--quiet", "--save", path], { cwd: root });
    const native = weights(readFileSync(path));
    const browser = weights(Buffer.from(exported.base64, "base64"));
    assert.ok(native.length > 1000);
    assert.ok(native.equals(browser), "Chromium and native checkpoints hold identical weights");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Reload: a new worker and engine; the checkpoint comes from IndexedDB.
  await page.reload();
  await page.waitForFunction(() => window.harness !== undefined);
  ok(await page.evaluate(() => window.harness.ready()), "ready after reload");
  ok(await page.evaluate(() => window.harness.generate("sparse", 0)), "generate after reload");
  const list = ok(await page.evaluate(() => window.harness.list()), "list");
  assert.equal(list.available, true);
  const entry = list.checkpoints.find((c) => c.key === res.key);
  assert.ok(entry, `checkpoint ${res.key} listed: ${JSON.stringify(list)}`);
  assert.equal(entry.matches, true);
  assert.equal(entry.metrics.test_auc, res.testAUC);
  const loaded = ok(await page.evaluate((k) => window.harness.loadCheckpoint(k), res.key), "load checkpoint");
  assert.equal(loaded.testAUC, res.testAUC);
  const after = ok(await page.evaluate(() => window.harness.explain(3, 40)), "explain after reload");
  assert.deepEqual(after, before, "the same explanation after a reload");
  const again = ok(await page.evaluate((k) => window.harness.exportCheckpoint(k), res.key), "export after reload");
  assert.equal(again.sha256, exported.sha256, "stored bytes unchanged");

  // Delete, then import the exported file: listed again, same bytes.
  ok(await page.evaluate((k) => window.harness.deleteCheckpoint(k), res.key), "delete");
  const gone = ok(await page.evaluate(() => window.harness.list()), "list after delete");
  assert.equal(gone.checkpoints.find((c) => c.key === res.key), undefined);
  const imported = ok(
    await page.evaluate(([n, b]) => window.harness.importBase64(n, b), [exported.filename, exported.base64]),
    "import",
  );
  assert.equal(imported.meta.key, res.key);
  assert.equal(imported.meta.matches, true);
  assert.equal(imported.status.saved, true);
  const back = ok(await page.evaluate((k) => window.harness.exportCheckpoint(k), res.key), "export after import");
  assert.equal(back.sha256, exported.sha256);
  const junk = await page.evaluate(() => window.harness.importBase64("junk.ckpt", btoa("not a checkpoint")));
  assert.equal(junk.error?.code, "bad_input");
  assert.equal(junk.error?.file, "junk.ckpt");
  assert.deepEqual(errors, []);
});

test("a bad file gets an error naming it, and the engine keeps serving", async () => {
  const { page, errors } = await openHarness(browser.context, server.origin);
  ok(await page.evaluate(() => window.harness.generate("sparse", 1)), "generate");
  const bad = await page.evaluate(() => window.harness.loadText({ "edges.csv": "a,b\nb\n" }));
  assert.ok(bad.error, "loading a broken edge list fails");
  assert.equal(bad.error.code, "bad_input");
  assert.equal(bad.error.file, "edges.csv");
  assert.equal(bad.error.line, 2);
  assert.match(bad.error.message, /edges\.csv/);
  const d = ok(await page.evaluate(() => window.harness.describe()), "describe after a bad file");
  assert.deepEqual(d.synthetic, { preset: "sparse", seed: 1 }, "the previous graph stays loaded");
  const good = ok(await page.evaluate(() => window.harness.loadText({ "edges.csv": "a,b\nb,c\nc,a\n" })), "load a good file");
  assert.equal(good.nodes, 3);
  assert.deepEqual(errors, []);
});

test("cancel stops training within an epoch and keeps the best weights", async () => {
  const { page } = await openHarness(browser.context, server.origin);
  ok(await page.evaluate(() => window.harness.generate("sparse", 2)), "generate");
  // A coarse push for S̃ (ppr-eps): the preparation is not what is cancelled.
  const run = ok(
    await page.evaluate((eps) => window.harness.train({ epochs: 1000, patience: 1000, "ppr-eps": eps }, { abortAfter: 2 }), QUICK_PPR_EPS),
    "train",
  );
  assert.equal(run.result.cancelled, true);
  // The page aborts on epoch 2's event; the worker honours the cancel at the
  // end of the epoch it is in when the message arrives. How many epochs it
  // has run by then depends on the machine's load, not on the code, so only
  // the bounds are asserted: past the abort, far short of the 1000 epochs,
  // and every epoch run was reported before the result.
  assert.ok(run.result.epochs >= 2 && run.result.epochs < 1000, `stopped after ${run.result.epochs} epochs`);
  assert.equal(run.progress.length, run.result.epochs, "one progress event per epoch run");
  assert.equal(run.result.saved.saved, false);
  ok(await page.evaluate(() => window.harness.explain(0, 1)), "explain with the cancelled run's weights");
});

test("the table 1 baselines train in the browser on the same split", async () => {
  const { page } = await openHarness(browser.context, server.origin);
  ok(await page.evaluate(() => window.harness.generate("sparse", 0)), "generate");
  for (const model of ["gae", "vgae", "gat"]) {
    const run = ok(await page.evaluate((m) => window.harness.train({ epochs: 3 }, { model: m }), model), model);
    assert.equal(run.result.model, model);
    assert.equal(run.progress.length, 3);
    assert.ok(run.result.testAUC > 0.5, `${model}: ${JSON.stringify(run.result)}`);
  }
  // In the engine's order of models (its ready message's), whatever the order trained.
  const cmp = ok(await page.evaluate(() => window.harness.compare(3, 40)), "compare");
  assert.deepEqual(
    cmp.explainers.map((x) => `${x.model}:${x.method}`),
    ["gae:gnnexplainer", "vgae:gnnexplainer", "gat:attention"],
  );
  for (const x of cmp.explainers) assert.ok(x.i.length > 0 && x.i.every((n) => n.node !== 40), JSON.stringify(x));
  const cn = ok(await page.evaluate(() => window.harness.train({}, { model: "cn" })), "cn");
  assert.equal(cn.result.model, "cn");
  assert.ok(cn.result.testAUC > 0.5);
});

test("no request leaves the page's origin; the wasm is served compressed", () => {
  assert.ok(requests.length > 0);
  const foreign = requests.filter((u) => !u.startsWith(server.origin + "/"));
  assert.deepEqual(foreign, []);
  const wasm = server.log.filter((r) => r.path.endsWith(".wasm"));
  assert.ok(wasm.length > 0 && wasm.every((r) => r.encoding === "br"), JSON.stringify(wasm));
});

test("the worker starts when the host sends the wrong MIME type for .wasm", async () => {
  const wrong = await serve({ wrongWasmType: true });
  try {
    const { page, ready } = await openHarness(browser.context, wrong.origin);
    ok(ready, "ready with application/octet-stream");
    ok(await page.evaluate(() => window.harness.generate("sparse", 0)), "generate");
  } finally {
    await wrong.close();
  }
});
