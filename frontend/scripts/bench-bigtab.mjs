// `make bench-bigtab`: the large graphs in the tab, through the app's own
// controls as a person uses them, in headless Chromium, each graph in a
// fresh browser profile with the default settings. Per graph it prints
//
//   graph=NAME nodes=N edges=E first_picture_s=… layout_settled_s=…
//   preparation_s=… default_workers=K estimated_epoch=… seconds_per_epoch=…
//   first_explanation_s=… cancel_s=… cancel_result_s=…
//
// first_picture_s: the file chosen (the file input) to the graph's first
// frame (the app's metrics.lastLoadMs); layout_settled_s: the file chosen
// to the layout's status going quiet ("arranging…" gone), waited for
// before training, so that it is the layout's alone; preparation_s: Train
// pressed to the first epoch's first report (the whole graph's and the
// training graph's preparation); default_workers: the "auto (K)" the
// Cores selector offers, which the run uses; estimated_epoch: the
// epoch's time the page estimated before Train ("roughly 12 s", "–" from
// a build without it); seconds_per_epoch: the
// median time between epoch ends, the first epoch left out;
// first_explanation_s: Train pressed to the selected pair's explanation
// answered by the run's own weights ("Answered by epoch …", the pair
// selected before Train; "none" when none came before the epochs were
// done); cancel_s: Cancel pressed, in the middle of the
// epoch after BENCH_BIGTAB_EPOCHS (default 2), to Train enabled again;
// cancel_result_s: to the run's result shown ("Stopped during epoch …").
// The load average before each graph is printed: other work on the
// machine skews every figure.
//
// BENCH_BIGTAB_DATA (default "amazon_photo,coauthor_cs"): folders under
// ../shared/datasets, each holding one .npz file.
// Usage (after `make site`): node frontend/scripts/bench-bigtab.mjs
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch, appPage } from "../e2e/browser.mjs";

const EPOCHS = Number(process.env.BENCH_BIGTAB_EPOCHS ?? 2);
if (!Number.isInteger(EPOCHS) || EPOCHS < 2) throw new Error(`BENCH_BIGTAB_EPOCHS must be a whole number ≥ 2 (got ${process.env.BENCH_BIGTAB_EPOCHS})`);
const DATA = (process.env.BENCH_BIGTAB_DATA ?? "amazon_photo,coauthor_cs").split(",").filter(Boolean);
const datasets = resolve(root, "..", "shared", "datasets");
// A step of a large graph in a tab takes minutes on a slow machine; none takes an hour.
const STEP = 60 * 60 * 1000;
const note = (msg) => console.error(`[bench-bigtab] ${msg}`);
const secs = (ms) => (ms === undefined || Number.isNaN(ms) ? "–" : (ms / 1000).toFixed(1));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The .npz file of data set folder `name`. */
function npzOf(name) {
  if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) throw new Error(`BENCH_BIGTAB_DATA: not a folder name: "${name}"`);
  const dir = join(datasets, name);
  const npz = readdirSync(dir).filter((f) => f.endsWith(".npz"));
  if (npz.length !== 1) throw new Error(`BENCH_BIGTAB_DATA: ${dir} holds ${npz.length} .npz files, want one`);
  return join(dir, npz[0]);
}

/** Records, in the page, every text #progress-text and #layout-status show, with the time it was shown. */
function watchTexts() {
  window.__bench = { progress: [], layout: [] };
  for (const [id, list] of [["progress-text", window.__bench.progress], ["layout-status", window.__bench.layout]]) {
    const el = document.getElementById(id);
    new MutationObserver(() => list.push({ at: performance.now(), text: el.textContent })).observe(el, { childList: true, characterData: true, subtree: true });
  }
}

