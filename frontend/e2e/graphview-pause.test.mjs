// The graph's layout yields to training, in the app in headless Chromium:
// while a run trains (the store's `training`), a layout started then runs
// no iterations (its worker reports none and the positions stay where they
// started, though the worker still answers) and the line under the graph
// says "layout paused while training"; once the run ends, the layout goes
// on to the end and the line clears. Behaviour only, no timing.
// Run with `node --test frontend/e2e/graphview-pause.test.mjs` after `make site`.
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

async function setHyper(name, value) {
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector(`#hp-${name}`);
  await page.fill(`#hp-${name}`, String(value));
}

test("the layout holds while a run trains, says so, and goes on after", async () => {
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.layoutDone(), null, { timeout: WAIT });
  assert.equal(await page.textContent("#layout-status"), "");

  // A long run (cancelled below), narrow and with a coarse S̃ push so it starts fast.
  await setHyper("epochs", 1000);
  await setHyper("patience", 1000);
  await setHyper("hidden", 16);
  await setHyper("ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForFunction(() => window.ilpgnnExplorer.training, null, { timeout: WAIT });

  // A layout that starts while the run trains (as a large graph's still
  // would be when Train is pressed): the app's own graph, another seed.
  const start = await app(async () => {
    const a = window.ilpgnnExplorer;
    const g = a.graph;
    await a.view.setGraph({ n: g.n, edges: g.edges, ids: g.desc.ids, degrees: g.desc.degrees, labels: g.labels, classNames: g.desc.classNames }, { seed: 11 });
    return Array.from(a.view.positions());
  });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.layoutPaused(), null, { timeout: WAIT });
  assert.equal(await page.textContent("#layout-status"), "layout paused while training");
  // The worker still answers (a new view gets its picture) but iterates not.
  await app(() => {
    const v = window.ilpgnnExplorer.view;
    const t = v.transform();
    v.setTransform({ k: t.k * 1.5, x: t.x, y: t.y });
  });
  await page.waitForTimeout(1500);
  const held = await app(() => {
    const a = window.ilpgnnExplorer;
    return { training: a.training, ticks: a.view.layoutTicks(), done: a.view.layoutDone(), positions: Array.from(a.view.positions()), ready: a.view.staticLayerReady() };
  });
  assert.equal(held.training, true, "the run still trains (else the hold proved nothing)");
  assert.equal(held.ticks, 0, "no iterations while training");
  assert.equal(held.done, false);
  assert.equal(held.ready, true, "the worker drew the held positions");
  assert.deepEqual(held.positions, start, "the positions stay where they started");
  await page.screenshot({ path: join(artifacts, "graphview-pause-01-held.png") });

  // The run ends: the layout goes on to the end and the line clears.
  await app(() => document.getElementById("cancel").click());
  await page.waitForFunction(() => !window.ilpgnnExplorer.training, null, { timeout: LONG_WAIT });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.layoutDone(), null, { timeout: WAIT });
  const after = await app(() => ({ ticks: window.ilpgnnExplorer.view.layoutTicks(), paused: window.ilpgnnExplorer.view.layoutPaused(), positions: Array.from(window.ilpgnnExplorer.view.positions()) }));
  assert.ok(after.ticks > 0, "iterations after the run");
  assert.equal(after.paused, false);
  assert.notDeepEqual(after.positions, start);
  assert.ok(after.positions.every(Number.isFinite));
  assert.equal(await page.textContent("#layout-status"), "");
  await page.screenshot({ path: join(artifacts, "graphview-pause-02-settled.png") });
  assert.deepEqual(pageErrors, []);
});
