import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { formatNumber, histogram, linearScale, niceTicks, summarize, summarizeGroups, tickFormatter } from "../src/app/charts";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("niceTicks", () => {
  test("0..1 gives steps of 0.2", () => {
    assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
  test("0.83..0.97 gives steps of 0.02 inside the range", () => {
    assert.deepEqual(niceTicks(0.83, 0.97), [0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96]);
  });
  test("negative ranges", () => {
    assert.deepEqual(niceTicks(-1, 0), [-1, -0.8, -0.6, -0.4, -0.2, 0]);
    assert.deepEqual(niceTicks(-37, -3), [-35, -30, -25, -20, -15, -10, -5]);
    assert.deepEqual(niceTicks(-2, 3), [-2, -1, 0, 1, 2, 3]);
    for (const t of niceTicks(-1, 0)) assert.ok(!Object.is(t, -0));
  });
  test("larger and integer ranges", () => {
    assert.deepEqual(niceTicks(0, 100), [0, 20, 40, 60, 80, 100]);
    assert.deepEqual(niceTicks(1, 87, 5), [20, 40, 60, 80]);
    assert.deepEqual(niceTicks(0, 10, 10), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
  test("min == max, reversed and non-finite", () => {
    assert.deepEqual(niceTicks(0.5, 0.5), [0.5]);
    assert.deepEqual(niceTicks(1, 0), niceTicks(0, 1));
    assert.deepEqual(niceTicks(NaN, 1), []);
    assert.deepEqual(niceTicks(0, Infinity), []);
  });
  test("ticks stay in range and evenly spaced on random ranges", () => {
    const r = rng(7);
    for (let k = 0; k < 500; k++) {
      const a = (r() - 0.5) * 10 ** Math.floor(r() * 8 - 4);
      const b = a + r() * 10 ** Math.floor(r() * 8 - 4);
      if (b === a) continue;
      const t = niceTicks(a, b, 5);
      assert.ok(t.length >= 2 && t.length <= 16, `${a}..${b}: ${t.length} ticks`);
      const step = t[1]! - t[0]!;
      const eps = (b - a) * 1e-9;
      for (let i = 0; i < t.length; i++) {
        assert.ok(t[i]! >= a - eps && t[i]! <= b + eps);
        if (i > 0) assert.ok(Math.abs(t[i]! - t[i - 1]! - step) <= step * 1e-6);
      }
    }
  });
  test("tick labels share their decimals", () => {
    const t = niceTicks(0, 1);
    assert.deepEqual(t.map(tickFormatter(t)), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
  });
});

describe("histogram", () => {
  /** Brute force: bin i holds edges[i] <= v < edges[i+1], the last also v == edges[n]. */
  function brute(values: number[], edges: number[]): number[] {
    const n = edges.length - 1;
    const counts = new Array<number>(n).fill(0);
    for (const v of values) {
      for (let i = 0; i < n; i++) {
        const inBin = v >= edges[i]! && (v < edges[i + 1]! || (i === n - 1 && v === edges[n]));
        if (inBin) {
          counts[i]!++;
          break;
        }
      }
    }
    return counts;
  }

  test("matches a brute-force count on random data", () => {
    const r = rng(42);
    for (let trial = 0; trial < 50; trial++) {
      const values = Array.from({ length: 1 + Math.floor(r() * 300) }, () => (r() - 0.3) * 7);
      if (trial % 3 === 0) values.push(NaN, Infinity, -Infinity);
      // Values exactly on edges as well.
      values.push(0, 1, 0.5);
      const bins = 1 + Math.floor(r() * 30);
      const domain: [number, number] | undefined = trial % 2 === 0 ? [-1, 2] : undefined;
      const h = histogram(values, bins, domain);
      assert.equal(h.counts.length, bins);
      assert.equal(h.edges.length, bins + 1);
      assert.deepEqual(h.counts, brute(values, h.edges));
      const [lo, hi] = [h.edges[0]!, h.edges[bins]!];
      const inDomain = values.filter((v) => Number.isFinite(v) && v >= lo && v <= hi).length;
      assert.equal(
        h.counts.reduce((a, b) => a + b, 0),
        inDomain,
      );
      if (!domain) {
        const finite = values.filter(Number.isFinite);
        assert.equal(lo, Math.min(...finite));
        assert.equal(hi, Math.max(...finite));
        assert.equal(inDomain, finite.length);
      }
    }
  });

  test("the maximum falls in the last bin", () => {
    const h = histogram([0, 1, 2, 3, 4, 5], 5);
    assert.deepEqual(h.edges, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(h.counts, [1, 1, 1, 1, 2]);
    const g = histogram([0.1, 0.7, 1], 10, [0, 1]);
    assert.equal(g.counts[9], 1);
    assert.equal(g.counts[7], 1);
    assert.equal(g.counts[1], 1);
  });

  test("empty input, constant input, bad bins, reversed domain", () => {
    const e = histogram([], 4);
    assert.deepEqual(e.counts, [0, 0, 0, 0]);
    assert.equal(e.edges.length, 5);
    const c = histogram([3, 3, 3], 3);
    assert.deepEqual(c.counts, [0, 3, 0]);
    assert.ok(c.edges[0]! < 3 && c.edges[3]! > 3);
    assert.deepEqual(histogram([1, 2], 0).counts, [2]);
    assert.deepEqual(histogram([1, 2], NaN).counts, [2]);
    assert.deepEqual(histogram([0.25, 0.75], 2, [1, 0]).counts, [1, 1]);
    assert.deepEqual(histogram([NaN, Infinity], 2).counts, [0, 0]);
  });
});

describe("linearScale", () => {
  test("maps ends and midpoints, including inverted ranges", () => {
    const s = linearScale([0, 10], [100, 300]);
    assert.equal(s(0), 100);
    assert.equal(s(10), 300);
    assert.equal(s(5), 200);
    assert.equal(s(-5), 0);
    const y = linearScale([0, 1], [250, 50]);
    assert.equal(y(0), 250);
    assert.equal(y(1), 50);
    assert.equal(y(0.25), 200);
  });
  test("zero-width domain maps to the middle", () => {
    assert.equal(linearScale([2, 2], [0, 100])(2), 50);
    assert.equal(linearScale([2, 2], [0, 100])(7), 50);
  });
});

describe("summarize", () => {
  test("one sentence per series with count, last, min and max", () => {
    const points: Array<[number, number]> = [];
    for (let e = 1; e <= 87; e++) points.push([e, 0.5 + (e === 80 ? 0.415 : e === 87 ? 0.412 : e / 1000)]);
    const text = summarize([{ name: "validation AUC", color: "#000", points }], "epoch");
    assert.equal(text, "validation AUC: 87 points, last 0.912 at epoch 87, min 0.501, max 0.915");
  });
  test("skips non-finite points; empty and single-point series", () => {
    assert.equal(summarize([]), "no data");
    assert.equal(summarize([{ name: "a", color: "#000", points: [] }]), "a: no data");
    assert.equal(
      summarize([
        { name: "a", color: "#000", points: [[1, NaN], [2, 0.25], [3, Infinity]] },
        { name: "b", color: "#000", points: [[0, 1], [1, 3]] },
      ]),
      "a: 1 point, 0.25 at x 2; b: 2 points, last 3 at x 1, min 1, max 3",
    );
  });
  test("groups", () => {
    assert.equal(
      summarizeGroups([
        { name: "linked", values: [0.1, 0.2, NaN, 0.6] },
        { name: "unlinked", values: [] },
      ]),
      "linked: n=3, mean 0.3; unlinked: no data",
    );
  });
  test("formatNumber", () => {
    assert.equal(formatNumber(87), "87");
    assert.equal(formatNumber(0.91234), "0.912");
    assert.equal(formatNumber(123.456), "123");
    assert.equal(formatNumber(0.0001234), "0.000123");
    assert.equal(formatNumber(12345678), "1.23e+7");
    assert.equal(formatNumber(NaN), "NaN");
  });
});
