// Drawing the static layer (all edges, then all nodes), shared by the page
// (small graphs, drawn every frame) and the layout worker (large graphs,
// drawn into an OffscreenCanvas). DOM-free: it only needs this much of a
// 2D context.
import type { Transform } from "./transform";
import { screenRadius } from "./transform";

export interface Ctx2D {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalAlpha: number;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, r: number, a0: number, a1: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  fill(): void;
  stroke(): void;
}

export interface StaticScene {
  pos: Float32Array;
  edges: Uint32Array;
  palette: readonly string[];
  colorIndex: Uint8Array;
  radius: Float32Array;
  edgeColor: string;
  dimColor: string;
}

/**
 * Clears the canvas and draws every edge (one path) and every node (one
 * path per colour) at transform t, in a width x height CSS-pixel viewport
 * at device pixel ratio dpr. Off-screen edges and nodes are skipped. With
 * dimmed, everything takes the dim colour. Coordinates are transformed
 * here rather than by the context so that lines stay one pixel wide.
 */
export function drawStatic(ctx: Ctx2D, s: StaticScene, t: Transform, width: number, height: number, dpr: number, dimmed: boolean): void {
  const { pos, edges } = s;
  const n = pos.length >> 1;
  const { k, x: tx, y: ty } = t;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, width, height);
  // Edges: one path; thinner when zoomed far out so dense graphs stay legible.
  const m = edges.length >> 1;
  ctx.strokeStyle = dimmed ? s.dimColor : s.edgeColor;
  ctx.lineWidth = k < 0.5 ? 0.6 : 1;
  ctx.beginPath();
  for (let e = 0; e < m; e++) {
    const a = edges[2 * e]!, b = edges[2 * e + 1]!;
    const x0 = pos[2 * a]! * k + tx, y0 = pos[2 * a + 1]! * k + ty;
    const x1 = pos[2 * b]! * k + tx, y1 = pos[2 * b + 1]! * k + ty;
    if ((x0 < 0 && x1 < 0) || (y0 < 0 && y1 < 0) || (x0 > width && x1 > width) || (y0 > height && y1 > height)) continue;
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
  }
  ctx.stroke();
  // Nodes: bucket by colour, then one path per colour.
  const colours = s.palette.length;
  const counts = new Uint32Array(colours + 1);
  for (let i = 0; i < n; i++) counts[(s.colorIndex[i] ?? 0) + 1]!++;
  for (let c = 0; c < colours; c++) counts[c + 1]! += counts[c]!;
  const order = new Uint32Array(n);
  const fillAt = counts.slice(0, colours);
  for (let i = 0; i < n; i++) order[fillAt[s.colorIndex[i] ?? 0]!++] = i;
  const tiny = k < 0.35; // squares are much cheaper than arcs and look the same when small
  for (let c = 0; c < colours; c++) {
    const from = counts[c]!, to = counts[c + 1]!;
    if (from === to) continue;
    ctx.fillStyle = dimmed ? s.dimColor : s.palette[c]!;
    ctx.beginPath();
    for (let q = from; q < to; q++) {
      const i = order[q]!;
      const x = pos[2 * i]! * k + tx, y = pos[2 * i + 1]! * k + ty;
      const r = screenRadius(s.radius[i]!, k);
      if (x + r < 0 || y + r < 0 || x - r > width || y - r > height) continue;
      if (tiny && r < 2) {
        ctx.rect(x - r, y - r, 2 * r, 2 * r);
      } else {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
      }
    }
    ctx.fill();
  }
}
