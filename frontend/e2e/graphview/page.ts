// The graph view's browser test page (bundled by ../graphview.test.mjs):
// loads Cora (from /data/cora) or Amazon Photo (binary files the test
// writes next to this page) into a GraphView and exposes window.gv for the
// test to drive and for bench-app to measure.
import { GraphInput, GraphView, type GraphData, type Highlight } from "../../src/app/graph/index";
import { SIDE_I, SIDE_J } from "../../src/app/palette";

const longTasks: Array<{ start: number; duration: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });

const canvas = document.getElementById("graph") as HTMLCanvasElement;
const tip = document.getElementById("tip") as HTMLElement;
const clicks: number[] = [];
let backgroundClicks = 0;
let view: GraphView | null = null;
let input: GraphInput | null = null;
let data: GraphData | null = null;
let layoutDone: Promise<number> = Promise.resolve(0);
let progressEvents = 0;
let lastTick = 0;

function degreesOf(n: number, edges: Uint32Array): number[] {
  const d = new Array<number>(n).fill(0);
  for (const v of edges) d[v]!++;
  return d;
}

async function cora(): Promise<GraphData> {
  const [content, cites] = await Promise.all([
    fetch("/data/cora/cora.content").then((r) => r.text()),
    fetch("/data/cora/cora.cites").then((r) => r.text()),
  ]);
  const ids: string[] = [];
  const labelNames: string[] = [];
  const index = new Map<string, number>();
  for (const line of content.split("\n")) {
    if (!line) continue;
    const id = line.slice(0, line.indexOf("\t"));
    index.set(id, ids.length);
    ids.push(id);
    labelNames.push(line.slice(line.lastIndexOf("\t") + 1).trim());
  }
  const classNames = [...new Set(labelNames)].sort();
  const labels = Int32Array.from(labelNames, (c) => classNames.indexOf(c));
  const n = ids.length;
  const seen = new Set<number>();
  const e: number[] = [];
  for (const line of cites.split("\n")) {
    const [a, b] = line.trim().split(/\s+/);
    if (a === undefined || b === undefined) continue;
    const i = index.get(a), j = index.get(b);
    if (i === undefined || j === undefined || i === j) continue;
    const key = Math.min(i, j) * n + Math.max(i, j);
    if (seen.has(key)) continue;
    seen.add(key);
    e.push(i, j);
  }
  const edges = Uint32Array.from(e);
  return { n, edges, ids, degrees: degreesOf(n, edges), labels, classNames };
}

/** A graph written next to this page by setup.mjs's writeGraph: NAME-edges.bin, NAME-labels.bin, NAME.json. */
async function written(name: string): Promise<GraphData> {
  const [edgesBuf, labelsBuf, meta] = await Promise.all([
    fetch(`${name}-edges.bin`).then((r) => r.arrayBuffer()),
    fetch(`${name}-labels.bin`).then((r) => r.arrayBuffer()),
    fetch(`${name}.json`).then((r) => r.json() as Promise<{ classNames: string[] }>),
  ]);
  const edges = new Uint32Array(edgesBuf);
  const labels = new Int32Array(labelsBuf);
  const n = labels.length;
  return { n, edges, ids: Array.from({ length: n }, (_, i) => `p${i}`), degrees: degreesOf(n, edges), labels, classNames: meta.classNames };
}

