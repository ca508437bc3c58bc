// The view transform: world coordinates (the layout's) to CSS pixels of the
// canvas, screen = world * k + (x, y). Pure functions, DOM-free.

export interface Transform {
  readonly k: number;
  readonly x: number;
  readonly y: number;
}

export const IDENTITY: Transform = { k: 1, x: 0, y: 0 };

/** Zoom limits relative to nothing: absolute scale factors. */
export const MIN_ZOOM = 0.01;
export const MAX_ZOOM = 40;

export function toScreen(t: Transform, wx: number, wy: number): [number, number] {
  return [wx * t.k + t.x, wy * t.k + t.y];
}

export function toWorld(t: Transform, sx: number, sy: number): [number, number] {
  return [(sx - t.x) / t.k, (sy - t.y) / t.k];
}

export function clampZoom(k: number, min = MIN_ZOOM, max = MAX_ZOOM): number {
  return Math.min(max, Math.max(min, k));
}

/** Multiplies the scale by factor (clamped) keeping screen point (sx, sy) fixed. */
export function zoomAbout(t: Transform, sx: number, sy: number, factor: number, min = MIN_ZOOM, max = MAX_ZOOM): Transform {
  const k = clampZoom(t.k * factor, min, max);
  const [wx, wy] = toWorld(t, sx, sy);
  return { k, x: sx - wx * k, y: sy - wy * k };
}

export function pan(t: Transform, dx: number, dy: number): Transform {
  return { k: t.k, x: t.x + dx, y: t.y + dy };
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Bounding box of the given nodes (all when nodes is omitted); null if there are none. */
export function bounds(pos: Float32Array, nodes?: readonly number[]): Bounds | null {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const visit = (i: number): void => {
    const x = pos[2 * i], y = pos[2 * i + 1];
    if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  if (nodes) for (const i of nodes) visit(i);
  else for (let i = 0; i < pos.length / 2; i++) visit(i);
  return minX <= maxX ? { minX, minY, maxX, maxY } : null;
}

/**
 * The transform that shows box b centred in a width x height viewport with
 * pad CSS pixels of margin, its scale clamped to [min, max].
 */
export function fitTransform(b: Bounds, width: number, height: number, pad = 24, min = MIN_ZOOM, max = MAX_ZOOM): Transform {
  const w = Math.max(b.maxX - b.minX, 1e-6), h = Math.max(b.maxY - b.minY, 1e-6);
  const k = clampZoom(Math.min(Math.max(width - 2 * pad, 1) / w, Math.max(height - 2 * pad, 1) / h), min, max);
  const cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2;
  return { k, x: width / 2 - cx * k, y: height / 2 - cy * k };
}

/** Screen radius of a node whose world radius is r at scale k: grows slower than the zoom. */
export function screenRadius(r: number, k: number): number {
  return Math.min(40, Math.max(1, r * Math.sqrt(k)));
}

/**
 * World radius of a node of the given degree (square-root scale, clamped).
 * In dense graphs (mean degree above 4) degrees are scaled down so that
 * typical nodes stay small: Photo's mean degree is 31.
 */
export function degreeRadius(degree: number, meanDegree = 4): number {
  const d = Math.max(0, degree) * Math.min(1, 4 / Math.max(meanDegree, 1e-9));
  return Math.min(12, 2.5 + 1.1 * Math.sqrt(d));
}
