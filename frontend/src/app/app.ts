// The app: one engine (the Go core in a Web Worker), one graph view, and
// the panels around them. App owns the shared state — the loaded graph, the
// current model, the selection — and the panels ask it to change it, so
// every change updates the canvas, the panels and the URL hash together.

import { EngineError, type EngineClient } from "../client";
import type { EngineInfo, GraphDescription, GraphInfo, ModelInfo, Preset } from "../protocol";
import { byId, replace, h } from "./dom";
import { findNodes, GraphView } from "./graph/index";
import { kept, keep } from "./filestore";
import { LoadedGraph } from "./graphdata";
import { DEFAULT_DATA, formatHash, parseHash, presetOf, type DeepLink } from "./hash";
import { graphSummary, missingFeaturesNote, pairHighlight } from "./summary";
import { classColor, COMMON, GROUNDTRUTH, SIDE_I, SIDE_J } from "./palette";
import { CheckpointsPanel } from "./panels/checkpoints";
import { DataPanel } from "./panels/data";
import { ExplainPanel } from "./panels/explain";
import { InsightPanel } from "./panels/insight";
import { TrainPanel } from "./panels/train";

/** Timings the browser tests and the closing report read. */
export interface AppMetrics {
  /** performance.now() when the first graph was drawn (ms since navigation). */
  firstGraphMs?: number;
  /** Engine ready (ms since navigation). */
  engineReadyMs?: number;
  /** Last graph load: request to first drawn frame. */
  lastLoadMs?: number;
  /** Last training run: Train pressed to result. */
  lastTrainMs?: number;
  /** Number of `train` requests sent (to show a reload did not retrain). */
  trainRuns: number;
}

/** What the explanation view shows. */
export type Selection = { kind: "none" } | { kind: "node"; node: number } | { kind: "pair"; i: number; j: number };

/** The current ILP-GNN model: its info and the graph it belongs to. */
export interface CurrentModel {
  info: ModelInfo;
  fingerprint: string;
}

export class App {
  readonly engine: EngineClient;
  readonly view: GraphView;
  readonly metrics: AppMetrics = { trainRuns: 0 };
  engineInfo: EngineInfo | null = null;
  graph: LoadedGraph | null = null;
  /** Where the loaded graph came from, as a hash `data` value. */
  dataKey = DEFAULT_DATA;
  dataSeed: number | null = 0;
  model: CurrentModel | null = null;
  selection: Selection = { kind: "none" };
  training = false;

  readonly data: DataPanel;
  readonly train: TrainPanel;
  readonly explain: ExplainPanel;
  readonly insight: InsightPanel;
  readonly checkpoints: CheckpointsPanel;

  private readonly status = byId("status", HTMLElement);
  private readonly legend = byId("legend", HTMLElement);
  private readonly graphInfo = byId("graph-info", HTMLElement);
  private readonly layoutStatus = byId("layout-status", HTMLElement);
  private loading: Promise<unknown> = Promise.resolve();

