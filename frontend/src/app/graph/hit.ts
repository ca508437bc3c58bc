// Hit testing: which node is under a screen point, tolerant of small
// misses. A d3-quadtree over world positions, rebuilt lazily when positions
// change. DOM-free.
import { quadtree, type Quadtree, type QuadtreeLeaf } from "d3-quadtree";

export type NodeTree = Quadtree<number>;

/** A quadtree of node indices at pos (x, y per node); non-finite positions are left out. */
export function buildTree(pos: Float32Array): NodeTree {
  const n = pos.length >> 1;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(pos[2 * i]!) && Number.isFinite(pos[2 * i + 1]!)) idx.push(i);
  return quadtree<number>()
    .x((i) => pos[2 * i]!)
    .y((i) => pos[2 * i + 1]!)
    .addAll(idx);
}

/**
 * The node under world point (wx, wy): among nodes whose disc (world radius
 * radius(i)) comes within tol world units of the point, the one whose edge
 * is nearest (distance minus radius; ties to the lower index). maxRadius
 * bounds radius(i). -1 when none.
 */
export function hitTest(tree: NodeTree, pos: Float32Array, wx: number, wy: number, radius: (i: number) => number, maxRadius: number, tol: number): number {
  const reach = maxRadius + tol;
  let best = -1;
  let bestScore = Infinity;
  tree.visit((node, x0, y0, x1, y1) => {
    if (x0 > wx + reach || x1 < wx - reach || y0 > wy + reach || y1 < wy - reach) return true;
    if (node.length === undefined) {
      for (let leaf: QuadtreeLeaf<number> | undefined = node; leaf; leaf = leaf.next) {
        const i = leaf.data;
        const dx = pos[2 * i]! - wx, dy = pos[2 * i + 1]! - wy;
        const score = Math.sqrt(dx * dx + dy * dy) - radius(i);
        if (score <= tol && (score < bestScore || (score === bestScore && i < best))) {
          best = i;
          bestScore = score;
        }
      }
    }
    return false;
  });
  return best;
}

/** The same answer as hitTest by checking every node (for tests). */
export function hitTestBrute(pos: Float32Array, wx: number, wy: number, radius: (i: number) => number, tol: number): number {
  let best = -1;
  let bestScore = Infinity;
  for (let i = 0; i < pos.length >> 1; i++) {
    const dx = pos[2 * i]! - wx, dy = pos[2 * i + 1]! - wy;
    const score = Math.sqrt(dx * dx + dy * dy) - radius(i);
    if (score <= tol && score < bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}
