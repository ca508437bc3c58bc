// `make bench-workers`: ILP-GNN on Amazon Photo (or BENCH_WORKERS_DATA) in
// headless Chromium with 1 and with 2 Web Workers computing each epoch's
// shards (core/shard), runs alternating, each in a fresh browser profile.
// Prints one line per run,
//
//   workers=N seconds_per_epoch=X
//
// (X: the median time between epoch ends, the first epoch left out: it
// includes the helpers' start), then the time of the epoch's phases from
// the engine's progress events, and memory: the engine worker's (Go's
// runtime total, progress.memoryBytes, the largest reported) and the
// renderer process's peak resident memory (VmHWM), which holds the page
// and every worker's WebAssembly memory: Chromium runs dedicated workers,
// nested ones too, as threads of the page's renderer, so the difference
// between the two runs' peaks is about the helper's. (The tab's own
// measure, performance.measureUserAgentSpecificMemory, needs cross-origin
// isolation, and even then Chromium 156 counts neither WebAssembly memory
// nor nested workers.)
//
// Latency, as the page sees it (performance.now() at each report's arrival):
// first_progress_ms, how long the progress bar is silent inside the first
// epoch, from its start (its "encoder" report, else its first report with a
// phase) and from the last preparation report, to the first report of a
// shard done ("selection and losses", batch ≥ 1). After the timed runs, one
// cancel run per worker count: cancelled at epoch 2's first "selection and
// losses" report, cancel_ms to the last report with a phase (the training
// loop has stopped) and to the train request's result (cancelled: true).
//
// BENCH_WORKERS_EPOCHS (default 3, at least 2) epochs per run,
// BENCH_WORKERS_ROUNDS (default 2) rounds of both, BENCH_WORKERS_DATA
// (default amazon_photo) the folder under ../shared/datasets to train: its
// .npz files, or, with none, its other files but SOURCE.md and README. The
// machine's other work skews the numbers: the load average is printed.
// Usage (after `make site`): node frontend/scripts/bench-workers.mjs
import { readFileSync, readdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch, openHarness } from "../e2e/browser.mjs";

