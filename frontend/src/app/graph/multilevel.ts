// A multilevel force layout (coarse to fine, after Walshaw's and Hu's
// sfdp-style schemes), DOM-free so that node's tests can run it. The graph
// is coarsened by matching each node with a neighbour (the leftovers join a
// neighbour's group, isolated nodes pair up) until a few dozen nodes are
// left; the coarsest graph gets a full layout, which is cheap, and each
// finer level starts from its parent's position plus a small seeded offset
// and needs only a few refining iterations. A level's node has the mass of
// the nodes it stands for and its edges the count of the edges between
// them, so every level is laid out at the finest level's scale.
//
// Forces are Fruchterman-Reingold's: repulsion C·K²·m_i·m_j/d between all
// pairs (Barnes-Hut quadtree over typed arrays), attraction w·d²/K along
// edges, and a pull to the origin that keeps disconnected pieces
// near. Each node moves a step along its force, the step set per
// level by Hu's adaptive cooling. Everything runs in doubles in a fixed
// order from a seeded generator: the same graph and seed give the same
// positions, bit for bit.
import { seededRandom } from "./prng";

/** Repulsion strength relative to attraction (Hu's C). */
const C = 0.2;
/** Pull to the origin, relative to the repulsion of the whole graph at the layout's RMS radius. */
const GRAVITY = 1;
/** Barnes-Hut opening angle: a cell this small relative to its distance counts as one body. */
const THETA = 0.9;
/** Coarsening stops at this many nodes, or when a level shrinks too little. */
const COARSEST = 40;
const MIN_SHRINK = 0.85;
/** Hu's cooling: the step shrinks by T after a worse iteration, grows by 1/T after five better ones. */
const T = 0.9;
/** Quadtree depth limit: bodies closer than size/2^MAX_DEPTH share a leaf. */
const MAX_DEPTH = 40;

interface Level {
  n: number;
  /** CSR adjacency (both directions) with edge weights. */
  start: Int32Array;
  adj: Int32Array;
  w: Float64Array;
  mass: Float64Array;
  /** This level's node -> the next coarser level's node (empty for the coarsest). */
  parent: Int32Array;
}

export interface MultilevelOptions {
  seed?: number;
  /** Natural edge length. */
  edgeLength?: number;
  /** Iterations at the coarsest level, at the middle levels and at the finest. */
  coarsestIterations?: number;
  levelIterations?: number;
  finestIterations?: number;
  /** Start from these positions (x, y per node): no coarsening, only the finest level refines them. */
  positions?: Float32Array;
}

/** Builds the finest level from an edge list (self-loops and out-of-range ends dropped, duplicates merged by weight). */
function finestLevel(n: number, edges: Uint32Array): Level {
  const m = edges.length >> 1;
  const deg = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const s = edges[2 * e]!, t = edges[2 * e + 1]!;
    if (s === t || s >= n || t >= n) continue;
    deg[s + 1]!++;
    deg[t + 1]!++;
  }
  for (let i = 0; i < n; i++) deg[i + 1]! += deg[i]!;
  const adj = new Int32Array(deg[n]!);
  const fill = deg.slice(0, n);
  for (let e = 0; e < m; e++) {
    const s = edges[2 * e]!, t = edges[2 * e + 1]!;
    if (s === t || s >= n || t >= n) continue;
    adj[fill[s]!++] = t;
    adj[fill[t]!++] = s;
  }
  const w = new Float64Array(adj.length).fill(1);
  return { n, start: deg, adj, w, mass: new Float64Array(n).fill(1), parent: new Int32Array(0) };
}

/** Seeded permutation of 0..n-1 (Fisher-Yates). */
function permutation(n: number, rand: () => number): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
  return p;
}

/**
 * Groups level l's nodes (sets l.parent) and returns the coarser level.
 * Matching prefers light neighbours (weight over the product of masses), so
 * groups stay even; a node left with every neighbour matched joins its best
 * neighbour's group (a star collapses at once), and isolated nodes pair up.
 */
