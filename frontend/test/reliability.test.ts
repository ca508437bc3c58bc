import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ReliabilityChart, calibrationText, reliabilityLayout, type ReliabilityBinData } from "../src/app/charts";

const bin = (lo: number, count: number, mean: number, observed: number): ReliabilityBinData => ({ lo, hi: lo + 0.1, count, mean_predicted: mean, observed });

// A plot 200 px wide from x = 50 and 100 px high from y = 20: p maps to
// 50 + 200p across, the observed rate to 120 - 100r up.
const plot = { x: 50, y: 20, w: 200, h: 100 };
const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

describe("reliabilityLayout", () => {
  const bins = [bin(0, 0, 0, 0), bin(0.1, 4, 0.15, 0.25), bin(0.9, 10, 0.95, 0.8)];
  const l = reliabilityLayout(bins, plot);

  test("the diagonal runs from the plot's bottom-left to its top-right", () => {
    assert.deepEqual(l.diagonal, [
      { x: 50, y: 120 },
      { x: 250, y: 20 },
    ]);
  });

  test("empty bins draw nothing; the others a bar over the bin up to the observed rate", () => {
    assert.deepEqual(
      l.bars.map((b) => b.bin),
      [1, 2],
    );
    // Bin 1: [0.1, 0.2) is x 70 to 90, less 1 px each side; observed 0.25 is y 95.
    const [b1, b2] = l.bars;
    assert.ok(close(b1!.x, 71) && close(b1!.w, 18) && close(b1!.y, 95) && close(b1!.h, 25), JSON.stringify(b1));
    // Bin 9: [0.9, 1] is x 230 to 250; observed 0.8 is y 40, 80 px high.
    assert.ok(close(b2!.x, 231) && close(b2!.w, 18) && close(b2!.y, 40) && close(b2!.h, 80), JSON.stringify(b2));
  });

  test("points sit at (mean predicted, observed), counts centred above the bars", () => {
    assert.ok(close(l.points[0]!.x, 80) && close(l.points[0]!.y, 95));
    assert.ok(close(l.points[1]!.x, 240) && close(l.points[1]!.y, 40));
    assert.deepEqual(
      l.counts.map((c) => [c.text, c.x, c.y]),
      [
        ["4", 80, 88],
        ["10", 240, 33],
      ],
    );
  });
});

describe("ReliabilityChart", () => {
  test("draws the layout of its frame: one bar per non-empty bin, in its colour", () => {
    const rects: Array<{ args: number[]; fill: unknown }> = [];
    const state: Record<string, unknown> = { fillStyle: "#000", strokeStyle: "#000", font: "10px sans-serif", globalAlpha: 1 };
    const ctx = new Proxy(
      {},
      {
        get: (_t, prop: string) =>
          prop in state ? state[prop] : (...args: unknown[]) => (prop === "measureText" ? { width: String(args[0]).length * 6 } : prop === "fillRect" ? void rects.push({ args: args as number[], fill: state.fillStyle }) : undefined),
        set: (_t, prop: string, v: unknown) => ((state[prop] = v), true),
      },
    );
    const canvas = { clientWidth: 400, clientHeight: 300, width: 300, height: 150, getContext: () => ctx, setAttribute: () => {}, getAttribute: () => null } as unknown as HTMLCanvasElement;
    const queue: Array<() => void> = [];
    const chart = new ReliabilityChart(canvas, { title: "Reliability", color: "#0072B2", diagonalColor: "#D55E00", schedule: (cb) => void queue.push(cb) });
    chart.setData([bin(0.3, 5, 0.35, 0.2), bin(0.4, 0, 0, 0), bin(0.7, 3, 0.72, 1)]);
    while (queue.length > 0) queue.shift()!();
    const frame = chart.lastFrame!;
    assert.deepEqual(frame.xDomain, [0, 1]);
    const want = reliabilityLayout([bin(0.3, 5, 0.35, 0.2), bin(0.4, 0, 0, 0), bin(0.7, 3, 0.72, 1)], frame.plot);
    assert.deepEqual(chart.lastLayout, want);
    const bars = rects.filter((r) => r.fill === "#0072B2");
    assert.deepEqual(
      bars.map((r) => r.args),
      want.bars.map((b) => [b.x, b.y, b.w, b.h]),
    );
  });
});

describe("calibrationText", () => {
  test("states both errors in points and the number of pairs", () => {
    const t = calibrationText(0.0213, 0.2119, 1000);
    assert.match(t, /On 1000 test pairs its probabilities are off by 2\.1 points on average/);
    assert.match(t, /21\.2 points before calibration/);
  });
  test("says why a model was not calibrated", () => {
    const why = "only 9 validation links and 9 validation non-links; calibration needs 20 of each";
    const t = calibrationText(0.3222, 0.3222, 36, why);
    assert.equal(
      t,
      `Not calibrated: ${why}, so p is the model's own probability. On 36 test pairs it is off by 32.2 points on average (expected calibration error, ECE). ` +
        "A bar below the dashed diagonal means fewer links in that bin than the model predicts; above it, more.",
    );
  });
});