async function benchGraph(server, name) {
  const file = npzOf(name);
  const load = loadavg().map((x) => x.toFixed(2)).join(" ");
  const browser = await launch();
  const errors = [];
  try {
    const page = await appPage(browser.context, errors);
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: STEP });
    await page.evaluate(watchTexts);
    const key = `file:${file.split("/").pop().replace(/\.npz$/, "")}`;
    note(`${name}: opening ${file}`);
    const chosen = await page.evaluate(() => performance.now());
    await page.setInputFiles("#file-input", file);
    await page.waitForFunction((k) => window.ilpgnnExplorer.dataKey === k && window.ilpgnnExplorer.graph !== null && !window.ilpgnnExplorer.training, key, { timeout: STEP, polling: 200 });
    await page.waitForFunction(() => window.ilpgnnExplorer.metrics.lastLoadMs !== undefined, null, { timeout: STEP });
    const firstPicture = await page.evaluate(() => window.ilpgnnExplorer.metrics.lastLoadMs);
    const info = await page.textContent("#graph-info");
    note(`${name}: ${info}; waiting for the layout`);
    await page.waitForFunction(() => {
      const b = window.__bench.layout;
      return b.length > 0 && b.at(-1).text === "";
    }, null, { timeout: STEP, polling: 500 });
    const settled = await page.evaluate(() => window.__bench.layout.at(-1).at);
    const auto = await page.textContent("#train-workers option[value='']");
    const defaultWorkers = Number(/auto \((\d+)\)/.exec(auto)?.[1]);
    const noModel = (await page.$("#no-model")) === null ? "" : await page.textContent("#no-model");
    const said = /an epoch takes (roughly [\d.]+ (s|min)|under a second)/.exec(noModel)?.[1];
    const estimated = said === undefined ? "–" : said === "under a second" ? "<1s" : said.replace("roughly ", "").replaceAll(" ", "");

    // The best-connected node and its first neighbour, selected before Train.
    const pair = await page.evaluate(() => {
      const a = window.ilpgnnExplorer;
      const g = a.graph;
      let v = 0;
      for (let u = 0; u < g.n; u++) if (g.desc.degrees[u] > g.desc.degrees[v]) v = u;
      const w = g.neighbors(v)[0];
      void a.select({ kind: "pair", i: v, j: w });
      return [v, w];
    });
    note(`${name}: training (pair ${pair.join("–")} selected)`);
    const trainAt = await page.evaluate(() => {
      document.getElementById("train").click();
      return performance.now();
    });
    // A build that answers nothing during training (before issue 46) shows
    // no "Answered by" before the epochs are done: then there is no time to give.
    await page.waitForFunction((n) => document.getElementById("answered-by") !== null || window.ilpgnnExplorer.train.runStats.epochEndsMs.length >= n, EPOCHS, { timeout: STEP, polling: 100 });
    const explainedAt = await page.evaluate(() => (document.getElementById("answered-by") !== null ? performance.now() : undefined));
    note(`${name}: ${explainedAt === undefined ? "no explanation during training" : "explained during training"}; waiting for ${EPOCHS} epochs`);
    await page.waitForFunction((n) => window.ilpgnnExplorer.train.runStats.epochEndsMs.length >= n, EPOCHS, { timeout: STEP, polling: 500 });
    // Cancel in the middle of the next epoch: once one of its shards is done.
    await page.waitForFunction(
      (n) => new RegExp(`^epoch ${n + 1} of .* selection and losses ([1-9]|1[0-5])/16`).test(document.getElementById("progress-text").textContent),
      EPOCHS,
      { timeout: STEP, polling: 50 },
    );
    const cancelAt = await page.evaluate(() => {
      document.getElementById("cancel").click();
      return performance.now();
    });
    await page.waitForFunction(() => !document.getElementById("train").disabled, null, { timeout: STEP, polling: 50 });
    const backAt = await page.evaluate(() => performance.now());
    // "Cancelled after …" before issue 46.
    await page.waitForFunction(() => /^(Stopped|Cancelled) /.test(document.getElementById("progress-text").textContent), null, { timeout: STEP });
    const shown = await page.evaluate(() => window.__bench.progress);
    const result = shown.find((s) => /^(Stopped|Cancelled) /.test(s.text));
    const firstEpoch = shown.find((s) => s.at > trainAt && /^epoch 1 /.test(s.text));
    const ends = await page.evaluate(() => window.ilpgnnExplorer.train.runStats.epochEndsMs);
    const epochMs = median(ends.slice(1).map((t, k) => t - ends[k]));
    const nodes = /([\d,]+) nodes/.exec(info)?.[1].replaceAll(",", "");
    const edges = /([\d,]+) edges/.exec(info)?.[1].replaceAll(",", "");
    console.log(
      [
        `graph=${name}`,
        `nodes=${nodes}`,
        `edges=${edges}`,
        `first_picture_s=${secs(firstPicture)}`,
        `layout_settled_s=${secs(settled - chosen)}`,
        `preparation_s=${secs(firstEpoch?.at - trainAt)}`,
        `default_workers=${defaultWorkers}`,
        `estimated_epoch=${estimated}`,
        `seconds_per_epoch=${secs(epochMs)}`,
        `first_explanation_s=${explainedAt === undefined ? "none" : secs(explainedAt - trainAt)}`,
        `cancel_s=${secs(backAt - cancelAt)}`,
        `cancel_result_s=${secs(result?.at - cancelAt)}`,
        `load_before=${load.replaceAll(" ", ",")}`,
      ].join(" "),
    );
    console.log(`  ${result?.text}`);
    if (errors.length > 0) console.log(`  page errors: ${errors.join("; ")}`);
  } finally {
    await browser.close();
  }
}

const server = await serve();
try {
  for (const name of DATA) await benchGraph(server, name);
} finally {
  await server.close();
}
