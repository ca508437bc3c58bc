// Browser test of the graph view (frontend/src/app/graph) in headless
// Chromium: bundles its own page (./graphview/) and the layout worker into a
// temporary folder, loads Cora (from the shared datasets) and Amazon Photo
// (parsed here from its .npz), and checks drawing, layout, clicks, hover,
// zoom, pan, keys and frame times. Prints the measurements.
// Run: node --test frontend/e2e/graphview.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { serve, root } from "./server.mjs";
import { launch } from "./browser.mjs";

const here = join(root, "frontend", "e2e");
const datasets = resolve(root, "..", "shared", "datasets");
const artifacts = join(root, "build", "e2e-artifacts");
const VIEW = { width: 1280, height: 800 };
let dir, server, browser, page;
const errors = [];
const requests = [];

/** Amazon Photo's symmetrised edges, labels and class names from the gnn-benchmark .npz (stored, uncompressed). */
function readPhoto(file) {
  const buf = readFileSync(file);
  const members = new Map();
  for (let off = 0; buf.readUInt32LE(off) === 0x04034b50; ) {
    const method = buf.readUInt16LE(off + 8), size = buf.readUInt32LE(off + 18);
    const nameLen = buf.readUInt16LE(off + 26), extraLen = buf.readUInt16LE(off + 28);
    const name = buf.subarray(off + 30, off + 30 + nameLen).toString();
    const start = off + 30 + nameLen + extraLen;
    if (method !== 0) throw new Error(`${name}: compressed members are not supported`);
    members.set(name, buf.subarray(start, start + size));
    off = start + size;
  }
  const npy = (name) => {
    const b = members.get(name);
    const headerLen = b.readUInt16LE(8);
    const header = b.subarray(10, 10 + headerLen).toString();
    const body = b.subarray(10 + headerLen);
    return { header, body: body.buffer.slice(body.byteOffset, body.byteOffset + body.length) };
  };
  const indices = new Int32Array(npy("adj_indices.npy").body);
  const indptr = new Int32Array(npy("adj_indptr.npy").body);
  const labels64 = new BigInt64Array(npy("labels.npy").body);
  const names = npy("class_names.npy");
  const width = Number(/<U(\d+)/.exec(names.header)[1]);
  const text = Buffer.from(names.body);
  const classNames = [];
  for (let o = 0; o < text.length; o += 4 * width) {
    let s = "";
    for (let c = 0; c < width; c++) {
      const cp = text.readUInt32LE(o + 4 * c);
      if (cp) s += String.fromCodePoint(cp);
    }
    classNames.push(s);
  }
  const n = indptr.length - 1;
  const seen = new Set();
  const edges = [];
  for (let i = 0; i < n; i++) {
    for (let p = indptr[i]; p < indptr[i + 1]; p++) {
      const j = indices[p];
      if (i === j) continue;
      const key = Math.min(i, j) * n + Math.max(i, j);
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push(Math.min(i, j), Math.max(i, j));
    }
  }
  return { edges: Uint32Array.from(edges), labels: Int32Array.from(labels64, Number), classNames };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphview-"));
  const common = { bundle: true, target: "es2022", platform: "browser", logLevel: "warning", sourcemap: "inline" };
  await Promise.all([
    build({ ...common, entryPoints: [join(here, "graphview", "page.ts")], outfile: join(dir, "page.js"), format: "esm" }),
    build({ ...common, entryPoints: [join(root, "frontend", "src", "app", "graph", "layout-worker.ts")], outfile: join(dir, "layout.js"), format: "iife" }),
  ]);
  copyFileSync(join(here, "graphview", "index.html"), join(dir, "index.html"));
  const photo = readPhoto(join(datasets, "amazon_photo", "amazon_electronics_photo.npz"));
  writeFileSync(join(dir, "photo-edges.bin"), Buffer.from(photo.edges.buffer));
  writeFileSync(join(dir, "photo-labels.bin"), Buffer.from(photo.labels.buffer));
  writeFileSync(join(dir, "photo.json"), JSON.stringify({ classNames: photo.classNames }));
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
const round = (x, d = 2) => Number(x.toFixed(d));

/** Drags across the canvas for about ms, starting on empty space; returns frame stats. */
async function panFor(ms) {
  await gv(() => window.gv.frameStats(true));
  await gv(() => window.gv.recordFrames());
  const t0 = Date.now();
  await page.mouse.move(640, 400);
  await page.mouse.down();
  let k = 0;
  while (Date.now() - t0 < ms) {
    const a = (k++ / 20) * Math.PI;
    await page.mouse.move(640 + 200 * Math.cos(a), 400 + 120 * Math.sin(a), { steps: 2 });
  }
  await page.mouse.up();
  const frames = await gv(() => window.gv.stopFrames());
  const stats = await gv(() => window.gv.frameStats(true));
  return { ...stats, ...frames, fps: stats.frames / frames.seconds };
}

async function screenshot(name) {
  await page.screenshot({ path: join(artifacts, `graphview-${name}.png`) });
}

test("Cora: first frame, layout, click, hover, zoom, pan, keys, highlight, frame times", async () => {
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

  // Panning for 2 s: frame times and long tasks.
  const pan = await panFor(2000);
  console.log(
    `graphview Cora: first frame ${round(loaded.firstFrameMs, 0)} ms (nodes), with edges ${round(loaded.fullFrameMs, 0)} ms, layout settled ${round(layout.ms, 0)} ms (${layout.progressEvents} position updates); ` +
      `pan: ${pan.frames} frames in ${round(pan.seconds)} s = ${round(pan.fps, 1)} FPS, draw mean ${round(pan.meanMs)} ms max ${round(pan.maxMs)} ms, ` +
      `rAF interval mean ${round(pan.meanGap)} ms max ${round(pan.maxGap)} ms, long tasks ${JSON.stringify(pan.longTasks.map((l) => round(l.duration, 0)))}`,
  );
  const raster = await gv(() => window.gv.rasterCost(60));
  console.log(`graphview Cora: per pan frame incl. rasterisation: ${round(raster.totalMean)} ms mean (draw ${round(raster.drawMean)} + raster ${round(raster.flushMean)}, max ${round(raster.drawMax)} + ${round(raster.flushMax)})`);
  assert.ok(pan.frames > 30, `redrawn while panning (${pan.frames})`);
  assert.ok(pan.meanMs < 16, `mean draw ${pan.meanMs} ms`);
  assert.deepEqual(pan.longTasks.filter((l) => l.duration > 50), [], "no long task while panning Cora");
  await screenshot("cora-panned");
  assert.deepEqual(errors, []);
});

test("Amazon Photo: worker-rendered static layer, first frame, layout, pan", async () => {
  const since = await gv(() => window.gv.now());
  const loaded = await gv(() => window.gv.load("photo"));
  assert.equal(loaded.n, 7650);
  assert.equal(loaded.m, 119081);
  assert.equal(loaded.staticLayer, "worker");
  const layout = await gv(() => window.gv.waitLayout());
  assert.equal(layout.done, true);
  const duringLayout = (await gv(() => window.gv.longTasks())).filter((l) => l.start >= since);
  await screenshot("photo");
  const hub = await gv(() => window.gv.maxDegreeNode());
  const [hx, hy] = await gv((i) => window.gv.screenOf(i), hub);
  await page.mouse.click(hx, hy);
  assert.equal((await gv(() => window.gv.clicks())).nodes.at(-1), hub);
  const pan = await panFor(2000);
  console.log(
    `graphview Photo: first frame ${round(loaded.firstFrameMs, 0)} ms (nodes), with edges ${round(loaded.fullFrameMs, 0)} ms, layout settled ${round(layout.ms, 0)} ms (${layout.progressEvents} position updates), ` +
      `long tasks during load+layout ${JSON.stringify(duringLayout.map((l) => round(l.duration, 0)))}; ` +
      `pan: ${pan.frames} frames in ${round(pan.seconds)} s = ${round(pan.fps, 1)} FPS, draw mean ${round(pan.meanMs)} ms max ${round(pan.maxMs)} ms, ` +
      `rAF interval mean ${round(pan.meanGap)} ms max ${round(pan.maxGap)} ms, long tasks ${JSON.stringify(pan.longTasks.map((l) => round(l.duration, 0)))}`,
  );
  const raster = await gv(() => window.gv.rasterCost(60));
  console.log(`graphview Photo: per pan frame incl. rasterisation: ${round(raster.totalMean)} ms mean (draw ${round(raster.drawMean)} + raster ${round(raster.flushMean)}, max ${round(raster.drawMax)} + ${round(raster.flushMax)})`);
  assert.ok(pan.frames > 30, `redrawn while panning (${pan.frames})`);
  assert.deepEqual(pan.longTasks.filter((l) => l.duration > 50), [], "no long task while panning Photo");
  await page.waitForTimeout(400); // the worker's crisp re-render after the gesture
  await gv((i) => window.gv.highlightNode(i), hub);
  await page.waitForTimeout(400);
  await screenshot("photo-node");
  assert.deepEqual(errors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin)), [], "no request leaves the origin");
});

test("Cora with the static layer drawn by the page every frame (for comparison)", async () => {
  const loaded = await gv(() => window.gv.load("cora", { staticLayer: "page" }));
  assert.equal(loaded.staticLayer, "page");
  const layout = await gv(() => window.gv.waitLayout());
  assert.equal(layout.done, true);
  const pan = await panFor(2000);
  const raster = await gv(() => window.gv.rasterCost(60));
  console.log(
    `graphview Cora (page-drawn layer): first frame ${round(loaded.firstFrameMs, 0)} ms, with edges ${round(loaded.fullFrameMs, 0)} ms, layout settled ${round(layout.ms, 0)} ms; ` +
      `pan: ${round(pan.fps, 1)} FPS, draw mean ${round(pan.meanMs)} ms, incl. rasterisation ${round(raster.totalMean)} ms mean (max ${round(raster.drawMax + raster.flushMax)})`,
  );
  assert.deepEqual(pan.longTasks.filter((l) => l.duration > 50), []);
  assert.deepEqual(errors, []);
});
