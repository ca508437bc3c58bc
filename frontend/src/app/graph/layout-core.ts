// The force layout behind the worker's API, DOM-free so that node's tests
// can run it: the multilevel layout of multilevel.ts with its iteration
// counts chosen by the graph's size. The same graph and seed always give
// the same layout. The worker (layout-worker.ts) drives it in time slices.
import { createMultilevel } from "./multilevel";
import { seededRandom } from "./prng";

export interface LayoutOptions {
  seed?: number;
  /** Start from these positions (x, y per node): only the finest level refines them. */
  positions?: Float32Array;
  /** Override the iteration cap, all levels together (otherwise chosen from the graph's size). */
  maxTicks?: number;
}

export interface Layout {
  readonly n: number;
  readonly maxTicks: number;
  /** Iterations run so far, all levels together. */
  ticks(): number;
  /** 1 at the start, 0 when done. */
  alpha(): number;
  /** True once the finest level ran its iterations (or the cap was reached). */
  done(): boolean;
  /** Runs up to count iterations (fewer if done); returns how many ran. */
  step(count: number): number;
  /** Writes x, y per node into out (length 2n), or a new array. */
  write(out?: Float32Array): Float32Array;
}

/**
 * Iterations at the finest level by size: each costs O(n log n + m), and
 * the levels above have placed the nodes already, so large graphs need
 * few; small ones get more, which costs them little.
 */
export function finestIterations(n: number, m: number): number {
  return n + m / 4 <= 20_000 ? 100 : 50;
}

/** Seeded positions uniform in a disc whose area grows with n (a start for callers that have none). */
export function initialPositions(n: number, seed: number): Float32Array {
  const rand = seededRandom(seed ^ 0x5bd1e995);
  const radius = 10 * Math.sqrt(n + 1);
  const out = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const r = radius * Math.sqrt(rand());
    const t = 2 * Math.PI * rand();
    out[2 * i] = r * Math.cos(t);
    out[2 * i + 1] = r * Math.sin(t);
  }
  return out;
}

export function createLayout(n: number, edges: Uint32Array, options: LayoutOptions = {}): Layout {
  const m = edges.length >> 1;
  const ml = createMultilevel(n, edges, {
    seed: options.seed ?? 0,
    finestIterations: finestIterations(n, m),
    ...(options.positions ? { positions: options.positions } : {}),
  });
  const maxTicks = Math.min(ml.maxTicks, options.maxTicks ?? Infinity);
  const done = (): boolean => ml.done() || ml.ticks() >= maxTicks;
  return {
    n,
    maxTicks,
    ticks: () => ml.ticks(),
    alpha: () => (done() ? 0 : ml.alpha()),
    done,
    step: (count: number) => ml.step(Math.max(0, Math.min(count, maxTicks - ml.ticks()))),
    write: (out?: Float32Array) => ml.write(out),
  };
}
