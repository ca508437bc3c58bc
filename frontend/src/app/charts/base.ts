// What LineChart and Histogram share: devicePixelRatio-aware sizing from the
// canvas's CSS box, a coalescing redraw scheduler, fonts, and the drawing of
// title, legend and axes.

import { DIMMED, NEUTRAL } from "../palette";
import { linearScale, niceTicks, tickFormatter } from "./scale";

/** Runs a callback later, once; requestAnimationFrame in a browser. */
export type Scheduler = (callback: () => void) => void;

/** Options every chart accepts besides its own. */
export interface ChartHostOptions {
  /** Redraw scheduler (default: requestAnimationFrame, or a 16 ms timer where there is none). */
  schedule?: Scheduler;
  /** Watch the canvas's size with a ResizeObserver when available (default true). */
  observeResize?: boolean;
}

/** A rectangle in CSS pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where the last draw put the plot area and which domains it showed (for hit-testing and tests). */
export interface ChartFrame {
  plot: Rect;
  xDomain: [number, number];
  yDomain: [number, number];
}

/** Text colour: Okabe-Ito's black, which palette.ts keeps for text. */
export const INK = "#000000";
const FONT_FALLBACK = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const FONT_SIZE = 12;
const LINE = 16; // line height of labels and legend rows
const PAD = 8;

export function defaultScheduler(): Scheduler {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number };
  const raf = g.requestAnimationFrame;
  if (typeof raf === "function") return (cb) => void raf.call(globalThis, () => cb());
  return (cb) => void setTimeout(cb, 16);
}

export abstract class ChartBase {
  protected readonly canvas: HTMLCanvasElement;
  protected readonly ctx: CanvasRenderingContext2D | null;
  /** CSS size of the canvas. */
  protected width = 0;
  protected height = 0;
  protected fontFamily = FONT_FALLBACK;
  private draws = 0;
  private pending = false;
  private destroyed = false;
  private readonly scheduler: Scheduler;
  private observer: ResizeObserver | null = null;

  protected constructor(canvas: HTMLCanvasElement, host: ChartHostOptions) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.scheduler = host.schedule ?? defaultScheduler();
    canvas.setAttribute("role", "img");
    this.measure();
    if (host.observeResize !== false && typeof ResizeObserver === "function") {
      this.observer = new ResizeObserver(() => this.resize());
      this.observer.observe(canvas);
    }
  }

  /** Number of completed draws (diagnostics and tests). */
  get drawCount(): number {
    return this.draws;
  }

  /** Re-reads the canvas's CSS size and font, resizes its buffer, and redraws now. */
  resize(): void {
    this.measure();
    this.draw();
  }

  /** Stops watching the canvas's size; pending redraws are dropped. */
  destroy(): void {
    this.destroyed = true;
    this.observer?.disconnect();
    this.observer = null;
  }

  /** Redraws at the next frame; any number of calls before then give one redraw. */
  requestDraw(): void {
    if (this.pending || this.destroyed) return;
    this.pending = true;
    this.scheduler(() => {
      this.pending = false;
      if (!this.destroyed) this.draw();
    });
  }

  /** Draws now. */
  draw(): void {
    if (this.width === 0 || this.height === 0) this.measure();
    const ctx = this.ctx;
    if (ctx && this.width > 0 && this.height > 0) {
      const dpr = pixelRatio();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, this.width, this.height);
      ctx.lineJoin = "round";
      ctx.lineCap = "butt";
      ctx.setLineDash([]);
      this.render(ctx);
    }
    this.draws++;
    this.canvas.setAttribute("aria-label", this.describe());
  }

  protected abstract render(ctx: CanvasRenderingContext2D): void;
  protected abstract describe(): string;

  protected font(size = FONT_SIZE, weight = ""): string {
    return `${weight ? weight + " " : ""}${size}px ${this.fontFamily}`;
  }

  private measure(): void {
    const c = this.canvas;
    const w = c.clientWidth || 0;
    const h = c.clientHeight || 0;
    this.width = w;
    this.height = h;
    if (typeof getComputedStyle === "function") {
      const family = getComputedStyle(c).fontFamily;
      if (family) this.fontFamily = family;
    }
    const dpr = pixelRatio();
    const bw = Math.max(1, Math.round(w * dpr));
    const bh = Math.max(1, Math.round(h * dpr));
    // Assigning clears the buffer even when unchanged; only do it on change.
    if (w > 0 && h > 0 && (c.width !== bw || c.height !== bh)) {
      c.width = bw;
      c.height = bh;
    }
  }

  /**
   * Lays out and draws title, legend and axes for the given domains; returns
   * the plot rectangle. Legend entries wrap into rows below the title.
   */
  protected drawFrame(
    ctx: CanvasRenderingContext2D,
    o: {
      title: string;
      xLabel: string;
      yLabel: string;
      xDomain: [number, number];
      yDomain: [number, number];
      legend: ReadonlyArray<LegendItem>;
    },
  ): Rect {
    const { width, height } = this;
    ctx.font = this.font();
    const rows = legendRows(ctx, o.legend, width);
    const top = PAD + LINE + 2 + rows.length * LINE + 4;
    const bottom = height - PAD - 2 * LINE;
    const yTicks = niceTicks(o.yDomain[0], o.yDomain[1], Math.max(2, Math.min(8, Math.round((bottom - top) / 40))));
    const yFmt = tickFormatter(yTicks);
    let labelW = 0;
    for (const t of yTicks) labelW = Math.max(labelW, ctx.measureText(yFmt(t)).width);
    const left = PAD + (o.yLabel ? LINE : 0) + labelW + 6;
    const right = width - PAD - 10;
    const plot: Rect = { x: left, y: top, w: Math.max(1, right - left), h: Math.max(1, bottom - top) };
    const xTicks = niceTicks(o.xDomain[0], o.xDomain[1], Math.max(2, Math.min(10, Math.round(plot.w / 80))));

    // Title.
    ctx.fillStyle = INK;
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    ctx.font = this.font(FONT_SIZE + 1, "600");
    ctx.fillText(o.title, PAD, PAD + LINE / 2);

    ctx.font = this.font();
    drawLegend(ctx, rows);
    drawAxes(ctx, plot, {
      x: { ticks: xTicks, format: tickFormatter(xTicks), scale: linearScale(o.xDomain, [plot.x, plot.x + plot.w]), label: o.xLabel },
      y: { ticks: yTicks, format: yFmt, scale: linearScale(o.yDomain, [plot.y + plot.h, plot.y]), label: o.yLabel },
    });
    return plot;
  }

  /** Clips further drawing to rect (call ctx.restore() to undo). */
  protected clipTo(ctx: CanvasRenderingContext2D, r: Rect): void {
    ctx.save();
    ctx.beginPath();
    ctx.rect(r.x, r.y, r.w, r.h);
    ctx.clip();
  }
}

