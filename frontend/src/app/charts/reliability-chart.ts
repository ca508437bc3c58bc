// Reliability diagram: for each bin of predicted probability, the share of
// its pairs that really are links, against the diagonal a perfectly
// calibrated model would follow; each bin's count above its bar.

import { ChartBase, type ChartFrame, type ChartHostOptions, type Rect } from "./base";
import { linearScale } from "./scale";

/** One bin of the diagram (the engine's ReliabilityBin). */
export interface ReliabilityBinData {
  lo: number;
  hi: number;
  count: number;
  mean_predicted: number;
  observed: number;
}

export interface ReliabilityOptions extends ChartHostOptions {
  title: string;
  /** Colour of the bars and points. */
  color: string;
  /** Colour of the diagonal. */
  diagonalColor: string;
}

/** Where a reliability diagram draws, in canvas pixels. */
export interface ReliabilityLayout {
  /** The diagonal p = observed, from (0, 0) to (1, 1). */
  diagonal: [{ x: number; y: number }, { x: number; y: number }];
  /** One bar per non-empty bin: the bin's width (less a 1 px gap each side), up to its observed rate. */
  bars: Array<{ x: number; y: number; w: number; h: number; bin: number }>;
  /** One point per non-empty bin at (mean predicted, observed). */
  points: Array<{ x: number; y: number; bin: number }>;
  /** The count of each non-empty bin, centred above its bar. */
  counts: Array<{ x: number; y: number; text: string; bin: number }>;
}

/**
 * Lays out bins in plot, both axes running 0 to 1 (predicted probability
 * across, observed rate of links up). Empty bins draw nothing.
 */
export function reliabilityLayout(bins: readonly ReliabilityBinData[], plot: Rect): ReliabilityLayout {
  const sx = linearScale([0, 1], [plot.x, plot.x + plot.w]);
  const sy = linearScale([0, 1], [plot.y + plot.h, plot.y]);
  const out: ReliabilityLayout = {
    diagonal: [
      { x: sx(0), y: sy(0) },
      { x: sx(1), y: sy(1) },
    ],
    bars: [],
    points: [],
    counts: [],
  };
  bins.forEach((b, i) => {
    if (b.count <= 0) return;
    const x0 = sx(b.lo) + 1;
    const x1 = sx(b.hi) - 1;
    const top = sy(b.observed);
    out.bars.push({ x: x0, y: top, w: Math.max(0, x1 - x0), h: sy(0) - top, bin: i });
    out.points.push({ x: sx(b.mean_predicted), y: top, bin: i });
    out.counts.push({ x: (x0 + x1) / 2, y: top - 7, text: String(b.count), bin: i });
  });
  return out;
}

export class ReliabilityChart extends ChartBase {
  private readonly options: ReliabilityOptions;
  private bins: ReliabilityBinData[] = [];
  private frame: ChartFrame | null = null;
  private layout: ReliabilityLayout | null = null;

  constructor(canvas: HTMLCanvasElement, options: ReliabilityOptions) {
    super(canvas, options);
    this.options = options;
    this.requestDraw();
  }

  /** Plot area and domains of the last draw, or null before the first. */
  get lastFrame(): ChartFrame | null {
    return this.frame;
  }

  /** What the last draw placed where, or null before the first. */
  get lastLayout(): ReliabilityLayout | null {
    return this.layout;
  }

  setData(bins: readonly ReliabilityBinData[]): void {
    this.bins = bins.slice();
    this.requestDraw();
  }

  protected describe(): string {
    const parts = this.bins
      .filter((b) => b.count > 0)
      .map((b) => `${Math.round(100 * b.lo)}–${Math.round(100 * b.hi)}%: ${b.count} pairs, ${Math.round(100 * b.observed)}% links`);
    return `${this.options.title}: ${parts.length > 0 ? parts.join("; ") : "no pairs"}`;
  }

  protected render(ctx: CanvasRenderingContext2D): void {
    const o = this.options;
    const domain: [number, number] = [0, 1];
    const plot = this.drawFrame(ctx, {
      title: o.title,
      xLabel: "predicted p",
      yLabel: "share linked",
      xDomain: domain,
      yDomain: domain,
      legend: [
        { label: "observed, per bin (count above)", color: o.color },
        { label: "perfectly calibrated", color: o.diagonalColor, dash: [5, 4] },
      ],
    });
    this.frame = { plot, xDomain: domain, yDomain: domain };
    const l = reliabilityLayout(this.bins, plot);
    this.layout = l;

    this.clipTo(ctx, { x: plot.x, y: plot.y - 14, w: plot.w, h: plot.h + 14 });
    ctx.globalAlpha = 0.35;
    ctx.fillStyle = o.color;
    for (const b of l.bars) ctx.fillRect(b.x, b.y, b.w, b.h);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = o.diagonalColor;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.moveTo(l.diagonal[0].x, l.diagonal[0].y);
    ctx.lineTo(l.diagonal[1].x, l.diagonal[1].y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = o.color;
    for (const p of l.points) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, 3, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.font = this.font(10);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const c of l.counts) ctx.fillText(c.text, c.x, c.y);
    ctx.restore();
  }
}

/**
 * Says in plain words how far a model's probabilities are from what
 * happens: ece and raw are the calibration errors (0 to 1) with and
 * without calibration, pairs the number of test pairs. notCalibrated,
 * when given, is why the model's own probabilities were kept (too few
 * validation pairs, or calibrating did not lower their error).
 */
export function calibrationText(ece: number, raw: number, pairs: number, notCalibrated?: string): string {
  const pts = (v: number) => `${(100 * v).toFixed(1)} points`;
  const reading = "A bar below the dashed diagonal means fewer links in that bin than the model predicts; above it, more.";
  if (notCalibrated !== undefined) {
    return (
      `Not calibrated: ${notCalibrated}, so p is the model's own probability. ` +
      `On ${pairs} test pairs it is off by ${pts(ece)} on average (expected calibration error, ECE). ${reading}`
    );
  }
  return (
    `Calibration: of the pairs the model gives p = 70%, about 70% should really be links. ` +
    `On ${pairs} test pairs its probabilities are off by ${pts(ece)} on average (expected calibration error, ECE; ` +
    `${pts(raw)} before calibration on the validation pairs). ${reading}`
  );
}
