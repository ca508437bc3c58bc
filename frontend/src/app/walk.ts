// The walk-through of one prediction ("How the model decided"), without the
// DOM: for each step, the numbers its table shows (each under the key of
// the explanation's JSON field it is, so that a test can check it against
// `ilpgnn explain --json`) and what the canvas lights. The words of each
// step come from the engine (Go's Explanation.Walkthrough), the same for
// the app, the card and the command line.

import type { Explanation, Neighbor, Side, Step } from "../protocol";
import type { Highlight } from "./graph/types";
import { SIDE_I, SIDE_J } from "./palette";
import { pairHighlight } from "./summary";
import { idInProse } from "./wording";

/** The steps, in order (Go's explain.StepKeys). */
export const STEP_KEYS = ["structure", "features", "scores", "selection", "aggregation", "prediction", "whatif"] as const;
export type StepKey = (typeof STEP_KEYS)[number];

/** How many rows of neighbours a step's table lists per side, at most. */
export const MAX_ROWS = 8;

/** One number a step shows: `key` names the field of `explain --json` it is ("i.<id>.score", "logit", "model.tau"). */
export interface StepNumber {
  key: string;
  value: number;
  /** How it is written: "fixed" to 3 decimals, "signed", or "prob" as a percentage. */
  style: "fixed" | "signed" | "prob";
}

/** A row of a step's table. */
export interface StepRow {
  label: string;
  /** The neighbour's node, for a row that is one. */
  node?: number;
  note?: string | undefined;
  cells: Array<StepNumber | null>;
}

/** A step's table: a caption, column heads and rows. */
export interface StepTable {
  caption: string;
  columns: string[];
  rows: StepRow[];
}

/** The 1-based step a link or a key names, clamped to the steps there are; null when it names none. */
export function clampStep(n: number | null): number | null {
  if (n === null || !Number.isFinite(n)) return null;
  return Math.min(STEP_KEYS.length, Math.max(1, Math.trunc(n)));
}

/** The step of `ex` at 1-based position n (its Go text). */
export function stepAt(ex: Explanation, n: number): Step {
  return ex.steps[n - 1] ?? { key: STEP_KEYS[n - 1] ?? "", title: "", text: "" };
}

const num = (key: string, value: number, style: StepNumber["style"] = "fixed"): StepNumber => ({ key, value, style });

/** A side's neighbours ordered by value, best first, MAX_ROWS of them. */
function topRows(s: Side, value: (n: Neighbor) => number, filter: (n: Neighbor) => boolean = () => true): Neighbor[] {
  return s.neighbors
    .filter(filter)
    .sort((a, b) => value(b) - value(a) || a.rank - b.rank)
    .slice(0, MAX_ROWS);
}

/** The tables of step `key` for ex: one per side, or one for the pair. */
export function stepTables(ex: Explanation, key: StepKey): StepTable[] {
  const sides: Array<[string, Side, Side]> = [["i", ex.i, ex.j], ["j", ex.j, ex.i]];
  const anchored = ex.model.anchor !== 0;
  const perSide = (caption: (s: Side, o: Side) => string, columns: string[], rows: (s: Side) => Neighbor[], cells: (side: string, n: Neighbor) => Array<StepNumber | null>, note?: (n: Neighbor) => string | undefined): StepTable[] =>
    sides.map(([side, s, o]) => ({
      caption: caption(s, o),
      columns: ["neighbour", ...columns],
      rows: rows(s).map((n) => ({ label: n.id, node: n.node, note: note?.(n), cells: cells(side, n) })),
    }));
  const at = (side: string, n: Neighbor, field: string) => `${side}.${n.id}.${field}`;
  const common = (n: Neighbor) => (n.common ? "common" : undefined);
  switch (key) {
    case "structure":
      return perSide((s, o) => `neighbours of ${idInProse(s.id)}, closest to ${idInProse(o.id)} first`, ["structure"], (s) => topRows(s, (n) => n.structure), (side, n) => [num(at(side, n, "structure"), n.structure)], common);
    case "features":
      return perSide(
        (s, o) => `neighbours of ${idInProse(s.id)}, most alike to ${idInProse(o.id)} first`,
        anchored ? ["features", "trained", "untrained"] : ["features"],
        (s) => topRows(s, (n) => n.features),
        (side, n) => (anchored ? [num(at(side, n, "features"), n.features), num(at(side, n, "learnt"), n.learnt), num(at(side, n, "untrained"), n.untrained)] : [num(at(side, n, "features"), n.features)]),
      );
    case "scores":
      return perSide((s, o) => `neighbours of ${idInProse(s.id)} scored against ${idInProse(o.id)}, best first`, ["structure", "features", "score"], (s) => topRows(s, (n) => n.score, (n) => !n.outside), (side, n) => [num(at(side, n, "structure"), n.structure), num(at(side, n, "features"), n.features), num(at(side, n, "score"), n.score)], common);
    case "selection":
      return perSide(
        (s) => `${s.id}: ${s.neighbors.filter((n) => n.selected).length} kept of ${s.neighbors.length}, at most K = ${ex.model.k}`,
        ["score"],
        (s) => [...s.neighbors.filter((n) => n.selected), ...s.neighbors.filter((n) => !n.selected)].slice(0, Math.max(MAX_ROWS, ex.model.k)),
        (side, n) => [num(at(side, n, "score"), n.score)],
        (n) => [n.selected ? "kept" : n.outside ? "beyond the bound, not scored" : "left out", n.common ? "common" : ""].filter(Boolean).join(", "),
      );
    case "aggregation":
      return sides.map(([side, s]) => ({
        caption: `${s.id}: its own h^r and how far each kept neighbour moves it`,
        columns: ["", "b", "moves h by"],
        rows: [
          { label: `${s.id} itself (length of h^r)`, cells: [null, num(`${side}.norm`, s.norm)] },
          ...s.neighbors.filter((n) => n.selected).map((n) => ({ label: n.id, node: n.node, cells: [num(at(side, n, "weight"), n.weight), num(at(side, n, "shift"), n.shift)] })),
        ],
      }));
    case "prediction": {
      const rows: StepRow[] = [
        { label: `${ex.i.id}'s own term`, cells: [num("i.own", ex.i.own, "signed")] },
        ...ex.i.neighbors.filter((n) => n.selected).map((n) => ({ label: `${n.id}'s term`, node: n.node, cells: [num(at("i", n, "attribution"), n.attribution, "signed")] })),
        { label: `logit h_${ex.i.id} · h_${ex.j.id}`, cells: [num("logit", ex.logit, "signed")] },
      ];
      const calibrated = ex.model.temperature !== 1 || ex.model.bias !== 0;
      if (calibrated) rows.push({ label: "temperature T", cells: [num("model.temperature", ex.model.temperature)] }, { label: "bias c", cells: [num("model.bias", ex.model.bias, "signed")] });
      rows.push({ label: calibrated ? "p = sigmoid(logit / T + c)" : "p = sigmoid(logit)", cells: [num("prob", ex.prob, "prob")] });
      return [{ caption: `from ${ex.i.id}'s side: its own term and its kept neighbours' add up to the logit`, columns: ["", "value"], rows }];
    }
    case "whatif": {
      const rows: StepRow[] = [
        { label: "the model's p", cells: [num("prob", ex.prob, "prob")] },
        { label: "selected neighbours removed", cells: [num("prob_removed", ex.prob_removed, "prob")] },
        { label: `as many random neighbours removed (mean of ${ex.random_draws})`, cells: [num("prob_random_removed", ex.prob_random_removed, "prob")] },
        { label: "random neighbours instead of the selected", cells: [num("prob_random", ex.prob_random, "prob")] },
      ];
      // A common neighbour has a row per side: each names the end it is removed from.
      for (const [side, s] of sides) for (const n of s.neighbors.filter((n) => n.selected)) rows.push({ label: `without ${n.id} alone (a neighbour of ${s.id})`, node: n.node, cells: [num(at(side, n, "prob_without"), n.prob_without, "prob")] });
      return [{ caption: "p if the explanation were different", columns: ["", "p"], rows }];
    }
  }
}