function coarsen(l: Level, rand: () => number): Level {
  const { n, start, adj, w, mass } = l;
  const group = new Int32Array(n).fill(-1);
  const order = permutation(n, rand);
  let groups = 0;
  let lonely = -1; // an isolated node waiting for a partner
  for (let k = 0; k < n; k++) {
    const u = order[k]!;
    if (group[u]! >= 0) continue;
    let best = -1, bestScore = -1;
    for (let p = start[u]!; p < start[u + 1]!; p++) {
      const v = adj[p]!;
      if (group[v]! >= 0 || v === u) continue;
      const score = w[p]! / (mass[u]! * mass[v]!);
      if (score > bestScore) {
        bestScore = score;
        best = v;
      }
    }
    if (best >= 0) {
      group[u] = group[best] = groups++;
    } else if (start[u + 1]! === start[u]!) {
      if (lonely >= 0) {
        group[u] = group[lonely]!;
        lonely = -1;
      } else {
        group[u] = groups++;
        lonely = u;
      }
    }
  }
  // Nodes whose neighbours were all matched: join the best neighbour's group.
  const gmass = new Float64Array(groups);
  for (let u = 0; u < n; u++) if (group[u]! >= 0) gmass[group[u]!]! += mass[u]!;
  for (let k = 0; k < n; k++) {
    const u = order[k]!;
    if (group[u]! >= 0) continue;
    let best = -1, bestScore = -1;
    for (let p = start[u]!; p < start[u + 1]!; p++) {
      const g = group[adj[p]!]!;
      if (g < 0) continue;
      const score = w[p]! / gmass[g]!;
      if (score > bestScore) {
        bestScore = score;
        best = g;
      }
    }
    if (best < 0) {
      // Cannot happen (a node with an unmatched neighbour would have matched it); keep it alone regardless.
      group[u] = groups++;
      continue;
    }
    group[u] = best;
    gmass[best]! += mass[u]!;
  }
  l.parent = group;
  // The coarse graph: members per group, then their edges merged by group.
  const cn = groups;
  const cmass = new Float64Array(cn);
  const mstart = new Int32Array(cn + 1);
  for (let u = 0; u < n; u++) {
    cmass[group[u]!]! += mass[u]!;
    mstart[group[u]! + 1]!++;
  }
  for (let g = 0; g < cn; g++) mstart[g + 1]! += mstart[g]!;
  const members = new Int32Array(n);
  const mfill = mstart.slice(0, cn);
  for (let u = 0; u < n; u++) members[mfill[group[u]!]!++] = u;
  const seen = new Int32Array(cn).fill(-1); // coarse neighbour -> its slot in this row
  const cstart = new Int32Array(cn + 1);
  const cadj: number[] = [];
  const cw: number[] = [];
  for (let g = 0; g < cn; g++) {
    const row = cadj.length;
    for (let q = mstart[g]!; q < mstart[g + 1]!; q++) {
      const u = members[q]!;
      for (let p = start[u]!; p < start[u + 1]!; p++) {
        const h = group[adj[p]!]!;
        if (h === g) continue;
        const slot = seen[h]!;
        if (slot >= row) cw[slot]! += w[p]!;
        else {
          seen[h] = cadj.length;
          cadj.push(h);
          cw.push(w[p]!);
        }
      }
    }
    cstart[g + 1] = cadj.length;
  }
  return { n: cn, start: cstart, adj: Int32Array.from(cadj), w: Float64Array.from(cw), mass: cmass, parent: new Int32Array(0) };
}

/** A Barnes-Hut quadtree over typed arrays, rebuilt each iteration; cells are allocated four at a time. */
class QuadTree {
  cap = 0;
  count = 0;
  cx: Float64Array = new Float64Array(0); // cell centre
  cy: Float64Array = new Float64Array(0);
  half: Float64Array = new Float64Array(0); // half the cell's side
  mass: Float64Array = new Float64Array(0);
  sx: Float64Array = new Float64Array(0); // mass-weighted sums of the bodies' positions
  sy: Float64Array = new Float64Array(0);
  child: Int32Array = new Int32Array(0); // first of four children, -1 for a leaf
  body: Int32Array = new Int32Array(0); // first body of a leaf, -1 when empty
  next: Int32Array = new Int32Array(0); // next body in the same leaf

