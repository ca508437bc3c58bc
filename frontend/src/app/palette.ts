// Colours of the app. Two families that never meet: the explanation's
// highlights (the pair's two sides, common neighbours, groundtruth) are
// strong, dark, saturated colours of distinct hues, after Okabe & Ito's
// palette ("Color Universal Design", 2008), which stays distinguishable
// under the common colour-vision deficiencies; class colours are light
// tints, so a class can never pass for a highlight, whatever the number of
// classes (test/palette.test.ts checks the distance in CIELAB).

/** Okabe-Ito, in their published order minus black (used for text); chart series pick from it. */
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

/** The two ends of a pair: i is blue, j vermillion (never confused). */
export const SIDE_I = "#0072B2";
export const SIDE_J = "#D55E00";
/** Common neighbours of i and j. */
export const COMMON = "#009E73";
/** Groundtruth marks: a dark purple (Tol's), darker than Okabe-Ito's so no class tint comes near it. */
export const GROUNDTRUTH = "#AA3377";
/** Every colour an explanation draws with; no class colour comes near any of them. */
export const HIGHLIGHTS = [SIDE_I, SIDE_J, COMMON, GROUNDTRUTH] as const;

/**
 * The walk-through's sequential scale, light (0) to dark (1): viridis'
 * five stops, reversed, so that "more" reads darker on the light canvas.
 * It stays readable under the common colour-vision deficiencies.
 */
export const SCALE = ["#fde725", "#5ec962", "#21918c", "#3b528b", "#440154"] as const;

/** The colour of v (clamped to 0..1; NaN reads 0) on SCALE, interpolated in sRGB. */
export function shade(v: number): string {
  const x = Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
  const at = x * (SCALE.length - 1);
  const k = Math.min(SCALE.length - 2, Math.floor(at));
  const f = at - k;
  const rgb = (hex: string) => [1, 3, 5].map((o) => parseInt(hex.slice(o, o + 2), 16));
  const a = rgb(SCALE[k]!), b = rgb(SCALE[k + 1]!);
  return `#${a.map((c, n) => Math.round(c + (b[n]! - c) * f).toString(16).padStart(2, "0")).join("")}`;
}

/** Nodes and edges without a class, and dimmed context while something is highlighted. */
export const NEUTRAL = "#7a8591";
export const EDGE = "rgba(90, 100, 112, 0.35)";
export const DIMMED = "rgba(160, 168, 176, 0.35)";

/** Hue step between consecutive classes: the golden angle spreads any number of hues evenly. */
const GOLDEN_ANGLE = 137.508;
/** Class tints: light, moderately saturated (the highlights are dark and strong). */
const CLASS_SATURATION = 0.6;
const CLASS_LIGHTNESS = 0.74;

/**
 * Colour of class label c (c >= 0): a light tint whose hue steps by the
 * golden angle, so the first classes differ most and every class count
 * has its own colours; none is near a highlight colour.
 */
export function classColor(c: number): string {
  const hue = (20 + Math.max(0, Math.trunc(c)) * GOLDEN_ANGLE) % 360;
  return hslHex(hue, CLASS_SATURATION, CLASS_LIGHTNESS);
}

/** The first `count` class colours. */
export function classPalette(count: number): string[] {
  return Array.from({ length: Math.max(0, count) }, (_, c) => classColor(c));
}

/** #rrggbb of HSL (hue in degrees, saturation and lightness in [0, 1]). */
export function hslHex(hue: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** CIELAB (D65) of a #rrggbb colour. */
export function lab(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`palette: ${JSON.stringify(hex)} is not a #rrggbb colour`);
  const lin = (x: string): number => {
    const v = parseInt(x, 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [lin(m[1]!), lin(m[2]!), lin(m[3]!)];
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIE76 colour difference of two #rrggbb colours (about 2.3 is just noticeable). */
export function deltaE(a: string, b: string): number {
  const p = lab(a), q = lab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

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
