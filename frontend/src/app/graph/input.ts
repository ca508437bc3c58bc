// GraphInput: the graph canvas's pointer, wheel and keyboard handling. It
// turns DOM events into operations on the view (pan, zoom, fit, hover) and
// into the caller's click callbacks; the view itself only draws and
// hit-tests. It reads events through small structural types, so the unit
// tests drive it with plain Events against a fake view, no browser needed.

import { pan, zoomAbout, type Transform } from "./transform";

/** Pointer travel (CSS px) after which a press is a drag, not a click. */
export const DRAG_THRESHOLD = 4;
/** Arrow keys pan this many CSS px (four times as far with Shift). */
export const KEY_PAN = 60;
/** + and - zoom by this factor about the canvas centre. */
export const KEY_ZOOM = 1.25;

/** What input needs of the view (GraphView implements it). */
export interface InputView {
  /** The node drawn at canvas point (x, y) in CSS pixels, or -1. */
  nodeAt(x: number, y: number): number;
  transform(): Transform;
  setTransform(t: Transform): void;
  /** Fits the graph into the canvas. */
  fit(): void;
  /** Stops fitting the view to the layout as it moves: the user took over. */
  holdView(): void;
  /** The canvas size in CSS pixels. */
  size(): { width: number; height: number };
  /** Hovers node i (-1: none); `at` places its tooltip, null hides it. */
  setHover(i: number, at: { clientX: number; clientY: number } | null): void;
}

/** The element input listens on: the canvas, or a stand-in in tests. */
export interface InputSurface extends EventTarget {
  getBoundingClientRect(): { left: number; top: number };
  setPointerCapture(id: number): void;
  releasePointerCapture(id: number): void;
  readonly style: { cursor: string };
}

export interface GraphInputOptions {
  /** A click (press and release without dragging) on node `node`. */
  onNodeClick?: (node: number) => void;
  /** A click on no node. */
  onBackgroundClick?: () => void;
  /** ] (+1) or [ (-1): step to the next or previous neighbour of the selected node. */
  onStep?: (dir: 1 | -1) => void;
  /** Enter: explain the pair the keyboard stands on. */
  onActivate?: () => void;
}

/** The fields of a pointer, mouse or wheel event that input reads. */
interface PointerLike extends Event {
  readonly clientX: number;
  readonly clientY: number;
  readonly pointerId: number;
  readonly button: number;
}

interface WheelLike extends Event {
  readonly clientX: number;
  readonly clientY: number;
  readonly deltaY: number;
  readonly deltaMode: number;
}

interface KeyLike extends Event {
  readonly key: string;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
}

interface Drag {
  id: number;
  x0: number;
  y0: number;
  x: number;
  y: number;
  moved: boolean;
}

export class GraphInput {
  private readonly surface: InputSurface;
  private readonly view: InputView;
  private readonly opts: GraphInputOptions;
  private readonly listeners: Array<[string, EventListener, AddEventListenerOptions | undefined]> = [];
  private drag: Drag | null = null;
  private hover = -1;

  constructor(surface: InputSurface, view: InputView, options: GraphInputOptions = {}) {
    this.surface = surface;
    this.view = view;
    this.opts = options;
    this.listen("pointerdown", (e) => this.onPointerDown(e as PointerLike));
    this.listen("pointermove", (e) => this.onPointerMove(e as PointerLike));
    this.listen("pointerup", (e) => this.onPointerUp(e as PointerLike));
    this.listen("pointercancel", () => this.endDrag());
    this.listen("pointerleave", () => this.setHover(-1, null));
    // Not passive: the wheel zooms the graph instead of scrolling the page.
    this.listen("wheel", (e) => this.onWheel(e as WheelLike), { passive: false });
    this.listen("keydown", (e) => this.onKey(e as KeyLike));
  }

  /** Stops listening. */
  destroy(): void {
    for (const [type, fn, o] of this.listeners) this.surface.removeEventListener(type, fn, o);
    this.listeners.length = 0;
    this.drag = null;
  }

