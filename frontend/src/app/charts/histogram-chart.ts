// Overlaid distributions (e.g. neighbour weights of linked vs unlinked test
// pairs): translucent bars plus a solid step outline per group, so overlaps
// stay readable, and a dashed line at each group's mean.

import { ChartBase, type ChartFrame, type ChartHostOptions } from "./base";
import { extent, formatNumber, histogram, linearScale, stats, summarizeGroups } from "./scale";

export interface HistogramOptions extends ChartHostOptions {
  title: string;
  xLabel: string;
  /** Number of bins (default 20). */
  bins?: number;
  /** Binned range; default: all groups' finite values' range. Values outside are not drawn. */
  domain?: [number, number];
  /** Bar heights as probability density (areas 1 per group) instead of counts, for groups of different sizes. */
  density?: boolean;
}

export interface HistogramGroup {
  name: string;
  color: string;
  values: number[];
}

export class Histogram extends ChartBase {
  private readonly options: HistogramOptions;
  private groups: HistogramGroup[] = [];
  private frame: ChartFrame | null = null;

  constructor(canvas: HTMLCanvasElement, options: HistogramOptions) {
    super(canvas, options);
    this.options = options;
    this.requestDraw();
  }

  /** Plot area and domains of the last draw, or null before the first. */
  get lastFrame(): ChartFrame | null {
    return this.frame;
  }

  /** Replaces the groups (the arrays are kept, not copied: don't mutate them afterwards). */
  setData(groups: Array<{ name: string; color: string; values: number[] }>): void {
    this.groups = groups.slice();
    this.requestDraw();
  }

  protected describe(): string {
    return `${this.options.title}: ${summarizeGroups(this.groups)}`;
  }

  protected render(ctx: CanvasRenderingContext2D): void {
    const o = this.options;
    const bins = o.bins ?? 20;
    let domain: [number, number] = [0, 1];
    if (o.domain && o.domain[1] > o.domain[0]) domain = o.domain;
    else {
      let lo = Infinity;
      let hi = -Infinity;
      for (const g of this.groups) {
        const e = extent(g.values);
        if (e) [lo, hi] = [Math.min(lo, e[0]), Math.max(hi, e[1])];
      }
      if (lo <= hi) domain = [lo, hi];
    }
    const hists = this.groups.map((g) => {
      const h = histogram(g.values, bins, domain);
      const inDomain = h.counts.reduce((a, b) => a + b, 0);
      const heights = h.counts.map((c, i) => {
        if (!o.density) return c;
        const w = h.edges[i + 1]! - h.edges[i]!;
        return inDomain > 0 && w > 0 ? c / (inDomain * w) : 0;
      });
      return { group: g, edges: h.edges, heights, ...stats(g.values) };
    });
    const xDomain: [number, number] = hists[0] ? [hists[0].edges[0]!, hists[0].edges[hists[0].edges.length - 1]!] : domain;
    let top = 0;
    for (const h of hists) for (const v of h.heights) if (v > top) top = v;
    const yDomain: [number, number] = [0, top > 0 ? top * 1.05 : 1];

    const plot = this.drawFrame(ctx, {
      title: o.title,
      xLabel: o.xLabel,
      yLabel: o.density ? "density" : "count",
      xDomain,
      yDomain,
      legend: hists.map((h) => ({
        label: h.n > 0 ? `${h.group.name} (n=${h.n}, mean ${formatNumber(h.mean)})` : `${h.group.name} (n=0)`,
        color: h.group.color,
      })),
    });
    this.frame = { plot, xDomain, yDomain };
    const sx = linearScale(xDomain, [plot.x, plot.x + plot.w]);
    const sy = linearScale(yDomain, [plot.y + plot.h, plot.y]);
    const base = sy(0);

    this.clipTo(ctx, plot);
    for (const h of hists) {
      const color = h.group.color;
      // Translucent bars.
      ctx.globalAlpha = 0.3;
      ctx.fillStyle = color;
      h.heights.forEach((v, i) => {
        if (v <= 0) return;
        const x0 = sx(h.edges[i]!);
        const x1 = sx(h.edges[i + 1]!);
        const y = sy(v);
        ctx.fillRect(x0, y, x1 - x0, base - y);
      });
      ctx.globalAlpha = 1;
      // Step outline.
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(sx(h.edges[0]!), base);
      h.heights.forEach((v, i) => {
        const y = sy(v);
        ctx.lineTo(sx(h.edges[i]!), y);
        ctx.lineTo(sx(h.edges[i + 1]!), y);
      });
      ctx.lineTo(sx(h.edges[h.edges.length - 1]!), base);
      ctx.stroke();
      // Mean.
      if (h.n > 0 && h.mean >= xDomain[0] && h.mean <= xDomain[1]) {
        const px = Math.round(sx(h.mean)) + 0.5;
        ctx.lineWidth = 1;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(px, plot.y);
        ctx.lineTo(px, base);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    ctx.restore();
  }
}
