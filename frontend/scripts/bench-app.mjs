// The numbers behind the app's closing report, measured on the built site
// (build/site) in headless Debian Chromium at 1280x800, each measurement in
// a fresh browser profile (launch() makes a new one: cold HTTP cache, no
// stored checkpoints):
//
//   1. first load: navigation to engine ready and to the first drawn graph
//      (the app's own metrics), 5 loads;
//   2. training synth:medium with the default hyperparameters: Train
//      pressed to trained model, epochs, test AUC, 3 runs;
//   3. Cora opened through the file input: load to first frame, layout
//      settled, then training with the defaults;
//   4. panning Cora (3 s of mouse drags) and zooming it with the wheel
//      (2 s): requestAnimationFrame rate and intervals, the view's draw
//      times, and a pan frame's cost with rasterisation;
//   5. Amazon Photo through the file input: load, layout, pan and zoom, and
//      the long main-thread tasks while it loads and while it is panned;
//   6. the site's bundle sizes (build/sizes.json) and what a first visit
//      transfers with brotli;
//   7. the graph view alone (the browser test's page, frontend/e2e/graphview)
//      on Cora and Amazon Photo with the worker-drawn static layer and on
//      Cora with the page-drawn one: first frame, layout, 2 s of panning;
//   8. the training chart's redraw of three 1000-point series (under node);
//   9. training ILP-GNN on Amazon Photo and Amazon Computers in the tab
//      (opened through the file input, default hyperparameters but
//      BENCH_APP_EPOCHS epochs, default 20; BENCH_APP_LARGE=photo or
//      computers for one of them): setup (Train pressed to the
//      first epoch's report, less that epoch), median epoch time, the
//      projected time of a full run (setup + median epoch × the default
//      maximum epochs: an upper bound, since early stopping may end it
//      sooner), and memory: the engine's own figure (Go's runtime total, in
//      the browser its WebAssembly memory, largest reported) and the peak
//      resident memory (VmHWM) of Chromium's renderer process, which holds
//      the page, its workers and the WebAssembly memory. A run that fails
//      (the engine out of memory, the renderer killed) is reported with
//      where and how.
//
// Long tasks are counted twice: all of them, and those whose long animation
// frame ran a script (or that no such frame explains). On a loaded machine
// the OS can stretch a short task of the page's past 50 ms with none of its
// own work in it; the second count leaves those out.
//
// The browser tests (`make browser`) assert behaviour only; these timings
// are reported here and fail nothing.
// Prints a table per section and writes everything to build/bench-app.json.
// `--quick` skips the Cora training and Photo (a smoke run); `--only-large`
// runs section 9 alone (written to build/bench-app-large.json).
// Usage (after `make site`): node frontend/scripts/bench-app.mjs [--quick | --only-large]
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { serve, root } from "../e2e/server.mjs";
import { launch, executablePath } from "../e2e/browser.mjs";
import { buildGraphviewPage } from "../e2e/graphview/setup.mjs";

const quick = process.argv.includes("--quick");
const onlyLarge = process.argv.includes("--only-large");
const LARGE_EPOCHS = Number(process.env.BENCH_APP_EPOCHS ?? 20); // section 9
const LARGE_SETS = (process.env.BENCH_APP_LARGE ?? "photo,computers").split(","); // section 9's graphs
for (const s of LARGE_SETS) if (s !== "photo" && s !== "computers") throw new Error(`BENCH_APP_LARGE lists photo and/or computers (got "${s}")`);
if (!Number.isInteger(LARGE_EPOCHS) || LARGE_EPOCHS < 2) throw new Error(`BENCH_APP_EPOCHS must be a whole number ≥ 2 (got ${process.env.BENCH_APP_EPOCHS})`);
const LOADS = 5; // section 1
const TRAIN_RUNS = 3; // section 2
const PAN_MS = 3_000;
const ZOOM_MS = 2_000;
const MINUTE = 60_000;

const datasets = resolve(root, "..", "shared", "datasets");
const coraFiles = [join(datasets, "cora", "cora.content"), join(datasets, "cora", "cora.cites")];
const photoFile = join(datasets, "amazon_photo", "amazon_electronics_photo.npz");
const computersFile = join(datasets, "amazon_computers", "amazon_electronics_computers.npz");

// ---- small helpers ----

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Median, min and max of a list of numbers. */
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const round = (x, digits = 0) => (x === undefined || x === null ? x : Number(x.toFixed(digits)));
const loads = () => loadavg().map((x) => round(x, 2));
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(" ");
const KiB = (bytes) => (bytes / 1024).toFixed(1);

/** Prints rows (arrays of cells) under a title as an aligned text table. */
function printTable(title, header, rows) {
  const cells = [header, ...rows].map((r) => r.map((c) => (c === undefined || c === null ? "–" : String(c))));
  const widths = header.map((_, k) => Math.max(...cells.map((r) => r[k].length)));
  const line = (r) => "  " + r.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join("   ");
  console.log(`\n${title}`);
  console.log(line(cells[0]));
  console.log("  " + widths.map((w) => "-".repeat(w)).join("   "));
  for (const r of cells.slice(1)) console.log(line(r));
}

