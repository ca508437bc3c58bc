// Pure helpers of the charts: ticks, scales, binning and the text summaries
// read out by screen readers. No DOM here; everything is unit-tested in node.

/** One line of a LineChart. */
export interface Series {
  name: string;
  color: string;
  /** Canvas line dash, e.g. [4, 3]; solid if absent. */
  dash?: number[];
  points: Array<[number, number]>;
  /** Optional error-bar half-widths, parallel to points (drawn with `errorBars: true`). */
  err?: number[];
}

/** A "nice" step (1, 2 or 5 times a power of ten) splitting span into about count parts. */
export function niceStep(span: number, count: number): number {
  const raw = Math.abs(span) / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/** Decimal places that print every multiple of step exactly. */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  return Math.min(20, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
}

/**
 * About count round values (multiples of 1, 2 or 5 times a power of ten)
 * inside [min, max], ascending. min == max gives [min]; non-finite gives [].
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min > max) [min, max] = [max, min];
  if (min === max) return [min];
  const step = niceStep(max - min, count);
  const decimals = stepDecimals(step);
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) {
    const v = Number((i * step).toFixed(decimals));
    ticks.push(v === 0 ? 0 : v); // no -0
  }
  return ticks;
}

/** Affine map from domain to range; a zero-width domain maps everything to the range's middle. */
export function linearScale(domain: [number, number], range: [number, number]): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (d1 === d0) {
    const mid = (r0 + r1) / 2;
    return () => mid;
  }
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** [min, max] of the finite numbers in values, or null if there are none. */
export function extent(values: Iterable<number>): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Counts of values in bins equal-width bins over domain (default: the finite
 * values' [min, max]). Bin i holds edges[i] <= v < edges[i+1]; the last bin
 * also holds v == max. Non-finite values and values outside the domain are
 * dropped. A zero-width domain is widened around its value; empty input
 * gives zero counts over [0, 1].
 */
export function histogram(values: number[], bins: number, domain?: [number, number]): { edges: number[]; counts: number[] } {
  const n = Number.isFinite(bins) ? Math.max(1, Math.floor(bins)) : 1;
  let range: [number, number] | null = null;
  if (domain && Number.isFinite(domain[0]) && Number.isFinite(domain[1])) {
    range = domain[0] <= domain[1] ? [domain[0], domain[1]] : [domain[1], domain[0]];
  } else {
    range = extent(values);
  }
  let [lo, hi] = range ?? [0, 1];
  if (hi === lo) {
    const d = Math.max(0.5, Math.abs(lo) * 0.01);
    lo -= d;
    hi += d;
  }
  const edges = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) edges[i] = lo + ((hi - lo) * i) / n;
  edges[n] = hi;
  const counts = new Array<number>(n).fill(0);
  const k = n / (hi - lo);
  for (const v of values) {
    if (!(v >= lo && v <= hi)) continue; // also drops NaN
    let i = Math.min(n - 1, Math.max(0, Math.floor((v - lo) * k)));
    // Agree exactly with the edges despite rounding.
    while (i > 0 && v < edges[i]!) i--;
    while (i < n - 1 && v >= edges[i + 1]!) i++;
    counts[i]!++;
  }
  return { edges, counts };
}

/** Short human form of a number: integers as is, otherwise three significant digits. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e6) return String(v);
  if (a >= 1e6 || a < 1e-3) return v.toPrecision(3);
  return String(Number(v.toPrecision(3)));
}

/** Formatter for the labels of evenly spaced ticks (same decimals for all). */
export function tickFormatter(ticks: readonly number[]): (v: number) => string {
  const a = ticks[0];
  const b = ticks[1];
  const big = ticks.some((t) => Math.abs(t) >= 1e6);
  if (big || a === undefined) return formatNumber;
  if (b === undefined) return formatNumber;
  const decimals = stepDecimals(Math.abs(b - a));
  return (v) => v.toFixed(decimals);
}

/**
 * One sentence describing series for a screen reader, e.g.
 * "validation AUC: 87 points, last 0.912 at epoch 87, min 0.5, max 0.915".
 * Non-finite points are not counted.
 */
export function summarize(series: Series[], xLabel = "x"): string {
  if (series.length === 0) return "no data";
  const parts = series.map((s) => {
    let count = 0;
    let min = Infinity;
    let max = -Infinity;
    let last: [number, number] | null = null;
    for (const p of s.points) {
      const [x, y] = p;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      count++;
      if (y < min) min = y;
      if (y > max) max = y;
      last = p;
    }
    if (last === null) return `${s.name}: no data`;
    const at = `${formatNumber(last[1])} at ${xLabel} ${formatNumber(last[0])}`;
    if (count === 1) return `${s.name}: 1 point, ${at}`;
    return `${s.name}: ${count} points, last ${at}, min ${formatNumber(min)}, max ${formatNumber(max)}`;
  });
  return parts.join("; ");
}

/** Count and mean of the finite values. */
export function stats(values: readonly number[]): { n: number; mean: number } {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    n++;
    sum += v;
  }
  return { n, mean: n > 0 ? sum / n : NaN };
}

/** Text summary of histogram groups, e.g. "linked: n=120, mean 0.431; unlinked: n=120, mean 0.102". */
export function summarizeGroups(groups: ReadonlyArray<{ name: string; values: readonly number[] }>): string {
  if (groups.length === 0) return "no data";
  return groups
    .map((g) => {
      const { n, mean } = stats(g.values);
      return n === 0 ? `${g.name}: no data` : `${g.name}: n=${n}, mean ${formatNumber(mean)}`;
    })
    .join("; ");
}