/**
 * What the canvas lights at step `key`: the pair always; the neighbours
 * with an edge as wide as the step's value (structure, features, score:
 * every neighbour; from the selection on, the selected ones).
 */
export function stepHighlight(ex: Explanation, key: StepKey): Highlight {
  const base = pairHighlight(ex);
  let value: (n: Neighbor) => number;
  let lit: (n: Neighbor) => boolean = (n) => n.selected;
  switch (key) {
    case "structure":
      value = (n) => n.structure;
      lit = () => true;
      break;
    case "features":
      value = (n) => n.features;
      lit = () => true;
      break;
    case "scores":
      value = (n) => (n.outside ? 0 : n.score);
      lit = (n) => !n.outside;
      break;
    case "selection":
      value = () => 1;
      break;
    case "aggregation":
      value = (n) => n.shift;
      break;
    case "prediction":
      value = (n) => Math.abs(n.attribution);
      break;
    case "whatif":
      value = (n) => Math.abs(ex.prob - n.prob_without);
      break;
  }
  // The steps that light every neighbour label only the rows of their
  // tables: a hub's dozens of ids would cover the pair.
  if (key === "structure" || key === "features" || key === "scores") {
    base.labels = [...new Set(stepTables(ex, key).flatMap((t) => t.rows.flatMap((r) => (r.node === undefined ? [] : [r.node]))))];
  }
  const all = [...ex.i.neighbors, ...ex.j.neighbors].filter(lit);
  const top = Math.max(0, ...all.map((n) => (Number.isFinite(value(n)) ? value(n) : 0)));
  const strength = (n: Neighbor) => (lit(n) && top > 0 && Number.isFinite(value(n)) ? Math.max(0, value(n)) / top : 0);
  base.sides = [ex.i, ex.j].map((s, k) => ({
    node: s.node,
    color: k === 0 ? SIDE_I : SIDE_J,
    neighbors: s.neighbors.map((n) => ({ node: n.node, strength: strength(n), selected: lit(n) })),
  }));
  // The scores' steps colour every neighbour by its value: structure and
  // features as they are (0 to 1), the score scaled by the largest.
  const shaded = shadeOf(key, top);
  if (shaded !== null) {
    const shades = new Map<number, number>();
    for (const n of all) shades.set(n.node, Math.max(shades.get(n.node) ?? 0, shaded(n)));
    base.shades = [...shades].map(([node, value]) => ({ node, value }));
  }
  return base;
}

/** What a step colours its neighbours by (0..1), or null for a step that colours none; top is the step's largest value. */
export function shadeOf(key: StepKey, top: number): ((n: Neighbor) => number) | null {
  switch (key) {
    case "structure":
      return (n) => n.structure;
    case "features":
      return (n) => n.features;
    case "scores":
      return (n) => (top > 0 ? n.score / top : 0);
    default:
      return null;
  }
}
