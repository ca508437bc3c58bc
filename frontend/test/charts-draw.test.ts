import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Histogram, LineChart, linearScale } from "../src/app/charts";
import { SERIES } from "../src/app/palette";

/** One recorded context call, with the style state at the time. */
interface Call {
  name: string;
  args: unknown[];
  strokeStyle: unknown;
  fillStyle: unknown;
}
/** A stroked or filled path: its moveTo/lineTo points. */
interface Path {
  op: "stroke" | "fill";
  style: unknown;
  dash: number[];
  points: Array<{ move: boolean; x: number; y: number }>;
}

/** Minimal CanvasRenderingContext2D stand-in: records calls, paths and texts. */
class Recorder {
  calls: Call[] = [];
  paths: Path[] = [];
  texts: Array<{ text: string; x: number; y: number; fillStyle: unknown }> = [];
  private state: Record<string, unknown> = { strokeStyle: "#000", fillStyle: "#000", font: "10px sans-serif", globalAlpha: 1 };
  private stack: Array<Record<string, unknown>> = [];
  private current: Path["points"] = [];
  private dash: number[] = [];

  readonly ctx: CanvasRenderingContext2D;
  constructor() {
    const self = this;
    this.ctx = new Proxy({} as Record<string, unknown>, {
      get(_target, prop: string) {
        if (prop in self.state) return self.state[prop];
        return (...args: unknown[]) => self.call(prop, args);
      },
      set(_target, prop: string, value: unknown) {
        self.state[prop] = value;
        return true;
      },
    }) as unknown as CanvasRenderingContext2D;
  }
  reset(): void {
    this.calls = [];
    this.paths = [];
    this.texts = [];
  }
  count(name: string): number {
    return this.calls.filter((c) => c.name === name).length;
  }
  private call(name: string, args: unknown[]): unknown {
    this.calls.push({ name, args, strokeStyle: this.state.strokeStyle, fillStyle: this.state.fillStyle });
    switch (name) {
      case "save":
        this.stack.push({ ...this.state });
        break;
      case "restore":
        this.state = this.stack.pop() ?? this.state;
        break;
      case "beginPath":
        this.current = [];
        break;
      case "moveTo":
      case "lineTo":
        this.current.push({ move: name === "moveTo", x: args[0] as number, y: args[1] as number });
        break;
      case "setLineDash":
        this.dash = (args[0] as number[]).slice();
        break;
      case "stroke":
      case "fill":
        this.paths.push({ op: name, style: name === "stroke" ? this.state.strokeStyle : this.state.fillStyle, dash: this.dash, points: this.current });
        break;
      case "fillText":
        this.texts.push({ text: args[0] as string, x: args[1] as number, y: args[2] as number, fillStyle: this.state.fillStyle });
        break;
      case "measureText":
        return { width: String(args[0]).length * 6 };
    }
    return undefined;
  }
}

/** A canvas element stand-in with a CSS box and attributes. */
function fakeCanvas(width = 400, height = 300): { canvas: HTMLCanvasElement; rec: Recorder; attrs: Map<string, string>; el: { width: number; height: number } } {
  const rec = new Recorder();
  const attrs = new Map<string, string>();
  const el = {
    clientWidth: width,
    clientHeight: height,
    width: 300,
    height: 150,
    getContext: (kind: string) => (kind === "2d" ? rec.ctx : null),
    setAttribute: (k: string, v: string) => void attrs.set(k, v),
    getAttribute: (k: string) => attrs.get(k) ?? null,
  };
  return { canvas: el as unknown as HTMLCanvasElement, rec, attrs, el };
}

