// The highlight overlay, drawn by the page on top of the (dimmed) static
// layer: emphasised edges, lit nodes, markers, rings and id labels.
import { COMMON, GROUNDTRUTH, NEUTRAL, OKABE_ITO, SIDE_J } from "../palette";
import type { Highlight } from "./types";
import { screenRadius, type Transform } from "./transform";

/** Okabe-Ito's black, for ink: rings, the pair's link, label text. */
const INK = "#000000";
const HALO = "#ffffff";
const MAX_LABELS = 80;
const FONT = "12px system-ui, sans-serif";

export interface OverlayScene {
  pos: Float32Array;
  /** Pairs (selected node, neighbour) to emphasise in one-node mode: see neighborEdges. */
  neighborEdges: readonly number[];
  radius: Float32Array;
  ids: readonly string[];
  colorOf: (i: number) => string;
}

/**
 * The graph's edges between a selected node and a highlighted neighbour, as
 * flat pairs (selected, neighbour); one pass over the edges.
 */
export function neighborEdges(h: Highlight, edges: Uint32Array): number[] {
  const out: number[] = [];
  if (!h.neighbors || h.neighbors.length === 0 || h.selected.length === 0) return out;
  const sel = new Set(h.selected), nb = new Set(h.neighbors);
  for (let e = 0; e + 1 < edges.length; e += 2) {
    const a = edges[e]!, b = edges[e + 1]!;
    if (sel.has(a) && nb.has(b)) out.push(a, b);
    if (sel.has(b) && nb.has(a)) out.push(b, a);
  }
  return out;
}

/** Every node the highlight mentions (they are drawn undimmed). */
export function litNodes(h: Highlight): number[] {
  const s = new Set<number>(h.selected);
  for (const v of h.neighbors ?? []) s.add(v);
  for (const side of h.sides ?? []) {
    s.add(side.node);
    for (const nb of side.neighbors) s.add(nb.node);
  }
  for (const v of h.common ?? []) s.add(v);
  for (const v of h.groundtruth ?? []) s.add(v);
  for (const c of h.candidates ?? []) s.add(c.node);
  if (h.pairLink) {
    s.add(h.pairLink.i);
    s.add(h.pairLink.j);
  }
  return [...s];
}