const EPOCHS = Number(process.env.BENCH_WORKERS_EPOCHS ?? 3);
const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 2);
if (!Number.isInteger(EPOCHS) || EPOCHS < 2) throw new Error(`BENCH_WORKERS_EPOCHS must be a whole number ≥ 2 (got ${process.env.BENCH_WORKERS_EPOCHS})`);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_WORKERS_ROUNDS must be a whole number ≥ 1 (got ${process.env.BENCH_WORKERS_ROUNDS})`);
const DATA = process.env.BENCH_WORKERS_DATA || "amazon_photo";
const PHASES = ["encoder", "validation", "selection and losses", "backward"];
const SHARDS = "selection and losses"; // the phase whose reports count shards done
// The headers' names of the shared data sets; others go by their folder's.
const TITLES = { amazon_photo: "Amazon Photo", amazon_computers: "Amazon Computers", coauthor_cs: "Coauthor CS", cora: "Cora", citeseer: "CiteSeer" };

/**
 * The files of data set folder `name` under the shared datasets, as the
 * test server's URLs by file name: its .npz files, or, with none, its
 * other files but the notes (SOURCE.md, README).
 */
function dataUrls(name) {
  if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) throw new Error(`BENCH_WORKERS_DATA must be a folder name (got "${name}")`);
  const dir = join(resolve(root, "..", "shared", "datasets"), name);
  let files;
  try {
    files = readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile());
  } catch (err) {
    throw new Error(`BENCH_WORKERS_DATA: no data set folder ${dir}`, { cause: err });
  }
  const npz = files.filter((f) => f.endsWith(".npz"));
  const chosen = npz.length > 0 ? npz : files.filter((f) => f !== "SOURCE.md" && !f.startsWith("README"));
  if (chosen.length === 0) throw new Error(`BENCH_WORKERS_DATA: ${dir} holds no data file`);
  return Object.fromEntries(chosen.map((f) => [f, `/data/${encodeURIComponent(name)}/${encodeURIComponent(f)}`]));
}
const URLS = dataUrls(DATA);
const TITLE = TITLES[DATA] ?? DATA;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const GiB = (b) => (b === undefined ? "–" : (b / 2 ** 30).toFixed(2));
const fmtMs = (ms) => (ms === undefined || Number.isNaN(ms) ? "–" : ms.toFixed(0));
const fmtLoad = () => loadavg().map((x) => x.toFixed(2)).join(" ");
/** Progress notes go to stderr, so that stdout holds the results alone. */
const note = (msg) => console.error(`[bench-workers] ${msg}`);

/** The renderer processes under this one (Linux /proc). */
function renderers() {
  const parents = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid) => {
    for (let p = parents.get(pid); p > 1; p = parents.get(p) ?? 0) if (p === process.pid) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => {
    try {
      return mine(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer");
    } catch {
      return false;
    }
  });
}

/** Peak resident memory (VmHWM) of the largest renderer process under this one. */
function rendererPeak() {
  let peak = 0;
  for (const pid of renderers()) {
    try {
      const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // gone meanwhile
    }
  }
  return peak || undefined;
}

const TICK = 100; // USER_HZ, the unit of /proc's CPU times

/** CPU seconds (user + system) each Web Worker thread of the renderers has used, by thread id. */
function workerCPU() {
  const out = new Map();
  for (const pid of renderers()) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim() !== "DedicatedWorker") continue;
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.set(tid, (Number(f[11]) + Number(f[12])) / TICK);
      } catch {
        // gone meanwhile
      }
    }
  }
  return out;
}

/**
 * CPU seconds per epoch of each worker thread between the first and the
 * last snapshot (taken at epoch ends), largest first, leaving out threads
 * that used under 1%: the engine's worker, then its helpers.
 */
function cpuPerEpoch(snapshots) {
  const first = snapshots[0];
  const last = snapshots.at(-1);
  const epochs = snapshots.length - 1;
  if (!first || epochs < 1) return [];
  return [...last]
    .map(([tid, s]) => (s - (first.get(tid) ?? 0)) / epochs)
    .sort((a, b) => b - a)
    .filter((s, _, all) => s >= 0.01 * all[0]);
}

/**
 * Seconds per phase of the epochs after the first: each gap between two
 * consecutive events (the worker's elapsedMs) is booked to the phase the
 * earlier one announced, an epoch's end to the next epoch's encoder. The
 * engine posts at most ~10 events a second within an epoch, so a boundary
 * is known to ~0.1 s.
 */
function phaseSeconds(events) {
  const firstEnd = events.findIndex((p) => p.phase === undefined);
  const out = Object.fromEntries(PHASES.map((p) => [p, 0]));
  for (let k = firstEnd; k + 1 < events.length; k++) {
    const phase = events[k].phase ?? "encoder";
    out[phase] = (out[phase] ?? 0) + (events[k + 1].elapsedMs - events[k].elapsedMs) / 1000;
  }
  const epochs = events.filter((p) => p.phase === undefined).length - 1;
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v / Math.max(epochs, 1)]));
}

/**
 * The first epoch's silence before its first shard is done, in ms as the
 * page saw it: from the epoch's start (its "encoder" report, else its first
 * report with a phase) and from the last preparation report.
 */
function firstProgress(events, lastPrepareAt) {
  const epoch1 = events.filter((p) => p.epoch === 1 && p.phase !== undefined);
  const begin = epoch1.find((p) => p.phase === "encoder") ?? epoch1[0];
  const shard = epoch1.find((p) => p.phase === SHARDS && (p.batch ?? 0) >= 1);
  if (shard === undefined) return { fromEpochMs: undefined, fromPrepareMs: undefined };
  return {
    fromEpochMs: begin === undefined ? undefined : shard.at - begin.at,
    fromPrepareMs: lastPrepareAt === undefined ? undefined : shard.at - lastPrepareAt,
  };
}

/** A fresh browser profile with the harness page and the data set loaded; `use` gets its page. */
async function withData(server, use) {
  const browser = await launch();
  try {
    const { page, ready } = await openHarness(browser.context, server.origin);
    if (ready.error) throw new Error(`engine: ${ready.error.message}`);
    const load = await page.evaluate((urls) => window.harness.loadUrls(urls), URLS);
    if (load.error) throw new Error(`loading ${TITLE}: ${load.error.message}`);
    return await use(page);
  } finally {
    await browser.close();
  }
}

/** One run: the data set in a fresh profile, trained EPOCHS epochs with `workers`. */
function run(server, workers) {
  return withData(server, async (page) => {
    // A snapshot of the workers' CPU times at every epoch's end.
    const snapshots = [];
    await page.exposeFunction("benchEpochEnd", () => void snapshots.push(workerCPU()));
    const trained = await page.evaluate(async ([epochs, w]) => {
      const progress = [];
      let lastPrepareAt;
      const result = await window.harness.engine.train({ epochs }, {
        workers: w,
        save: false,
        onProgress: (p) => {
          const at = performance.now();
          if (p.prepare) {
            lastPrepareAt = at;
            return;
          }
          progress.push({ ...p, at });
          if (p.phase === undefined) window.benchEpochEnd();
        },
      });
      return { result, progress, lastPrepareAt };
    }, [EPOCHS, workers]);
    const events = trained.progress;
    const ends = events.filter((p) => p.phase === undefined).map((p) => p.elapsedMs);
    const epochSeconds = ends.slice(1).map((t, k) => (t - ends[k]) / 1000);
    return {
      workers,
      used: trained.result.workers ?? 1,
      secondsPerEpoch: median(epochSeconds),
      phases: phaseSeconds(events),
      engineBytes: Math.max(...events.map((p) => p.memoryBytes ?? 0)),
      rendererBytes: rendererPeak(),
      cpu: cpuPerEpoch(snapshots),
      first: firstProgress(events, trained.lastPrepareAt),
    };
  });
}

/**
 * One cancel run with `workers`: cancelled (the client's AbortSignal, which
 * sends `cancel`) when epoch 2's first "selection and losses" report
 * arrives; the ms from then to the last report with a phase and to the
 * train request's result.
 */
function cancelRun(server, workers) {
  return withData(server, async (page) => {
    const out = await page.evaluate(async ([w, shards]) => {
      const ctl = new AbortController();
      let abortAt, trigger;
      let lastPhasedAt, after = 0;
      const result = await window.harness.engine.train({ epochs: 1000, patience: 1000 }, {
        workers: w,
        save: false,
        signal: ctl.signal,
        onProgress: (p) => {
          if (p.prepare) return;
          const at = performance.now();
          if (abortAt !== undefined) {
            after++;
            if (p.phase !== undefined) lastPhasedAt = at;
          } else if (p.epoch === 2 && p.phase === shards) {
            trigger = { epoch: p.epoch, batch: p.batch, batches: p.batches };
            abortAt = at;
            ctl.abort();
          } else if (p.epoch >= 2 && p.phase === undefined) {
            ctl.abort(); // epochs not sharded: nothing to measure
          }
        },
      });
      const resultAt = performance.now();
      if (abortAt === undefined) return { error: `no "${shards}" report in epoch 2 (${result.epochs} epochs): are the epochs sharded?` };
      return {
        cancelled: result.cancelled,
        epochs: result.epochs,
        used: result.workers ?? 1,
        trigger,
        after,
        // No report with a phase after the cancel: the loop stopped before its next one.
        loopMs: lastPhasedAt === undefined ? 0 : lastPhasedAt - abortAt,
        resultMs: resultAt - abortAt,
      };
    }, [workers, SHARDS]);
    if (out.error) note(`  cancel run, ${workers} workers: ${out.error}`);
    return { workers, ...out };
  });
}

const server = await serve();
note(`${TITLE} (${Object.keys(URLS).join(", ")}), ${EPOCHS} epochs per run, ${ROUNDS} rounds of 1 and 2 workers; ${cpus().length} CPUs, load average ${fmtLoad()}`);
const results = [];
const cancels = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const workers of [1, 2]) {
      const r = await run(server, workers);
      results.push(r);
      console.log(`workers=${r.workers} seconds_per_epoch=${r.secondsPerEpoch.toFixed(3)}`);
      note(`  round ${round + 1}: ${r.used} workers used; per epoch: ${PHASES.map((p) => `${p} ${r.phases[p].toFixed(2)} s`).join(", ")}; ` +
        `CPU s per epoch by worker thread ${r.cpu.map((c) => c.toFixed(2)).join(", ")}; ` +
        `engine worker ${GiB(r.engineBytes)} GiB, renderer peak ${GiB(r.rendererBytes)} GiB; load average ${fmtLoad()}`);
      note(`  round ${round + 1}: first_progress_ms ${fmtMs(r.first.fromEpochMs)} from epoch 1's start, ${fmtMs(r.first.fromPrepareMs)} from the last preparation report`);
    }
  }
  for (const workers of [1, 2]) {
    const c = await cancelRun(server, workers);
    cancels.push(c);
    if (c.error) continue;
    note(`  cancel, ${c.used} workers used: cancel_ms ${fmtMs(c.loopMs)} to the last report with a phase, ${fmtMs(c.resultMs)} to the result ` +
      `(cancelled ${c.cancelled}, ${c.epochs} epochs counted; sent at epoch ${c.trigger.epoch} shard ${c.trigger.batch ?? 0}/${c.trigger.batches}; ` +
      `${c.after} reports after it); load average ${fmtLoad()}`);
  }
} finally {
  await server.close();
}