/** Progress notes go to stderr so that stdout holds the report alone. */
const note = (msg) => console.error(`[bench-app] ${msg}`);

// ---- the browser ----

const server = await serve();
const startedAt = new Date();
const loadavgStart = loads();
note(`load average at start: ${fmtLoad(loadavgStart)} (${cpus().length} CPUs)`); // printed again at the end
/** The load average as each section starts: other work on the machine skews these numbers. */
const loadavgBySection = {};
function section(name) {
  loadavgBySection[name] = loads();
  note(`${name} (load average ${fmtLoad(loadavgBySection[name])})`);
}

/**
 * Runs fn(page, network) in a fresh Chromium profile with a 1280x800 page
 * that records long main-thread tasks from the first moment of every load
 * (window.__longTasks) and collects page errors, which fail the run.
 * `network` lists the responses (the page's and its workers'): path and
 * content encoding.
 */
async function withFreshPage(fn) {
  const browser = await launch();
  try {
    const network = [];
    browser.context.on("response", (res) => {
      network.push({ path: new URL(res.url()).pathname, encoding: res.headers()["content-encoding"] ?? "identity" });
    });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    // (A page without a favicon link gets a 404 for /favicon.ico: not an error of ours.)
    page.on("console", (m) => m.type() === "error" && !m.location().url?.endsWith("/favicon.ico") && errors.push(m.text()));
    await page.addInitScript(recordLongTasks);
    const out = await fn(page, network);
    if (errors.length > 0) throw new Error(`page errors:\n${errors.join("\n")}`);
    return out;
  } finally {
    await browser.close();
  }
}

/**
 * Page init script: records long tasks (window.__longTasks) and long
 * animation frames with the scripts they ran (window.__loaf).
 */
function recordLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  window.__loaf = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__loaf.push({ start: e.startTime, end: e.startTime + e.duration, scripts: e.scripts.length });
  }).observe({ type: "long-animation-frame", buffered: true });
}

/** Opens the app, waits for the demo graph (synth:medium) and its settled layout; returns the app's metrics. */
async function openApp(page) {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: 2 * MINUTE });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.layoutDone(), null, { timeout: 2 * MINUTE });
  return page.evaluate(() => ({ ...window.ilpgnnExplorer.metrics }));
}

/**
 * Long tasks recorded in [from, to] (page time, ms): count, longest and
 * total, and how many ran a script (their long animation frame ran one, or
 * none overlaps them).
 */
async function longTasks(page, from, to = Number.MAX_VALUE) {
  const list = await page.evaluate(
    ([a, b]) =>
      window.__longTasks
        .filter((t) => t.start >= a && t.start <= b)
        .map((t) => {
          const frames = window.__loaf.filter((f) => f.start <= t.start + t.duration && f.end >= t.start);
          return { ...t, script: frames.length === 0 || frames.some((f) => f.scripts > 0) };
        }),
    [from, to],
  );
  return {
    count: list.length,
    withScript: list.filter((t) => t.script).length,
    maxMs: round(Math.max(0, ...list.map((t) => t.duration))),
    totalMs: round(list.reduce((s, t) => s + t.duration, 0)),
  };
}

/**
 * Opens files through #file-input and times, in page time from just before
 * the files are set: the app's load-to-first-frame (metrics.lastLoadMs),
 * the first frame with edges (the worker's static layer), and the settled
 * layout. A requestAnimationFrame poller in the page stamps each moment.
 */
