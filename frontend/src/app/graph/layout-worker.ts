// The force-layout worker (bundled to layout.js as a classic worker). It
// runs the simulation of layout-core.ts in slices of ~30 ms, streams the
// positions to the page as transferred Float32Arrays after each slice, and
// for large graphs also renders the static layer (edges and nodes) into an
// OffscreenCanvas and transfers it as an ImageBitmap, so the page never
// rasterises 100k edges itself.
import { createLayout, type Layout } from "./layout-core";
import type { FromWorker, StaticStyle, ToWorker, ViewSpec } from "./layout-protocol";
import { drawStatic } from "./render-core";
import { bounds, fitTransform } from "./transform";

declare const self: DedicatedWorkerGlobalScope;

const SLICE_MS = 30;
const MIN_RENDER_INTERVAL_MS = 33;

let run = -1;
let n = 0;
let edges: Uint32Array = new Uint32Array(0);
let layout: Layout | null = null;
let fixed: Float32Array | null = null; // positions given by the page (no simulation)
let style: StaticStyle | undefined;
let view: ViewSpec | null = null;
let viewDirty = false;
let lastRender = -Infinity;
let lastRenderMs = 0;
let scheduled = false;
let canvas: OffscreenCanvas | null = null;
// Held by the page while training runs, so that the engine has the core.
let paused = false;

// Zero-delay yielding between slices (setTimeout would be clamped), so that
// the page's messages are handled between slices.
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  scheduled = false;
  loop();
};
function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    channel.port2.postMessage(null);
  }
}

function post(msg: FromWorker, transfer: Transferable[]): void {
  self.postMessage(msg, transfer);
}

function current(): Float32Array {
  if (layout) return layout.write();
  return fixed ? fixed.slice() : new Float32Array(2 * n);
}

function render(pos: Float32Array): { bitmap: ImageBitmap; view: ViewSpec } | null {
  if (!style || !view || view.width <= 0 || view.height <= 0) return null;
  const t0 = performance.now();
  let v = view;
  if (v.fit) {
    const b = bounds(pos);
    if (b) {
      const f = fitTransform(b, v.width, v.height);
      v = { ...v, k: f.k, x: f.x, y: f.y };
    }
  }
  const w = Math.max(1, Math.round(v.width * v.dpr)), h = Math.max(1, Math.round(v.height * v.dpr));
  if (!canvas) canvas = new OffscreenCanvas(w, h);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  drawStatic(ctx, { pos, edges, ...style }, v, v.width, v.height, v.dpr, v.dimmed);
  const bitmap = canvas.transferToImageBitmap();
  viewDirty = false;
  lastRender = performance.now();
  lastRenderMs = lastRender - t0;
  return { bitmap, view: v };
}

function send(pos: Float32Array, withFrame: boolean): void {
  const done = !layout || layout.done();
  const msg: FromWorker = { type: "positions", run, tick: layout ? layout.ticks() : 0, alpha: layout ? layout.alpha() : 0, done, paused: paused && !done, positions: pos };
  const transfer: Transferable[] = [pos.buffer];
  if (withFrame) {
    const frame = render(pos);
    if (frame) {
      msg.frame = frame;
      msg.renderMs = lastRenderMs;
      transfer.push(frame.bitmap);
    }
  }
  post(msg, transfer);
}

function loop(): void {
  try {
    if (layout && !layout.done() && !paused) {
      const t0 = performance.now();
      do layout.step(1);
      while (!layout.done() && performance.now() - t0 < SLICE_MS);
      const done = layout.done();
      // Rendering costs up to ~100 ms on large graphs: keep it to about a
      // third of the worker's time while the layout runs.
      const due = performance.now() - lastRender >= Math.max(MIN_RENDER_INTERVAL_MS, 3 * lastRenderMs);
      send(layout.write(), style !== undefined && (done || viewDirty || due));
      if (!done) schedule();
    } else if (viewDirty) {
      send(current(), true);
    }
  } catch (err) {
    post({ type: "error", run, message: err instanceof Error ? err.message : String(err) }, []);
    layout = null;
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  try {
    switch (msg.type) {
      case "start": {
        run = msg.run;
        n = msg.n;
        edges = msg.edges;
        style = msg.style;
        view = null;
        viewDirty = false;
        lastRender = -Infinity;
        lastRenderMs = 0;
        fixed = msg.positions && msg.positions.length >= 2 * n ? msg.positions : null;
        layout = fixed ? null : createLayout(n, edges, { seed: msg.seed });
        // The initial positions at once, so the page can draw its first frame.
        send(current(), false);
        if (layout && !paused) schedule();
        break;
      }
      case "view":
        if (msg.run !== run) return;
        view = msg.view;
        viewDirty = true;
        // While the layout runs, the next slice renders it; otherwise now.
        if (!layout || layout.done() || paused) schedule();
        break;
      case "pause":
        if (msg.paused === paused) break;
        paused = msg.paused;
        // Say so with the positions as they stand, then go on if resumed.
        if (run >= 0 && (layout || fixed)) send(current(), false);
        if (!paused && layout && !layout.done()) schedule();
        break;
      case "stop":
        if (msg.run === run) {
          layout = null;
          fixed = null;
        }
        break;
    }
  } catch (err) {
    post({ type: "error", run, message: err instanceof Error ? err.message : String(err) }, []);
  }
};
