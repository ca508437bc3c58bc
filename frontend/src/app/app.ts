// The app's composition root: one engine (the Go core in a Web Worker), one
// graph view with its input, the panels around them, and the store they
// share (store.ts). The App wires them and carries out the changes that
// touch several at once — opening a graph, making a model current,
// selecting — so the canvas, the panels and the URL hash change together.
// Panels never import this module: each gets the store, the engine calls
// it makes and a narrow interface of the actions it needs.

import type { EngineClient } from "../client";
import type { EngineInfo, GraphDescription, GraphInfo, ModelInfo, Preset, StorageInfo } from "../protocol";
import { byId } from "./dom";
import { errorText } from "./errors";
import { findNodes, GraphInput, GraphView } from "./graph/index";
import { linkWorkers } from "./cores";
import { forget, kept, keep, keptList } from "./filestore";
import { LoadedGraph } from "./graphdata";
import { DEFAULT_DATA, formatHash, parseHash, presetOf, type DeepLink } from "./hash";
import { renderLegend } from "./legend";
import { filesTooLarge } from "./limits";
import { graphSummary, inputNotesText } from "./summary";
import { CheckpointsPanel, storageLostText } from "./panels/checkpoints";
import { DataPanel } from "./panels/data";
import { ExplainPanel } from "./panels/explain";
import { InsightPanel } from "./panels/insight";
import { TrainPanel } from "./panels/train";
import { NeighborCursor } from "./stepper";
import { AppStore, type AppMetrics, type CurrentModel, type Selection } from "./store";

export class App {
  readonly store = new AppStore();
  readonly engine: EngineClient;
  readonly view: GraphView;
  readonly input: GraphInput;

  readonly data: DataPanel;
  readonly train: TrainPanel;
  readonly explain: ExplainPanel;
  readonly insight: InsightPanel;
  readonly checkpoints: CheckpointsPanel;

  private readonly status = byId("status", HTMLElement);
  private readonly legend = byId("legend", HTMLElement);
  private readonly graphInfo = byId("graph-info", HTMLElement);
  private readonly layoutStatus = byId("layout-status", HTMLElement);
  /** Says on the canvas what it waits for (the engine, the graph) while it has nothing to draw. */
  private readonly canvasNote = byId("canvas-note", HTMLElement);
  private readonly announce = byId("graph-announce", HTMLElement);
  /** Where the canvas's ] and [ keys stand among a node's neighbours. */
  private readonly cursor = new NeighborCursor();
  private loading: Promise<unknown> = Promise.resolve();
  /** A link whose graph from files this browser does not keep: its pair or node is shown once those files are opened. */
  private waitingLink: DeepLink | null = null;

  // Read-only views of the store, for the browser tests and the console.
  get metrics(): AppMetrics {
    return this.store.metrics;
  }
  get graph(): LoadedGraph | null {
    return this.store.get("graph");
  }
  get dataKey(): string {
    return this.store.get("dataKey");
  }
  get model(): CurrentModel | null {
    return this.store.get("model");
  }
  get selection(): Selection {
    return this.store.get("selection");
  }
  get training(): boolean {
    return this.store.get("training");
  }
  /** The epoch whose weights answer while a run trains (null: none). */
  get kept(): number | null {
    return this.store.get("kept");
  }

