// Unit tests of the explanation's words and numbers (issue 33): one style
// for p (a percentage with one decimal, bounds instead of 0% and 100%),
// signed attributions that never read "-0.00", feature scores whose 0.5
// reads "no signal", tied suggestions as one group, the settings a
// restored model changed, the graph's parts and the legend's classes, and
// when Train can start.
import { test } from "node:test";
import assert from "node:assert/strict";
import { probability, probabilityIs, signed } from "../src/app/format";
import { trainedOnKept } from "../src/app/filestore";
import { classesLabel } from "../src/app/legend";
import { changedSettings, PRECISION_PATIENCE } from "../src/app/restore";
import { runBlocked, type RunPrerequisites } from "../src/app/run";
import { connectedText } from "../src/app/summary";
import { rankGroups, tiedCount } from "../src/app/ties";
import { featuresMeaning, idInProse, readingWords, removalWords, selectedByWeight, wordsText } from "../src/app/wording";
import type { Explanation, Neighbor } from "../src/protocol";

test("p reads as a percentage with one decimal, and a sentence's p as '= x%' or a bound", () => {
  assert.equal(probabilityIs(0.901), "= 90.1%");
  assert.equal(probabilityIs(0.5), "= 50.0%");
  // 99.95% and up would round to 100.0%: no finite score gives p = 1.
  assert.equal(probability(0.9995), "> 99.9%");
  assert.equal(probabilityIs(0.99951), "> 99.9%");
  assert.equal(probabilityIs(0.99949), "= 99.9%");
  assert.equal(probabilityIs(0.0004), "< 0.1%");
});

test("signed numbers never read -0.00", () => {
  const cases: Array<[number, string]> = [
    [0.123, "+0.12"],
    [-0.05, "−0.05"],
    [-0.004, "0.00"],
    [0.004, "0.00"],
    [-0, "0.00"],
    [0, "0.00"],
    [-1.2345, "−1.23"],
    [Number.NaN, "–"],
  ];
  for (const [v, want] of cases) assert.equal(signed(v), want, String(v));
  // Whatever the value, the text is "0.00" or carries the value's own sign.
  for (let k = -2000; k <= 2000; k++) {
    const v = k / 100_000;
    const s = signed(v);
    assert.ok(!s.startsWith("-"), s);
    if (s !== "0.00") assert.equal(s.startsWith("−"), v < 0, `${v} → ${s}`);
    assert.equal(Math.abs(Number(s.replace("−", "-"))), Number(Math.abs(v).toFixed(2)), `${v} → ${s}`);
  }
});

test("a feature score of 0.50 is no signal, not half alike", () => {
  assert.equal(featuresMeaning(0.5), "no signal");
  assert.equal(featuresMeaning(0.5049), "no signal");
  assert.equal(featuresMeaning(0.4951), "no signal");
  assert.equal(featuresMeaning(0.506), "alike");
  assert.equal(featuresMeaning(0.93), "alike");
  assert.equal(featuresMeaning(0.494), "unlike");
  assert.equal(featuresMeaning(0.02), "unlike");
});

function nb(node: number, o: Partial<Neighbor>): Neighbor {
  return { node, id: `n${node}`, structure: 0, features: 0.5, learnt: 0.5, untrained: 0, score: 0, common: false, selected: false, weight: 0, shift: 0, rank: 1, attribution: 0, prob_without: 0, ...o };
}

/** Pair (a, b): a's selected neighbours n3 (b 0.25) and n4 (b 0.75), b's n5 alone. */
function pair(prob: number, o: Partial<Explanation> = {}): Explanation {
  return {
    i: {
      node: 1,
      id: "a",
      norm: 1,
      own: 0,
      neighbors: [
        nb(3, { selected: true, weight: 0.25, structure: 0.6, features: 0.9 }),
        nb(4, { selected: true, weight: 0.75, structure: 0.2, features: 0.7 }),
        nb(6, { structure: 0.9, features: 0.9 }),
      ],
    },
    j: { node: 2, id: "b", norm: 1, own: 0, neighbors: [nb(5, { selected: true, weight: 1, structure: 0.33, features: 0.5 })] },
    model: { alpha: 0.3, anchor: 0, k: 3, structure_scaled: true, tau: 1, beta: 1, temperature: 1, bias: 0 },
    logit: 0, steps: [],
    prob, linked: false, masked: false, prob_random: 0.4, prob_removed: 0.31, prob_random_removed: 0.87, random_draws: 10, reading: "", removal: "",
    ...o,
  };
}

