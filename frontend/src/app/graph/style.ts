// The static layer's style of a graph: a palette index per node (its class)
// and a world radius per node (from its degree). DOM-free.
import { classColor, DIMMED, EDGE, NEUTRAL, OKABE_ITO } from "../palette";
import type { StaticStyle } from "./layout-protocol";
import { NEUTRAL_INDEX } from "./overlay";
import { degreeRadius } from "./transform";
import type { GraphData } from "./types";

/** The style of data's nodes and the largest node radius (at least 1, for hit-test reach). */
export function nodeStyle(data: GraphData): { style: StaticStyle; maxRadius: number } {
  const n = data.n;
  const m = data.edges.length >> 1;
  const colorIndex = new Uint8Array(n);
  const radius = new Float32Array(n);
  let maxRadius = 1;
  const meanDegree = n > 0 ? (2 * m) / n : 0;
  for (let i = 0; i < n; i++) {
    const c = data.labels?.[i] ?? -1;
    colorIndex[i] = c >= 0 ? c % OKABE_ITO.length : NEUTRAL_INDEX;
    radius[i] = degreeRadius(data.degrees[i] ?? 0, meanDegree);
    if (radius[i]! > maxRadius) maxRadius = radius[i]!;
  }
  const palette = [...OKABE_ITO.map((_, c) => classColor(c)), NEUTRAL];
  return { style: { palette, colorIndex, radius, edgeColor: EDGE, dimColor: DIMMED }, maxRadius };
}