/** A scheduler the test runs by hand. */
function manual(): { schedule: (cb: () => void) => void; queue: Array<() => void>; flush: () => void } {
  const queue: Array<() => void> = [];
  return {
    schedule: (cb) => void queue.push(cb),
    queue,
    flush: () => {
      while (queue.length > 0) queue.shift()!();
    },
  };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

describe("LineChart drawing", () => {
  test("series points map to pixels through the plot's scales", () => {
    const { canvas, rec, attrs } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "Loss", xLabel: "epoch", yLabel: "loss", xDomain: [0, 10], yDomain: [0, 2], schedule: s.schedule });
    const points: Array<[number, number]> = [[0, 0], [2, 0.5], [5, 1.5], [10, 2]];
    chart.setSeries([{ name: "total", color: SERIES.pos, points }]);
    s.flush();
    const frame = chart.lastFrame!;
    assert.ok(frame);
    assert.deepEqual(frame.xDomain, [0, 10]);
    assert.deepEqual(frame.yDomain, [0, 2]);
    const { plot } = frame;
    assert.ok(plot.x > 0 && plot.y > 0 && plot.x + plot.w <= 400 && plot.y + plot.h <= 300);
    const sx = linearScale([0, 10], [plot.x, plot.x + plot.w]);
    const sy = linearScale([0, 2], [plot.y + plot.h, plot.y]);
    const line = rec.paths.find((p) => p.op === "stroke" && p.style === SERIES.pos && p.points.length === points.length);
    assert.ok(line, "series path stroked in its colour");
    line.points.forEach((p, i) => {
      const [x, y] = points[i]!;
      assert.equal(p.move, i === 0);
      assert.ok(close(p.x, sx(x)) && close(p.y, sy(y)), `point ${i}: ${p.x},${p.y}`);
    });
    // Origin at bottom-left of the plot, max at top-right.
    assert.ok(close(line.points[0]!.x, plot.x) && close(line.points[0]!.y, plot.y + plot.h));
    assert.ok(close(line.points[3]!.x, plot.x + plot.w) && close(line.points[3]!.y, plot.y));
    assert.equal(attrs.get("role"), "img");
    assert.equal(attrs.get("aria-label"), "Loss: total: 4 points, last 2 at epoch 10, min 0, max 2");
  });

  test("title, axis labels, legend names and tick labels are drawn", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "Metrics", xLabel: "epoch", yLabel: "AUC", yDomain: [0, 1], schedule: s.schedule });
    chart.setSeries([
      { name: "validation AUC", color: SERIES.valAUC, points: [[1, 0.5], [2, 0.7]] },
      { name: "best", color: SERIES.bestValAUC, dash: [4, 2], points: [[1, 0.5], [2, 0.7]] },
    ]);
    s.flush();
    const texts = rec.texts.map((t) => t.text);
    for (const t of ["Metrics", "epoch", "AUC", "validation AUC", "best", "0.0", "0.2", "1.0"]) assert.ok(texts.includes(t), `missing ${t}`);
    // Legend swatches carry the series' colour and dash.
    assert.ok(rec.paths.some((p) => p.style === SERIES.bestValAUC && p.dash.join() === "4,2" && p.points.length === 2));
  });

  test("legend: false hides names", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", legend: false, schedule: s.schedule });
    chart.setSeries([{ name: "hidden-name", color: SERIES.cls, points: [[0, 0], [1, 1]] }]);
    s.flush();
    assert.ok(!rec.texts.some((t) => t.text === "hidden-name"));
  });

  test("marker is a vertical line at its x, with its label", () => {
    const { canvas, rec } = fakeCanvas(500, 250);
    const s = manual();
    const chart = new LineChart(canvas, { title: "AUC", xLabel: "epoch", yLabel: "AUC", xDomain: [0, 100], markerColor: SERIES.bestValAUC, schedule: s.schedule });
    chart.setSeries([{ name: "val", color: SERIES.valAUC, points: [[0, 0.5], [100, 0.9]] }]);
    chart.setMarker(40, "best epoch 40");
    s.flush();
    const { plot } = chart.lastFrame!;
    const px = Math.round(linearScale([0, 100], [plot.x, plot.x + plot.w])(40)) + 0.5;
    const m = rec.paths.find((p) => p.style === SERIES.bestValAUC);
    assert.ok(m, "marker path");
    assert.deepEqual(m.points, [
      { move: true, x: px, y: plot.y },
      { move: false, x: px, y: plot.y + plot.h },
    ]);
    assert.ok(rec.texts.some((t) => t.text === "best epoch 40" && Math.abs(t.x - px) <= 5));
    // Removing it.
    rec.reset();
    chart.setMarker(null);
    s.flush();
    assert.ok(!rec.paths.some((p) => p.style === SERIES.bestValAUC));
  });

  test("100 appends in one tick cause exactly one redraw", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "Loss", xLabel: "epoch", yLabel: "loss", schedule: s.schedule });
    s.flush(); // the initial draw
    rec.reset();
    const before = chart.drawCount;
    for (let i = 0; i < 100; i++) chart.append("loss", i, 1 / (i + 1));
    assert.equal(s.queue.length, 1, "one frame requested");
    assert.equal(rec.count("clearRect"), 0, "nothing drawn synchronously");
    s.flush();
    assert.equal(chart.drawCount - before, 1);
    assert.equal(rec.count("clearRect"), 1);
    const line = rec.paths.find((p) => p.op === "stroke" && p.points.length === 100);
    assert.ok(line, "all 100 points in one path");
    // Next batch: again one frame.
    chart.append("loss", 100, 0.01);
    chart.append("cls", 100, 0.02);
    assert.equal(s.queue.length, 1);
    s.flush();
    assert.equal(chart.drawCount - before, 2);
  });

  test("without requestAnimationFrame the default scheduler still coalesces", async () => {
    const { canvas, rec } = fakeCanvas();
    const chart = new LineChart(canvas, { title: "Loss", xLabel: "epoch", yLabel: "loss" });
    await new Promise((r) => setTimeout(r, 40));
    const before = chart.drawCount;
    rec.reset();
    for (let i = 0; i < 100; i++) chart.append("loss", i, i);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(chart.drawCount - before, 1);
    assert.equal(rec.count("clearRect"), 1);
  });

  test("appended series get distinct palette colours", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: s.schedule });
    chart.append("a", 0, 0);
    chart.append("a", 1, 1);
    chart.append("b", 0, 1);
    chart.append("b", 1, 0);
    s.flush();
    const styles = rec.paths.filter((p) => p.op === "stroke" && p.points.length === 2 && p.points[1]!.x - p.points[0]!.x > 100).map((p) => p.style);
    assert.equal(styles.length, 2);
    assert.notEqual(styles[0], styles[1]);
  });

  test("NaN/Infinity break the line; empty, single-point and constant series draw", () => {
    const { canvas, rec, attrs } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: s.schedule });
    chart.setSeries([
      { name: "gappy", color: SERIES.neg, points: [[0, 1], [1, 2], [2, NaN], [3, 2], [4, Infinity], [5, 1], [6, 0]] },
      { name: "empty", color: SERIES.cls, points: [] },
    ]);
    s.flush();
    const line = rec.paths.find((p) => p.op === "stroke" && p.style === SERIES.neg && p.points.length > 2)!;
    assert.deepEqual(
      line.points.map((p) => p.move),
      [true, false, true, true, false],
    );
    for (const p of line.points) assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y));
    // The lone point at x=3 gets a dot.
    assert.ok(rec.paths.some((p) => p.op === "fill" && p.style === SERIES.neg));
    assert.match(attrs.get("aria-label")!, /gappy: 5 points/);

    // Single point: a finite, non-degenerate domain and a dot.
    rec.reset();
    chart.setSeries([{ name: "one", color: SERIES.pos, points: [[3, 0.7]] }]);
    s.flush();
    let f = chart.lastFrame!;
    assert.ok(f.xDomain[1] > f.xDomain[0] && f.yDomain[1] > f.yDomain[0]);
    assert.ok(f.xDomain[0] < 3 && f.xDomain[1] > 3 && f.yDomain[0] < 0.7 && f.yDomain[1] > 0.7);
    assert.ok(rec.paths.some((p) => p.op === "fill" && p.style === SERIES.pos));

    // Constant series: nonzero y span.
    chart.setSeries([{ name: "flat", color: SERIES.pos, points: [[0, 0], [1, 0], [2, 0]] }]);
    s.flush();
    f = chart.lastFrame!;
    assert.ok(f.yDomain[1] > f.yDomain[0]);

    // Nothing at all.
    chart.clear();
    s.flush();
    f = chart.lastFrame!;
    assert.deepEqual(f.xDomain, [0, 1]);
    assert.match(attrs.get("aria-label")!, /^T: no data$/);
  });

  test("auto y-domain pads the data", () => {
    const { canvas } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: s.schedule });
    chart.setSeries([{ name: "a", color: SERIES.cls, points: [[1, 0.2], [5, 0.8]] }]);
    s.flush();
    const f = chart.lastFrame!;
    assert.deepEqual(f.xDomain, [1, 5]);
    assert.ok(f.yDomain[0] < 0.2 && f.yDomain[0] > 0.1 && f.yDomain[1] > 0.8 && f.yDomain[1] < 0.9);
  });

  test("markers and error bars", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", markers: true, errorBars: true, schedule: s.schedule });
    chart.setSeries([{ name: "a", color: SERIES.cls, points: [[0, 1], [1, 2], [2, 3]], err: [0.5, 0.5, 0.5] }]);
    s.flush();
    assert.equal(rec.calls.filter((c) => c.name === "arc" && c.fillStyle === SERIES.cls).length, 3);
    const f = chart.lastFrame!;
    assert.ok(f.yDomain[0] < 0.5 && f.yDomain[1] > 3.5, "domain covers the error bars");
    const bars = rec.paths.find((p) => p.op === "stroke" && p.style === SERIES.cls && p.points.length === 18);
    assert.ok(bars, "three bars with two caps each");
  });

  test("devicePixelRatio scales the buffer, not the CSS layout", () => {
    const g = globalThis as { devicePixelRatio?: number };
    const saved = g.devicePixelRatio;
    g.devicePixelRatio = 2;
    try {
      const { canvas, rec, el } = fakeCanvas(320, 200);
      const s = manual();
      const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: s.schedule });
      s.flush();
      assert.equal(el.width, 640);
      assert.equal(el.height, 400);
      assert.deepEqual(rec.calls.find((c) => c.name === "setTransform")!.args, [2, 0, 0, 2, 0, 0]);
      assert.ok(chart.lastFrame!.plot.x + chart.lastFrame!.plot.w <= 320);
      // resize() re-reads the CSS box and draws at once.
      (canvas as unknown as { clientWidth: number }).clientWidth = 160;
      const before = chart.drawCount;
      chart.resize();
      assert.equal(chart.drawCount, before + 1);
      assert.equal(el.width, 320);
    } finally {
      if (saved === undefined) delete g.devicePixelRatio;
      else g.devicePixelRatio = saved;
    }
  });

  test("very long series are decimated per pixel column", () => {
    const { canvas, rec } = fakeCanvas(400, 300);
    const s = manual();
    const chart = new LineChart(canvas, { title: "T", xLabel: "x", yLabel: "y", schedule: s.schedule });
    const points = Array.from({ length: 50_000 }, (_, i): [number, number] => [i, Math.sin(i) + (i === 25_000 ? 5 : 0)]);
    chart.setSeries([{ name: "noisy", color: SERIES.neg, points }]);
    s.flush();
    const line = rec.paths.find((p) => p.op === "stroke" && p.style === SERIES.neg && p.points.length > 10)!;
    assert.ok(line.points.length < 4 * 400, `${line.points.length} segments`);
    // The spike survives decimation.
    const { plot, yDomain } = chart.lastFrame!;
    const sy = linearScale(yDomain, [plot.y + plot.h, plot.y]);
    assert.ok(line.points.some((p) => close(p.y, sy(5 + Math.sin(25_000)))));
    // Last point is the true last point.
    const last = line.points[line.points.length - 1]!;
    assert.ok(close(last.x, plot.x + plot.w));
  });
});

