// A cancelled run must not pass for the newest model. In headless Chromium
// on the sparse synthetic graph: train a run to its end, then train a later
// one and cancel it (its best weights are saved, marked cancelled); a deep
// link to a pair and a plain reload must then restore or offer the
// completed run, and the page must say which checkpoint it is. Run with
// `node --test frontend/e2e/restore.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const artifacts = join(root, "build", "e2e-artifacts");
// Generous: the machine may be several times slower than a laptop.
const LONG = LONG_WAIT;
let server, browser, page;
const pageErrors = [];

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const app = (fn, arg) => page.evaluate(fn, arg);
const shot = (name) => page.screenshot({ path: join(artifacts, `restore-${name}.png`) });

/** The engine's key shortened as the page shows it (restore.ts shortKey). */
const shortKey = (key) => `${key.slice(0, 8)}…${key.slice(key.indexOf("-"))}`;

async function setHyper(name, value) {
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector(`#hp-${name}`);
  await page.fill(`#hp-${name}`, String(value));
}

/**
 * Starts an ILP-GNN run with the given seed and epochs: a narrow encoder
 * and a coarse push for S̃ (ppr-eps), which every restore computes again;
 * the test is about which run is restored, not how good it is.
 */
async function startRun(seed, epochs) {
  await page.locator("#train-panel").scrollIntoViewIfNeeded();
  await page.selectOption("#model", "ilpgnn");
  await page.fill("#train-seed", String(seed));
  await setHyper("epochs", epochs);
  await setHyper("patience", epochs);
  await setHyper("hidden", 16);
  await setHyper("ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
}

/** The listed checkpoints of the loaded graph: key, run ("completed" or "cancelled") and text. */
async function listed() {
  await page.waitForSelector("#checkpoint-list tr[data-key]", { timeout: LONG });
  return app(() => [...document.querySelectorAll("#checkpoint-list tr[data-key]")].map((tr) => ({ key: tr.dataset.key, run: tr.dataset.run, text: tr.textContent })));
}

test("a reload or deep link restores the completed run, not a later cancelled one, and says which", async () => {
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: LONG });

  // 1. A run that ends by itself.
  await startRun(1, 3);
  await page.waitForFunction(() => /^Done: 3 epochs/.test(document.getElementById("progress-text").textContent), null, { timeout: LONG });
  await page.waitForSelector("#train-result h3", { timeout: LONG });
  const done = await app(() => window.ilpgnnExplorer.model.info);
  assert.equal(done.cancelledAtEpoch, undefined);
  assert.match(await page.textContent("#train-result"), /saved in this browser/);

  // Checkpoint times are whole seconds: let the cancelled run be the newer.
  await page.waitForTimeout(1500);

  // 2. A later run, with other settings, cancelled part way.
  await startRun(2, 1000);
  await page.waitForFunction(() => window.ilpgnnExplorer.train.progressEvents >= 2, null, { timeout: LONG });
  await page.click("#cancel");
  await page.waitForFunction(() => /^Stopped (during|after) epoch \d+/.test(document.getElementById("progress-text").textContent), null, { timeout: LONG });
  await page.waitForSelector("#train-result h3", { timeout: LONG });
  const cut = await app(() => window.ilpgnnExplorer.model.info);
  // Stopped during epoch n: n - 1 epochs done; stopped after epoch n: n.
  const [, when, n] = /^Stopped (during|after) epoch (\d+)/.exec(await page.textContent("#progress-text"));
  const epochs = when === "during" ? Number(n) - 1 : Number(n);
  assert.equal(cut.cancelledAtEpoch, epochs);
  assert.notEqual(cut.key, done.key);
  assert.ok(cut.created >= done.created, `cancelled run ${cut.created}, completed ${done.created}`);
  assert.match(await page.textContent("#train-result"), /saved in this browser/);

  // The list marks the cancelled checkpoint and only it.
  await page.click("#checkpoints-panel > summary");
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint-list tr[data-key]").length === 2, null, { timeout: LONG });
  const rows = await listed();
  const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
  assert.equal(byKey[done.key]?.run, "completed");
  assert.equal(byKey[cut.key]?.run, "cancelled");
  assert.match(byKey[cut.key].text, new RegExp(`cancelled after ${epochs} epochs?`));
  assert.doesNotMatch(byKey[done.key].text, /cancelled/);
  await shot("01-two-runs");

  // 3. A deep link to a pair: the completed run is restored unasked.
  const pair = await app(() => [window.ilpgnnExplorer.graph.id(0), window.ilpgnnExplorer.graph.id(1)]);
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0&pair=${encodeURIComponent(pair[0])},${encodeURIComponent(pair[1])}`);
  await page.reload();
  await page.waitForSelector("#model-origin", { timeout: LONG });
  assert.equal(await app(() => window.ilpgnnExplorer.metrics.trainRuns), 0, "the deep link did not train");
  assert.equal(await app(() => window.ilpgnnExplorer.model.info.key), done.key);
  const origin = await page.textContent("#model-origin");
  assert.ok(origin.includes(shortKey(done.key)), origin);
  assert.match(origin, /of synth:sparse:seed=0, trained /);
  assert.match(origin, /completed run/);
  assert.equal(await page.$("#selection-note"), null, "a graph with groundtruth keeps its weights on precision");
  assert.match(origin, new RegExp(`test AUC ${(100 * done.testAUC).toFixed(2)}%`));
  assert.match(await page.textContent("#status"), /^Restored checkpoint .*completed run/);
  await page.waitForSelector("#pair-prob", { timeout: LONG });
  await shot("02-deep-link");

  // 4. A plain reload offers the completed run too, and names it.
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.reload();
  await page.waitForSelector("#restore-last", { timeout: LONG });
  const offer = await page.textContent("#restore-offer");
  assert.ok(offer.includes(shortKey(done.key)), offer);
  assert.match(offer, /completed run/);
  await page.click("#restore-last");
  await page.waitForSelector("#model-origin", { timeout: LONG });
  assert.equal(await app(() => window.ilpgnnExplorer.model.info.key), done.key);

  // 5. With the completed run deleted, the cancelled one is only offered, and says so.
  await page.click("#checkpoints-panel > summary");
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint-list tr[data-key]").length === 2, null, { timeout: LONG });
  page.once("dialog", (d) => d.accept());
  await page.click(`#checkpoint-list tr[data-key="${done.key}"] >> text=Delete`);
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint-list tr[data-key]").length === 1, null, { timeout: LONG });
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0&pair=${encodeURIComponent(pair[0])},${encodeURIComponent(pair[1])}`);
  await page.reload();
  await page.waitForSelector("#restore-last", { timeout: LONG });
  assert.equal(await app(() => window.ilpgnnExplorer.model), null, "a cancelled run is not restored unasked");
  assert.match(await page.textContent("#restore-offer"), new RegExp(`cancelled after ${epochs} epochs?.*cancelled part way`));
  await page.click("#restore-last");
  await page.waitForSelector("#model-origin", { timeout: LONG });
  assert.match(await page.textContent("#model-origin"), new RegExp(`cancelled after ${epochs} epochs?`));
  await shot("03-cancelled-offered");
  assert.deepEqual(pageErrors, []);
});
