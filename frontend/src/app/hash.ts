// Deep links: the URL hash records what the page shows, so a tutorial or a
// static demo can link straight to an explanation, e.g.
//   #data=synth:medium&seed=0&pair=12,45
// Node references in links are node ids (what users see), not indices.
// A pair is two ids, each percent-encoded (a comma in an id becomes %2C),
// joined by a bare comma: the comma that separates them is the only one
// left in the raw value, so any id round-trips ("Valjean, Jean").

/** What a URL hash asks the page to show. Absent parts are null. */
export interface DeepLink {
  /** A dataset: `synth:sparse|medium|dense`, or `file:NAME` for a graph opened from files (not reopenable from a link). */
  data: string | null;
  /** The synthetic generator's seed. */
  seed: number | null;
  /** A pair of node ids to explain. */
  pair: [string, string] | null;
  /** `step=N`: the pair's walk-through open at step N (1-based; with a pair only). */
  step: number | null;
  /** One selected node id (when no pair). */
  node: string | null;
  /** `train=1`: train at once if no stored checkpoint fits (for demos). */
  train: boolean;
  /**
   * `workers=N`: the cores an ILP-GNN run trains on, as written (the app
   * checks it against the engine's limit, see cores.ts linkWorkers).
   */
  workers: string | null;
}

export const PRESETS = ["sparse", "medium", "dense"] as const;
export type PresetName = (typeof PRESETS)[number];

/** The page's default: the built-in synthetic graph, seed 0. */
export const DEFAULT_DATA = "synth:medium";

/** Parses `location.hash` (with or without the leading '#'); unknown keys and malformed values are ignored (`workers` is kept as written: the app says why it ignores a bad one). */
export function parseHash(hash: string): DeepLink {
  const link: DeepLink = { data: null, seed: null, pair: null, node: null, step: null, train: false, workers: null };
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const data = params.get("data");
  if (data !== null && data !== "") link.data = data;
  const seed = params.get("seed");
  if (seed !== null && /^\d{1,9}$/.test(seed)) link.seed = Number(seed);
  const pair = rawPair(hash.replace(/^#/, ""));
  if (pair !== null) link.pair = pair;
  const step = params.get("step");
  if (link.pair !== null && step !== null && /^\d{1,2}$/.test(step) && Number(step) >= 1) link.step = Number(step);
  const node = params.get("node");
  if (node !== null && node !== "" && link.pair === null) link.node = node;
  link.train = params.get("train") === "1";
  link.workers = params.get("workers");
  return link;
}

/**
 * The pair of a hash's raw `pair=` value, cut at its bare comma before
 * the two ids are decoded. A value with no bare comma is decoded first and
 * cut at its one comma, as links written by hand (`pair=12%2C45`) were
 * read before ids were encoded; anything else is no pair.
 */
function rawPair(hash: string): [string, string] | null {
  const field = hash.split("&").find((f) => f.startsWith("pair="));
  if (field === undefined) return null;
  const decode = (s: string): string | null => {
    try {
      // As URLSearchParams reads a value: '+' is a space.
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return null;
    }
  };
  const raw = field.slice("pair=".length).split(",");
  let parts = raw.map(decode);
  if (raw.length === 1) parts = (parts[0] ?? "").split(",");
  if (parts.length !== 2) return null;
  const [a, b] = parts;
  return a === null || b === null || a === undefined || b === undefined || a === "" || b === "" ? null : [a, b];
}

/** Formats a link as a hash ("#..."), in a fixed key order; empty parts are left out. */
export function formatHash(link: Partial<DeepLink>): string {
  const parts: string[] = [];
  const enc = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ":").replace(/%2C/gi, ",");
  if (link.data) parts.push(`data=${enc(link.data)}`);
  if (link.seed !== null && link.seed !== undefined) parts.push(`seed=${link.seed}`);
  if (link.pair) {
    // Each id keeps its own commas escaped: the bare one separates them.
    const id = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ":");
    parts.push(`pair=${id(link.pair[0])},${id(link.pair[1])}`);
    if (link.step !== null && link.step !== undefined) parts.push(`step=${link.step}`);
  } else if (link.node !== null && link.node !== undefined) parts.push(`node=${enc(link.node)}`);
  if (link.workers !== null && link.workers !== undefined && link.workers !== "") parts.push(`workers=${enc(link.workers)}`);
  if (link.train) parts.push("train=1");
  return parts.length === 0 ? "" : `#${parts.join("&")}`;
}

/** The synthetic preset named by a `data` value, or null. */
export function presetOf(data: string | null): PresetName | null {
  const m = /^synth:(\w+)$/.exec(data ?? "");
  const name = m?.[1];
  return name !== undefined && (PRESETS as readonly string[]).includes(name) ? (name as PresetName) : null;
}