  private grow(cells: number): void {
    if (cells <= this.cap) return;
    const cap = Math.max(cells, 2 * this.cap);
    const f = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      b.set(a.subarray(0, this.count));
      return b;
    };
    const g = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a.subarray(0, this.count));
      return b;
    };
    this.cx = f(this.cx);
    this.cy = f(this.cy);
    this.half = f(this.half);
    this.mass = f(this.mass);
    this.sx = f(this.sx);
    this.sy = f(this.sy);
    this.child = g(this.child);
    this.body = g(this.body);
    this.cap = cap;
  }

  private cell(i: number, cx: number, cy: number, half: number): void {
    this.cx[i] = cx;
    this.cy[i] = cy;
    this.half[i] = half;
    this.mass[i] = 0;
    this.sx[i] = 0;
    this.sy[i] = 0;
    this.child[i] = -1;
    this.body[i] = -1;
  }

  build(n: number, x: Float64Array, y: Float64Array, m: Float64Array): void {
    if (this.next.length < n) this.next = new Int32Array(n);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const a = x[i]!, b = y[i]!;
      if (a < minX) minX = a;
      if (a > maxX) maxX = a;
      if (b < minY) minY = b;
      if (b > maxY) maxY = b;
    }
    this.count = 0;
    this.grow(Math.max(64, 2 * n + 1));
    const half = Math.max(maxX - minX, maxY - minY, 1e-9) / 2 + 1e-9;
    this.cell(0, (minX + maxX) / 2, (minY + maxY) / 2, half);
    this.count = 1;
    for (let i = 0; i < n; i++) this.insert(i, x[i]!, y[i]!, m[i]!, x, y, m);
  }

  private quadrant(c: number, px: number, py: number): number {
    return (px >= this.cx[c]! ? 1 : 0) + (py >= this.cy[c]! ? 2 : 0);
  }

  private split(c: number): number {
    this.grow(this.count + 4);
    const first = this.count;
    const h = this.half[c]! / 2, cx = this.cx[c]!, cy = this.cy[c]!;
    this.cell(first, cx - h, cy - h, h);
    this.cell(first + 1, cx + h, cy - h, h);
    this.cell(first + 2, cx - h, cy + h, h);
    this.cell(first + 3, cx + h, cy + h, h);
    this.count += 4;
    this.child[c] = first;
    return first;
  }

  private add(c: number, px: number, py: number, pm: number): void {
    this.mass[c]! += pm;
    this.sx[c]! += pm * px;
    this.sy[c]! += pm * py;
  }

  private insert(i: number, px: number, py: number, pm: number, x: Float64Array, y: Float64Array, m: Float64Array): void {
    let c = 0;
    for (let depth = 0; ; depth++) {
      this.add(c, px, py, pm);
      if (this.child[c]! >= 0) {
        c = this.child[c]! + this.quadrant(c, px, py);
        continue;
      }
      const b = this.body[c]!;
      if (b < 0) {
        this.body[c] = i;
        this.next[i] = -1;
        return;
      }
      if (depth >= MAX_DEPTH) {
        this.next[i] = b;
        this.body[c] = i;
        return;
      }
      // A leaf holding one body: push that body down a level, then go on with i.
      this.body[c] = -1;
      const first = this.split(c);
      const q = first + this.quadrant(c, x[b]!, y[b]!);
      this.body[q] = b;
      this.next[b] = -1;
      this.add(q, x[b]!, y[b]!, m[b]!);
      c = first + this.quadrant(c, px, py);
    }
  }
}

export interface Multilevel {
  readonly n: number;
  /** Iterations planned, all levels together. */
  readonly maxTicks: number;
  ticks(): number;
  /** 1 at the start, 0 when done: the share of planned iterations left. */
  alpha(): number;
  done(): boolean;
  step(count: number): number;
  write(out?: Float32Array): Float32Array;
}

