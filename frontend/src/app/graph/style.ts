// The static layer's style of a graph: a palette index per node (its class)
// and a world radius per node (from its degree). DOM-free.
import { classPalette, DIMMED, EDGE, NEUTRAL } from "../palette";
import type { StaticStyle } from "./layout-protocol";
import { degreeRadius } from "./transform";
import type { GraphData } from "./types";

/** Most class colours the static layer keeps apart (colour indices are bytes; the last one is NEUTRAL). */
export const MAX_CLASS_COLORS = 255;

/** The style of data's nodes and the largest node radius (at least 1, for hit-test reach). */
export function nodeStyle(data: GraphData): { style: StaticStyle; maxRadius: number } {
  const n = data.n;
  const m = data.edges.length >> 1;
  const colorIndex = new Uint8Array(n);
  const radius = new Float32Array(n);
  let maxRadius = 1;
  const meanDegree = n > 0 ? (2 * m) / n : 0;
  let classes = 0;
  for (let i = 0; i < n; i++) classes = Math.max(classes, (data.labels?.[i] ?? -1) + 1);
  classes = Math.min(classes, MAX_CLASS_COLORS);
  for (let i = 0; i < n; i++) {
    const c = data.labels?.[i] ?? -1;
    colorIndex[i] = c >= 0 ? c % MAX_CLASS_COLORS : classes;
    radius[i] = degreeRadius(data.degrees[i] ?? 0, meanDegree);
    if (radius[i]! > maxRadius) maxRadius = radius[i]!;
  }
  const palette = [...classPalette(classes), NEUTRAL];
  return { style: { palette, colorIndex, radius, edgeColor: EDGE, dimColor: DIMMED }, maxRadius };
}
