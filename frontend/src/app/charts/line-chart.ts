// Line chart of training curves (loss parts, validation AUC) that can grow
// live: append() coalesces into one redraw per animation frame.

import { NEUTRAL, OKABE_ITO } from "../palette";
import { ChartBase, INK, padDomain, type ChartFrame, type ChartHostOptions } from "./base";
import { linearScale, summarize, type Series } from "./scale";

export interface LineChartOptions extends ChartHostOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Fixed y range; default: the data's, padded by 5%. */
  yDomain?: [number, number];
  /** Fixed x range; default: the data's. */
  xDomain?: [number, number];
  /** Legend of series names (default true). */
  legend?: boolean;
  /** A dot at every point. */
  markers?: boolean;
  /** Vertical bars of Series.err around each point. */
  errorBars?: boolean;
  /** Colour of the setMarker line (default NEUTRAL). */
  markerColor?: string;
}

export class LineChart extends ChartBase {
  private readonly options: LineChartOptions;
  private series: Series[] = [];
  private marker: { x: number; label: string } | null = null;
  private frame: ChartFrame | null = null;

  constructor(canvas: HTMLCanvasElement, options: LineChartOptions) {
    super(canvas, options);
    this.options = options;
    this.requestDraw();
  }

  /** Plot area and domains of the last draw, or null before the first. */
  get lastFrame(): ChartFrame | null {
    return this.frame;
  }

  /** Replaces all series (their points are copied). */
  setSeries(series: Series[]): void {
    this.series = series.map((s) => ({ ...s, points: s.points.slice() }));
    this.requestDraw();
  }

  /** Adds a point to the named series (created with an unused palette colour if missing). */
  append(name: string, x: number, y: number): void {
    let s = this.series.find((t) => t.name === name);
    if (!s) {
      s = { name, color: this.nextColor(), points: [] };
      this.series.push(s);
    }
    s.points.push([x, y]);
    this.requestDraw();
  }

  /** Draws a vertical line at x (e.g. the best epoch) with an optional label; null removes it. */
  setMarker(x: number | null, label = ""): void {
    this.marker = x === null || !Number.isFinite(x) ? null : { x, label };
    this.requestDraw();
  }

  /** Removes all series and the marker. */
  clear(): void {
    this.series = [];
    this.marker = null;
    this.requestDraw();
  }

  private nextColor(): string {
    const used = new Set(this.series.map((s) => s.color.toLowerCase()));
    const free = OKABE_ITO.find((c) => !used.has(c.toLowerCase()));
    return free ?? OKABE_ITO[this.series.length % OKABE_ITO.length]!;
  }

  protected describe(): string {
    return `${this.options.title}: ${summarize(this.series, this.options.xLabel)}`;
  }

  /** Data domains: given ones, else the finite points' extent (y padded). */
  private domains(): { x: [number, number]; y: [number, number] } {
    const { xDomain, yDomain, errorBars } = this.options;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const s of this.series) {
      const err = errorBars ? s.err : undefined;
      s.points.forEach(([x, y], i) => {
        if (!Number.isFinite(x) || !Number.isFinite(y)) return;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        const e = err?.[i];
        const d = e !== undefined && Number.isFinite(e) ? Math.abs(e) : 0;
        if (y - d < y0) y0 = y - d;
        if (y + d > y1) y1 = y + d;
      });
    }
    const any = x0 <= x1;
    const x: [number, number] = xDomain && xDomain[1] > xDomain[0] ? xDomain : any ? (x1 > x0 ? [x0, x1] : padDomain(x0, x1, 0)) : [0, 1];
    const y: [number, number] = yDomain && yDomain[1] > yDomain[0] ? yDomain : any ? padDomain(y0, y1, 0.05) : [0, 1];
    return { x, y };
  }

  protected render(ctx: CanvasRenderingContext2D): void {
    const o = this.options;
    const dom = this.domains();
    const plot = this.drawFrame(ctx, {
      title: o.title,
      xLabel: o.xLabel,
      yLabel: o.yLabel,
      xDomain: dom.x,
      yDomain: dom.y,
      legend: o.legend === false ? [] : this.series.map((s) => ({ label: s.name, color: s.color, dash: s.dash })),
    });
    this.frame = { plot, xDomain: dom.x, yDomain: dom.y };
    const sx = linearScale(dom.x, [plot.x, plot.x + plot.w]);
    const sy = linearScale(dom.y, [plot.y + plot.h, plot.y]);

    this.clipTo(ctx, { x: plot.x, y: plot.y - 2, w: plot.w + 2, h: plot.h + 4 });
    for (const s of this.series) {
      ctx.strokeStyle = s.color;
      ctx.fillStyle = s.color;
      ctx.lineWidth = 1.5;
      if (o.errorBars && s.err) drawErrorBars(ctx, s, sx, sy);
      ctx.setLineDash(s.dash ?? []);
      ctx.beginPath();
      const lone = tracePath(ctx, s.points, sx, sy, s.points.length > 2 * plot.w);
      ctx.stroke();
      ctx.setLineDash([]);
      // Dots: every point with markers, else only points without neighbours (else invisible).
      const dots = o.markers ? s.points : lone;
      if (dots.length > 0) {
        const r = o.markers ? 2.5 : 2;
        ctx.beginPath();
        for (const [x, y] of dots) {
          if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
          const px = sx(x);
          const py = sy(y);
          ctx.moveTo(px + r, py);
          ctx.arc(px, py, r, 0, 2 * Math.PI);
        }
        ctx.fill();
      }
    }
    ctx.restore();

    const m = this.marker;
    if (m && m.x >= dom.x[0] && m.x <= dom.x[1]) {
      const px = Math.round(sx(m.x)) + 0.5;
      const color = o.markerColor ?? NEUTRAL;
      ctx.strokeStyle = color;
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(px, plot.y);
      ctx.lineTo(px, plot.y + plot.h);
      ctx.stroke();
      ctx.setLineDash([]);
      if (m.label) {
        ctx.font = this.font();
        ctx.fillStyle = INK;
        ctx.textBaseline = "top";
        const w = ctx.measureText(m.label).width;
        const rightSide = px + 4 + w <= plot.x + plot.w;
        ctx.textAlign = rightSide ? "left" : "right";
        ctx.fillText(m.label, rightSide ? px + 4 : px - 4, plot.y + 2);
      }
    }
  }
}