async function openFilesTimed(page, files, dataKey) {
  const t0 = await page.evaluate(() => {
    const app = window.ilpgnnExplorer;
    app.metrics.lastLoadMs = undefined; // set again when the new graph is drawn
    const w = (window.__load = { t0: performance.now() });
    const poll = () => {
      const now = performance.now();
      const drawn = app.metrics.lastLoadMs !== undefined; // from here on the view shows the new graph
      if (drawn && w.edges === undefined && app.view.staticLayerReady()) w.edges = now;
      if (drawn && w.settled === undefined && app.view.layoutDone()) w.settled = now;
      if (w.settled === undefined || w.edges === undefined) requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
    return w.t0;
  });
  await page.setInputFiles("#file-input", files);
  await page.waitForFunction(() => window.__load.settled !== undefined && window.__load.edges !== undefined, null, { timeout: 15 * MINUTE, polling: 100 });
  const r = await page.evaluate(() => ({ ...window.__load, loadMs: window.ilpgnnExplorer.metrics.lastLoadMs, dataKey: window.ilpgnnExplorer.dataKey, info: document.getElementById("graph-info").textContent }));
  if (r.dataKey !== dataKey) throw new Error(`expected ${dataKey} to be loaded, got ${r.dataKey} (${r.info})`);
  return { t0, settledAt: r.settled, info: r.info, loadMs: round(r.loadMs), edgesMs: round(r.edges - t0), settledMs: round(r.settled - t0) };
}

/** Presses Train (default hyperparameters) and waits for the result: time, epochs, AUCs. */
async function trainDefaults(page) {
  // The defaults are fetched from the engine after start; wait for their fields (also recorded).
  await page.waitForSelector("#hyper-fields input[data-name]", { state: "attached", timeout: 2 * MINUTE });
  const hyper = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll("#hyper-fields input[data-name]")].map((i) => [i.dataset.name, i.type === "checkbox" ? String(i.checked) : i.value])),
  );
  const runs = await page.evaluate(() => window.ilpgnnExplorer.metrics.trainRuns);
  const t0 = await page.evaluate(() => performance.now());
  await page.click("#train");
  await page.waitForFunction((n) => {
    const app = window.ilpgnnExplorer;
    return app.metrics.trainRuns > n && !app.training && document.querySelector("#train-result h3") !== null;
  }, runs, { timeout: 15 * MINUTE, polling: 250 });
  const r = await page.evaluate(() => {
    const dd = (name) => [...document.querySelectorAll("#train-result dt")].find((dt) => dt.textContent === name)?.nextElementSibling?.textContent;
    return {
      ms: window.ilpgnnExplorer.metrics.lastTrainMs,
      progress: document.getElementById("progress-text").textContent,
      title: document.querySelector("#train-result h3").textContent,
      testAUC: dd("test AUC"),
      valAUC: dd("validation AUC"),
      keptEpoch: dd("kept epoch"),
    };
  });
  const epochs = /Done: (\d+) epochs/.exec(r.progress);
  if (!epochs || r.title !== "Trained ILP-GNN") throw new Error(`training did not finish: ${r.title}: ${r.progress}`);
  const pct = (s) => Number(/([\d.]+)%/.exec(s ?? "")?.[1]);
  return {
    trainMs: round(r.ms),
    epochs: Number(epochs[1]),
    keptEpoch: Number(r.keptEpoch),
    testAUC: pct(r.testAUC),
    valAUC: pct(r.valAUC),
    longTasks: await longTasks(page, t0),
    hyper,
  };
}

/**
 * Drags (kind "pan") or wheels (kind "zoom") over the canvas centre for
 * `ms`, one input event about every 16 ms, as a user would. Counts the
 * page's requestAnimationFrame callbacks (its frame rate) and reads the
 * view's own draw-time statistics and the long tasks over the same span.
 */
async function interact(page, kind, ms) {
  const box = await page.locator("#graph").boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  const p0 = await page.evaluate(() => {
    window.ilpgnnExplorer.view.frameStats(true);
    window.__frames = [];
    window.__stopFrames = false;
    const count = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    return performance.now();
  });
  if (kind === "pan") await page.mouse.down();
  const start = Date.now();
  let events = 0;
  for (let elapsed = 0; elapsed < ms; elapsed = Date.now() - start) {
    const phase = (elapsed / 2000) * 2 * Math.PI; // one figure of eight, or one zoom in and out, per 2 s
    if (kind === "pan") await page.mouse.move(cx + 150 * Math.sin(phase), cy + 80 * Math.sin(2 * phase));
    else await page.mouse.wheel(0, -60 * Math.cos(phase)); // in for the first half, out for the second
    events++;
    await page.waitForTimeout(16);
  }
  if (kind === "pan") await page.mouse.up();
  const r = await page.evaluate((p0) => {
    window.__stopFrames = true;
    const s = window.ilpgnnExplorer.view.frameStats();
    const t = window.__frames;
    const gaps = t.slice(1).map((x, k) => x - t[k]);
    return {
      ms: performance.now() - p0,
      frames: t.length,
      meanGapMs: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length),
      maxGapMs: Math.max(0, ...gaps),
      draws: s.frames,
      meanDrawMs: s.meanMs,
      maxDrawMs: s.maxMs,
    };
  }, p0);
  return {
    ms: round(r.ms),
    events,
    fps: round((1000 * r.frames) / r.ms, 1),
    meanFrameIntervalMs: round(r.meanGapMs, 2),
    maxFrameIntervalMs: round(r.maxGapMs, 2),
    draws: r.draws,
    meanDrawMs: round(r.meanDrawMs, 2),
    maxDrawMs: round(r.maxDrawMs, 2),
    longTasks: await longTasks(page, p0),
  };
}

/**
 * The full cost of a pan frame in the page: the view's draw (its
 * frameStats) plus rasterising what it recorded, forced by reading one
 * pixel right after it; `frames` small pans, one per animation frame. It
 * runs in the page `view` names: the app's view or the graph view test
 * page's (whose canvas is #graph too).
 */
