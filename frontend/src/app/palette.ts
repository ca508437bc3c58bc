// Colours of the app. Okabe & Ito's palette ("Color Universal Design",
// 2008) stays distinguishable under the common colour-vision deficiencies;
// every categorical colour in the app comes from it.

/** Okabe-Ito, in their published order minus black (used for text). */
export const OKABE_ITO = [
  "#E69F00", // orange
  "#56B4E9", // sky blue
  "#009E73", // bluish green
  "#F0E442", // yellow
  "#0072B2", // blue
  "#D55E00", // vermillion
  "#CC79A7", // reddish purple
  "#999999", // grey (Okabe-Ito's black, lightened to sit on a light canvas)
] as const;

/** Colour of class label c; classes beyond eight reuse colours. */
export function classColor(c: number): string {
  const n = OKABE_ITO.length;
  return OKABE_ITO[((c % n) + n) % n]!;
}

/** The two ends of a pair: i is blue, j vermillion (never confused). */
export const SIDE_I = "#0072B2";
export const SIDE_J = "#D55E00";
/** Common neighbours of i and j, and groundtruth marks. */
export const COMMON = "#009E73";
export const GROUNDTRUTH = "#CC79A7";
/** Nodes and edges without a class, and dimmed context while something is highlighted. */
export const NEUTRAL = "#7a8591";
export const EDGE = "rgba(90, 100, 112, 0.35)";
export const DIMMED = "rgba(160, 168, 176, 0.35)";

/** Chart series: loss parts and metrics. */
export const SERIES = {
  loss: "#000000",
  cls: "#0072B2",
  pos: "#009E73",
  neg: "#D55E00",
  valAUC: "#0072B2",
  bestValAUC: "#E69F00",
  linked: "#0072B2",
  unlinked: "#D55E00",
} as const;
