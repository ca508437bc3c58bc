// Pure helpers that turn engine results into what the view and panels show.

import type { Explanation, GraphInfo, Neighbor } from "../protocol";
import type { Highlight } from "./graph/index";
import { SIDE_I, SIDE_J } from "./palette";

/**
 * Whether an explanation carries attributions: the number shown per
 * selected neighbour is its attribution, or, when every attribution is 0
 * (an engine that does not compute them), its weight b.
 */
export function hasAttributions(ex: Explanation): boolean {
  return [...ex.i.neighbors, ...ex.j.neighbors].some((n) => n.selected && n.attribution !== 0);
}

/** The number shown for neighbour n of ex: its attribution, or its weight b when ex has none (see hasAttributions). */
export function shownNumber(ex: Explanation, n: Neighbor): number {
  return hasAttributions(ex) ? n.attribution : n.weight;
}

/**
 * The canvas highlight of an explanation: the pair, both sides' selected
 * neighbours with edge strengths (the shown number's size, normalised by
 * the largest in the explanation, so the strongest edge is 1), the common
 * neighbours among them and the pair's link.
 */
export function pairHighlight(ex: Explanation): Highlight {
  const attr = hasAttributions(ex);
  const value = (n: Neighbor): number => (n.selected ? Math.abs(attr ? n.attribution : n.weight) : 0);
  let top = 0;
  for (const n of [...ex.i.neighbors, ...ex.j.neighbors]) if (Number.isFinite(value(n))) top = Math.max(top, value(n));
  const strength = (n: Neighbor): number => (top > 0 && Number.isFinite(value(n)) ? value(n) / top : 0);
  const side = (s: Explanation["i"], color: string) => ({
    node: s.node,
    color,
    neighbors: s.neighbors.map((n) => ({ node: n.node, strength: strength(n), selected: n.selected })),
  });
  const common = new Set<number>();
  for (const n of [...ex.i.neighbors, ...ex.j.neighbors]) if (n.common && n.selected) common.add(n.node);
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
    featuresText(info),
    `mean degree ${s.meanDegree.toFixed(1)}`,
    connectedText(s.components),
  ];
  if (info.missingFeatures > 0) parts.push(`${info.missingFeatures.toLocaleString("en")} without a feature row`);
  if (info.hasGroundtruth) parts.push("groundtruth explanations");
  return parts.join(" · ");
}

/**
 * How many features the nodes have, in the command line's words
 * (graph.Graph.FeatureSummary): "1433 features", "1 feature", and for
 * features the engine made up, what they are and why: "34 features:
 * one-hot node ids (…)".
 */
export function featuresText(info: GraphInfo): string {
  const n = info.featureDim === 1 ? "1 feature" : `${info.featureDim} features`;
  return info.madeUpFeatures ? `${n}: ${info.madeUpFeatures}` : n;
}

/**
 * How many connected parts the graph has, in words that cannot be read as
 * the legend's classes (a synthetic graph's classes are its generator's
 * feature components, "component 0" …): "all connected" or "3 connected
 * parts".
 */
export function connectedText(parts: number): string {
  return parts <= 1 ? "all connected" : `${parts.toLocaleString("en")} connected parts`;
}

/**
 * What the loader did not take from the files as they stand (a header or
 * comments skipped, ignored columns, duplicate edges and self-loops
 * removed, nodes without a feature row), in the command line's words, as
 * one note; null when there is nothing to say.
 */
export function inputNotesText(info: GraphInfo): string | null {
  if (info.inputNotes.length === 0) return null;
  return `${info.name}: ${info.inputNotes.join("; ")}.`;
}