async function rasterCost(page, view, frames = 60) {
  const r = await page.evaluate(
    async ([view, frames]) => {
      const v = view === "app" ? window.ilpgnnExplorer.view : window.gv.view();
      const ctx = document.getElementById("graph").getContext("2d");
      v.frameStats(true);
      const flush = [];
      for (let f = 0; f < frames; f++) {
        const t = v.transform();
        v.setTransform({ k: t.k, x: t.x + (f % 20 < 10 ? 3 : -3), y: t.y + 1 });
        await new Promise((ok) =>
          requestAnimationFrame(() => {
            const t0 = performance.now();
            ctx.getImageData(0, 0, 1, 1);
            flush.push(performance.now() - t0);
            ok();
          }),
        );
      }
      const draw = v.frameStats(true);
      const meanFlush = flush.reduce((a, b) => a + b, 0) / flush.length;
      return { frames: draw.frames, drawMean: draw.meanMs, drawMax: draw.maxMs, rasterMean: meanFlush, rasterMax: Math.max(...flush) };
    },
    [view, frames],
  );
  return {
    frames: r.frames,
    meanMs: round(r.drawMean + r.rasterMean, 2),
    drawMeanMs: round(r.drawMean, 2),
    rasterMeanMs: round(r.rasterMean, 2),
    drawMaxMs: round(r.drawMax, 2),
    rasterMaxMs: round(r.rasterMax, 2),
  };
}

/**
 * Drags across the graph view test page's canvas for about ms: frame rate
 * and intervals, the view's draw times, long tasks.
 */
async function panGraphView(page, ms) {
  const p0 = await page.evaluate(() => {
    window.gv.frameStats(true);
    window.gv.recordFrames();
    return window.gv.now();
  });
  const t0 = Date.now();
  await page.mouse.move(640, 400);
  await page.mouse.down();
  for (let k = 0; Date.now() - t0 < ms; k++) {
    const a = (k / 20) * Math.PI;
    await page.mouse.move(640 + 200 * Math.cos(a), 400 + 120 * Math.sin(a), { steps: 2 });
  }
  await page.mouse.up();
  const f = await page.evaluate(() => window.gv.stopFrames());
  const s = await page.evaluate(() => window.gv.frameStats(true));
  return {
    seconds: round(f.seconds, 2),
    fps: round(s.frames / f.seconds, 1),
    draws: s.frames,
    meanFrameIntervalMs: round(f.meanGap, 2),
    maxFrameIntervalMs: round(f.maxGap, 2),
    meanDrawMs: round(s.meanMs, 2),
    maxDrawMs: round(s.maxMs, 2),
    longTasks: await longTasks(page, p0),
  };
}

// ---- 9. training Amazon Photo and Amazon Computers in the tab ----