/**
 * Adds the series' polyline to the current path, breaking it at non-finite
 * points. With decimate, points falling in the same pixel column collapse to
 * that column's first, min, max and last values (same picture, far fewer
 * segments). Returns the finite points that have no finite neighbour.
 */
function tracePath(
  ctx: CanvasRenderingContext2D,
  points: ReadonlyArray<[number, number]>,
  sx: (v: number) => number,
  sy: (v: number) => number,
  decimate: boolean,
): Array<[number, number]> {
  const lone: Array<[number, number]> = [];
  let run = 0; // finite points in the current run
  let runStart: [number, number] | null = null;
  // Decimation state of the current pixel column.
  let col = NaN;
  let colCount = 0;
  let colX = 0;
  let minY = 0;
  let maxY = 0;
  let lastX = 0;
  let lastY = 0;
  const flushColumn = (): void => {
    if (colCount > 1) {
      ctx.lineTo(colX, minY);
      ctx.lineTo(colX, maxY);
      ctx.lineTo(lastX, lastY);
    }
    colCount = 0;
    col = NaN;
  };
  const endRun = (): void => {
    flushColumn();
    if (run === 1 && runStart) lone.push(runStart);
    run = 0;
    runStart = null;
  };
  for (const p of points) {
    const [x, y] = p;
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      endRun();
      continue;
    }
    const px = sx(x);
    const py = sy(y);
    if (decimate && run > 0) {
      const c = Math.round(px);
      if (c === col) {
        colCount++;
        if (py < minY) minY = py;
        if (py > maxY) maxY = py;
        lastX = px;
        lastY = py;
        run++;
        continue;
      }
      flushColumn();
      col = c;
      colCount = 1;
      colX = px;
      minY = maxY = lastY = py;
      lastX = px;
    } else if (decimate) {
      col = Math.round(px);
      colCount = 1;
      colX = px;
      minY = maxY = lastY = py;
      lastX = px;
    }
    if (run === 0) {
      ctx.moveTo(px, py);
      runStart = p;
    } else {
      ctx.lineTo(px, py);
    }
    run++;
  }
  endRun();
  return lone;
}

function drawErrorBars(
  ctx: CanvasRenderingContext2D,
  s: Series,
  sx: (v: number) => number,
  sy: (v: number) => number,
): void {
  const err = s.err;
  if (!err) return;
  ctx.lineWidth = 1;
  ctx.beginPath();
  s.points.forEach(([x, y], i) => {
    const e = err[i];
    if (e === undefined || !Number.isFinite(e) || e === 0 || !Number.isFinite(x) || !Number.isFinite(y)) return;
    const px = sx(x);
    const top = sy(y + Math.abs(e));
    const bottom = sy(y - Math.abs(e));
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.moveTo(px - 3, top);
    ctx.lineTo(px + 3, top);
    ctx.moveTo(px - 3, bottom);
    ctx.lineTo(px + 3, bottom);
  });
  ctx.stroke();
  ctx.lineWidth = 1.5;
}