export function createMultilevel(n: number, edges: Uint32Array, options: MultilevelOptions = {}): Multilevel {
  const seed = options.seed ?? 0;
  const K = options.edgeLength ?? 20;
  const rand = seededRandom(seed ^ 0x2545f491);
  const levels: Level[] = [finestLevel(n, edges)];
  const given = options.positions && options.positions.length >= 2 * n ? options.positions : null;
  if (!given) {
    for (;;) {
      const l = levels[levels.length - 1]!;
      if (l.n <= COARSEST) break;
      const c = coarsen(l, rand);
      if (c.n > MIN_SHRINK * l.n) {
        l.parent = new Int32Array(0);
        break;
      }
      levels.push(c);
    }
  }
  const top = levels.length - 1;
  const coarsestIt = options.coarsestIterations ?? 300;
  const levelIt = options.levelIterations ?? 30;
  const finestIt = options.finestIterations ?? 50;
  // A graph too small to coarsen is its own coarsest level: a full layout from random positions.
  const cap = (l: number): number => (l === top && !given ? coarsestIt : l === 0 ? finestIt : levelIt);
  let maxTicks = 0;
  for (let l = 0; l <= top; l++) maxTicks += cap(l);
  // Original node -> its node at each level, for drawing the finer nodes while a coarse level runs.
  const anc: Int32Array[] = [];
  if (top > 0) {
    let a = new Int32Array(n);
    for (let i = 0; i < n; i++) a[i] = i;
    anc.push(a);
    for (let l = 0; l < top; l++) {
      const p = levels[l]!.parent;
      const b = new Int32Array(n);
      for (let i = 0; i < n; i++) b[i] = p[a[i]!]!;
      anc.push(b);
      a = b;
    }
  }
  // A fixed offset direction per node, for its place inside its group's disc.
  const jx = new Float64Array(n), jy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt(rand()), t = 2 * Math.PI * rand();
    jx[i] = r * Math.cos(t);
    jy[i] = r * Math.sin(t);
  }
  // The spread of a group of mass m: the radius of a disc holding m nodes at spacing K.
  const spread = (m: number): number => 0.5 * K * Math.sqrt(m);

  let level = top;
  let x = new Float64Array(levels[top]!.n), y = new Float64Array(levels[top]!.n);
  if (given) {
    for (let i = 0; i < n; i++) {
      x[i] = given[2 * i]!;
      y[i] = given[2 * i + 1]!;
    }
  } else {
    // The coarsest nodes uniformly in a disc the size of the whole layout.
    const R = K * Math.sqrt(n + 1);
    for (let i = 0; i < x.length; i++) {
      const r = R * Math.sqrt(rand()), t = 2 * Math.PI * rand();
      x[i] = r * Math.cos(t);
      y[i] = r * Math.sin(t);
    }
  }
  const total = levels[0]!.mass.reduce((a, b) => a + b, 0);
  /** Typical distance between this level's nodes. */
  const spacing = (l: number): number => K * Math.sqrt(total / Math.max(1, levels[l]!.n));
  let stepLen = given ? 0.1 * K : 2 * spacing(top);
  let progress = 0;
  let energy = Infinity;
  let levelTicks = 0;
  let ticks = 0;
  let finished = n === 0;
  const tree = new QuadTree();
  let fx = new Float64Array(x.length), fy = new Float64Array(x.length);
  const stack: number[] = [];

  function iterate(): void {
    const l = levels[level]!;
    const ln = l.n, mass = l.mass, start = l.start, adj = l.adj, w = l.w;
    tree.build(ln, x, y, mass);
    const { cx, cy, half, child, body, next } = tree;
    const tm = tree.mass, tsx = tree.sx, tsy = tree.sy;
    const ck2 = C * K * K;
    const floor = 1e-4 * K * K;
    // The pull grows linearly with the distance from the origin, so that it
    // equals pull0 at the layout's mass-weighted RMS radius: nodes far out
    // (isolated ones, small components) come back to the main body whatever
    // its density has made its size.
    let r2 = 0;
    for (let i = 0; i < ln; i++) r2 += mass[i]! * (x[i]! * x[i]! + y[i]! * y[i]!);
    const rms = Math.sqrt(r2 / total) || K;
    const pull = (GRAVITY * C * K * Math.sqrt(total)) / rms;
    const theta2 = THETA * THETA;
    let e = 0;
    for (let i = 0; i < ln; i++) {
      const xi = x[i]!, yi = y[i]!, mi = mass[i]!;
      let ax = 0, ay = 0;
      // Repulsion: f = C·K²·m_i·m_j / d along the unit vector, i.e. (dx, dy)·C·K²·m_i·m_j / d².
      stack.length = 0;
      stack.push(0);
      while (stack.length > 0) {
        const c = stack.pop()!;
        const cm = tm[c]!;
        if (cm === 0) continue;
        if (child[c]! < 0) {
          for (let b = body[c]!; b >= 0; b = next[b]!) {
            if (b === i) continue;
            const dx = xi - x[b]!, dy = yi - y[b]!;
            const d2 = Math.max(dx * dx + dy * dy, floor);
            const f = (ck2 * mass[b]!) / d2;
            ax += f * dx;
            ay += f * dy;
          }
          continue;
        }
        const px = tsx[c]! / cm, py = tsy[c]! / cm;
        const dx = xi - px, dy = yi - py;
        const d2 = dx * dx + dy * dy;
        const h = half[c]!;
        const side = 2 * h;
        const inside = Math.abs(xi - cx[c]!) <= h && Math.abs(yi - cy[c]!) <= h;
        if (!inside && side * side < theta2 * d2) {
          const f = (ck2 * cm) / Math.max(d2, floor);
          ax += f * dx;
          ay += f * dy;
        } else {
          const k = child[c]!;
          stack.push(k, k + 1, k + 2, k + 3);
        }
      }
      ax *= mi;
      ay *= mi;
      // Attraction: w·d²/K along the edge, i.e. (dx, dy)·w·d/K.
      for (let p = start[i]!; p < start[i + 1]!; p++) {
        const j = adj[p]!;
        const dx = x[j]! - xi, dy = y[j]! - yi;
        const f = (w[p]! * Math.sqrt(dx * dx + dy * dy)) / K;
        ax += f * dx;
        ay += f * dy;
      }
      ax -= pull * mi * xi;
      ay -= pull * mi * yi;
      fx[i] = ax;
      fy[i] = ay;
      e += (ax * ax + ay * ay) / (mi * mi);
    }
    for (let i = 0; i < ln; i++) {
      const a = fx[i]!, b = fy[i]!;
      const f = Math.sqrt(a * a + b * b);
      if (f > 0) {
        x[i]! += (stepLen * a) / f;
        y[i]! += (stepLen * b) / f;
      }
    }
    // Hu's adaptive cooling.
    if (e < energy) {
      if (++progress >= 5) {
        progress = 0;
        stepLen /= T;
      }
    } else {
      progress = 0;
      stepLen *= T;
    }
    energy = e;
  }

  /** Moves to the next finer level: each node starts at its group's position plus its own offset. */
  function prolong(): void {
    const fine = levels[level - 1]!;
    const coarse = levels[level]!;
    const nx = new Float64Array(fine.n), ny = new Float64Array(fine.n);
    const p = fine.parent;
    for (let u = 0; u < fine.n; u++) {
      const g = p[u]!;
      const r = 0.5 * spread(coarse.mass[g]!) * Math.sqrt(rand());
      const t = 2 * Math.PI * rand();
      nx[u] = x[g]! + r * Math.cos(t);
      ny[u] = y[g]! + r * Math.sin(t);
    }
    x = nx;
    y = ny;
    fx = new Float64Array(fine.n);
    fy = new Float64Array(fine.n);
    level--;
    levelTicks = 0;
    energy = Infinity;
    progress = 0;
    stepLen = 0.5 * spacing(level);
  }

  return {
    n,
    maxTicks,
    ticks: () => ticks,
    alpha: () => (finished ? 0 : 1 - ticks / maxTicks),
    done: () => finished,
    step(count: number): number {
      let ran = 0;
      while (ran < count && !finished) {
        iterate();
        ran++;
        ticks++;
        levelTicks++;
        if (levelTicks >= cap(level)) {
          if (level === 0) finished = true;
          else prolong();
        }
      }
      return ran;
    },
    write(out = new Float32Array(2 * n)): Float32Array {
      if (level === 0) {
        for (let i = 0; i < n; i++) {
          out[2 * i] = x[i]!;
          out[2 * i + 1] = y[i]!;
        }
        return out;
      }
      // A coarse level: every node inside its group's disc.
      const a = anc[level]!;
      const mass = levels[level]!.mass;
      for (let i = 0; i < n; i++) {
        const g = a[i]!;
        const s = spread(mass[g]!);
        out[2 * i] = x[g]! + s * jx[i]!;
        out[2 * i + 1] = y[g]! + s * jy[i]!;
      }
      return out;
    },
  };
}