export function drawOverlay(ctx: CanvasRenderingContext2D, h: Highlight, scene: OverlayScene, t: Transform, dpr: number): void {
  const { pos, radius } = scene;
  const n = pos.length >> 1;
  const ok = (i: number): boolean => Number.isInteger(i) && i >= 0 && i < n;
  const sx = (i: number): number => pos[2 * i]! * t.k + t.x;
  const sy = (i: number): number => pos[2 * i + 1]! * t.k + t.y;
  const r = (i: number): number => screenRadius(radius[i]!, t.k);
  const line = (a: number, b: number): void => {
    ctx.beginPath();
    ctx.moveTo(sx(a), sy(a));
    ctx.lineTo(sx(b), sy(b));
    ctx.stroke();
  };
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.lineCap = "round";
  const labels = new Set<number>();
  const first = h.selected[0];

  // Edges.
  if (h.neighbors) {
    const pairs = scene.neighborEdges;
    ctx.strokeStyle = NEUTRAL;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (let e = 0; e + 1 < pairs.length; e += 2) {
      const a = pairs[e]!, b = pairs[e + 1]!;
      if (!ok(a) || !ok(b)) continue;
      ctx.moveTo(sx(a), sy(a));
      ctx.lineTo(sx(b), sy(b));
    }
    ctx.stroke();
    if (h.neighbors.length <= 40) for (const v of h.neighbors) labels.add(v);
  }
  for (const side of h.sides ?? []) {
    if (!ok(side.node)) continue;
    ctx.strokeStyle = side.color;
    // Unselected candidates faintly, then the selected ones by weight.
    ctx.globalAlpha = 0.3;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const nb of side.neighbors) {
      if (nb.selected || !ok(nb.node)) continue;
      ctx.moveTo(sx(side.node), sy(side.node));
      ctx.lineTo(sx(nb.node), sy(nb.node));
    }
    ctx.stroke();
    ctx.globalAlpha = 0.9;
    for (const nb of side.neighbors) {
      if (!nb.selected || !ok(nb.node)) continue;
      ctx.lineWidth = Math.min(8, 1.5 + 6 * Math.max(0, nb.weight));
      line(side.node, nb.node);
      labels.add(nb.node);
    }
    ctx.globalAlpha = 1;
  }
  if (first !== undefined && ok(first) && h.candidates) {
    ctx.strokeStyle = SIDE_J;
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 4]);
    for (const c of h.candidates) {
      if (!ok(c.node)) continue;
      ctx.globalAlpha = 0.2 + 0.8 * Math.min(1, Math.max(0, c.prob));
      line(first, c.node);
      labels.add(c.node);
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  }
  const pl = h.pairLink;
  if (pl && ok(pl.i) && ok(pl.j)) {
    ctx.strokeStyle = INK;
    ctx.lineWidth = 2.5;
    ctx.setLineDash(pl.linked ? [] : [8, 5]);
    line(pl.i, pl.j);
    ctx.setLineDash([]);
  }

  // Lit nodes in their own colours, white outline for contrast; in a pair,
  // the ends and their selected neighbours take their side's colour (a
  // neighbour selected by both sides the common colour), so no class
  // colour can pass for a side.
  const fill = new Map<number, string>();
  for (const side of h.sides ?? []) {
    fill.set(side.node, side.color);
    for (const nb of side.neighbors) {
      if (!nb.selected) continue;
      const had = fill.get(nb.node);
      fill.set(nb.node, had !== undefined && had !== side.color ? COMMON : side.color);
    }
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = HALO;
  for (const i of litNodes(h)) {
    if (!ok(i)) continue;
    ctx.fillStyle = fill.get(i) ?? scene.colorOf(i);
    ctx.beginPath();
    ctx.arc(sx(i), sy(i), r(i) + 1, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }

  // Markers: groundtruth squares, common-neighbour diamonds, selection rings.
  ctx.lineWidth = 2;
  ctx.strokeStyle = GROUNDTRUTH;
  for (const i of h.groundtruth ?? []) {
    if (!ok(i)) continue;
    const d = r(i) + 5;
    ctx.strokeRect(sx(i) - d, sy(i) - d, 2 * d, 2 * d);
  }
  ctx.strokeStyle = COMMON;
  for (const i of h.common ?? []) {
    if (!ok(i)) continue;
    const d = r(i) + 6, x = sx(i), y = sy(i);
    ctx.beginPath();
    ctx.moveTo(x, y - d);
    ctx.lineTo(x + d, y);
    ctx.lineTo(x, y + d);
    ctx.lineTo(x - d, y);
    ctx.closePath();
    ctx.stroke();
    labels.add(i);
  }
  const sideColor = new Map<number, string>();
  for (const side of h.sides ?? []) sideColor.set(side.node, side.color);
  for (const i of h.selected) {
    if (!ok(i)) continue;
    ctx.lineWidth = 3;
    ctx.strokeStyle = sideColor.get(i) ?? INK;
    ctx.beginPath();
    ctx.arc(sx(i), sy(i), r(i) + 4, 0, 2 * Math.PI);
    ctx.stroke();
    labels.add(i);
  }

  // Labels: ids with a white halo; the pair's probability at its midpoint.
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  const text = (s: string, x: number, y: number): void => {
    ctx.lineWidth = 3;
    ctx.strokeStyle = HALO;
    ctx.strokeText(s, x, y);
    ctx.fillStyle = INK;
    ctx.fillText(s, x, y);
  };
  let count = 0;
  // Selected nodes first so they always get their label.
  const ordered = [...new Set([...h.selected, ...labels])];
  for (const i of ordered) {
    if (!ok(i) || count++ >= MAX_LABELS) continue;
    text(scene.ids[i] ?? String(i), sx(i) + r(i) + 8, sy(i));
  }
  if (pl && ok(pl.i) && ok(pl.j)) {
    text(`p = ${pl.prob.toFixed(2)}`, (sx(pl.i) + sx(pl.j)) / 2 + 6, (sy(pl.i) + sy(pl.j)) / 2 - 10);
  }
}

/** Palette index of unlabelled nodes (after the eight class colours). */
export const NEUTRAL_INDEX = OKABE_ITO.length;

/** A light ring around a hovered node drawn at screen point p (CSS px) with screen radius r. */
export function drawHoverRing(ctx: CanvasRenderingContext2D, p: readonly [number, number], r: number, dpr: number): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(p[0], p[1], r + 2.5, 0, 2 * Math.PI);
  ctx.stroke();
}