  constructor(engine: EngineClient) {
    this.engine = engine;
    const canvas = byId("graph", HTMLCanvasElement);
    this.view = new GraphView(canvas, {
      layoutWorkerUrl: new URL("layout.js", import.meta.url),
      tooltip: byId("tooltip", HTMLElement),
      onNodeClick: (node) => this.clickNode(node),
      onBackgroundClick: () => this.select({ kind: "none" }),
      onLayoutProgress: (p) => {
        this.layoutStatus.textContent = p.done ? "" : "arranging…";
      },
    });
    this.data = new DataPanel(this);
    this.train = new TrainPanel(this);
    this.explain = new ExplainPanel(this);
    this.insight = new InsightPanel(this);
    this.checkpoints = new CheckpointsPanel(this);
    byId("fit", HTMLButtonElement).addEventListener("click", () => this.view.fit());
    const search = byId("search", HTMLInputElement);
    byId("search-form", HTMLFormElement).addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.search(search.value);
    });
    window.addEventListener("hashchange", () => void this.applyLink(parseHash(location.hash)));
  }

  /** Starts the app: waits for the engine, then opens what the URL asks for (the synthetic demo graph by default). */
  async start(): Promise<void> {
    this.setStatus("Starting the engine…");
    try {
      this.engineInfo = await this.engine.ready;
    } catch (e) {
      this.setStatus(`The engine could not start: ${errorText(e)}`);
      throw e;
    }
    this.metrics.engineReadyMs = performance.now();
    this.checkpoints.showStorage(this.engineInfo);
    this.setStatus("Engine ready");
    void this.train.loadDefaults();
    await this.applyLink(parseHash(location.hash), true);
  }

  setStatus(text: string): void {
    // Once the engine is gone, that stays the news: the requests it failed
    // end after it and would otherwise say "No graph loaded".
    const dead = this.engine.error;
    this.status.textContent = dead === undefined ? text : `The engine stopped: ${errorText(dead)}. Reload the page to start it again; the models stored in this browser are kept.`;
  }

  /** The engine is gone (out of memory, say): the status line says so and how to go on. */
  engineStopped(): void {
    this.setStatus("");
  }

  /** Opens what a deep link names, then selects its pair or node. */
  async applyLink(link: DeepLink, first = false): Promise<void> {
    let data = link.data ?? DEFAULT_DATA;
    const seed = link.seed ?? 0;
    const focus = { autoRestore: link.pair !== null || link.node !== null, autoTrain: link.train };
    if (data.startsWith("file:") && data !== this.dataKey) {
      const k = await kept();
      if (k !== null && k.dataKey === data) {
        if (!(await this.openBytes(data, k.files, focus, false))) return;
      } else {
        this.data.showNote(`This link shows a graph opened from files (${data.slice(5)}) that this browser no longer keeps. Open the same files to continue; nothing was uploaded, so the page cannot fetch them.`);
        if (!first) return;
        data = DEFAULT_DATA;
      }
    }
    if (data.startsWith("file:")) {
      await this.selectLinked(link);
      return;
    }
    const preset = presetOf(data);
    if (preset === null) {
      this.data.showNote(`Unknown dataset "${data}" in the link; showing ${DEFAULT_DATA}.`);
      data = DEFAULT_DATA;
    }
    if (this.graph === null || data !== this.dataKey || seed !== this.dataSeed) {
      const ok = await this.generate(presetOf(data) ?? "medium", seed, focus);
      if (!ok) return;
    }
    await this.selectLinked(link);
  }

  /** Selects a link's pair or node on the loaded graph. */
  private async selectLinked(link: DeepLink): Promise<void> {
    const g = this.graph;
    if (g === null) return;
    if (link.pair) {
      const [a, b] = link.pair.map((ref) => g.resolve(ref));
      if (a === null || a === undefined || b === null || b === undefined) {
        this.data.showNote(`The link's pair ${link.pair.join(",")} names no node of this graph.`);
        return;
      }
      await this.select({ kind: "pair", i: a, j: b });
    } else if (link.node) {
      const v = g.resolve(link.node);
      if (v !== null) await this.select({ kind: "node", node: v });
    }
  }

  /** Generates a synthetic graph and shows it. */
  generate(preset: Preset, seed: number, options: LoadOptions = {}): Promise<boolean> {
    return this.open(`synth:${preset}`, seed, () => this.engine.generate(preset, seed), options);
  }

  /** Loads the user's files (parsed in the worker), shows the graph and keeps the files in this browser. */
  async openFiles(files: File[]): Promise<boolean> {
    const stem = files.map((f) => f.name.replace(/\.[^.]*$/, "")).sort()[0] ?? "files";
    const bytes: Record<string, Uint8Array> = {};
    for (const f of files) bytes[f.name] = new Uint8Array(await f.arrayBuffer());
    return this.openBytes(`file:${stem}`, bytes, {}, true);
  }

  /** Loads file contents; with `keepThem`, a graph that loads is kept for the next visit. */
  private openBytes(dataKey: string, files: Record<string, Uint8Array>, options: LoadOptions, keepThem: boolean): Promise<boolean> {
    return this.open(
      dataKey,
      null,
      async () => {
        // Not transferred: the same buffers go to IndexedDB next.
        const info = await this.engine.loadFiles(files, { transfer: false });
        if (keepThem) void keep(dataKey, files).then((r) => this.data.showKept(dataKey, r));
        else this.data.showKept(dataKey, { kept: true });
        return info;
      },
      options,
    );
  }

  /**
   * Loads a graph with `load`. On failure the message goes next to the
   * picker and the previous graph stays as it was; on success the view,
   * the panels and the hash follow.
   */
  private open(dataKey: string, seed: number | null, load: () => Promise<GraphInfo>, options: LoadOptions): Promise<boolean> {
    const run = this.loading.then(async () => {
      if (this.training) {
        this.data.showError("Training is running: cancel it before opening another graph.");
        return false;
      }
      const t0 = performance.now();
      this.data.setBusy(true);
      this.setStatus("Loading the graph…");
      let info: GraphInfo;
      try {
        info = await load();
      } catch (e) {
        this.data.showError(errorText(e), this.graph?.desc.name);
        this.setStatus(this.graph ? `Showing ${this.graph.desc.name}` : "No graph loaded");
        this.data.setBusy(false);
        return false;
      }
      let desc: GraphDescription;
      try {
        desc = await this.engine.describe();
      } catch (e) {
        // The engine holds the new graph but the page could not show it.
        this.data.showError(`the graph loaded but could not be described: ${errorText(e)}`);
        this.data.setBusy(false);
        return false;
      }
      // Big graphs (Photo: 119k edges) take tens of milliseconds to index
      // and to hand to the view; a turn of the event loop between the steps
      // keeps each task short.
      await nextTask();
      const g = new LoadedGraph(desc);
      await nextTask();
      this.graph = g;
      this.dataKey = dataKey;
      this.dataSeed = seed;
      if (this.model && this.model.fingerprint !== info.fingerprint) this.model = null;
      this.selection = { kind: "none" };
      this.data.clearError();
      const missing = missingFeaturesNote(info);
      if (missing) this.data.showNote(`${info.name}: ${missing}.`);
      this.data.showGraph(dataKey, seed);
      this.explain.reset(true);
      this.insight.reset();
      this.train.graphChanged();
      this.renderLegend(g);
      this.graphInfo.textContent = graphSummary(info);
      this.setStatus(`Showing ${info.name}`);
      this.writeHash();
      try {
        await this.view.setGraph(
          { n: g.n, edges: g.edges, ids: desc.ids, degrees: desc.degrees, labels: g.labels, classNames: desc.classNames },
          { seed: seed ?? 0 },
        );
      } catch (e) {
        // The layout worker failed: the panels still work without the picture.
        this.setStatus(`Showing ${info.name}; the graph could not be drawn: ${errorText(e)}`);
      }
      const now = performance.now();
      this.metrics.lastLoadMs = now - t0;
      this.metrics.firstGraphMs ??= now;
      this.data.setBusy(false);
      await this.checkpoints.refresh();
      // Only a completed run is restored unasked; a cancelled one is offered.
      const last = this.checkpoints.lastMatching();
      if (this.model === null && last?.completed) {
        if (options.autoRestore) await this.checkpoints.restore(last.meta.key);
        else this.train.offerRestore(last.meta);
      } else if (this.model === null && options.autoTrain) {
        await this.train.start();
      } else if (this.model === null && last) {
        this.train.offerRestore(last.meta);
      }
      return true;
    });
    this.loading = run.catch(() => undefined);
    return run;
  }

  /** A model became current (trained or restored). */
  setModel(info: ModelInfo): void {
    if (this.graph === null) return;
    this.model = { info, fingerprint: this.graph.desc.fingerprint };
    this.train.showModel(info);
    this.insight.reset();
    void this.select(this.selection);
  }

  private clickNode(node: number): void {
    const s = this.selection;
    if (s.kind === "node" && s.node !== node) void this.select({ kind: "pair", i: s.node, j: node });
    else if (s.kind === "node" && s.node === node) void this.select({ kind: "none" });
    else void this.select({ kind: "node", node });
  }

  /**
   * Finds nodes by id or class name: one match (or an exact id) is
   * selected; several are ringed on the canvas and listed in the panel.
   */
  search(query: string): void {
    const g = this.graph;
    if (g === null || query.trim() === "") return;
    const d = g.desc;
    const found = findNodes(query, { ids: d.ids, labels: g.labels, classNames: d.classNames }, 200);
    const exact = found.length > 0 && d.ids[found[0]!] === query.trim();
    if (found.length === 1 || exact) {
      void this.select({ kind: "node", node: found[0]! });
      return;
    }
    this.selection = { kind: "none" };
    this.writeHash();
    this.view.setHighlight(found.length > 0 ? { selected: found } : null);
    if (found.length > 0) this.view.focus(found);
    this.explain.reveal();
    this.explain.showMatches(query.trim(), found);
  }

  /** Changes the selection: canvas highlight, explanation panel and hash. */
  async select(sel: Selection): Promise<void> {
    this.selection = sel;
    this.writeHash();
    if (sel.kind !== "none") this.explain.reveal();
    const g = this.graph;
    if (g === null || sel.kind === "none") {
      this.view.setHighlight(null);
      this.explain.reset();
      return;
    }
    if (sel.kind === "node") {
      this.view.setHighlight({ selected: [sel.node], neighbors: g.neighbors(sel.node) });
      this.view.focus([sel.node]);
      const suggestions = await this.explain.showNode(sel.node);
      if (this.selection !== sel) return;
      if (suggestions) {
        this.view.setHighlight({
          selected: [sel.node],
          neighbors: g.neighbors(sel.node),
          candidates: suggestions.map((s) => ({ node: s.node, prob: s.prob })),
        });
      }
      return;
    }
    this.view.setHighlight({ selected: [sel.i, sel.j], neighbors: [...g.neighbors(sel.i), ...g.neighbors(sel.j)] });
    this.view.focus([sel.i, sel.j]);
    const ex = await this.explain.showPair(sel.i, sel.j);
    if (this.selection !== sel || ex === null) return;
    this.view.setHighlight(pairHighlight(ex));
  }

  /** Records the graph and selection in the URL hash (replacing the entry: selections are not history). */
  writeHash(): void {
    const g = this.graph;
    const s = this.selection;
    const link: Partial<DeepLink> = { data: this.dataKey, seed: this.dataSeed };
    if (g && s.kind === "pair") link.pair = [g.id(s.i), g.id(s.j)];
    if (g && s.kind === "node") link.node = g.id(s.node);
    const hash = formatHash(link);
    if (hash !== location.hash) history.replaceState(null, "", hash === "" ? location.pathname + location.search : hash);
  }

  private renderLegend(g: LoadedGraph): void {
    const swatch = (color: string, text: string) => {
      const dot = h("span", { class: "swatch" });
      dot.style.background = color;
      return h("span", {}, dot, text);
    };
    const classes: HTMLElement[] = [];
    const names = g.desc.classNames;
    if (g.labels !== null) {
      const count = names?.length ?? Math.max(0, ...g.labels) + 1;
      for (let c = 0; c < Math.min(count, 12); c++) classes.push(swatch(classColor(c), names?.[c] ?? `class ${c}`));
    }
    // The explanation's colours reuse two class colours; the rest of the
    // graph turns grey while a pair is shown, so they never meet.
    const marks = [swatch(SIDE_I, "i's side"), swatch(SIDE_J, "j's side"), swatch(COMMON, "common neighbour")];
    if (g.desc.hasGroundtruth) marks.push(swatch(GROUNDTRUTH, "groundtruth"));
    replace(
      this.legend,
      classes.length > 0 ? h("span", { class: "group" }, h("span", { class: "group-label" }, "Classes:"), ...classes) : null,
      h("span", { class: "group" }, h("span", { class: "group-label" }, "Explanations:"), ...marks),
    );
  }
}

/** Options of a graph load. */
export interface LoadOptions {
  /** Restore the newest completed matching checkpoint without asking (deep links). */
  autoRestore?: boolean;
  /** Train at once when no checkpoint fits (`train=1` links). */
  autoTrain?: boolean;
}

/** Resolves in a later task, letting the browser handle input and paint in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A readable message of any error; engine errors keep their file and line. */
export function errorText(e: unknown): string {
  if (e instanceof EngineError) {
    if (e.code === "bad_input" && e.file && !e.message.includes(e.file)) {
      return `${e.file}${e.line ? `, line ${e.line}` : ""}: ${e.message}`;
    }
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