/** Process ids descending from pid (Linux /proc), with their command lines. */
function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 4th field of /proc/PID/stat, after the parenthesised command.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (p) => {
    for (const c of children.get(p) ?? []) {
      let cmd = "";
      try {
        cmd = readFileSync(`/proc/${c}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        continue;
      }
      out.push({ pid: c, cmd });
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** A /proc/PID/status field in bytes (VmHWM, VmRSS), or undefined. */
function statusBytes(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident memory (VmHWM) of this browser's renderer processes: the largest (the tab's) and how many there are. */
function rendererPeak() {
  const renderers = descendants(process.pid).filter((p) => p.cmd.includes("--type=renderer"));
  const peaks = renderers.map((r) => statusBytes(r.pid, "VmHWM") ?? 0);
  return { renderers: renderers.length, peakBytes: Math.max(0, ...peaks) };
}

const GiB = (b) => (b === undefined ? undefined : round(b / 2 ** 30, 2));

/**
 * Opens `file` in a fresh profile and trains ILP-GNN with the default
 * hyperparameters but `epochs` epochs; returns its timings and memory, or
 * how it failed.
 */
async function trainLarge(name, file, dataKey, epochs) {
  return withFreshPage(async (page) => {
    let crashed = false;
    page.on("crash", () => (crashed = true));
    const out = { name, epochsAsked: epochs };
    let stage = "opening the app";
    try {
      await openApp(page);
      stage = "loading the file";
      const load = await openFilesTimed(page, file, dataKey);
      out.graph = load.info.split(" · ")[0];
      out.loadMs = load.loadMs;
      out.layoutSettledMs = load.settledMs;
      note(`  ${name}: loaded (${out.graph}) in ${load.loadMs} ms`);
      stage = "setting the epochs";
      await page.evaluate(() => (document.getElementById("hyper").open = true)); // the field must be visible to be filled
      await page.waitForSelector("#hp-epochs");
      out.defaultMaxEpochs = Number(await page.inputValue("#hp-epochs"));
      await page.fill("#hp-epochs", String(epochs));
      stage = "training";
      const runs = await page.evaluate(() => window.ilpgnnExplorer.metrics.trainRuns);
      await page.click("#train");
      // Progress now and then, so a long run shows it is alive.
      const ticker = setInterval(() => {
        page.textContent("#progress-text").then((t) => note(`  ${name}: ${t}`), () => undefined);
      }, MINUTE);
      try {
        await page.waitForFunction((n) => {
          const app = window.ilpgnnExplorer;
          return app.metrics.trainRuns > n && !app.training && (document.querySelector("#train-result h3") !== null || document.getElementById("train-error") !== null);
        }, runs, { timeout: 6 * 60 * MINUTE, polling: 1000 });
      } finally {
        clearInterval(ticker);
      }
      const r = await page.evaluate(() => ({
        stats: window.ilpgnnExplorer.train.runStats,
        progress: document.getElementById("progress-text").textContent,
        error: document.getElementById("train-error")?.textContent ?? null,
        status: document.getElementById("status").textContent,
        testAUC: [...document.querySelectorAll("#train-result dt")].find((dt) => dt.textContent === "test AUC")?.nextElementSibling?.textContent,
      }));
      const ends = r.stats.epochEndsMs;
      const times = ends.map((t, k) => t - (k === 0 ? 0 : ends[k - 1]));
      out.epochsRun = ends.length;
      out.setupMs = round(r.stats.setupMs);
      out.epochMs = times.length > 0 ? summary(times.map((t) => round(t))) : undefined;
      out.engineMemoryBytes = r.stats.peakMemoryBytes || undefined;
      // To set beside the command line's for the same settings:
      // ilpgnn train --data FILE --seeds 0 --epochs N.
      const auc = /([\d.]+)%/.exec(r.testAUC ?? "");
      out.testAUC = auc ? Number(auc[1]) : undefined;
      if (r.error) {
        out.failed = { stage: `training, after ${ends.length} epochs`, message: r.error, status: r.status };
      } else if (out.epochMs) {
        out.projectedFullRunMs = round(out.setupMs + out.epochMs.median * out.defaultMaxEpochs);
      }
    } catch (e) {
      out.failed = { stage, message: crashed ? `the tab crashed (renderer gone): ${String(e).split("\n")[0]}` : String(e).split("\n")[0] };
    }
    const peak = rendererPeak();
    out.rendererPeakBytes = peak.peakBytes;
    out.renderers = peak.renderers;
    note(`  ${name}: ${out.failed ? `FAILED in ${out.failed.stage}: ${out.failed.message}` : `setup ${out.setupMs} ms, median epoch ${out.epochMs?.median} ms`}, renderer peak ${GiB(out.rendererPeakBytes)} GiB`);
    return out;
  });
}

/** Runs section 9 and prints its table. */
async function largeSection() {
  section(`9. training Amazon Photo and Amazon Computers in the tab, ${LARGE_EPOCHS} epochs each`);
  const list = [];
  for (const [name, file, key] of [
    ["Amazon Photo", photoFile, "file:amazon_electronics_photo", "photo"],
    ["Amazon Computers", computersFile, "file:amazon_electronics_computers", "computers"],
  ].filter((d) => LARGE_SETS.includes(d[3]))) {
    list.push(await trainLarge(name, file, key, LARGE_EPOCHS));
  }
  printTable(`9. ILP-GNN in the tab, default hyperparameters, ${LARGE_EPOCHS} epochs, fresh profiles`, ["", "load ms", "setup ms", "epochs", "test AUC %", "median epoch ms", "min", "max", "full run (at most)", "engine memory GiB", "renderer peak GiB"], list.map((r) => [
    r.name,
    r.loadMs,
    r.setupMs,
    r.epochsRun,
    r.testAUC,
    r.epochMs?.median,
    r.epochMs?.min,
    r.epochMs?.max,
    r.projectedFullRunMs === undefined ? undefined : `${round(r.projectedFullRunMs / MINUTE, 1)} min (${r.defaultMaxEpochs} epochs)`,
    GiB(r.engineMemoryBytes),
    GiB(r.rendererPeakBytes),
  ]));
  for (const r of list) if (r.failed) console.log(`  ${r.name} FAILED in ${r.failed.stage}: ${r.failed.message}`);
  console.log("  setup: Train pressed to the first epoch's report, less that epoch (split, PPR diffusion, preparation).");
  console.log("  engine memory: Go's runtime total (its WebAssembly memory), the largest an epoch reported; renderer peak: VmHWM of the largest renderer process.");
  return list;
}

if (onlyLarge) {
  const large = await largeSection();
  await server.close();
  const outFile = join(root, "build", "bench-app-large.json");
  writeFileSync(outFile, JSON.stringify({ startedAt: startedAt.toISOString(), epochs: LARGE_EPOCHS, loadavgStart, loadavgBySection, loadavgEnd: loads(), large }, null, 2) + "\n");
  console.log(`Wrote ${outFile}`);
  process.exit(0);
}

// ---- 1. first load ----

section(`1. first load: ${LOADS} fresh profiles`);
const firstLoads = [];
for (let k = 0; k < LOADS; k++) {
  const { m, requests } = await withFreshPage(async (page, network) => ({ m: await openApp(page), requests: [...network] }));
  firstLoads.push({ engineReadyMs: round(m.engineReadyMs), firstGraphMs: round(m.firstGraphMs), requests });
  note(`  load ${k + 1}: engine ready ${round(m.engineReadyMs)} ms, first graph ${round(m.firstGraphMs)} ms`);
}
const firstLoad = {
  profiles: "a new Chromium profile per load (cold HTTP cache, no V8/wasm code cache)",
  runs: firstLoads.map(({ requests, ...r }) => r),
  engineReadyMs: summary(firstLoads.map((r) => r.engineReadyMs)),
  firstGraphMs: summary(firstLoads.map((r) => r.firstGraphMs)),
};
printTable(`1. First load, ${LOADS} fresh profiles (ms since navigation)`, ["", "median", "min", "max"], [
  ["engine ready", ...Object.values(firstLoad.engineReadyMs)],
  ["first graph drawn (synth:medium)", ...Object.values(firstLoad.firstGraphMs)],
]);

// ---- 2. training synth:medium ----

section(`2. training synth:medium with the defaults: ${TRAIN_RUNS} fresh profiles`);
const synthRuns = [];
for (let k = 0; k < TRAIN_RUNS; k++) {
  const r = await withFreshPage(async (page) => {
    await openApp(page);
    return trainDefaults(page);
  });
  synthRuns.push(r);
  note(`  run ${k + 1}: ${r.trainMs} ms, ${r.epochs} epochs, test AUC ${r.testAUC}%`);
}
const trainSynth = {
  hyperparameters: synthRuns[0].hyper,
  runs: synthRuns.map(({ hyper, ...r }) => r),
  trainMs: summary(synthRuns.map((r) => r.trainMs)),
  epochs: summary(synthRuns.map((r) => r.epochs)),
  testAUC: summary(synthRuns.map((r) => r.testAUC)),
};
printTable(`2. Training synth:medium, default hyperparameters (max ${trainSynth.hyperparameters.epochs ?? "?"} epochs), ${TRAIN_RUNS} fresh profiles`, ["run", "train ms", "epochs", "kept epoch", "test AUC %", "val AUC %", "long tasks", "with script", "longest ms"], [
  ...synthRuns.map((r, k) => [k + 1, r.trainMs, r.epochs, r.keptEpoch, r.testAUC, r.valAUC, r.longTasks.count, r.longTasks.withScript, r.longTasks.maxMs]),
  ["median", trainSynth.trainMs.median, trainSynth.epochs.median, "", trainSynth.testAUC.median, "", "", "", ""],
]);

// ---- 3 and 4. Cora: load, layout, pan and zoom, train ----

section("3/4. Cora: open, layout, pan, zoom" + (quick ? "" : ", train"));
const cora = await withFreshPage(async (page) => {
  await openApp(page);
  const load = await openFilesTimed(page, coraFiles, "file:cora");
  note(`  loaded: first frame ${load.loadMs} ms, settled ${load.settledMs} ms`);
  const pan = await interact(page, "pan", PAN_MS);
  const zoom = await interact(page, "zoom", ZOOM_MS);
  const raster = await rasterCost(page, "app");
  note(`  pan ${pan.fps} fps, zoom ${zoom.fps} fps`);
  const train = quick ? null : await trainDefaults(page);
  if (train) note(`  trained: ${train.trainMs} ms, ${train.epochs} epochs, test AUC ${train.testAUC}%`);
  return { graph: load.info, loadMs: load.loadMs, edgesMs: load.edgesMs, layoutSettledMs: load.settledMs, pan, zoom, raster, train: train && (({ hyper, ...t }) => t)(train) };
});
printTable(`3. Cora (${cora.graph.split(" · ")[0]}) through #file-input, fresh profile (ms from setting the files)`, ["", "value"], [
  ["load to first frame (lastLoadMs)", cora.loadMs],
  ["first frame with edges", cora.edgesMs],
  ["layout settled", cora.layoutSettledMs],
  ...(cora.train
    ? [
        ["train, Train to model (ms)", cora.train.trainMs],
        ["epochs (kept epoch)", `${cora.train.epochs} (${cora.train.keptEpoch})`],
        ["test AUC %", cora.train.testAUC],
        ["long tasks while training, with a script (longest ms)", `${cora.train.longTasks.count}, ${cora.train.longTasks.withScript} (${cora.train.longTasks.maxMs})`],
      ]
    : [["train", "skipped (--quick)"]]),
]);

const interactionRow = (label, x) => [label, x.fps, x.meanFrameIntervalMs, x.maxFrameIntervalMs, x.events, x.draws, x.meanDrawMs, x.maxDrawMs, x.longTasks.count, x.longTasks.withScript, x.longTasks.maxMs];
const interactionRows = (name, r) => [interactionRow(`${name}, pan ${PAN_MS / 1000} s`, r.pan), interactionRow(`${name}, wheel zoom ${ZOOM_MS / 1000} s`, r.zoom)];
const interactionHeader = ["", "rAF fps", "mean rAF gap ms", "max gap ms", "events", "draws", "mean draw ms", "max draw ms", "long tasks", "with script", "longest ms"];
const rasterLine = (name, r) =>
  console.log(`  ${name}: a pan frame with rasterisation ${r.meanMs} ms mean (draw ${r.drawMeanMs} + raster ${r.rasterMeanMs}; max ${r.drawMaxMs} + ${r.rasterMaxMs}) over ${r.frames} frames`);
printTable("4. Interaction after the layout settled", interactionHeader, interactionRows("Cora", cora));
rasterLine("Cora", cora.raster);

// ---- 5. Amazon Photo ----

let photo = null;
if (!quick) {
  section("5. Amazon Photo: open, layout, pan, zoom");
  photo = await withFreshPage(async (page) => {
    await openApp(page);
    const load = await openFilesTimed(page, photoFile, "file:amazon_electronics_photo");
    note(`  loaded: first frame ${load.loadMs} ms, settled ${load.settledMs} ms`);
    const loadLong = await longTasks(page, load.t0, load.settledAt);
    const pan = await interact(page, "pan", PAN_MS);
    const zoom = await interact(page, "zoom", ZOOM_MS);
    const raster = await rasterCost(page, "app");
    note(`  pan ${pan.fps} fps, zoom ${zoom.fps} fps`);
    return { graph: load.info, loadMs: load.loadMs, edgesMs: load.edgesMs, layoutSettledMs: load.settledMs, loadLongTasks: loadLong, pan, zoom, raster };
  });
  printTable(`5. Amazon Photo (${photo.graph.split(" · ")[0]}) through #file-input, fresh profile (ms from setting the file)`, ["", "value"], [
    ["load to first frame (lastLoadMs)", photo.loadMs],
    ["first frame with edges", photo.edgesMs],
    ["layout settled", photo.layoutSettledMs],
    ["long tasks, load + layout: count", photo.loadLongTasks.count],
    ["long tasks, load + layout: longest / total ms", `${photo.loadLongTasks.maxMs} / ${photo.loadLongTasks.totalMs}`],
  ]);
  printTable("5. Amazon Photo interaction after the layout settled", interactionHeader, interactionRows("Photo", photo));
  rasterLine("Photo", photo.raster);
}

// ---- 6. bundle sizes ----

const sizeList = JSON.parse(readFileSync(join(root, "build", "sizes.json"), "utf8"));
const sizeOf = (file) => sizeList.find((s) => s.file === file);
const listed = ["app.js", "layout.js", "worker.js", "engine.js", "app.css", "index.html", "wasm_exec.js", "ilpgnn.wasm"];
for (const f of listed) if (!sizeOf(f)) throw new Error(`build/sizes.json has no ${f}: run make site`);
// A first visit fetches what load 1 of section 1 fetched (engine.js is for
// embedders, not the app; the favicon is fetched): those files' sizes from
// sizes.json, and the bytes of the twins actually served for the encodings
// the browser received (bodies only, no headers). (Playwright reports no
// body size for worker scripts, hence the files on disk.)
const served = (file, encoding) => statSync(join(root, "build", "site", file) + ({ br: ".br", gzip: ".gz" }[encoding] ?? "")).size;
const visited = firstLoads[0].requests.map((r) => {
  const file = r.path === "/" ? "index.html" : r.path.slice(1);
  return { ...r, file, bytes: served(file, r.encoding) };
});
const visitTotal = (key) => visited.reduce((sum, r) => sum + (sizeOf(r.file)?.[key] ?? 0), 0);
const bundle = {
  files: Object.fromEntries(listed.map((f) => [f, sizeOf(f)])),
  firstVisit: {
    files: visited.map((r) => r.file),
    raw: visitTotal("raw"),
    gzip: visitTotal("gzip"),
    brotli: visitTotal("brotli"),
    transferred: visited.reduce((sum, r) => sum + r.bytes, 0),
    requests: visited.map(({ path, encoding, bytes }) => ({ path, encoding, bytes })),
  },
};
printTable("6. Bundle sizes (build/sizes.json), KiB", ["file", "raw", "gzip", "brotli"], [
  ...listed.map((f) => [f, KiB(sizeOf(f).raw), KiB(sizeOf(f).gzip), KiB(sizeOf(f).brotli)]),
  [`first visit (${visited.length} requests)`, KiB(bundle.firstVisit.raw), KiB(bundle.firstVisit.gzip), KiB(bundle.firstVisit.brotli)],
]);
console.log(`  first visit: ${bundle.firstVisit.files.join(", ")}`);
console.log(
  `  served in load 1 (response bodies): ${KiB(bundle.firstVisit.transferred)} KiB ` +
    `(${visited.map((r) => `${r.file} ${r.encoding}`).join(", ")})`,
);

// ---- 7. the graph view alone ----

section("7. the graph view alone: Cora, Amazon Photo, Cora with the page-drawn layer");
const gvDir = await buildGraphviewPage();
const gvServer = await serve({ mounts: [["/gv/", gvDir]] });
const graphView = [];
try {
  const cases = [
    { name: "Cora, worker-drawn layer", kind: "cora", staticLayer: "auto" },
    ...(quick ? [] : [{ name: "Photo, worker-drawn layer", kind: "photo", staticLayer: "auto" }]),
    { name: "Cora, page-drawn layer", kind: "cora", staticLayer: "page" },
  ];
  for (const c of cases) {
    const r = await withFreshPage(async (page) => {
      await page.goto(`${gvServer.origin}/gv/index.html`);
      await page.waitForFunction(() => window.gv !== undefined);
      const since = await page.evaluate(() => window.gv.now());
      const loaded = await page.evaluate(([kind, staticLayer]) => window.gv.load(kind, { staticLayer }), [c.kind, c.staticLayer]);
      const layout = await page.evaluate(() => window.gv.waitLayout());
      const loadLong = await longTasks(page, since);
      const pan = await panGraphView(page, 2_000);
      const raster = await rasterCost(page, "graphview");
      return { ...c, staticLayer: loaded.staticLayer, firstFrameMs: round(loaded.firstFrameMs), edgesMs: round(loaded.fullFrameMs), layoutSettledMs: round(layout.ms), positionUpdates: layout.progressEvents, loadLongTasks: loadLong, pan, raster };
    });
    graphView.push(r);
    note(`  ${c.name}: pan ${r.pan.fps} fps, draw mean ${r.pan.meanDrawMs} ms`);
  }
} finally {
  await gvServer.close();
  rmSync(gvDir, { recursive: true, force: true });
}
printTable("7. The graph view alone (frontend/e2e/graphview page), fresh profiles (ms)", ["", "first frame", "with edges", "layout settled", "load long tasks", "pan draws/s", "mean rAF gap", "max gap", "mean draw", "max draw", "pan long tasks", "longest", "frame+raster"], [
  ...graphView.map((r) => [r.name, r.firstFrameMs, r.edgesMs, r.layoutSettledMs, r.loadLongTasks.count, r.pan.fps, r.pan.meanFrameIntervalMs, r.pan.maxFrameIntervalMs, r.pan.meanDrawMs, r.pan.maxDrawMs, r.pan.longTasks.count, r.pan.longTasks.maxMs, r.raster.meanMs]),
]);

// ---- 8. the training chart's redraw ----

section("8. the training chart's redraw");
const chartDir = mkdtempSync(join(tmpdir(), "bench-chart-"));
let chartRedraw;
try {
  const file = join(chartDir, "chart-redraw.mjs");
  await build({ entryPoints: [join(root, "frontend", "scripts", "chart-redraw.ts")], outfile: file, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "warning" });
  const { chartRedrawMs } = await import(pathToFileURL(file).href);
  chartRedraw = Object.fromEntries(Object.entries(chartRedrawMs()).map(([k, v]) => [k, k === "runs" ? v : round(v, 3)]));
} finally {
  rmSync(chartDir, { recursive: true, force: true });
}
printTable("8. LineChart redraw, three 1000-point series, no-op context (ms)", ["", "median", "min", "max"], [[`${chartRedraw.runs} redraws`, chartRedraw.median, chartRedraw.min, chartRedraw.max]]);

const large = quick ? null : await largeSection();

// ---- machine and output ----

await server.close();
const loadavgEnd = loads();
// (Debian's chromium wrapper script prints a shell warning on stderr; drop it.)
const chromiumVersion = execFileSync(executablePath, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, chromium: chromiumVersion, loadavgStart, loadavgBySection, loadavgEnd };
console.log(`\nMachine: ${machine.cpus} × ${machine.cpuModel}; ${chromiumVersion}; node ${process.version}`);
console.log(`Load average (1/5/15 min): start ${fmtLoad(loadavgStart)}, end ${fmtLoad(loadavgEnd)}`);

const out = { startedAt: startedAt.toISOString(), seconds: round((Date.now() - startedAt) / 1000), quick, viewport: "1280x800", machine, firstLoad, trainSynth, cora, photo, bundle, graphView, chartRedraw, large };
const outFile = join(root, "build", "bench-app.json");
writeFileSync(outFile, JSON.stringify(out, null, 2) + "\n");
console.log(`Wrote ${outFile} (${out.seconds} s)`);
