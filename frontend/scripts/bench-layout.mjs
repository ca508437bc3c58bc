// `make bench-layout`: the graph view's force layout in headless Chromium,
// on the graph view's test page (frontend/e2e/graphview), each run in a
// fresh browser profile at 1280x800. Per graph it prints nodes, edges, the
// ms from setGraph to the first drawn picture and to the layout settled
// (the worker's last positions), and two quality numbers of the settled
// positions (lower is better for both):
//
//   edge/random  the mean length of an edge over the mean distance of
//                random node pairs (how much closer linked nodes sit);
//   stress       normalised stress on a sample: for pairs (s, v), s one of
//                a few BFS sources, sum ((a·d_xy - d_hops) / d_hops)^2 over
//                the pairs, with the scale a that minimises it, divided by
//                the pair count (how well distances on screen follow hops).
//
// Medians of BENCH_LAYOUT_RUNS (default 3) runs. The graphs: Amazon Photo,
// Coauthor CS (../shared/datasets) and a seeded synthetic co-authorship-like
// graph of 34,500 nodes and about 248k edges (nested communities with
// heavy-tailed degrees), written by this script. BENCH_LAYOUT_GRAPHS
// (comma-separated: photo, coauthor, synth34k) picks some. The machine's
// other work skews the times: the load average is printed.
// BENCH_LAYOUT_SHOTS=DIR saves a screenshot of each settled layout there.
// Usage (no build needed: it bundles its own page): node frontend/scripts/bench-layout.mjs
import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "../e2e/server.mjs";
import { launch } from "../e2e/browser.mjs";
import { buildGraphviewPage, datasets, readPhoto, writeGraph } from "../e2e/graphview/setup.mjs";