  constructor(engine: EngineClient) {
    this.engine = engine;
    const store = this.store;
    const canvas = byId("graph", HTMLCanvasElement);
    this.view = new GraphView(canvas, {
      layoutWorkerUrl: new URL("layout.js", import.meta.url),
      tooltip: byId("tooltip", HTMLElement),
      onLayoutProgress: () => this.showLayoutStatus(),
    });
    this.input = new GraphInput(canvas, this.view, {
      onNodeClick: (node) => this.clickNode(node),
      onBackgroundClick: () => void this.select({ kind: "none" }),
      onStep: (dir) => this.stepNeighbor(dir),
      onActivate: () => this.explainCursor(),
    });
    const setStatus = (text: string) => this.setStatus(text);
    const setModel = (info: ModelInfo) => this.setModel(info);
    this.data = new DataPanel(store, {
      generate: (preset, seed) => this.generate(preset, seed),
      openFiles: (files) => this.openFiles(files),
      openKept: (dataKey) => this.openKept(dataKey),
      forgetFiles: (dataKey) => this.forgetFiles(dataKey),
      importCheckpoint: (file) => this.checkpoints.importFile(file),
    });
    this.train = new TrainPanel(store, engine, {
      setModel,
      modelMeasured: (info) => {
        const m = store.get("model");
        if (m !== null && m.info.key === info.key) store.set("model", { ...m, info });
      },
      setStatus,
      engineStopped: () => this.engineStopped(),
      refreshCheckpoints: () => this.checkpoints.refresh(),
      modelKept: () => void this.checkpoints.modelKept(),
      restoreCheckpoint: (key) => this.checkpoints.restore(key),
      writeHash: () => this.writeHash(),
    });
    this.explain = new ExplainPanel(store, engine, {
      select: (sel) => this.select(sel),
      refresh: () => void this.select(store.get("selection"), true),
      highlight: (hl) => {
        this.view.setHighlight(hl);
        // The walk-through's steps keep the pair on screen.
        this.view.keepInView(hl.selected);
      },
      stepChanged: () => this.writeHash(),
    });
    this.insight = new InsightPanel(store, engine);
    this.checkpoints = new CheckpointsPanel(store, engine, {
      setModel,
      setStatus,
      hideRestoreOffer: () => this.train.hideOffer(),
      openKeptAndRestore: (dataKey, key) => this.openKept(dataKey, key),
    });
    // A node or pair selected while a run trained showed "Training is
    // running"; when the run ends (done, cancelled or failed) it shows
    // what the model now says, or that there is no model.
    // A small screen shows Train right under the graph until something is
    // selected, then the explanation (app.css).
    store.subscribe("selection", (sel) => document.body.classList.toggle("has-selection", sel.kind !== "none"));
    store.subscribe("training", (on) => {
      if (!on && store.get("selection").kind !== "none") void this.select(store.get("selection"), true);
    });
    // The layout holds while a run trains, so that it never takes a core
    // from the engine's workers; it goes on when the run ends.
    store.subscribe("training", (on) => {
      this.view.setLayoutPaused(on);
      this.showLayoutStatus();
    });
    // The first weights a run keeps answer at once what is selected;
    // better ones later are offered (the explanation view's refresh).
    store.subscribe("kept", (epoch, was) => {
      if (epoch !== null && was === null && store.get("training") && store.get("selection").kind !== "none") void this.select(store.get("selection"), true);
    });
    byId("fit", HTMLButtonElement).addEventListener("click", () => this.view.fit());
    const search = byId("search", HTMLInputElement);
    byId("search-form", HTMLFormElement).addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.search(search.value);
    });
    window.addEventListener("hashchange", () => void this.applyLink(parseHash(location.hash)));
    // Skip links move focus themselves: the hash is the app's deep link.
    for (const a of document.querySelectorAll<HTMLAnchorElement>("a[data-skip]")) {
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        const target = document.getElementById(a.dataset["skip"] ?? "");
        if (target === null) return;
        target.closest("details")?.setAttribute("open", "");
        if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.tabIndex = -1;
        target.focus();
      });
    }
  }

  /** The node whose neighbours the canvas's keys step through: the selected node, or a pair's i end. */
  private stepAnchor(): number | null {
    const s = this.store.get("selection");
    return s.kind === "node" ? s.node : s.kind === "pair" ? s.i : null;
  }

  /** ] and [ on the canvas: ring the next or previous neighbour and say which it is. */
  private stepNeighbor(dir: 1 | -1): void {
    const g = this.store.get("graph");
    const anchor = this.stepAnchor();
    if (g === null || anchor === null) {
      this.announce.textContent = "Select a node first (click it, or find it by id); then ] and [ step through its neighbours.";
      return;
    }
    const at = this.cursor.step(anchor, g.neighbors(anchor), dir);
    if (at === null) {
      this.view.setCursor(-1);
      this.announce.textContent = `Node ${g.id(anchor)} has no neighbours.`;
      return;
    }
    this.view.setCursor(at.node);
    const cls = g.className(at.node);
    this.announce.textContent = `Neighbour ${at.index + 1} of ${at.count} of node ${g.id(anchor)}: node ${g.id(at.node)}${cls ? ` (${cls})` : ""}. Enter explains ${g.id(anchor)} – ${g.id(at.node)}.`;
  }

  /** Enter on the canvas: explain the pair the keys stand on; focus stays on the canvas, the explanation follows in the panel. */
  private explainCursor(): void {
    const g = this.store.get("graph");
    const at = g ? this.cursor.current((v) => g.neighbors(v)) : null;
    if (g === null || at === null) {
      this.announce.textContent = "Step to a neighbour with ] or [ first; Enter then explains the pair.";
      return;
    }
    this.announce.textContent = `Explaining ${g.id(at.anchor)} – ${g.id(at.node)} in the Explain panel.`;
    void this.select({ kind: "pair", i: at.anchor, j: at.node });
  }

  /** Starts the app: waits for the engine, then opens what the URL asks for (the synthetic demo graph by default). */
  async start(): Promise<void> {
    this.setStatus("Starting the engine…");
    this.showCanvasNote("Starting the engine…");
    let info: EngineInfo;
    try {
      info = await this.engine.ready;
    } catch (e) {
      this.setStatus(`The engine could not start: ${errorText(e)}`);
      this.showCanvasNote(`The engine could not start: ${errorText(e)}. Reload the page to try again.`);
      throw e;
    }
    this.store.set("engineInfo", info);
    this.store.metrics.engineReadyMs = performance.now();
    this.checkpoints.showStorage(info.storage);
    this.setStatus("Engine ready");
    void this.train.loadDefaults();
    void this.refreshKept();
    await this.applyLink(parseHash(location.hash), true);
  }

  /** Shows `text` over the canvas, or with null takes the note away. */
  private showCanvasNote(text: string | null): void {
    this.canvasNote.textContent = text ?? "";
    this.canvasNote.hidden = text === null;
  }

  /** Tells the picker and the checkpoint list which graphs this browser keeps (filestore.ts), so both can reopen them. */
  private async refreshKept(): Promise<void> {
    const list = await keptList();
    this.data.setKept(list);
    this.checkpoints.setKept(list);
  }

  /**
   * Reopens a graph kept in this browser (the picker's "Your files"),
   * then, given a checkpoint key, restores that model. False when the
   * graph is no longer kept or does not open.
   */
  async openKept(dataKey: string, restoreKey?: string): Promise<boolean> {
    const k = await kept(dataKey);
    if (k === null) {
      this.data.showNote("This browser no longer keeps those files: open them again with Open files….");
      await this.refreshKept();
      this.data.showGraph(this.store.get("dataKey"), this.store.get("dataSeed"));
      return false;
    }
    if (k.dataKey !== this.store.get("dataKey") && !(await this.openBytes(k.dataKey, k.files, {}, false))) {
      this.data.showGraph(this.store.get("dataKey"), this.store.get("dataSeed"));
      return false;
    }
    return restoreKey === undefined ? true : this.checkpoints.restore(restoreKey);
  }

  /** Deletes a kept graph's files ("Forget them", "Remove"); the picker and the checkpoint list stop offering it. */
  private async forgetFiles(dataKey: string): Promise<void> {
    await forget(dataKey);
    await this.refreshKept();
  }

  /** Says under the graph whether its layout is still arranging it, or held while a run trains. */
  private showLayoutStatus(): void {
    const v = this.view;
    // The view's own state: its graph comes before the store's.
    this.layoutStatus.textContent = v.layoutDone() || v.positions() === null ? "" : this.store.get("training") ? "layout paused while training" : "arranging…";
  }

  /** Says `text` in the status line. */
  setStatus(text: string): void {
    // Once the engine is gone, that stays the news: the requests it failed
    // end after it and would otherwise say "No graph loaded".
    const dead = this.engine.error;
    this.status.textContent = dead === undefined ? text : `The engine stopped: ${errorText(dead)}. Reload the page to start it again; the models stored in this browser are kept.`;
  }

  /**
   * The engine's checkpoint store went away after ready (another tab
   * opened a newer release's database): the storage line and the status
   * line say so and how to go on.
   */
  storageChanged(storage: StorageInfo): void {
    this.checkpoints.showStorage(storage, !storage.available);
    if (!storage.available) this.setStatus(storageLostText(storage.message));
  }

  /** The engine is gone (out of memory, say): the status line says so and how to go on. */
  engineStopped(): void {
    this.setStatus("");
    this.train.showRunButtons();
  }

  /** Opens what a deep link names, then selects its pair or node. */
  async applyLink(link: DeepLink, first = false): Promise<void> {
    this.applyWorkers(link.workers);
    let data = link.data ?? DEFAULT_DATA;
    const seed = link.seed ?? 0;
    const focus = { autoRestore: link.pair !== null || link.node !== null, autoTrain: link.train };
    this.waitingLink = null;
    if (data.startsWith("file:") && data !== this.store.get("dataKey")) {
      const k = await kept(data);
      if (k === null) {
        this.awaitFiles(link, first);
        return;
      }
      if (!(await this.openBytes(data, k.files, focus, false))) return;
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
    const s = this.store;
    if (s.get("graph") === null || data !== s.get("dataKey") || seed !== s.get("dataSeed")) {
      const ok = await this.generate(presetOf(data) ?? "medium", seed, focus);
      if (!ok) return;
    }
    await this.selectLinked(link);
  }

  /**
   * A link names a graph from files that this browser does not keep: the
   * page says which and waits for its files (the link's pair follows once
   * they open), rather than showing another graph in its place. A first
   * visit with nothing loaded offers the demo graph too.
   */
  private awaitFiles(link: DeepLink, first: boolean): void {
    const name = (link.data ?? "").replace(/^file:/, "");
    this.waitingLink = link;
    const none = this.store.get("graph") === null;
    const demo =
      first && none
        ? () => {
            this.waitingLink = null;
            void this.generate("medium", 0);
          }
        : null;
    this.data.showMissing(name, demo);
    if (none) {
      this.setStatus("No graph loaded");
      this.showCanvasNote(`This link needs the graph ${name}, which this browser does not keep: open its files above.`);
    }
  }

  /** Takes a link's `workers` (absent: auto); a bad value is ignored, and the training panel says so. */
  private applyWorkers(raw: string | null): void {
    const info = this.store.get("engineInfo");
    if (info === null) return;
    const linked = linkWorkers(raw, info.maxWorkers);
    this.train.showCoresNote(linked.note ?? null);
    if (linked.note === undefined) this.store.set("workers", linked.workers);
  }

  /** Selects a link's pair or node on the loaded graph. */
  private async selectLinked(link: DeepLink): Promise<void> {
    const g = this.store.get("graph");
    if (g === null) return;
    if (link.pair) {
      const [a, b] = link.pair.map((ref) => g.resolve(ref));
      if (a === null || a === undefined || b === null || b === undefined) {
        this.data.showNote(`The link's pair ${link.pair.join(",")} names no node of this graph.`);
        return;
      }
      this.explain.requestStep(a, b, link.step);
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
    const refusal = filesTooLarge(files);
    if (refusal !== null) return this.open(`file:${stem}`, null, () => Promise.reject(new Error(refusal)), {});
    const bytes: Record<string, Uint8Array> = {};
    for (const f of files) bytes[f.name] = new Uint8Array(await f.arrayBuffer());
    const waiting = this.waitingLink;
    const linked = waiting !== null && waiting.data === `file:${stem}`;
    const ok = await this.openBytes(`file:${stem}`, bytes, linked ? { autoRestore: waiting.pair !== null || waiting.node !== null } : {}, true);
    // The files a link waited for: its pair or node (and step) follow.
    if (ok && linked && this.waitingLink === waiting) {
      this.waitingLink = null;
      await this.selectLinked(waiting);
    }
    return ok;
  }

  /** Loads file contents; with `keepThem`, a graph that loads is kept for the next visit. */
  private openBytes(dataKey: string, files: Record<string, Uint8Array>, options: LoadOptions, keepThem: boolean): Promise<boolean> {
    return this.open(
      dataKey,
      null,
      async () => {
        // Not transferred: the same buffers go to IndexedDB next.
        const info = await this.engine.loadFiles(files, { transfer: false });
        if (keepThem) {
          void keep(dataKey, files, { name: info.name, fingerprint: info.fingerprint }).then(async (r) => {
            this.data.showKept(dataKey, r);
            await this.refreshKept();
          });
        } else this.data.showKept(dataKey, { kept: true });
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
      const store = this.store;
      if (store.get("training")) {
        this.data.showError("Training is running: cancel it before opening another graph.");
        return false;
      }
      const t0 = performance.now();
      this.data.setBusy(true);
      this.setStatus("Loading the graph…");
      if (store.get("graph") === null) this.showCanvasNote("Loading the graph…");
      let info: GraphInfo;
      try {
        info = await load();
      } catch (e) {
        const old = store.get("graph");
        this.data.showError(errorText(e), old?.desc.name);
        this.setStatus(old ? `Showing ${old.desc.name}` : "No graph loaded");
        if (old === null) this.showCanvasNote("No graph loaded: pick one above, or open your files.");
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
      const model = store.get("model");
      store.update({
        graph: g,
        dataKey,
        dataSeed: seed,
        model: model && model.fingerprint !== info.fingerprint ? null : model,
        selection: { kind: "none" },
      });
      this.cursor.reset();
      this.announce.textContent = "";
      this.data.clearError();
      const notes = inputNotesText(info);
      if (notes) this.data.showNote(notes);
      this.data.showGraph(dataKey, seed);
      this.explain.reset(true);
      this.insight.reset();
      this.train.graphChanged();
      renderLegend(this.legend, g);
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
      this.showCanvasNote(null);
      const now = performance.now();
      store.metrics.lastLoadMs = now - t0;
      store.metrics.firstGraphMs ??= now;
      this.data.setBusy(false);
      await this.checkpoints.refresh();
      // Only a completed run is restored unasked; a cancelled one is offered.
      const last = this.checkpoints.lastMatching();
      const none = store.get("model") === null;
      if (none && last?.completed) {
        if (options.autoRestore) await this.checkpoints.restore(last.meta.key);
        else this.train.offerRestore(last.meta);
      } else if (none && options.autoTrain) {
        await this.train.start();
      } else if (none && last) {
        this.train.offerRestore(last.meta);
      }
      return true;
    });
    this.loading = run.catch(() => undefined);
    return run;
  }

  /** A model became current (trained or restored). */
  setModel(info: ModelInfo): void {
    const g = this.store.get("graph");
    if (g === null) return;
    this.store.set("model", { info, fingerprint: g.desc.fingerprint });
    this.train.showModel(info);
    this.insight.reset();
    void this.select(this.store.get("selection"));
  }

  private clickNode(node: number): void {
    const s = this.store.get("selection");
    if (s.kind === "node" && s.node !== node) void this.select({ kind: "pair", i: s.node, j: node });
    else if (s.kind === "node" && s.node === node) void this.select({ kind: "none" });
    else void this.select({ kind: "node", node });
  }

  /**
   * Finds nodes by id or class name: one match (or an exact id) is
   * selected; several are ringed on the canvas and listed in the panel.
   */
  search(query: string): void {
    const g = this.store.get("graph");
    if (g === null || query.trim() === "") return;
    const d = g.desc;
    const found = findNodes(query, { ids: d.ids, labels: g.labels, classNames: d.classNames }, 200);
    const exact = found.length > 0 && d.ids[found[0]!] === query.trim();
    if (found.length === 1 || exact) {
      void this.select({ kind: "node", node: found[0]! });
      return;
    }
    this.store.set("selection", { kind: "none" });
    this.writeHash();
    this.view.setHighlight(found.length > 0 ? { selected: found } : null);
    if (found.length > 0) this.view.focus(found);
    this.explain.reveal();
    this.explain.showMatches(query.trim(), found);
  }

  /**
   * Changes the selection: canvas highlight, explanation panel and hash.
   * With `redraw` the selection stays what it was and is shown again (a
   * model came or went): the panel and the view stay where they are.
   */
  async select(sel: Selection, redraw = false): Promise<void> {
    const store = this.store;
    store.set("selection", sel);
    this.writeHash();
    // The keys' cursor belongs to its node: another node (or none) drops it.
    const anchor = this.stepAnchor();
    if (anchor === null || anchor !== this.cursor.anchorNode()) {
      this.cursor.reset();
      this.view.setCursor(-1);
      this.announce.textContent = "";
    }
    if (sel.kind !== "none" && !redraw) this.explain.reveal();
    const g = store.get("graph");
    if (g === null || sel.kind === "none") {
      this.view.setHighlight(null);
      this.explain.reset();
      return;
    }
    if (sel.kind === "node") {
      this.view.setHighlight({ selected: [sel.node], neighbors: g.neighbors(sel.node) });
      if (!redraw) this.view.focus([sel.node]);
      const suggestions = await this.explain.showNode(sel.node);
      if (store.get("selection") !== sel) return;
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
    if (!redraw) this.view.focus([sel.i, sel.j]);
    const ex = await this.explain.showPair(sel.i, sel.j);
    if (store.get("selection") !== sel || ex === null) return;
    this.view.setHighlight(this.explain.highlightFor(ex));
  }

  /** Records the graph and selection in the URL hash (replacing the entry: selections are not history). */
  writeHash(): void {
    const g = this.store.get("graph");
    const s = this.store.get("selection");
    const workers = this.store.get("workers");
    const link: Partial<DeepLink> = { data: this.store.get("dataKey"), seed: this.store.get("dataSeed"), workers: workers === null ? null : String(workers) };
    if (g && s.kind === "pair") {
      link.pair = [g.id(s.i), g.id(s.j)];
      link.step = this.explain.walkStep();
    }
    if (g && s.kind === "node") link.node = g.id(s.node);
    const hash = formatHash(link);
    if (hash !== location.hash) history.replaceState(null, "", hash === "" ? location.pathname + location.search : hash);
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