const byWorkers = (n) => results.filter((r) => r.workers === n);
const one = median(byWorkers(1).map((r) => r.secondsPerEpoch));
const two = median(byWorkers(2).map((r) => r.secondsPerEpoch));
console.log(`\nmedians: 1 worker ${one.toFixed(3)} s per epoch, 2 workers ${two.toFixed(3)} s; ratio ${(two / one).toFixed(2)}`);
for (const n of [1, 2]) {
  const rs = byWorkers(n);
  const phases = PHASES.map((p) => `${p} ${median(rs.map((r) => r.phases[p])).toFixed(2)}`).join(", ");
  console.log(`  ${n} worker${n > 1 ? "s" : ""}: phases (s per epoch, medians) ${phases}; ` +
    `CPU s per epoch by worker thread ${[0, 1].slice(0, n).map((k) => median(rs.map((r) => r.cpu[k] ?? NaN)).toFixed(2)).join(", ")}; ` +
    `engine worker ${GiB(median(rs.map((r) => r.engineBytes)))} GiB, renderer peak ${GiB(median(rs.map((r) => r.rendererBytes ?? NaN)))} GiB`);
}
for (const n of [1, 2]) {
  const rs = byWorkers(n);
  const c = cancels.find((x) => x.workers === n && !x.error);
  console.log(`  ${n} worker${n > 1 ? "s" : ""}: first_progress_ms (medians) ${fmtMs(median(rs.map((r) => r.first.fromEpochMs ?? NaN)))} from epoch 1's start, ` +
    `${fmtMs(median(rs.map((r) => r.first.fromPrepareMs ?? NaN)))} from the last preparation report; ` +
    `cancel_ms ${fmtMs(c?.loopMs)} to the last report with a phase, ${fmtMs(c?.resultMs)} to the result`);
}
console.log(`  load average at the end: ${fmtLoad()} (${cpus().length} CPUs)`);
