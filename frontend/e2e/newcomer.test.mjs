// The stumbles of issue 33, as a newcomer and a returning user meet the
// app in headless Chromium: Train while the engine starts; a node or pair
// selected while a model trains, once the run ends or is cancelled; a
// phone's screen with a stored model; a graph opened from a file, reopened
// from the picker after a reload, and its model restored from the
// checkpoint list; and the explanation's numbers (p as a percentage, b
// shown, signed attributions, 24 px node buttons, tied suggestions as one
// group). The tests run in order and share the browser's storage. Run with
// `node --test frontend/e2e/newcomer.test.mjs` after `make build`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const artifacts = join(root, "build", "e2e-artifacts");
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
const shot = (name) => page.screenshot({ path: join(artifacts, `newcomer-${name}.png`) });
const text = (sel) => page.textContent(sel);

async function waitFirstGraph() {
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
}

async function setHyper(name, value) {
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector(`#hp-${name}`);
  await page.fill(`#hp-${name}`, String(value));
}

// The runs' encoder width, and S̃'s push tolerance QUICK_PPR_EPS: narrow
// and coarse, so they prepare and train fast (the tests need a model, not
// a good one).
const HIDDEN = 16;

/** Starts an ILP-GNN run of at most `epochs` epochs (patience as many, so it runs them all). */
async function startRun(epochs) {
  await page.selectOption("#model", "ilpgnn");
  await setHyper("epochs", epochs);
  await setHyper("patience", epochs);
  await setHyper("hidden", HIDDEN);
  await setHyper("ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForFunction(() => window.ilpgnnExplorer.training, null, { timeout: WAIT });
}

const STALE = "Training is running";

test("while the engine starts, Train is disabled and says why, and the canvas says what it waits for", async () => {
  // Hold the engine's worker script until the page has been looked at.
  let release;
  const held = new Promise((r) => (release = r));
  let asked = false;
  await page.route("**/worker.js", async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => window.ilpgnnExplorer !== undefined);
  assert.equal(await page.isDisabled("#train"), true, "Train waits for the engine");
  assert.equal(await page.isDisabled("#tune"), true, "Tune waits for the engine");
  assert.match(await page.getAttribute("#train", "title"), /engine is starting/);
  assert.equal(await page.isVisible("#canvas-note"), true);
  assert.equal(await text("#canvas-note"), "Starting the engine…");
  assert.equal(await text("#status"), "Starting the engine…");
  await shot("01-engine-starting");
  release();
  await waitFirstGraph();
  await page.unroute("**/worker.js");
  assert.ok(asked, "the worker's script was requested");
  await page.waitForFunction(() => !document.getElementById("train").disabled);
  assert.equal(await page.isHidden("#canvas-note"), true, "the note goes once the graph is drawn");
  assert.doesNotMatch((await page.getAttribute("#train", "title")) ?? "", /engine/);
});

test("a node or pair selected while a model trains is explained once the run ends or is cancelled", async () => {
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.reload();
  await waitFirstGraph();
  const v = await app(() => {
    const g = window.ilpgnnExplorer.graph;
    let best = 0;
    for (let u = 0; u < g.n; u++) if (g.desc.degrees[u] > g.desc.degrees[best]) best = u;
    return best;
  });

  // 1. A run that ends by itself; the node is selected in the task that
  // starts it, so however fast the run, the selection comes while it trains.
  await page.selectOption("#model", "ilpgnn");
  await setHyper("epochs", 6);
  await setHyper("patience", 6);
  await setHyper("hidden", HIDDEN);
  await setHyper("ppr-eps", QUICK_PPR_EPS);
  const during = await app((node) => {
    document.getElementById("train").click();
    const a = window.ilpgnnExplorer;
    void a.select({ kind: "node", node });
    return { training: a.training, said: document.getElementById("explain-body").textContent };
  }, v);
  assert.equal(during.training, true);
  assert.ok(during.said.includes(STALE), during.said);
  await page.waitForFunction(() => !window.ilpgnnExplorer.training, null, { timeout: LONG_WAIT });
  await page.waitForSelector("#suggestions button", { timeout: WAIT });
  assert.ok(!(await text("#explain-body")).includes(STALE), await text("#explain-body"));
  assert.deepEqual(await app(() => window.ilpgnnExplorer.selection), { kind: "node", node: v });
  await assertSuggestionPlaces();
  await shot("02-after-training");

  // 2. A run questioned while it trains, then stopped: from the end of
  // its first epoch its best weights so far explain a pair, naming their
  // epoch, and Stop offers to keep them; stopped, the run keeps its best
  // weights, says whose, and the pair is explained by the model they make.
  const w = Number(await page.getAttribute("#suggestions li button", "data-node"));
  await startRun(1000);
  await page.waitForFunction(() => window.ilpgnnExplorer.kept !== null, null, { timeout: LONG_WAIT });
  assert.match(await text("#cancel"), /^Stop and keep this model \(epoch \d+\)$/);
  await app(([i, j]) => window.ilpgnnExplorer.select({ kind: "pair", i, j }), [v, w]);
  await page.waitForSelector("#answered-by", { timeout: WAIT });
  assert.equal(await app(() => window.ilpgnnExplorer.training), true, "answered while the run trains");
  assert.match(await text("#answered-by"), /^Answered by epoch \d+'s weights/);
  await page.waitForSelector("#pair-prob", { timeout: WAIT });
  await shot("03-answered-while-training");
  await page.click("#cancel");
  await page.waitForFunction(() => /^Stopped (during|after) epoch \d+ \(.+\); the model keeps epoch \d+'s weights(, the ones it started from)?\.$/.test(document.getElementById("progress-text").textContent), null, { timeout: LONG_WAIT });
  const stopped = await text("#progress-text");
  const keptEpoch = Number(/keeps epoch (\d+)'s/.exec(stopped)[1]);
  // Train came back before the test evaluation, which the result then shows.
  await page.waitForFunction(() => document.getElementById("test-pending") === null && /test AUC\d+\.\d+%/.test(document.getElementById("train-result").textContent), null, { timeout: LONG_WAIT });
  assert.ok((await app(() => window.ilpgnnExplorer.model.info.testAUC)) > 0.5);
  assert.equal(await app(() => window.ilpgnnExplorer.model.info.bestEpoch), keptEpoch, stopped);
  await page.waitForFunction(() => document.getElementById("answered-by") === null && document.getElementById("pair-prob") !== null, null, { timeout: WAIT });
  assert.ok(!(await text("#explain-body")).includes(STALE));
  await assertExplanationNumbers();
  await shot("03-after-cancel");
  await page.locator("#explain-panel").screenshot({ path: join(artifacts, "newcomer-03-explanation.png") });
});

/** Suggestions the engine calls tied share one place; every other suggestion has a place of its own. */
async function assertSuggestionPlaces() {
  const items = await app(() => [...document.querySelectorAll("#suggestions > li")].map((li) => ({ value: li.value, tied: li.classList.contains("tied"), buttons: li.querySelectorAll("button").length })));
  const note = await page.$("#suggestions-tied");
  const all = items.reduce((n, it) => n + it.buttons, 0);
  assert.ok(all > 0);
  assert.deepEqual(items.map((it) => it.value), items.map((_, k) => k + 1), "places 1, 2, 3, …");
  if (note === null) {
    assert.ok(items.every((it) => it.buttons === 1 && !it.tied));
    return;
  }
  const m = /^Note: (?:both|the (?:first )?(\d+)) suggestions'/.exec(await note.textContent());
  assert.ok(m, await note.textContent());
  const tied = m[1] === undefined ? 2 : Number(m[1]);
  assert.equal(items[0].buttons, tied, "the tied suggestions are one group");
  assert.equal(items[0].tied, true);
  assert.ok(items.slice(1).every((it) => it.buttons === 1));
}

/** The explanation's numbers in one style: p as a percentage with one decimal, b shown, attributions signed, no "-0.00". */
async function assertExplanationNumbers() {
  const P = String.raw`(?:\d{1,2}\.\d%|> 99\.9%|< 0\.1%)`;
  assert.match(await text("#pair-prob"), new RegExp(`^${P} p_ij`));
  assert.match(await text("#reading"), new RegExp(`\\(p (?:= )?${P}\\)`));
  const removal = await text("#explain-removal");
  assert.match(removal, new RegExp(`^Removing .* p (?:at ${P}|from ${P} to ${P}); removing as many random neighbours .* ${P} \\(mean of 10 draws\\)\\.$`));
  assert.doesNotMatch(removal, /\b0\.\d\d/, "no p as a decimal fraction");
  for (const side of ["i", "j"]) {
    const head = await app((s) => [...document.querySelectorAll(`.side-block.${s} thead th`)].map((th) => th.textContent), side);
    assert.deepEqual(head.slice(0, 4), ["neighbour", "structure", "features", "b"]);
    const rows = await app((s) => [...document.querySelectorAll(`.side-block.${s} tbody tr.selected`)].map((tr) => [...tr.querySelectorAll("td.num")].map((td) => td.textContent)), side);
    assert.ok(rows.length > 0);
    // A side's weights b add up to 1 (each shown to two decimals).
    const sum = rows.reduce((t, r) => t + Number(r[0]), 0);
    assert.ok(Math.abs(sum - 1) <= 0.005 * rows.length + 1e-9, `${side}: b adds up to ${sum}`);
    for (const r of rows) {
      if (r.length < 2) continue;
      assert.match(r[1], /^(?:[+−]\d+\.\d\d|0\.00)$/, `attribution ${r[1]}`);
    }
  }
  assert.doesNotMatch(await text("#explain-body"), /-0\.00/);
  assert.doesNotMatch(await text("#explain-defs"), /its share/, "attributions are not described as shares");
  // Every node button in the tables is a 24 x 24 px touch target at least.
  const small = await app(() => [...document.querySelectorAll("#explain-body table.neighbours button.node")]
    .filter((b) => b.getClientRects().length > 0)
    .map((b) => b.getBoundingClientRect())
    .filter((r) => r.width < 24 || r.height < 24)
    .map((r) => `${r.width}x${r.height}`));
  assert.deepEqual(small, []);
  // Feature bars say what 0.5 means.
  const labels = await app(() => [...document.querySelectorAll("#explain-body .bar.features")].map((b) => b.getAttribute("aria-label")));
  assert.ok(labels.length > 0 && labels.every((l) => /^features \d\.\d\d, (alike|unlike|no signal)$/.test(l)), labels.join("; "));
  assert.ok(labels.every((l) => !/^features 0\.50/.test(l) || l.endsWith("no signal")));
  // The summary line counts connected parts; the legend says its colours are the generator's components.
  assert.doesNotMatch(await text("#graph-info"), /component/);
  assert.match(await text("#legend"), /^Classes \(the generator's feature components\):component 0/);
}

test("on a phone, Train and the restore offer show without scrolling, and no 'No model yet' beside the offer", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
    await page.reload();
    await page.waitForSelector("#restore-last", { timeout: WAIT });
    const seen = await app(() => {
      const box = (id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      };
      return { scrollY: window.scrollY, innerHeight, innerWidth, train: box("train"), offer: box("restore-offer"), page: document.documentElement.scrollHeight };
    });
    await shot("04-phone-offer");
    assert.equal(seen.scrollY, 0);
    for (const what of ["train", "offer"]) {
      const b = seen[what];
      assert.ok(b.top >= 0 && b.bottom <= seen.innerHeight && b.left >= 0 && b.right <= seen.innerWidth, `${what} at ${JSON.stringify(b)} in ${seen.innerWidth}x${seen.innerHeight}`);
    }
    assert.match(await text("#restore-offer"), /^A model trained on this graph is stored in this browser/);
    assert.doesNotMatch(await text("#train-result"), /No model yet/);
    // Not now: the offer goes, and the page says there is no model.
    await page.click("#restore-offer button:not(.primary)");
    assert.match(await text("#train-result"), /No model yet/);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test("a graph opened from a file is reopened from the picker after a reload, and its model restored from the checkpoint list", async () => {
  await page.goto(`${server.origin}/`);
  await page.reload();
  await waitFirstGraph();
  // A 300-node graph with one numeric feature per node.
  let edges = "source,target\n";
  for (let i = 0; i < 300; i++) edges += `${i},${(7 * i + 1) % 300}\n${i},${(i + 1) % 300}\n`;
  await page.setInputFiles("#file-input", { name: "ring.csv", mimeType: "text/csv", buffer: Buffer.from(edges) });
  await page.waitForFunction(() => /^ring: 300 nodes/.test(document.getElementById("graph-info").textContent), null, { timeout: WAIT });
  await page.waitForFunction(() => /ring is kept in this browser/.test(document.getElementById("kept-text").textContent), null, { timeout: WAIT });
  await startRun(3);
  await page.waitForFunction(() => !window.ilpgnnExplorer.training, null, { timeout: LONG_WAIT });
  assert.match(await text("#train-result"), /saved in this browser/);
  const key = await app(() => window.ilpgnnExplorer.model.info.key);

  // A plain visit: the demo graph, and the kept file on offer in the picker.
  await page.goto(`${server.origin}/`);
  await page.reload();
  await waitFirstGraph();
  await page.waitForFunction(() => document.querySelector('#preset option[value="kept:file:ring"]') !== null, null, { timeout: WAIT });
  const option = await app(() => {
    const o = document.querySelector('#preset option[value="kept:file:ring"]');
    return { text: o.textContent, disabled: o.disabled };
  });
  assert.deepEqual(option, { text: "Your files: ring (kept in this browser)", disabled: false });
  await page.selectOption("#preset", "kept:file:ring");
  await page.waitForFunction(() => /^ring: 300 nodes/.test(document.getElementById("graph-info").textContent), null, { timeout: WAIT });
  assert.equal(await app(() => window.ilpgnnExplorer.dataKey), "file:ring");
  assert.equal(await page.inputValue("#preset"), "file");
  assert.equal(await app(() => document.querySelector('#preset option[value="kept:file:ring"]')), null, "the loaded graph is not offered again");

  // Another plain visit: the checkpoint list opens the kept graph and restores its model.
  await page.goto(`${server.origin}/`);
  await page.reload();
  await waitFirstGraph();
  await page.click("#checkpoints-panel > summary");
  const row = page.locator(`#checkpoint-list tr[data-key="${key}"]`);
  await row.waitFor({ timeout: WAIT });
  const open = row.getByRole("button", { name: "Open graph and restore" });
  await open.waitFor({ timeout: WAIT });
  await open.click();
  await page.waitForFunction((k) => window.ilpgnnExplorer.model?.info.key === k, key, { timeout: WAIT });
  assert.match(await text("#graph-info"), /^ring: 300 nodes/);
  assert.match(await text("#status"), /^Restored checkpoint/);
  assert.match(await text("#model-origin"), /of ring/);
  await shot("05-kept-restored");
  assert.deepEqual(pageErrors, []);
});
