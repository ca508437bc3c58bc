// The training chart's redraw cost, for bench-app: three 1000-point series
// drawn into a context that does nothing, so that the chart's own work is
// timed and not the browser's rasterisation. bench-app bundles this file
// with esbuild and runs it under node.
import { LineChart, type Series } from "../src/app/charts";
import { SERIES } from "../src/app/palette";

/** Milliseconds per redraw over `runs` redraws after 5 warm-up ones: median, min and max. */
export function chartRedrawMs(runs = 21): { runs: number; median: number; min: number; max: number } {
  const noop = (): void => undefined;
  const text = { width: 30 };
  const ctx = new Proxy({} as Record<string, unknown>, {
    get: (t, prop: string) => (prop in t ? t[prop] : prop === "measureText" ? () => text : noop),
    set: (t, prop: string, v: unknown) => ((t[prop] = v), true),
  });
  const canvas = { clientWidth: 800, clientHeight: 300, width: 0, height: 0, getContext: () => ctx, setAttribute: noop } as unknown as HTMLCanvasElement;
  const queue: Array<() => void> = [];
  const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: (cb) => void queue.push(cb) });
  const series: Series[] = [SERIES.loss, SERIES.pos, SERIES.neg].map((color, k) => ({
    name: `s${k}`,
    color,
    points: Array.from({ length: 1000 }, (_, i): [number, number] => [i, Math.sin(i / 50 + k)]),
  }));
  chart.setSeries(series);
  while (queue.length > 0) queue.shift()!();
  for (let i = 0; i < 5; i++) chart.draw();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    chart.draw();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { runs, median: times[Math.floor(runs / 2)]!, min: times[0]!, max: times[runs - 1]! };
}
