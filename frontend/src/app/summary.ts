// Pure helpers that turn engine results into what the view and panels show.

import type { Explanation, GraphInfo } from "../protocol";
import type { Highlight } from "./graph/index";
import { SIDE_I, SIDE_J } from "./palette";

/** The canvas highlight of an explanation: both sides' neighbour sets, weighted. */
export function pairHighlight(ex: Explanation): Highlight {
  const side = (s: Explanation["i"], color: string) => ({
    node: s.node,
    color,
    neighbors: s.neighbors.map((n) => ({ node: n.node, weight: n.weight, selected: n.selected })),
  });
  const common = new Set<number>();
  for (const n of [...ex.i.neighbors, ...ex.j.neighbors]) if (n.common) common.add(n.node);
  const h: Highlight = {
    selected: [ex.i.node, ex.j.node],
    sides: [side(ex.i, SIDE_I), side(ex.j, SIDE_J)],
    common: [...common],
    pairLink: { i: ex.i.node, j: ex.j.node, prob: ex.prob, linked: ex.linked },
  };
  if (ex.groundtruth) h.groundtruth = [...ex.groundtruth.i, ...ex.groundtruth.j];
  return h;
}

/** One line about the graph under the canvas. */
export function graphSummary(info: GraphInfo): string {
  const s = info.stats;
  const parts = [
    `${info.name}: ${info.nodes.toLocaleString("en")} nodes, ${info.edges.toLocaleString("en")} edges`,
    `${info.featureDim} features`,
    `mean degree ${s.meanDegree.toFixed(1)}`,
    `${s.components} component${s.components === 1 ? "" : "s"}`,
  ];
  if (info.missingFeatures > 0) parts.push(`${info.missingFeatures.toLocaleString("en")} without a feature row`);
  if (info.hasGroundtruth) parts.push("groundtruth explanations");
  return parts.join(" · ");
}

/**
 * The note for nodes the input named without a feature row (a LINQS .cites id
 * missing from .content), in the command line's words; null when there are none.
 */
export function missingFeaturesNote(info: GraphInfo): string | null {
  const n = info.missingFeatures;
  if (n === 0) return null;
  const ids = info.missingFeatureIds.map((id) => JSON.stringify(id)).join(", ") + (n > info.missingFeatureIds.length ? ", ..." : "");
  const label = info.missingFeatureIds.length === 1 ? "id" : "ids";
  return n === 1
    ? `1 node has no feature row (${label} ${ids}); its features are all zero`
    : `${n.toLocaleString("en")} nodes have no feature row (${label} ${ids}); their features are all zero`;
}