const gv = {
  /** kind: "cora", or the name of a graph written next to the page ("photo", or the benchmark's). */
  async load(kind: string, options: { staticLayer?: "auto" | "page" | "worker"; seed?: number } = {}) {
    data = kind === "cora" ? await cora() : await written(kind);
    input?.destroy();
    view?.destroy();
    view = new GraphView(canvas, {
      layoutWorkerUrl: "layout.js",
      tooltip: tip,
      onLayoutProgress: (p) => {
        progressEvents++;
        lastTick = p.tick;
        if (p.done) finish(performance.now() - t0);
      },
      staticLayer: options.staticLayer ?? "auto",
    });
    input = new GraphInput(canvas, view, {
      onNodeClick: (i) => clicks.push(i),
      onBackgroundClick: () => backgroundClicks++,
    });
    let finish: (ms: number) => void = () => {};
    layoutDone = new Promise<number>((ok) => (finish = ok));
    const t0 = performance.now();
    await view.setGraph(data, { seed: options.seed ?? 1 });
    const firstFrameMs = performance.now() - t0;
    const v = view;
    while (!v.staticLayerReady()) await new Promise((ok) => requestAnimationFrame(ok));
    const fullFrameMs = performance.now() - t0;
    return { n: data.n, m: data.edges.length / 2, firstFrameMs, fullFrameMs, staticLayer: view.staticLayer() };
  },
  // Two setGraph calls in a row: the first is superseded (its promise
  // resolves), the second's layout runs to the end.
  async supersede() {
    const v = view!;
    let finish: (ms: number) => void = () => {};
    layoutDone = new Promise<number>((ok) => (finish = ok));
    const t0 = performance.now();
    const a = v.setGraph(data!, { seed: 2 });
    const b = v.setGraph(data!, { seed: 3 });
    const poll = setInterval(() => {
      if (v.layoutDone()) {
        clearInterval(poll);
        finish(performance.now() - t0);
      }
    }, 50);
    await Promise.all([a, b]);
    return true;
  },
  async waitLayout() {
    const ms = await layoutDone;
    // Let the final frame (and the worker's final render) land.
    await new Promise((ok) => setTimeout(ok, 300));
    return { ms, progressEvents, ticks: lastTick, done: view!.layoutDone() };
  },
  node(id: string) {
    return data!.ids.indexOf(id);
  },
  maxDegreeNode() {
    let best = 0;
    data!.degrees.forEach((d, i) => {
      if (d > data!.degrees[best]!) best = i;
    });
    return best;
  },
  screenOf: (i: number) => view!.screenOf(i),
  nodeAt: (x: number, y: number) => view!.nodeAt(x, y),
  transform: () => view!.transform(),
  frameStats: (reset?: boolean) => view!.frameStats(reset),
  positions: () => Array.from(view!.positions() ?? []),
  label: () => canvas.getAttribute("aria-label"),
  cursor: () => canvas.style.cursor,
  tooltip: () => ({ hidden: tip.hidden, text: tip.innerText, left: tip.style.left, top: tip.style.top }),
  clicks: () => ({ nodes: [...clicks], background: backgroundClicks }),
  fit: () => view!.fit(),
  focus: (nodes: number[], zoom: boolean) => view!.focus(nodes, { zoom }),
  highlightPair(i: number, j: number) {
    const nbrs = (v: number): number[] => {
      const out: number[] = [];
      const e = data!.edges;
      for (let k = 0; k < e.length; k += 2) {
        if (e[k] === v) out.push(e[k + 1]!);
        else if (e[k + 1] === v) out.push(e[k]!);
      }
      return out;
    };
    const side = (v: number, color: string) => ({
      node: v,
      color,
      neighbors: nbrs(v).map((u, k) => ({ node: u, strength: k < 3 ? 1 - k / 3 : 0, selected: k < 3 })),
    });
    const ni = new Set(nbrs(i));
    const h: Highlight = {
      selected: [i, j],
      sides: [side(i, SIDE_I), side(j, SIDE_J)],
      common: nbrs(j).filter((u) => ni.has(u)),
      pairLink: { i, j, prob: 0.87, linked: false },
    };
    view!.setHighlight(h);
  },
  highlightNode(i: number) {
    const e = data!.edges;
    const nb: number[] = [];
    for (let k = 0; k < e.length; k += 2) if (e[k] === i) nb.push(e[k + 1]!);
    else if (e[k + 1] === i) nb.push(e[k]!);
    view!.setHighlight({ selected: [i], neighbors: nb, candidates: [0, 1, 2].map((v, k) => ({ node: v, prob: 1 - 0.3 * k })), groundtruth: nb.slice(0, 2) });
  },
  clearHighlight: () => view!.setHighlight(null),
  // Frame timing from requestAnimationFrame: count and intervals while recording.
  recordFrames() {
    const times: number[] = [];
    let on = true;
    const tick = (t: number): void => {
      times.push(t);
      if (on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const since = performance.now();
    (window as unknown as { stopFrames: () => unknown }).stopFrames = () => {
      on = false;
      const gaps = times.slice(1).map((t, k) => t - times[k]!);
      const tasks = longTasks.filter((l) => l.start + l.duration >= since);
      return {
        seconds: (performance.now() - since) / 1000,
        rafs: times.length,
        meanGap: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length),
        maxGap: Math.max(0, ...gaps),
        longTasks: tasks,
      };
    };
  },
  // The view itself, for bench-app's rasterisation cost (frontend/scripts/bench-app.mjs).
  view: () => view!,
  stopFrames: () => (window as unknown as { stopFrames: () => unknown }).stopFrames(),
  longTasks: () => [...longTasks],
  now: () => performance.now(),
};

(window as unknown as { gv: typeof gv }).gv = gv;
