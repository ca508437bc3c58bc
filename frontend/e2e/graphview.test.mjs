// Browser test of the graph view (frontend/src/app/graph) in headless
// Chromium: bundles its own page (./graphview/) and the layout worker into a
// temporary folder, loads Cora (from the shared datasets) and Amazon Photo
// (parsed from its .npz), and checks drawing, layout, clicks, hover, zoom,
// pan, keys and highlights. It asserts behaviour, never timing: the view's
// frame rates, draw and rasterisation times and long tasks are `make
// bench-app`'s (frontend/scripts/bench-app.mjs, section 7).
// Run: node --test frontend/e2e/graphview.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, WAIT } from "./browser.mjs";
import { buildGraphviewPage, datasets } from "./graphview/setup.mjs";

const artifacts = join(root, "build", "e2e-artifacts");
const VIEW = { width: 1280, height: 800 };
let dir, server, browser, page;
const errors = [];
const requests = [];

before(async () => {
  dir = await buildGraphviewPage();
  mkdirSync(artifacts, { recursive: true });
  server = await serve({ mounts: [["/gv/", dir]] });
  browser = await launch();
  browser.context.on("request", (r) => requests.push(r.url()));
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.setViewportSize(VIEW);
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${server.origin}/gv/index.html`);
  await page.waitForFunction(() => window.gv !== undefined);
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const gv = (fn, arg) => page.evaluate(fn, arg);

/**
 * Drags from the canvas centre by (dx, dy) and asserts that the view moved
 * by the pointer's travel, at the same scale, and then redrew.
 */
async function panBy(dx, dy) {
  const t0 = await gv(() => {
    window.gv.frameStats(true);
    return window.gv.transform();
  });
  await page.mouse.move(640, 400);
  await page.mouse.down();
  await page.mouse.move(640 + dx / 2, 400 + dy / 2, { steps: 5 });
  await page.mouse.move(640 + dx, 400 + dy, { steps: 5 });
  await page.mouse.up();
  const t1 = await gv(() => window.gv.transform());
  assert.equal(t1.k, t0.k, "a drag does not zoom");
  assert.ok(Math.abs(t1.x - t0.x - dx) < 0.01 && Math.abs(t1.y - t0.y - dy) < 0.01, JSON.stringify({ t0, t1 }));
  await page.waitForFunction(() => window.gv.frameStats().frames > 0, null, { timeout: WAIT });
}

async function screenshot(name) {
  await page.screenshot({ path: join(artifacts, `graphview-${name}.png`) });
}

test("Cora: first frame, layout, click, hover, zoom, pan, keys, highlight", async () => {
  assert.ok(existsSync(join(datasets, "cora", "cora.cites")), "Cora is in ../shared/datasets");
  const loaded = await gv(() => window.gv.load("cora"));
  assert.equal(loaded.n, 2708);
  assert.equal(loaded.m, 5278);
  assert.equal(loaded.staticLayer, "worker");
  const layout = await gv(() => window.gv.waitLayout());
  assert.equal(layout.done, true);
  assert.ok(layout.progressEvents >= 3, "positions streamed while the layout ran");
  assert.match(await gv(() => window.gv.label()), /2,708 nodes and 5,278 edges/);
  const pos = await gv(() => window.gv.positions());
  assert.equal(pos.length, 2 * 2708);
  assert.ok(pos.every(Number.isFinite));
  await screenshot("cora");

  // Click on a known node (id 35, the hub of Cora's citations).
  const hub = await gv(() => window.gv.node("35"));
  assert.ok(hub >= 0);
  await gv((i) => window.gv.focus([i], true), hub);
  const [hx, hy] = await gv((i) => window.gv.screenOf(i), hub);
  await page.mouse.click(hx + 1, hy - 1);
  assert.deepEqual((await gv(() => window.gv.clicks())).nodes, [hub]);

  // Hover shows the tooltip with id, class and degree, and a pointer cursor.
  await page.mouse.move(hx, hy);
  await page.waitForFunction(() => !window.gv.tooltip().hidden);
  const tip = await gv(() => window.gv.tooltip());
  assert.match(tip.text, /^35\b/);
  assert.match(tip.text, /class: Genetic_Algorithms/);
  assert.match(tip.text, /degree: 16[0-9]/);
  assert.equal(await gv(() => window.gv.cursor()), "pointer");

  // Click on empty space.
  const empty = await gv(() => {
    for (let y = 5; y < 800; y += 17) for (let x = 5; x < 1280; x += 17) if (window.gv.nodeAt(x, y) < 0) return [x, y];
    return null;
  });
  assert.ok(empty);
  await page.mouse.click(empty[0], empty[1]);
  assert.equal((await gv(() => window.gv.clicks())).background, 1);
  assert.equal(await gv(() => window.gv.tooltip().hidden), true);

  // Wheel zoom about the cursor: scale grows, the world point under it stays.
  await gv(() => window.gv.fit());
  const t0 = await gv(() => window.gv.transform());
  await page.mouse.move(500, 300);
  await page.mouse.wheel(0, -240);
  await page.waitForFunction((k) => window.gv.transform().k > k, t0.k);
  const t1 = await gv(() => window.gv.transform());
  const w0 = [(500 - t0.x) / t0.k, (300 - t0.y) / t0.k];
  const w1 = [(500 - t1.x) / t1.k, (300 - t1.y) / t1.k];
  assert.ok(Math.abs(w0[0] - w1[0]) < 1e-6 * Math.abs(w0[0]) + 1e-6 && Math.abs(w0[1] - w1[1]) < 1e-6 * Math.abs(w0[1]) + 1e-6, `${w0} vs ${w1}`);

  // Drag pans by the pointer's travel, and its end is not a click.
  const before = await gv(() => window.gv.clicks());
  await page.mouse.move(empty[0], empty[1]);
  await page.mouse.down();
  await page.mouse.move(empty[0] + 60, empty[1] + 30, { steps: 5 });
  await page.mouse.move(empty[0] + 100, empty[1] + 50, { steps: 5 });
  await page.mouse.up();
  const t2 = await gv(() => window.gv.transform());
  assert.ok(Math.abs(t2.x - t1.x - 100) < 0.01 && Math.abs(t2.y - t1.y - 50) < 0.01, JSON.stringify({ t1, t2 }));
  assert.deepEqual(await gv(() => window.gv.clicks()), before);

  // Keys: + zooms, arrows pan, 0 fits.
  await page.focus("#graph");
  await page.keyboard.press("+");
  const t3 = await gv(() => window.gv.transform());
  assert.ok(t3.k > t2.k);
  await page.keyboard.press("ArrowLeft");
  assert.ok((await gv(() => window.gv.transform())).x > t3.x);
  await page.keyboard.press("0");
  const fitted = await gv(() => window.gv.transform());
  assert.ok(Math.abs(fitted.k - t0.k) < 1e-9 * t0.k, "0 fits the whole graph again");

  // Highlights: a pair with its sides and common neighbours; one node with suggestions.
  const other = await gv(() => window.gv.node("1033"));
  await gv(([i, j]) => window.gv.highlightPair(i, j), [hub, other]);
  await gv(([i, j]) => window.gv.focus([i, j], true), [hub, other]);
  await page.waitForTimeout(100);
  await screenshot("cora-pair");
  await gv((i) => window.gv.highlightNode(i), hub);
  await page.waitForTimeout(100);
  await screenshot("cora-node");
  await gv(() => window.gv.clearHighlight());
  await gv(() => window.gv.fit());

  // A second setGraph supersedes the first; another seed gives another layout.
  const seed1 = await gv(() => window.gv.positions());
  assert.equal(await gv(() => window.gv.supersede()), true);
  assert.equal((await gv(() => window.gv.waitLayout())).done, true);
  const seed3 = await gv(() => window.gv.positions());
  assert.notDeepEqual(seed3, seed1);
  assert.ok(seed3.every(Number.isFinite));

  // After the new layout, a pan still follows the pointer and redraws.
  await panBy(-150, 80);
  await screenshot("cora-panned");
  assert.deepEqual(errors, []);
});

test("Amazon Photo: worker-rendered static layer, first frame, layout, click, pan", async () => {
  const loaded = await gv(() => window.gv.load("photo"));
  assert.equal(loaded.n, 7650);
  assert.equal(loaded.m, 119081);
  assert.equal(loaded.staticLayer, "worker");
  const layout = await gv(() => window.gv.waitLayout());
  assert.equal(layout.done, true);
  await screenshot("photo");
  const hub = await gv(() => window.gv.maxDegreeNode());
  const [hx, hy] = await gv((i) => window.gv.screenOf(i), hub);
  await page.mouse.click(hx, hy);
  assert.equal((await gv(() => window.gv.clicks())).nodes.at(-1), hub);
  await panBy(150, -80);
  await page.waitForTimeout(400); // the worker's crisp re-render after the gesture
  await gv((i) => window.gv.highlightNode(i), hub);
  await page.waitForTimeout(400);
  await screenshot("photo-node");
  assert.deepEqual(errors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin)), [], "no request leaves the origin");
});

test("Cora with the static layer drawn by the page every frame", async () => {
  const loaded = await gv(() => window.gv.load("cora", { staticLayer: "page" }));
  assert.equal(loaded.staticLayer, "page");
  const layout = await gv(() => window.gv.waitLayout());
  assert.equal(layout.done, true);
  await panBy(100, 50);
  assert.deepEqual(errors, []);
});