test("the reading names the selected neighbours heaviest first, with their mean scores and p as a percentage", () => {
  const ex = pair(0.9012);
  assert.deepEqual(selectedByWeight(ex.i).map((n) => n.id), ["n4", "n3"]);
  // Means by hand: a's structure (0.2 + 0.6) / 2, features (0.7 + 0.9) / 2.
  assert.equal(
    wordsText(readingWords(ex)),
    "b is suggested to a (p = 90.1%) because a's neighbours n4, n3 are similar to b (structure 0.40, features 0.80) and b's neighbour n5 is similar to a (structure 0.33, features 0.50: no signal).",
  );
  assert.equal(
    wordsText(readingWords(pair(0.12, { masked: true }))),
    "b is not suggested to a (p = 12.0%): a's neighbours n4, n3 are only weakly similar to b (structure 0.40, features 0.80) and b's neighbour n5 is only weakly similar to a (structure 0.33, features 0.50: no signal) (their own link was set aside).",
  );
  // A not-linked pair at p = 0.99962 reads as a bound, never "100.0%".
  assert.match(wordsText(readingWords(pair(0.99962))), /^b is suggested to a \(p > 99\.9%\) because /);
  // Ids are words of their own, so the panel can isolate each one.
  assert.deepEqual(readingWords(ex).slice(0, 3), [{ id: "b" }, " is suggested to ", { id: "a" }]);
});

test("an id with a comma is quoted in the sentences, so a list of three reads as three (issue 49)", () => {
  assert.equal(idInProse("Brujon"), "Brujon");
  assert.equal(idInProse("Valjean, Jean"), "“Valjean, Jean”");
  const ex = pair(0.9012);
  ex.j.id = "Valjean, Jean";
  ex.i.neighbors[0]!.id = "Claquesous, Thenardier";
  assert.equal(
    wordsText(readingWords(ex)),
    "“Valjean, Jean” is suggested to a (p = 90.1%) because a's neighbours n4, “Claquesous, Thenardier” are similar to “Valjean, Jean” (structure 0.40, features 0.80) and “Valjean, Jean”'s neighbour n5 is similar to a (structure 0.33, features 0.50: no signal).",
  );
  assert.equal(
    wordsText(removalWords(ex)),
    "Removing the 2 selected neighbours of a and the one of “Valjean, Jean” lowers p from 90.1% to 31.0%; removing as many random neighbours lowers it to 87.0% (mean of 10 draws).",
  );
  // The words keep the id itself: the quotes are how prose writes it.
  assert.deepEqual(readingWords(ex)[0], { id: "Valjean, Jean" });
});

test("the removal sentence writes every p as a percentage with one decimal", () => {
  const ex = pair(0.9012);
  assert.equal(
    wordsText(removalWords(ex)),
    "Removing the 2 selected neighbours of a and the one of b lowers p from 90.1% to 31.0%; removing as many random neighbours lowers it to 87.0% (mean of 10 draws).",
  );
  // Values that read the same leave p "at" it.
  assert.equal(
    wordsText(removalWords(pair(0.90012, { prob_removed: 0.9004, prob_random_removed: 0.9049, random_draws: 1 }))),
    "Removing the 2 selected neighbours of a and the one of b leaves p at 90.0%; removing as many random neighbours raises it to 90.5% (one draw).",
  );
  const none = pair(0.3);
  for (const s of [none.i, none.j]) for (const n of s.neighbors) n.selected = false;
  assert.equal(wordsText(removalWords(none)), "Neither a nor b has a selected neighbour: p = 30.0% rests on the two nodes alone.");
});

/** The engine's tie note for the first n of a list of `length` (core/explain.TieNote's three shapes). */
function tieNote(n: number, length: number): string {
  const which = n === length ? (n === 2 ? "both suggestions'" : `the ${n} suggestions'`) : `the first ${n} suggestions'`;
  return `${which} probabilities lie within 0.9 points, less than the model's calibration error (2.1 points): treat them as tied`;
}