const RUNS = Number(process.env.BENCH_LAYOUT_RUNS ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_LAYOUT_RUNS must be a whole number ≥ 1 (got ${process.env.BENCH_LAYOUT_RUNS})`);
const ALL = ["photo", "coauthor", "synth34k"];
const GRAPHS = (process.env.BENCH_LAYOUT_GRAPHS ?? ALL.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
for (const g of GRAPHS) if (!ALL.includes(g)) throw new Error(`BENCH_LAYOUT_GRAPHS: unknown graph ${g} (known: ${ALL.join(", ")})`);
const TITLES = { photo: "Amazon Photo", coauthor: "Coauthor CS", synth34k: "synthetic 34.5k" };

/** mulberry32, as the layout's prng.ts, so the synthetic graph is the same on every machine. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A co-authorship-like graph: n nodes in `blocks` fields, each cut into
 * groups of about 40 (a lab); a node's activity is heavy-tailed (Pareto,
 * exponent 2.5, capped), and each edge joins an active node to another in
 * its group (60%), its field (30%) or anywhere (10%), picked by activity.
 */
export function synthCoauthor({ n = 34_500, m = 248_000, blocks = 15, group = 40, seed = 46 } = {}) {
  const rand = rng(seed);
  const block = new Int32Array(n), grp = new Int32Array(n), w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    block[i] = Math.floor(rand() * blocks);
    w[i] = Math.min(50, Math.pow(1 - rand(), -1 / 1.5));
  }
  // Groups: consecutive members of a block.
  const members = Array.from({ length: blocks }, () => []);
  for (let i = 0; i < n; i++) members[block[i]].push(i);
  const groups = [];
  for (const list of members) for (let k = 0; k < list.length; k += group) groups.push(list.slice(k, k + group));
  groups.forEach((g, k) => g.forEach((i) => (grp[i] = k)));
  // Samplers by activity: cumulative weights over a list.
  const sampler = (list) => {
    const cum = new Float64Array(list.length);
    let s = 0;
    list.forEach((i, k) => (cum[k] = s += w[i]));
    return () => {
      const x = rand() * s;
      let lo = 0, hi = list.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return list[lo];
    };
  };
  const all = sampler(Array.from({ length: n }, (_, i) => i));
  const byBlock = members.map(sampler);
  const byGroup = groups.map(sampler);
  const seen = new Set();
  const edges = [];
  for (let tries = 0; edges.length < 2 * m && tries < 20 * m; tries++) {
    const u = all();
    const r = rand();
    const v = r < 0.6 ? byGroup[grp[u]]() : r < 0.9 ? byBlock[block[u]]() : all();
    if (u === v) continue;
    const a = Math.min(u, v), b = Math.max(u, v);
    const key = a * n + b;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push(a, b);
  }
  return { edges: Uint32Array.from(edges), labels: Int32Array.from(block), classNames: Array.from({ length: blocks }, (_, k) => `field ${k}`) };
}

/** The quality numbers of positions pos (x, y per node) of graph (n, edges); see the header. */
export function layoutQuality(n, edges, pos) {
  const m = edges.length >> 1;
  const dist = (i, j) => Math.hypot(pos[2 * i] - pos[2 * j], pos[2 * i + 1] - pos[2 * j + 1]);
  let linked = 0;
  for (let e = 0; e < m; e++) linked += dist(edges[2 * e], edges[2 * e + 1]);
  linked /= Math.max(1, m);
  const rand = rng(7);
  let random = 0;
  const pairs = 20_000;
  for (let q = 0; q < pairs; q++) random += dist(Math.floor(rand() * n), Math.floor(rand() * n));
  random /= pairs;
  // Stress on a sample: BFS from a few sources, every reached node.
  const deg = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    deg[edges[2 * e] + 1]++;
    deg[edges[2 * e + 1] + 1]++;
  }
  for (let i = 0; i < n; i++) deg[i + 1] += deg[i];
  const adj = new Int32Array(2 * m), fill = deg.slice(0, n);
  for (let e = 0; e < m; e++) {
    const a = edges[2 * e], b = edges[2 * e + 1];
    adj[fill[a]++] = b;
    adj[fill[b]++] = a;
  }
  const hop = new Int32Array(n), queue = new Int32Array(n);
  // Sums for the optimal scale a: minimise sum (a x - h)^2 / h^2 = sum (a x/h - 1)^2.
  let sxx = 0, sx = 0, count = 0;
  const samples = [];
  for (let s = 0; s < 16; s++) {
    const src = Math.floor(rand() * n);
    hop.fill(-1);
    hop[src] = 0;
    let head = 0, tail = 0;
    queue[tail++] = src;
    while (head < tail) {
      const u = queue[head++];
      for (let p = deg[u]; p < deg[u + 1]; p++) if (hop[adj[p]] < 0) (hop[adj[p]] = hop[u] + 1), (queue[tail++] = adj[p]);
    }
    for (let k = 1; k < tail; k++) {
      const v = queue[k];
      const r = dist(src, v) / hop[v];
      samples.push(r);
      sxx += r * r;
      sx += r;
      count++;
    }
  }
  const a = sxx > 0 ? sx / sxx : 0;
  let stress = 0;
  for (const r of samples) stress += (a * r - 1) ** 2;
  return { edgeRandom: linked / random, stress: count ? stress / count : NaN };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const dir = await buildGraphviewPage();
  const graphs = {
    photo: readPhoto(join(datasets, "amazon_photo", "amazon_electronics_photo.npz")), // buildGraphviewPage wrote it too
    coauthor: readPhoto(join(datasets, "coauthor_cs", "ms_academic_cs.npz")),
    synth34k: synthCoauthor(),
  };
  for (const name of ["coauthor", "synth34k"]) if (GRAPHS.includes(name)) writeGraph(dir, name, graphs[name]);
  const server = await serve({ mounts: [["/gv/", dir]] });
  console.log(`# bench-layout: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}, ${RUNS} run(s) per graph, medians`);
  try {
    for (const name of GRAPHS) {
      const rows = [];
      for (let r = 0; r < RUNS; r++) {
        const browser = await launch();
        try {
          const page = browser.context.pages()[0] ?? (await browser.context.newPage());
          await page.setViewportSize({ width: 1280, height: 800 });
          await page.goto(`${server.origin}/gv/index.html`);
          await page.waitForFunction(() => window.gv !== undefined);
          const loaded = await page.evaluate((k) => window.gv.load(k), name);
          const settled = await page.evaluate(() => window.gv.waitLayout());
          if (process.env.BENCH_LAYOUT_SHOTS) await page.screenshot({ path: join(process.env.BENCH_LAYOUT_SHOTS, `layout-${name}-${r + 1}.png`) });
          const pos = Float32Array.from(await page.evaluate(() => window.gv.positions()));
          const q = layoutQuality(loaded.n, graphs[name].edges, pos);
          rows.push({ ...loaded, settledMs: settled.ms, ticks: settled.ticks, ...q });
          console.log(`#   ${name} run ${r + 1}: first picture ${loaded.firstFrameMs.toFixed(0)} ms, settled ${settled.ms.toFixed(0)} ms (${settled.ticks} iterations), edge/random ${q.edgeRandom.toFixed(4)}, stress ${q.stress.toFixed(4)}`);
        } finally {
          await browser.close();
        }
      }
      const med = (k) => median(rows.map((x) => x[k]));
      console.log(
        `${TITLES[name]}: nodes=${rows[0].n} edges=${rows[0].m} first_picture_ms=${med("firstFrameMs").toFixed(0)} settled_ms=${med("settledMs").toFixed(0)} edge_random=${med("edgeRandom").toFixed(4)} stress=${med("stress").toFixed(4)}`,
      );
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run when invoked, not when imported (for its graph and quality helpers).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
