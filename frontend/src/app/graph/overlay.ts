// The highlight overlay, drawn by the page on top of the (dimmed) static
// layer: emphasised edges, lit nodes, markers, rings and id labels.
import { probabilityIs } from "../format";
import { COMMON, GROUNDTRUTH, NEUTRAL, SIDE_J, shade } from "../palette";
import type { Highlight } from "./types";
import { screenRadius, type Transform } from "./transform";

/** Okabe-Ito's black, for ink: rings, the pair's link, label text. */
const INK = "#000000";
const HALO = "#ffffff";
const MAX_LABELS = 80;
const FONT = "12px system-ui, sans-serif";
/** Height of a label's box (CSS px): the 12 px font and its halo. */
const LABEL_HEIGHT = 15;

export interface OverlayScene {
  pos: Float32Array;
  /** Pairs (selected node, neighbour) to emphasise in one-node mode: see neighborEdges. */
  neighborEdges: readonly number[];
  /** The explanation's edges its sides do not draw, in pair mode: see innerEdges. */
  innerEdges: readonly number[];
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

/**
 * The nodes drawn undimmed. A pair's explanation is the pair and its
 * selected neighbours: everything else (unselected neighbours, common or
 * not, groundtruth nodes the model did not select) stays dimmed with the
 * rest of the graph. A single node lights its neighbours, its suggested
 * links and any groundtruth marks.
 */
export function litNodes(h: Highlight): number[] {
  const s = new Set<number>(h.selected);
  if (h.sides) {
    for (const side of h.sides) {
      s.add(side.node);
      for (const nb of side.neighbors) if (nb.selected) s.add(nb.node);
    }
    if (h.pairLink) {
      s.add(h.pairLink.i);
      s.add(h.pairLink.j);
    }
    return [...s];
  }
  for (const v of h.neighbors ?? []) s.add(v);
  for (const v of h.common ?? []) s.add(v);
  for (const v of h.groundtruth ?? []) s.add(v);
  for (const c of h.candidates ?? []) s.add(c.node);
  if (h.pairLink) {
    s.add(h.pairLink.i);
    s.add(h.pairLink.j);
  }
  return [...s];
}

/**
 * The graph's edges inside an explanation that its sides do not draw
 * already (an end to its selected neighbour) nor the pair's link: edges
 * between two selected neighbours, or from a neighbour to the other end.
 * Flat pairs; empty outside pair mode. One pass over the edges.
 */
export function innerEdges(h: Highlight, edges: Uint32Array): number[] {
  const out: number[] = [];
  if (!h.sides) return out;
  const lit = new Set(litNodes(h));
  const drawn = new Set<string>();
  const key = (a: number, b: number): string => (a < b ? `${a},${b}` : `${b},${a}`);
  for (const side of h.sides) for (const nb of side.neighbors) if (nb.selected) drawn.add(key(side.node, nb.node));
  if (h.pairLink) drawn.add(key(h.pairLink.i, h.pairLink.j));
  for (let e = 0; e + 1 < edges.length; e += 2) {
    const a = edges[e]!, b = edges[e + 1]!;
    if (lit.has(a) && lit.has(b) && !drawn.has(key(a, b))) out.push(a, b);
  }
  return out;
}

/** A label to place: its node's centre and radius, the text's size (CSS px). */
export interface LabelRequest {
  x: number;
  y: number;
  r: number;
  width: number;
  height: number;
  /** Kept beside its node (a selected node's): the nearest spots only, over another node's disc rather than further out. */
  near?: boolean;
}

/** A placed label: where its text starts (left, vertical middle) and its box. */
export interface PlacedLabel {
  x: number;
  y: number;
  box: Box;
  /** Whether the box overlaps no earlier label (false only when every spot was taken). */
  clear: boolean;
}

/** A screen rectangle (CSS px). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Room kept between labels (CSS px). */
const LABEL_GAP = 2;
/** A label's distance from its node's disc: clear of the selection ring (r + 4, 3 px wide) and its halo. */
const LABEL_OFFSET = 8;

/**
 * Places labels in order, each at the first of a few spots around its node
 * (right, left, above, below, the diagonals, then the same in three rings
 * further out, a label's height apart) where its box overlaps no label
 * placed before it, no `fixed` box and no other labelled node's disc and
 * ring (a request with r = 0, such as the pair's probability at its link's
 * midpoint, has none). Greedy: earlier labels win, so pass the most
 * important first. A label with no clear spot takes its first one and is
 * marked not clear. A `near` label tries only the nearest ring: first a
 * spot clear of everything, then one clear of the labels alone.
 */
export function placeLabels(requests: readonly LabelRequest[], fixed: readonly Box[] = []): PlacedLabel[] {
  const placed: Box[] = [...fixed];
  const overlaps = (b: Box, p: Box): boolean => b.left < p.right + LABEL_GAP && p.left < b.right + LABEL_GAP && b.top < p.bottom + LABEL_GAP && p.top < b.bottom + LABEL_GAP;
  // Discs with their selection rings (drawn at r + 4, 3 px wide: see drawOverlay).
  const ring = LABEL_OFFSET - LABEL_GAP;
  const discs = requests.map((q) => (q.r > 0 ? { left: q.x - q.r - ring, top: q.y - q.r - ring, right: q.x + q.r + ring, bottom: q.y + q.r + ring } : null));
  const hitsLabel = (b: Box): boolean => placed.some((p) => overlaps(b, p));
  const hits = (b: Box, own: number): boolean => hitsLabel(b) || discs.some((d, k) => d !== null && k !== own && overlaps(b, d));
  return requests.map((q, own) => {
    let first: PlacedLabel | null = null;
    let overDisc: PlacedLabel | null = null;
    for (let reach = 0; reach < (q.near ? 1 : 4); reach++) {
      // Each ring of spots a label's height further out, so rings do not overlap.
      const d = q.r + LABEL_OFFSET + reach * (q.height + LABEL_GAP);
      const spots: Array<[number, number]> = [
        [q.x + d, q.y], // right
        [q.x - d - q.width, q.y], // left
        [q.x - q.width / 2, q.y - d - q.height / 2], // above
        [q.x - q.width / 2, q.y + d + q.height / 2], // below
        [q.x + d * 0.8, q.y - d * 0.8 - q.height / 2],
        [q.x - d * 0.8 - q.width, q.y - d * 0.8 - q.height / 2],
        [q.x + d * 0.8, q.y + d * 0.8 + q.height / 2],
        [q.x - d * 0.8 - q.width, q.y + d * 0.8 + q.height / 2],
      ];
      for (const [x, y] of spots) {
        const box = { left: x, top: y - q.height / 2, right: x + q.width, bottom: y + q.height / 2 };
        if (!hits(box, own)) {
          placed.push(box);
          return { x, y, box, clear: true };
        }
        if (q.near && overDisc === null && !hitsLabel(box)) overDisc = { x, y, box, clear: true };
        first ??= { x, y, box, clear: false };
      }
    }
    const p = overDisc ?? first!;
    placed.push(p.box);
    return p;
  });
}

/** Screen geometry of a scene under a transform, and the strokes drawn with it. */
interface Pen {
  /** Whether i is a node of the scene. */
  ok(i: number): boolean;
  sx(i: number): number;
  sy(i: number): number;
  /** Node i's radius on screen. */
  r(i: number): number;
  /** Strokes the segment between nodes a and b. */
  line(a: number, b: number): void;
  /** Strokes the segments of consecutive node pairs, skipping any not in the scene. */
  path(pairs: readonly number[]): void;
}

function penFor(ctx: CanvasRenderingContext2D, scene: OverlayScene, t: Transform): Pen {
  const { pos, radius } = scene;
  const n = pos.length >> 1;
  const pen: Pen = {
    ok: (i) => Number.isInteger(i) && i >= 0 && i < n,
    sx: (i) => pos[2 * i]! * t.k + t.x,
    sy: (i) => pos[2 * i + 1]! * t.k + t.y,
    r: (i) => screenRadius(radius[i]!, t.k),
    line: (a, b) => {
      ctx.beginPath();
      ctx.moveTo(pen.sx(a), pen.sy(a));
      ctx.lineTo(pen.sx(b), pen.sy(b));
      ctx.stroke();
    },
    path: (pairs) => {
      ctx.beginPath();
      for (let e = 0; e + 1 < pairs.length; e += 2) {
        const a = pairs[e]!, b = pairs[e + 1]!;
        if (!pen.ok(a) || !pen.ok(b)) continue;
        ctx.moveTo(pen.sx(a), pen.sy(a));
        ctx.lineTo(pen.sx(b), pen.sy(b));
      }
      ctx.stroke();
    },
  };
  return pen;
}

/**
 * Draws highlight h over the (dimmed) static layer: the explanation's edges
 * and nodes in the highlight colours, markers, selection rings, and id
 * labels placed so that they do not overlap.
 */
export function drawOverlay(ctx: CanvasRenderingContext2D, h: Highlight, scene: OverlayScene, t: Transform, dpr: number): void {
  const pen = penFor(ctx, scene, t);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.lineCap = "round";
  const labels = new Set<number>();
  drawEdges(ctx, h, scene, pen, labels);
  drawLitNodes(ctx, h, scene, pen);
  drawMarkers(ctx, h, pen, labels);
  drawLabels(ctx, h, scene, pen, labels);
}

/** The highlight's edges; the nodes they reach are added to labels. */
function drawEdges(ctx: CanvasRenderingContext2D, h: Highlight, scene: OverlayScene, pen: Pen, labels: Set<number>): void {
  const { ok, line } = pen;
  if (h.neighbors && !h.sides) {
    ctx.strokeStyle = NEUTRAL;
    ctx.lineWidth = 1.5;
    pen.path(scene.neighborEdges);
    if (h.neighbors.length <= 40) for (const v of h.neighbors) labels.add(v);
  }
  if (h.sides) {
    // The explanation's other edges, thin ink under the sides' own.
    ctx.strokeStyle = INK;
    ctx.globalAlpha = 0.45;
    ctx.lineWidth = 1;
    pen.path(scene.innerEdges);
    ctx.globalAlpha = 1;
  }
  for (const side of h.sides ?? []) {
    if (!ok(side.node)) continue;
    ctx.strokeStyle = side.color;
    for (const nb of side.neighbors) {
      if (!nb.selected || !ok(nb.node)) continue;
      ctx.lineWidth = 1.5 + 6 * Math.min(1, Math.max(0, nb.strength));
      line(side.node, nb.node);
      labels.add(nb.node);
    }
  }
  const first = h.selected[0];
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
}

/**
 * Lit nodes in their own colours, white outline for contrast; in a pair,
 * the ends and their selected neighbours take their side's colour (a
 * neighbour selected by both sides the common colour). Class colours are
 * light tints and highlight colours dark (palette.ts): they cannot be
 * confused.
 */
function drawLitNodes(ctx: CanvasRenderingContext2D, h: Highlight, scene: OverlayScene, pen: Pen): void {
  const fill = new Map<number, string>();
  for (const side of h.sides ?? []) {
    fill.set(side.node, side.color);
    for (const nb of side.neighbors) {
      if (!nb.selected) continue;
      const had = fill.get(nb.node);
      fill.set(nb.node, had !== undefined && had !== side.color ? COMMON : side.color);
    }
  }
  // A walk-through step colours the neighbours by its value; the ends keep
  // their side's colour.
  for (const s of h.shades ?? []) if (!h.selected.includes(s.node)) fill.set(s.node, shade(s.value));
  ctx.lineWidth = 1;
  ctx.strokeStyle = HALO;
  for (const i of litNodes(h)) {
    if (!pen.ok(i)) continue;
    ctx.fillStyle = fill.get(i) ?? scene.colorOf(i);
    ctx.beginPath();
    ctx.arc(pen.sx(i), pen.sy(i), pen.r(i) + 1, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

/** Groundtruth squares, common-neighbour diamonds and selection rings; the marked nodes are added to labels. */
function drawMarkers(ctx: CanvasRenderingContext2D, h: Highlight, pen: Pen, labels: Set<number>): void {
  const { ok, sx, sy, r } = pen;
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
}

/**
 * Labels: ids with a white halo, placed apart; the pair's probability at
 * its link's midpoint first, so that no id covers it.
 */
function drawLabels(ctx: CanvasRenderingContext2D, h: Highlight, scene: OverlayScene, pen: Pen, labels: Set<number>): void {
  const { ok, sx, sy, r } = pen;
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
  // Selected nodes first so they always get their label, beside their node.
  const only = h.labels ? new Set(h.labels) : null;
  const ordered = [...new Set([...h.selected, ...[...labels].filter((i) => only === null || only.has(i))])].filter(ok).slice(0, MAX_LABELS);
  const requests: Array<LabelRequest & { s: string }> = ordered.map((i) => {
    const s = scene.ids[i] ?? String(i);
    return { s, x: sx(i), y: sy(i), r: r(i), width: ctx.measureText(s).width, height: LABEL_HEIGHT, near: h.selected.includes(i) };
  });
  const pl = h.pairLink;
  if (pl && ok(pl.i) && ok(pl.j)) {
    const s = `p ${probabilityIs(pl.prob)}`;
    // Just above the link's midpoint, off the line.
    requests.unshift({ s, x: (sx(pl.i) + sx(pl.j)) / 2, y: (sy(pl.i) + sy(pl.j)) / 2 - 10, r: 0, width: ctx.measureText(s).width, height: LABEL_HEIGHT });
  }
  placeLabels(requests).forEach((p, k) => text(requests[k]!.s, p.x, p.y));
}

/** A light ring around a hovered node drawn at screen point p (CSS px) with screen radius r. */
export function drawHoverRing(ctx: CanvasRenderingContext2D, p: readonly [number, number], r: number, dpr: number): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(p[0], p[1], r + 2.5, 0, 2 * Math.PI);
  ctx.stroke();
}

/** The keyboard's current node: a dashed ink ring wider than any selection ring, at screen point p with screen radius r. */
export function drawCursorRing(ctx: CanvasRenderingContext2D, p: readonly [number, number], r: number, dpr: number): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 2;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.arc(p[0], p[1], r + 8, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.setLineDash([]);
}