  private listen(type: string, fn: EventListener, o?: AddEventListenerOptions): void {
    this.surface.addEventListener(type, fn, o);
    this.listeners.push([type, fn, o]);
  }

  private local(e: { clientX: number; clientY: number }): [number, number] {
    const r = this.surface.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  private onPointerDown(e: PointerLike): void {
    if (e.button !== 0) return;
    const [x, y] = this.local(e);
    this.drag = { id: e.pointerId, x0: x, y0: y, x, y, moved: false };
    try {
      this.surface.setPointerCapture(e.pointerId);
    } catch {
      // synthetic pointers cannot be captured; dragging still works inside the canvas
    }
  }

  private onPointerMove(e: PointerLike): void {
    const [x, y] = this.local(e);
    const d = this.drag;
    if (d && d.id === e.pointerId) {
      if (!d.moved && Math.hypot(x - d.x0, y - d.y0) > DRAG_THRESHOLD) {
        d.moved = true;
        this.view.holdView();
        this.setHover(-1, null);
        this.surface.style.cursor = "grabbing";
      }
      if (d.moved) {
        this.view.setTransform(pan(this.view.transform(), x - d.x, y - d.y));
        d.x = x;
        d.y = y;
      }
      return;
    }
    this.setHover(this.view.nodeAt(x, y), e);
  }

  private onPointerUp(e: PointerLike): void {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.endDrag();
    if (d.moved) return; // the end of a drag is not a click
    const [x, y] = this.local(e);
    const i = this.view.nodeAt(x, y);
    if (i >= 0) this.opts.onNodeClick?.(i);
    else this.opts.onBackgroundClick?.();
  }

  private endDrag(): void {
    if (this.drag) {
      try {
        this.surface.releasePointerCapture(this.drag.id);
      } catch {
        // not captured
      }
    }
    this.drag = null;
    this.surface.style.cursor = this.hover >= 0 ? "pointer" : "";
  }

  private onWheel(e: WheelLike): void {
    e.preventDefault();
    const [x, y] = this.local(e);
    // deltaMode: 0 pixels, 1 lines, 2 pages.
    const unit = e.deltaMode === 1 ? 0.05 : e.deltaMode === 2 ? 1 : 0.002;
    this.view.holdView();
    this.view.setTransform(zoomAbout(this.view.transform(), x, y, Math.exp(-e.deltaY * unit)));
  }

  private onKey(e: KeyLike): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "0") {
      e.preventDefault();
      this.view.fit();
      return;
    }
    if ((e.key === "]" || e.key === "[") && this.opts.onStep) {
      e.preventDefault();
      this.opts.onStep(e.key === "]" ? 1 : -1);
      return;
    }
    if (e.key === "Enter" && this.opts.onActivate) {
      e.preventDefault();
      this.opts.onActivate();
      return;
    }
    const t = keyTransform(e.key, e.shiftKey, this.view.transform(), this.view.size());
    if (t === null) return;
    e.preventDefault();
    this.view.holdView();
    this.view.setTransform(t);
  }

  private setHover(i: number, at: { clientX: number; clientY: number } | null): void {
    if (i !== this.hover) {
      this.hover = i;
      if (!this.drag?.moved) this.surface.style.cursor = i >= 0 ? "pointer" : "";
    }
    this.view.setHover(i, i < 0 ? null : at);
  }
}

/** The transform a pan or zoom key asks for, or null for other keys. */
export function keyTransform(key: string, shift: boolean, t: Transform, size: { width: number; height: number }): Transform | null {
  const step = shift ? 4 * KEY_PAN : KEY_PAN;
  switch (key) {
    case "ArrowLeft":
      return pan(t, step, 0);
    case "ArrowRight":
      return pan(t, -step, 0);
    case "ArrowUp":
      return pan(t, 0, step);
    case "ArrowDown":
      return pan(t, 0, -step);
    case "+":
    case "=":
      return zoomAbout(t, size.width / 2, size.height / 2, KEY_ZOOM);
    case "-":
    case "_":
      return zoomAbout(t, size.width / 2, size.height / 2, 1 / KEY_ZOOM);
    default:
      return null;
  }
}
