// GraphView: the graph canvas. The layout runs in a worker
// (layout-worker.ts); this side draws on one 2D canvas, only when something
// changed, in a requestAnimationFrame callback. Small graphs are drawn
// whole every frame; larger ones (Cora up) get their static layer (all
// edges and nodes) rendered by the worker into an ImageBitmap, which this
// side blits under the current transform (~1 ms at any size) and asks the
// worker to re-render whenever the view changed (one request in flight).
// The highlight overlay is always drawn here. Input (pan, zoom, hover,
// clicks) is GraphInput's (input.ts), which drives this view.
import { classColor, NEUTRAL } from "../palette";
import { buildTree, hitTest, type NodeTree } from "./hit";
import { frameServes, type FromWorker, type StaticStyle, type ToWorker, type ViewSpec } from "./layout-protocol";
import { drawCursorRing, drawHoverRing, drawOverlay, innerEdges, neighborEdges } from "./overlay";
import { drawStatic } from "./render-core";
import { nodeStyle } from "./style";
import { Tooltip } from "./tooltip";
import { bounds, clampZoom, fitTransform, IDENTITY, screenRadius, toWorld, type Transform } from "./transform";
import type { FrameStats, GraphData, Highlight } from "./types";

export interface GraphViewOptions {
  layoutWorkerUrl: string | URL;
  /** The element the hovered node's tooltip is shown in. */
  tooltip?: HTMLElement;
  onLayoutProgress?: (p: { tick: number; alpha: number; done: boolean; paused: boolean }) => void;
  /**
   * Who draws the static layer: "page" every frame, "worker" as a bitmap;
   * "auto" (default) picks the worker when n + m/4 > WORKER_RENDER_COST.
   */
  staticLayer?: "auto" | "page" | "worker";
}

/**
 * Graphs whose n + m/4 exceeds this have their static layer drawn by the
 * worker. Software rasterisation costs about 2.5 us per node disc and
 * 0.5 us per edge: drawn by the page, Cora (n + m/4 = 4,028) took 7.4-9.2 ms
 * a frame, Photo (37,420) 55-130 ms; blitting the worker's bitmap ~1 ms.
 */
export const WORKER_RENDER_COST = 1_500;
/** Extra hit-test reach around a node's disc (CSS px). */
const HIT_TOLERANCE = 4;

export class GraphView {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly opts: GraphViewOptions;
  private worker: Worker | null = null;
  private data: GraphData | null = null;
  private pos: Float32Array | null = null;
  private style: StaticStyle | null = null;
  private maxRadius = 1;
  private tree: NodeTree | null = null;
  private run = 0;
  private t: Transform = IDENTITY;
  private autoFit = true;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private highlight: Highlight | null = null;
  private emphasised: number[] = [];
  private inner: number[] = [];
  /** The node the keyboard stepped to (-1: none): ringed over the highlight. */
  private cursor = -1;
  private workerRender = false;
  private frame: { bitmap: ImageBitmap; view: ViewSpec } | null = null;
  private viewReq = 0;
  private viewInFlight = false;
  private raf = 0;
  private hover = -1;
  private readonly tooltip: Tooltip | null;
  private done = false;
  /** Whether the page holds the layout (setLayoutPaused), and the worker's last report of it. */
  private paused = false;
  private workerPaused = false;
  private ticks = 0;
  private pending: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private stats = { frames: 0, sum: 0, max: 0 };
  private readonly observer: ResizeObserver | null;
  private destroyed = false;