test("the tie note says how many leading suggestions are tied", () => {
  for (let length = 2; length <= 10; length++) {
    for (let n = 2; n <= length; n++) assert.equal(tiedCount(tieNote(n, length), length), n, `${n} of ${length}`);
  }
  assert.equal(tiedCount(undefined, 10), 0);
  assert.equal(tiedCount("", 10), 0);
  assert.equal(tiedCount("something else entirely", 10), 0);
  // Never more than the list holds.
  assert.equal(tiedCount(tieNote(10, 10), 4), 4);
});

test("tied suggestions share one place; the others are ranked after them", () => {
  const items = ["a", "b", "c", "d", "e", "f"];
  for (let tied = 0; tied <= items.length + 2; tied++) {
    const groups = rankGroups(items, tied);
    // Every item once, in order.
    assert.deepEqual(groups.flatMap((g) => g.items), items);
    // Places run 1, 2, 3, … (one per group).
    assert.deepEqual(groups.map((g) => g.rank), groups.map((_, k) => k + 1));
    const head = tied >= 2 ? Math.min(tied, items.length) : 1;
    assert.equal(groups[0]!.items.length, head, `tied ${tied}`);
    assert.ok(groups.slice(1).every((g) => g.items.length === 1));
    assert.equal(groups.length, items.length - head + 1);
  }
  assert.deepEqual(rankGroups([], 3), []);
  assert.deepEqual(rankGroups(["a", "b", "c"], 2), [{ rank: 1, items: ["a", "b"] }, { rank: 2, items: ["c"] }]);
});

test("a restored model's patience chosen for precision selection is not a change from the defaults", () => {
  const defaults = new Map([["patience", "100"], ["lr", "0.01"], ["alpha", "0.3"]]);
  const config = { patience: PRECISION_PATIENCE, lr: "0.01", alpha: "0.3", seed: "4" };
  assert.deepEqual(changedSettings(config, defaults, true), {});
  // Kept on AUC, patience 30 was the user's choice.
  assert.deepEqual(changedSettings(config, defaults, false), { patience: "30" });
  // A patience other than the precision default is a change either way; so is any other setting.
  assert.deepEqual(changedSettings({ ...config, patience: "100", lr: "0.005" }, defaults, true), { patience: "100", lr: "0.005" });
});

test("Train says why it cannot start", () => {
  const ok: RunPrerequisites = { engineReady: true, engineStopped: false, graph: true, training: false };
  assert.equal(runBlocked(ok), null);
  assert.match(runBlocked({ ...ok, engineReady: false, graph: false })!, /engine is starting/);
  assert.match(runBlocked({ ...ok, engineStopped: true })!, /engine stopped/);
  assert.match(runBlocked({ ...ok, graph: false })!, /No graph/);
  assert.match(runBlocked({ ...ok, training: true })!, /under way/);
});

test("the graph's parts and the legend's classes are told apart", () => {
  assert.equal(connectedText(1), "all connected");
  assert.equal(connectedText(78), "78 connected parts");
  assert.equal(connectedText(1234), "1,234 connected parts");
  assert.doesNotMatch(connectedText(78), /component/);
  assert.match(classesLabel(true), /feature components/);
  assert.equal(classesLabel(false), "Classes:");
});

test("a checkpoint is matched to the kept graph by fingerprint, or by name in an older record", () => {
  const c = { fingerprint: "abc", dataset: "cora" };
  assert.equal(trainedOnKept(c, null), false);
  assert.equal(trainedOnKept(c, { dataKey: "file:cora", fingerprint: "abc", saved: 0, bytes: 0 }), true);
  assert.equal(trainedOnKept(c, { dataKey: "file:cora", fingerprint: "def", saved: 0, bytes: 0 }), false);
  assert.equal(trainedOnKept(c, { dataKey: "file:cora", saved: 0, bytes: 0 }), true);
  assert.equal(trainedOnKept(c, { dataKey: "file:x", name: "cora", saved: 0, bytes: 0 }), true);
  assert.equal(trainedOnKept(c, { dataKey: "file:citeseer", saved: 0, bytes: 0 }), false);
});