describe("Histogram drawing", () => {
  test("overlaid groups: translucent bars, outlines, legend with n and mean", () => {
    const { canvas, rec, attrs } = fakeCanvas();
    const s = manual();
    const h = new Histogram(canvas, { title: "Neighbour weight", xLabel: "weight", bins: 4, domain: [0, 1], schedule: s.schedule });
    h.setData([
      { name: "linked", color: SERIES.linked, values: [0.1, 0.6, 0.7, 0.9, NaN] },
      { name: "unlinked", color: SERIES.unlinked, values: [0.1, 0.2, 0.3] },
    ]);
    s.flush();
    const texts = rec.texts.map((t) => t.text);
    assert.ok(texts.includes("linked (n=4, mean 0.575)"), texts.join(" | "));
    assert.ok(texts.includes("unlinked (n=3, mean 0.2)"));
    assert.ok(texts.includes("count"));
    const { plot, yDomain } = h.lastFrame!;
    const sx = linearScale([0, 1], [plot.x, plot.x + plot.w]);
    const sy = linearScale(yDomain, [plot.y + plot.h, plot.y]);
    // linked: counts [1, 0, 2, 1]: three bars; unlinked [2, 1, 0, 0]: two.
    const bars = (color: string): unknown[][] => rec.calls.filter((c) => c.name === "fillRect" && c.fillStyle === color).map((c) => c.args);
    const linked = bars(SERIES.linked);
    assert.equal(linked.length, 3);
    const [x, y, w, hh] = linked[1] as number[];
    assert.ok(close(x!, sx(0.5)) && close(w!, sx(0.75) - sx(0.5)) && close(y!, sy(2)) && close(y! + hh!, sy(0)));
    assert.equal(bars(SERIES.unlinked).length, 2);
    // Step outline: 4 bins → moveTo + 2 per bin + closing lineTo.
    assert.ok(rec.paths.some((p) => p.op === "stroke" && p.style === SERIES.unlinked && p.points.length === 10));
    assert.equal(attrs.get("aria-label"), "Neighbour weight: linked: n=4, mean 0.575; unlinked: n=3, mean 0.2");
  });

  test("density makes areas 1; empty and constant data draw", () => {
    const { canvas, rec } = fakeCanvas();
    const s = manual();
    const h = new Histogram(canvas, { title: "T", xLabel: "v", bins: 5, density: true, schedule: s.schedule });
    h.setData([{ name: "g", color: SERIES.linked, values: [0, 1, 2, 2, 3, 4] }]);
    s.flush();
    assert.ok(rec.texts.some((t) => t.text === "density"));
    const { plot, xDomain, yDomain } = h.lastFrame!;
    assert.deepEqual(xDomain, [0, 4]);
    const perX = plot.w / (xDomain[1] - xDomain[0]);
    const perY = plot.h / (yDomain[1] - yDomain[0]);
    const area = rec.calls
      .filter((c) => c.name === "fillRect" && c.fillStyle === SERIES.linked)
      .reduce((a, c) => a + ((c.args[2] as number) / perX) * ((c.args[3] as number) / perY), 0);
    assert.ok(Math.abs(area - 1) < 1e-9, `area ${area}`);

    h.setData([]);
    s.flush();
    h.setData([{ name: "c", color: SERIES.unlinked, values: [2, 2, 2] }]);
    s.flush();
    const f = h.lastFrame!;
    assert.ok(f.xDomain[0] < 2 && f.xDomain[1] > 2);
  });
});