  constructor(canvas: HTMLCanvasElement, options: GraphViewOptions) {
    this.canvas = canvas;
    this.opts = options;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("GraphView: no 2D canvas context");
    this.ctx = ctx;
    this.tooltip = options.tooltip ? new Tooltip(options.tooltip) : null;
    this.observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.resize()) : null;
    this.observer?.observe(canvas);
    canvas.setAttribute("aria-label", "Graph view: no graph loaded");
    this.resize();
  }

  // ---- public API ----

  setGraph(data: GraphData, options: { seed?: number; positions?: Float32Array } = {}): Promise<void> {
    if (this.destroyed) return Promise.reject(new Error("GraphView destroyed"));
    this.pending?.resolve(); // a previous setGraph is superseded
    this.pending = null;
    const worker = this.ensureWorker();
    const run = ++this.run;
    this.data = data;
    this.pos = null;
    this.tree = null;
    this.done = false;
    this.ticks = 0;
    this.autoFit = true;
    this.hover = -1;
    this.highlight = null;
    this.emphasised = [];
    this.inner = [];
    this.cursor = -1;
    this.setFrame(null);
    this.viewInFlight = false;
    const n = data.n;
    const m = data.edges.length >> 1;
    const { style, maxRadius } = nodeStyle(data);
    this.style = style;
    this.maxRadius = maxRadius;
    const mode = this.opts.staticLayer ?? "auto";
    this.workerRender = mode === "worker" || (mode === "auto" && n + m / 4 > WORKER_RENDER_COST);
    const msg: ToWorker = {
      type: "start",
      run,
      n,
      edges: data.edges.slice(),
      seed: options.seed ?? 0,
      ...(options.positions ? { positions: options.positions.slice() } : {}),
      ...(this.workerRender ? { style: { ...style, colorIndex: style.colorIndex.slice(), radius: style.radius.slice() } } : {}),
    };
    worker.postMessage(msg, [msg.edges.buffer]);
    this.requestRender();
    this.updateLabel();
    this.tooltip?.hide();
    return new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
    });
  }

  /** What the overlay shows (null: nothing highlighted). */
  currentHighlight(): Highlight | null {
    return this.highlight;
  }

  setHighlight(h: Highlight | null): void {
    this.highlight = h;
    this.emphasised = h && this.data ? neighborEdges(h, this.data.edges) : [];
    this.inner = h && this.data ? innerEdges(h, this.data.edges) : [];
    this.requestRender();
    this.invalidate();
  }

  /**
   * Rings node i as the keyboard's current node (-1: none) and, when it is
   * off screen, brings it into view.
   */
  setCursor(i: number): void {
    this.cursor = this.data && i >= 0 && i < this.data.n ? i : -1;
    if (this.cursor >= 0) this.keepInView([this.cursor]);
    this.invalidate();
  }

  /** Brings nodes into view (focus) when any of them is off screen; leaves the view alone otherwise. */
  keepInView(nodes: number[]): void {
    const off = nodes.some((v) => {
      const p = this.screenOf(v);
      return p !== null && (p[0] < 0 || p[1] < 0 || p[0] > this.width || p[1] > this.height);
    });
    if (off) this.focus(nodes);
  }

  /** The keyboard's current node, or -1. */
  cursorNode(): number {
    return this.cursor;
  }

  focus(nodes: number[], options: { zoom?: boolean } = {}): void {
    if (!this.pos || nodes.length === 0) return;
    const b = bounds(this.pos, nodes);
    if (!b) return;
    this.autoFit = false;
    // Zoom out if they do not fit at the current scale; with zoom, also in (up to 2x or the current scale).
    const fitted = fitTransform(b, this.width, this.height, 80).k;
    const k = clampZoom(options.zoom ? Math.min(fitted, Math.max(this.t.k, 2)) : Math.min(fitted, this.t.k));
    const cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2;
    this.setTransform({ k, x: this.width / 2 - cx * k, y: this.height / 2 - cy * k });
  }

  fit(): void {
    this.autoFit = !this.done;
    this.applyFit();
  }

  /** Stops fitting the view to the layout as it moves (the user panned or zoomed). */
  holdView(): void {
    this.autoFit = false;
  }

  /** The canvas size in CSS pixels. */
  size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  positions(): Float32Array | null {
    return this.pos ? this.pos.slice() : null;
  }

  layoutDone(): boolean {
    return this.done;
  }

  /**
   * Holds the layout (true) or lets it go on (false): while held, the
   * worker runs no iterations, for this graph and any later one, and still
   * draws the picture for new views.
   */
  setLayoutPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (this.worker) {
      const msg: ToWorker = { type: "pause", paused };
      this.worker.postMessage(msg);
    }
  }

  /** Whether the layout is held and not done, as the worker last said. */
  layoutPaused(): boolean {
    return this.workerPaused && !this.done;
  }

  /** Iterations the worker reported for the current graph's layout. */
  layoutTicks(): number {
    return this.ticks;
  }

  frameStats(reset = false): FrameStats {
    const { frames, sum, max } = this.stats;
    const out = { frames, meanMs: frames ? sum / frames : 0, maxMs: max };
    if (reset) this.stats = { frames: 0, sum: 0, max: 0 };
    return out;
  }

  resize(): void {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const dpr = globalThis.devicePixelRatio || 1;
    if (w === this.width && h === this.height && dpr === this.dpr) return;
    // A view the user (or a selection) placed keeps its centre where it
    // was: a narrower window must not push the explained pair off screen.
    if (!this.autoFit && this.width > 0 && this.height > 0) this.t = { ...this.t, x: this.t.x + (w - this.width) / 2, y: this.t.y + (h - this.height) / 2 };
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(w * dpr));
    this.canvas.height = Math.max(1, Math.round(h * dpr));
    if (this.autoFit) this.applyFit();
    this.requestRender();
    this.invalidate();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.worker?.terminate();
    this.worker = null;
    this.observer?.disconnect();
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.setFrame(null);
    this.tooltip?.hide();
    this.pending?.resolve();
    this.pending = null;
  }

  // ---- extras (tests, integration) ----

  /** The node drawn at canvas point (x, y) in CSS pixels, or -1. */
  nodeAt(x: number, y: number): number {
    if (!this.pos || !this.style) return -1;
    if (!this.tree) this.tree = buildTree(this.pos);
    const [wx, wy] = toWorld(this.t, x, y);
    const k = this.t.k;
    const radius = this.style.radius;
    return hitTest(this.tree, this.pos, wx, wy, (i) => screenRadius(radius[i]!, k) / k, screenRadius(this.maxRadius, k) / k, HIT_TOLERANCE / k);
  }

  /** Canvas point (CSS px) where node i is drawn, or null. */
  screenOf(i: number): [number, number] | null {
    const x = this.pos?.[2 * i], y = this.pos?.[2 * i + 1];
    if (x === undefined || y === undefined) return null;
    return [x * this.t.k + this.t.x, y * this.t.k + this.t.y];
  }

  transform(): Transform {
    return this.t;
  }

  setTransform(t: Transform): void {
    this.t = { k: clampZoom(t.k), x: t.x, y: t.y };
    this.requestRender();
    this.invalidate();
  }

  /** "page" or "worker": who draws the static layer of the current graph. */
  staticLayer(): "page" | "worker" {
    return this.workerRender ? "worker" : "page";
  }

  /** Whether edges are on screen yet (worker mode draws nodes alone until its first bitmap). */
  staticLayerReady(): boolean {
    return this.pos !== null && (!this.workerRender || this.frame !== null);
  }

  // ---- worker ----

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.opts.layoutWorkerUrl);
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.onWorkerMessage(ev.data);
    if (this.paused) {
      const msg: ToWorker = { type: "pause", paused: true };
      w.postMessage(msg);
    }
    w.onerror = (ev) => {
      ev.preventDefault();
      this.fail(new Error(`layout worker failed: ${ev.message || "could not load"}`));
    };
    this.worker = w;
    return w;
  }

  private fail(err: Error): void {
    console.error(err);
    this.pending?.reject(err);
    this.pending = null;
  }

  private onWorkerMessage(msg: FromWorker): void {
    if (msg.run !== this.run || this.destroyed) {
      if (msg.type === "positions") msg.frame?.bitmap.close();
      return;
    }
    if (msg.type === "error") {
      this.fail(new Error(`layout: ${msg.message}`));
      return;
    }
    this.pos = msg.positions;
    this.tree = null;
    if (msg.frame) {
      if (msg.frame.view.req >= this.viewReq) this.viewInFlight = false;
      this.setFrame(msg.frame);
      // The worker fitted the view to these positions: adopt its transform.
      if (msg.frame.view.fit && this.autoFit) this.t = { k: msg.frame.view.k, x: msg.frame.view.x, y: msg.frame.view.y };
    } else if (this.autoFit && (!this.workerRender || !this.frame)) {
      this.applyFit();
    }
    const wasDone = this.done;
    this.done = msg.done;
    this.workerPaused = msg.paused;
    this.ticks = msg.tick;
    if (msg.done && !wasDone) {
      this.updateLabel();
      if (this.autoFit) this.applyFit();
      this.requestRender();
    }
    this.opts.onLayoutProgress?.({ tick: msg.tick, alpha: msg.alpha, done: msg.done, paused: msg.paused });
    this.invalidate();
  }

  private setFrame(f: { bitmap: ImageBitmap; view: ViewSpec } | null): void {
    this.frame?.bitmap.close();
    this.frame = f;
  }

  /** Asks the worker for a static layer matching the current view (large graphs; one request in flight). */
  private requestRender(): void {
    if (!this.workerRender || !this.worker || !this.data) return;
    if (this.width === 0 || this.height === 0) return;
    const want = { width: this.width, height: this.height, dpr: this.dpr, k: this.t.k, x: this.t.x, y: this.t.y, dimmed: this.highlight !== null, fit: this.autoFit };
    if (this.frame && frameServes(this.frame.view, want)) return;
    if (this.viewInFlight) return; // re-checked when the frame arrives (invalidate -> draw)
    const view: ViewSpec = { req: ++this.viewReq, ...want };
    this.viewInFlight = true;
    const msg: ToWorker = { type: "view", run: this.run, view };
    this.worker.postMessage(msg);
  }

  // ---- drawing ----

  private invalidate(): void {
    if (!this.raf && !this.destroyed) this.raf = requestAnimationFrame(() => this.draw());
  }

  private draw(): void {
    this.raf = 0;
    const t0 = performance.now();
    const { ctx, pos, style, data } = this;
    const w = this.width, h = this.height, dpr = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    if (!pos || !style || !data || w === 0 || h === 0) {
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      return;
    }
    const dimmed = this.highlight !== null;
    if (this.workerRender) {
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      const f = this.frame;
      if (f) {
        // The worker's bitmap, mapped from its transform to the current one.
        const s = this.t.k / f.view.k;
        ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * (this.t.x - s * f.view.x), dpr * (this.t.y - s * f.view.y));
        // Until a dimmed render arrives, dim by transparency.
        if (dimmed && !f.view.dimmed) ctx.globalAlpha = 0.3;
        ctx.drawImage(f.bitmap, 0, 0, f.view.width, f.view.height);
        ctx.globalAlpha = 1;
        this.requestRender();
      } else {
        // No bitmap yet: the nodes alone (cheap), so the graph shows at once.
        drawStatic(ctx, { pos, edges: new Uint32Array(0), ...style }, this.t, w, h, dpr, dimmed);
      }
    } else {
      drawStatic(ctx, { pos, edges: data.edges, ...style }, this.t, w, h, dpr, dimmed);
    }
    if (this.highlight) {
      const { labels } = data;
      drawOverlay(ctx, this.highlight, { pos, neighborEdges: this.emphasised, innerEdges: this.inner, radius: style.radius, ids: data.ids, colorOf: (i) => colorOfLabel(labels?.[i] ?? -1) }, this.t, dpr);
    } else if (this.hover >= 0) {
      const p = this.screenOf(this.hover); // a light ring under the pointer
      if (p) drawHoverRing(ctx, p, screenRadius(style.radius[this.hover]!, this.t.k), dpr);
    }
    if (this.cursor >= 0) {
      const p = this.screenOf(this.cursor); // the keyboard's node: a wider, dashed ring
      if (p) drawCursorRing(ctx, p, screenRadius(style.radius[this.cursor]!, this.t.k), dpr);
    }
    const ms = performance.now() - t0;
    this.stats.frames++;
    this.stats.sum += ms;
    if (ms > this.stats.max) this.stats.max = ms;
    if (this.pending) {
      this.pending.resolve();
      this.pending = null;
    }
  }

  private applyFit(): void {
    if (!this.pos || this.width === 0 || this.height === 0) return;
    const b = bounds(this.pos);
    if (!b) return;
    this.t = fitTransform(b, this.width, this.height);
    this.requestRender();
    this.invalidate();
  }

  private updateLabel(): void {
    const d = this.data;
    if (!d) return;
    const m = d.edges.length >> 1;
    const state = this.done ? "" : ", layout in progress";
    this.canvas.setAttribute("aria-label", `Graph of ${d.n.toLocaleString("en")} nodes and ${m.toLocaleString("en")} edges${state}`);
  }

  // ---- hover ----

  /** Hovers node i (-1: none): a ring when nothing is highlighted, and the tooltip placed at `at` (null hides it). */
  setHover(i: number, at: { clientX: number; clientY: number } | null): void {
    if (i !== this.hover) {
      this.hover = i;
      if (!this.highlight) this.invalidate();
    }
    if (i < 0 || !at || !this.data) this.tooltip?.hide();
    else this.tooltip?.show(i, this.data, at.clientX, at.clientY);
  }
}

function colorOfLabel(c: number): string {
  return c >= 0 ? classColor(c) : NEUTRAL;
}
