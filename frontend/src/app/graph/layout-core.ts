// The force layout itself, DOM-free so that node's tests can run it: a
// d3-force simulation (links, Barnes-Hut many-body, weak centring forces)
// with seeded initial positions and a seeded random source, so the same
// graph and seed always give the same layout. The worker
// (layout-worker.ts) drives it in time slices.
import { forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum } from "d3-force";
import { seededRandom } from "./prng";

interface Node extends SimulationNodeDatum {
  index: number;
  x: number;
  y: number;
}

export interface LayoutOptions {
  seed?: number;
  /** Start from these positions (x, y per node) instead of seeded random ones. */
  positions?: Float32Array;
  /** Override the tick cap (otherwise chosen from the graph's size). */
  maxTicks?: number;
}

export interface Layout {
  readonly n: number;
  readonly maxTicks: number;
  /** Ticks run so far. */
  ticks(): number;
  alpha(): number;
  /** True once alpha fell below alphaMin or the tick cap was reached. */
  done(): boolean;
  /** Runs up to count ticks (fewer if done); returns how many ran. */
  step(count: number): number;
  /** Writes x, y per node into out (length 2n), or a new array. */
  write(out?: Float32Array): Float32Array;
}

export const ALPHA_MIN = 0.001;

/**
 * Tick cap by size: small graphs get d3's usual ~300 ticks; large ones
 * fewer (each Barnes-Hut tick costs O(n log n) + O(m)), so that Amazon
 * Photo (7,650 nodes, 119k edges) settles in seconds. Large graphs also
 * use a coarser Barnes-Hut (theta 1.2 instead of 0.9: ~35% cheaper) and a
 * bounded many-body range.
 */
export function defaultMaxTicks(n: number, m: number): number {
  const work = n + m / 4;
  if (work <= 5_000) return 300;
  if (work <= 20_000) return 240;
  return 150;
}

/** Seeded initial positions: uniform in a disc whose area grows with n. */
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
  const seed = options.seed ?? 0;
  const m = edges.length >> 1;
  const init = options.positions && options.positions.length >= 2 * n ? options.positions : initialPositions(n, seed);
  const nodes: Node[] = new Array<Node>(n);
  for (let i = 0; i < n; i++) nodes[i] = { index: i, x: init[2 * i]!, y: init[2 * i + 1]!, vx: 0, vy: 0 };
  const links: Array<SimulationLinkDatum<Node>> = [];
  for (let e = 0; e < m; e++) {
    const s = edges[2 * e]!, t = edges[2 * e + 1]!;
    if (s !== t && s < n && t < n) links.push({ source: s, target: t });
  }
  const maxTicks = options.maxTicks ?? defaultMaxTicks(n, m);
  const big = n + m / 4 > 20_000;
  const sim: Simulation<Node, SimulationLinkDatum<Node>> = forceSimulation<Node>()
    .stop()
    .randomSource(seededRandom(seed))
    .alphaMin(ALPHA_MIN)
    // Reach alphaMin exactly at the tick cap.
    .alphaDecay(1 - Math.pow(ALPHA_MIN, 1 / maxTicks))
    .velocityDecay(big ? 0.5 : 0.4)
    .nodes(nodes)
    .force("link", forceLink<Node, SimulationLinkDatum<Node>>(links).distance(big ? 20 : 30).iterations(1))
    .force("charge", forceManyBody<Node>().strength(big ? -20 : -30).theta(big ? 1.2 : 0.9).distanceMax(big ? 600 : Infinity))
    // Weak pull to the origin keeps disconnected components from drifting off.
    .force("x", forceX<Node>(0).strength(big ? 0.04 : 0.06))
    .force("y", forceY<Node>(0).strength(big ? 0.04 : 0.06));
  sim.stop();
  let ticks = 0;
  const done = (): boolean => ticks >= maxTicks || sim.alpha() < sim.alphaMin();
  return {
    n,
    maxTicks,
    ticks: () => ticks,
    alpha: () => sim.alpha(),
    done,
    step(count: number): number {
      let ran = 0;
      while (ran < count && !done()) {
        sim.tick();
        ticks++;
        ran++;
      }
      return ran;
    },
    write(out = new Float32Array(2 * n)): Float32Array {
      for (let i = 0; i < n; i++) {
        const d = nodes[i]!;
        out[2 * i] = d.x;
        out[2 * i + 1] = d.y;
      }
      return out;
    },
  };
}