function pixelRatio(): number {
  const dpr = (globalThis as { devicePixelRatio?: number }).devicePixelRatio;
  return typeof dpr === "number" && dpr > 0 && Number.isFinite(dpr) ? dpr : 1;
}

/** Domain padded by a fraction of its span; a zero span is widened around its value. */
export function padDomain(lo: number, hi: number, fraction: number): [number, number] {
  if (hi > lo) {
    const d = (hi - lo) * fraction;
    return [lo - d, hi + d];
  }
  const d = Math.abs(lo) * 0.1 || 1;
  return [lo - d, lo + d];
}

/** An entry of a chart's legend: a line swatch and its label. */
export interface LegendItem {
  label: string;
  color: string;
  dash?: number[] | undefined;
}

/** The legend's swatch length, in CSS px. */
const SWATCH = 18;

/** Legend entries placed left to right, wrapped into rows within width (ctx's font measures them). */
function legendRows(ctx: CanvasRenderingContext2D, legend: ReadonlyArray<LegendItem>, width: number): Array<Array<LegendItem & { x: number }>> {
  const rows: Array<Array<LegendItem & { x: number }>> = [];
  let row: (typeof rows)[number] = [];
  let cx = PAD;
  for (const item of legend) {
    const w = SWATCH + 4 + ctx.measureText(item.label).width;
    if (row.length > 0 && cx + w > width - PAD) {
      rows.push(row);
      row = [];
      cx = PAD;
    }
    row.push({ x: cx, ...item });
    cx += w + 14;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

/** Draws the legend's rows below the title. */
function drawLegend(ctx: CanvasRenderingContext2D, rows: ReadonlyArray<ReadonlyArray<LegendItem & { x: number }>>): void {
  rows.forEach((items, r) => {
    const y = PAD + LINE + 2 + r * LINE + LINE / 2;
    for (const item of items) {
      ctx.strokeStyle = item.color;
      ctx.lineWidth = 2.5;
      ctx.setLineDash(item.dash ?? []);
      ctx.beginPath();
      ctx.moveTo(item.x, y);
      ctx.lineTo(item.x + SWATCH, y);
      ctx.stroke();
      ctx.fillStyle = INK;
      ctx.fillText(item.label, item.x + SWATCH + 4, y);
    }
  });
  ctx.setLineDash([]);
}

/** One axis: its ticks, how they read, where they go, and its label. */
interface Axis {
  ticks: readonly number[];
  format: (t: number) => string;
  scale: (v: number) => number;
  label: string;
}

/** Draws the grid lines, the axes with their ticks, the tick labels and the axis labels around plot. */
function drawAxes(ctx: CanvasRenderingContext2D, plot: Rect, axes: { x: Axis; y: Axis }): void {
  const { x: ax, y: ay } = axes;
  // Grid lines, in one path.
  ctx.strokeStyle = DIMMED;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of ay.ticks) {
    const y = Math.round(ay.scale(t)) + 0.5;
    ctx.moveTo(plot.x, y);
    ctx.lineTo(plot.x + plot.w, y);
  }
  ctx.stroke();

  // Axes and ticks.
  ctx.strokeStyle = NEUTRAL;
  ctx.beginPath();
  const x0 = Math.round(plot.x) + 0.5;
  const y0 = Math.round(plot.y + plot.h) + 0.5;
  ctx.moveTo(x0, plot.y);
  ctx.lineTo(x0, y0);
  ctx.lineTo(plot.x + plot.w, y0);
  for (const t of ax.ticks) {
    const x = Math.round(ax.scale(t)) + 0.5;
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y0 + 4);
  }
  for (const t of ay.ticks) {
    const y = Math.round(ay.scale(t)) + 0.5;
    ctx.moveTo(x0 - 4, y);
    ctx.lineTo(x0, y);
  }
  ctx.stroke();

  // Tick labels and axis labels.
  ctx.fillStyle = INK;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of ax.ticks) ctx.fillText(ax.format(t), ax.scale(t), y0 + 5);
  ctx.fillText(ax.label, plot.x + plot.w / 2, y0 + 5 + LINE);
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of ay.ticks) ctx.fillText(ay.format(t), x0 - 6, ay.scale(t));
  if (ay.label) {
    ctx.save();
    ctx.translate(PAD + LINE / 2, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center";
    ctx.fillText(ay.label, 0, 0);
    ctx.restore();
  }
}
