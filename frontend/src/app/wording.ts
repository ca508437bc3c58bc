// The explanation's sentences as the panel writes them: the reading and
// the removal counterfactual, with every p a percentage of one decimal
// (format.ts's probability), as the rest of the page writes p. The engine's
// own sentences (Explanation.reading, .removal, from core/explain) write p
// as a decimal fraction with 2 to 4 places; these follow their wording.
// DOM-free: a sentence is a list of words and node ids, and the panel puts
// each id in a <bdi> so that an id's own text direction cannot reorder the
// sentence around it.

import type { Explanation, Neighbor, Side } from "../protocol";
import { fixed, probability, probabilityIs } from "./format";

/** A node id inside a sentence. */
export interface IdWord {
  id: string;
}

/** A sentence: text and node ids in reading order. */
export type Words = Array<string | IdWord>;

/**
 * An id as prose writes it: in quotes when it holds a comma, the
 * separator of the sentences' lists, so that "Valjean, Jean" reads as one
 * node among others (“Valjean, Jean”, Brujon); as it is otherwise. The
 * engine's sentences do the same (core/printable.Listed).
 */
export function idInProse(id: string): string {
  return id.includes(",") ? `“${id}”` : id;
}

/** The sentence as plain text (ids as prose writes them). */
export function wordsText(words: Words): string {
  return words.map((w) => (typeof w === "string" ? w : idInProse(w.id))).join("");
}

/**
 * What a feature score s_NO = σ(h_j · h_c) says: "alike" above 0.5,
 * "unlike" below, and "no signal" where it reads 0.50 with the two
 * decimals the panel shows (the dot product is about 0: the features
 * speak neither for nor against the link).
 */
export function featuresMeaning(v: number): "alike" | "unlike" | "no signal" {
  if (fixed(v, 2) === "0.50") return "no signal";
  return v > 0.5 ? "alike" : "unlike";
}

/** A side's selected neighbours, heaviest weight first (ties in the listing's order), as the engine's Side.Selected orders them. */
export function selectedByWeight(s: Side): Neighbor[] {
  return s.neighbors.filter((n) => n.selected).sort((a, b) => b.weight - a.weight);
}

/**
 * The reading: "j is suggested to i (p = 90.1%) because i's neighbours
 * a, b are similar to j (structure 0.62, features 0.71) and …", or below
 * p = 50% "j is not suggested to i (p = 12.0%): … are only weakly similar
 * to …".
 */
export function readingWords(ex: Explanation): Words {
  const i: IdWord = { id: ex.i.id };
  const j: IdWord = { id: ex.j.id };
  const p = `(p ${probabilityIs(ex.prob)})`;
  const open: Words = ex.prob >= 0.5 ? [j, " is suggested to ", i, ` ${p} because `] : [j, " is not suggested to ", i, ` ${p}: `];
  const verb = ex.prob >= 0.5 ? "are similar to" : "are only weakly similar to";
  return [...open, ...clause(ex.i, j, verb), " and ", ...clause(ex.j, i, verb), ex.masked ? " (their own link was set aside)." : "."];
}

/** Which of s's selected neighbours speak for the link to other, with their mean structure and feature scores. */
function clause(s: Side, other: IdWord, verb: string): Words {
  const sel = selectedByWeight(s);
  if (sel.length === 0) return [{ id: s.id }, " has no neighbours to speak for it"];
  const names: Words = sel.flatMap((n, k) => (k > 0 ? [", ", { id: n.id }] : [{ id: n.id }]));
  const mean = (f: (n: Neighbor) => number) => sel.reduce((t, n) => t + f(n), 0) / sel.length;
  const features = mean((n) => n.features);
  const noSignal = featuresMeaning(features) === "no signal" ? ": no signal" : "";
  const noun = sel.length === 1 ? "neighbour" : "neighbours";
  const v = sel.length === 1 ? verb.replace("are", "is") : verb;
  return [{ id: s.id }, `'s ${noun} `, ...names, ` ${v} `, other, ` (structure ${fixed(mean((n) => n.structure), 2)}, features ${fixed(features, 2)}${noSignal})`];
}

/** How p moves from `before` to `after` as the two are shown. */
function moves(before: number, after: number): "leaves" | "lowers" | "raises" {
  if (probability(before) === probability(after)) return "leaves";
  return after < before ? "lowers" : "raises";
}

/**
 * The removal counterfactual: "Removing the 2 selected neighbours of i
 * and the 3 of j lowers p from 90.1% to 41.3%; removing as many random
 * neighbours lowers it to 85.0% (mean of 10 draws)."
 */
export function removalWords(ex: Explanation): Words {
  const i: IdWord = { id: ex.i.id };
  const j: IdWord = { id: ex.j.id };
  const nI = ex.i.neighbors.filter((n) => n.selected).length;
  const nJ = ex.j.neighbors.filter((n) => n.selected).length;
  if (nI + nJ === 0) return ["Neither ", i, " nor ", j, ` has a selected neighbour: p ${probabilityIs(ex.prob)} rests on the two nodes alone.`];
  const noun = (n: number) => (n === 1 ? "the selected neighbour" : `the ${n} selected neighbours`);
  let what: Words;
  if (nI > 0 && nJ > 0) what = [`${noun(nI)} of `, i, ` and the ${nJ === 1 ? "one" : nJ} of `, j];
  else if (nI > 0) what = [`${noun(nI)} of `, i];
  else what = [`${noun(nJ)} of `, j];
  const p = probability(ex.prob);
  const removed = probability(ex.prob_removed);
  const out: Words = ["Removing ", ...what, ` ${moves(ex.prob, ex.prob_removed)} p ${p === removed ? `at ${p}` : `from ${p} to ${removed}`}`];
  if (ex.random_draws > 0) {
    const random = probability(ex.prob_random_removed);
    const draws = ex.random_draws === 1 ? "one draw" : `mean of ${ex.random_draws} draws`;
    out.push(`; removing as many random neighbours ${moves(ex.prob, ex.prob_random_removed)} it ${p === random ? "at" : "to"} ${random} (${draws})`);
  }
  out.push(".");
  return out;
}
