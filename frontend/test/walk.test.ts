// Unit tests of the walk-through's model (walk.ts): every number a step's
// table shows is the explanation's field its key names (the key a browser
// test looks up in `ilpgnn explain --json`), the canvas lights each step's
// value scaled by the largest, and `step=N` links round-trip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatHash, parseHash } from "../src/app/hash";
import { shade } from "../src/app/palette";
import { clampStep, STEP_KEYS, stepHighlight, stepTables } from "../src/app/walk";
import type { Explanation, Neighbor } from "../src/protocol";

function nb(node: number, o: Partial<Neighbor>): Neighbor {
  return { node, id: `n${node}`, structure: 0, features: 0.5, learnt: 0.5, untrained: 0.5, score: 0, common: false, selected: false, weight: 0, shift: 0, rank: 1, attribution: 0, prob_without: 0, ...o };
}

const ex: Explanation = {
  i: {
    node: 1, id: "a", norm: 1.5, own: 0.25,
    neighbors: [
      nb(3, { rank: 1, selected: true, common: true, weight: 0.6, shift: 0.3, structure: 1, features: 0.8, learnt: 0.9, untrained: 0.7, score: 0.85, attribution: 0.5, prob_without: 0.6 }),
      nb(4, { rank: 2, selected: true, weight: 0.4, shift: 0.2, structure: 0.5, features: 0.6, learnt: 0.4, untrained: 0.8, score: 0.55, attribution: -0.25, prob_without: 0.75 }),
      nb(6, { rank: 3, structure: 0.25, features: 0.4, score: 0.325 }),
    ],
  },
  j: { node: 2, id: "b", norm: 2, own: 0.125, neighbors: [nb(3, { rank: 1, selected: true, common: true, weight: 1, shift: 0.5, structure: 1, features: 0.7, score: 0.85, attribution: 0.375, prob_without: 0.5 })] },
  model: { alpha: 0.5, anchor: 0.5, k: 2, structure_scaled: true, tau: 1, beta: 0.5, temperature: 2, bias: -0.25 },
  logit: 0.5, prob: 0.5, linked: false, masked: false, prob_random: 0.4, prob_removed: 0.3, prob_random_removed: 0.45, random_draws: 10, reading: "", removal: "",
  steps: STEP_KEYS.map((key) => ({ key, title: key, text: key })),
};

/** The explanation's value at a table's key: "i.<id>.<field>" for a neighbour, else a path of fields. */
function lookup(e: Explanation, key: string): unknown {
  const m = /^([ij])\.(.+)\.(\w+)$/.exec(key);
  if (m !== null) {
    const side = m[1] === "i" ? e.i : e.j;
    const n = side.neighbors.find((n) => n.id === m[2]);
    if (n !== undefined) return (n as unknown as Record<string, unknown>)[m[3]!];
  }
  let v: unknown = e;
  for (const part of key.split(".")) v = (v as Record<string, unknown>)[part];
  return v;
}

test("every number of every step is the explanation's field its key names", () => {
  let count = 0;
  for (const key of STEP_KEYS) {
    for (const t of stepTables(ex, key)) {
      for (const r of t.rows) {
        assert.equal(r.cells.length, t.columns.length - 1, `${key}: ${t.caption}`);
        for (const c of r.cells) {
          if (c === null) continue;
          assert.equal(c.value, lookup(ex, c.key), `${key}: ${c.key}`);
          count++;
        }
      }
    }
  }
  assert.ok(count > 30, `${count} numbers`);
});

test("the steps' tables hold what each step is about", () => {
  const keys = (k: (typeof STEP_KEYS)[number]) => stepTables(ex, k).flatMap((t) => t.rows.flatMap((r) => r.cells.filter((c) => c !== null).map((c) => c!.key)));
  assert.deepEqual(keys("structure"), ["i.n3.structure", "i.n4.structure", "i.n6.structure", "j.n3.structure"]);
  // With an anchor, features show the trained and untrained parts.
  assert.deepEqual(keys("features").slice(0, 3), ["i.n3.features", "i.n3.learnt", "i.n3.untrained"]);
  assert.deepEqual(stepTables(ex, "selection")[0]!.rows.map((r) => r.note), ["kept, common", "kept", "left out"]);
  assert.deepEqual(keys("aggregation"), ["i.norm", "i.n3.weight", "i.n3.shift", "i.n4.weight", "i.n4.shift", "j.norm", "j.n3.weight", "j.n3.shift"]);
  // Calibrated: T and c are named; i's own term and its neighbours' terms precede the logit.
  assert.deepEqual(keys("prediction"), ["i.own", "i.n3.attribution", "i.n4.attribution", "logit", "model.temperature", "model.bias", "prob"]);
  assert.deepEqual(keys("whatif"), ["prob", "prob_removed", "prob_random_removed", "prob_random", "i.n3.prob_without", "i.n4.prob_without", "j.n3.prob_without"]);
  const plain = { ...ex, model: { ...ex.model, anchor: 0, temperature: 1, bias: 0 } };
  assert.deepEqual(stepTables(plain, "features")[0]!.columns, ["neighbour", "features"]);
  assert.deepEqual(stepTables(plain, "prediction")[0]!.rows.map((r) => r.cells[0]!.key), ["i.own", "i.n3.attribution", "i.n4.attribution", "logit", "prob"]);
});

test("the canvas lights each step's value, scaled by the largest", () => {
  const strengths = (k: (typeof STEP_KEYS)[number]) => stepHighlight(ex, k).sides!.map((s) => s.neighbors.map((n) => [n.node, n.strength, n.selected]));
  // Structure: every neighbour lit, by structure over the largest (1).
  assert.deepEqual(strengths("structure"), [[[3, 1, true], [4, 0.5, true], [6, 0.25, true]], [[3, 1, true]]]);
  // Selection: the kept ones only, all alike.
  assert.deepEqual(strengths("selection"), [[[3, 1, true], [4, 1, true], [6, 0, false]], [[3, 1, true]]]);
  // Aggregation: the shift over the largest shift (0.5).
  assert.deepEqual(strengths("aggregation"), [[[3, 0.6, true], [4, 0.4, true], [6, 0, false]], [[3, 1, true]]]);
  // What if: the drop |p - p without| over the largest (0.25).
  assert.deepEqual(strengths("whatif"), [[[3, Math.abs(0.5 - 0.6) / 0.25, true], [4, 1, true], [6, 0, false]], [[3, 0, true]]]);
  assert.deepEqual(stepHighlight(ex, "prediction").selected, [1, 2]);
  // The scores' steps colour the neighbours: structure as it is; a
  // neighbour of both ends takes its larger value; the score over the best.
  const shades = (k: (typeof STEP_KEYS)[number]) => Object.fromEntries((stepHighlight(ex, k).shades ?? []).map((s) => [s.node, s.value]));
  assert.deepEqual(shades("structure"), { 3: 1, 4: 0.5, 6: 0.25 });
  assert.deepEqual(shades("scores"), { 3: 1, 4: 0.55 / 0.85, 6: 0.325 / 0.85 });
  assert.equal(stepHighlight(ex, "selection").shades, undefined);
});

test("the steps that light every neighbour label only the nodes their tables list", () => {
  const many: Explanation = { ...ex, i: { ...ex.i, neighbors: Array.from({ length: 20 }, (_, k) => nb(10 + k, { rank: k + 1, structure: k / 20, features: 0.5 + k / 40, score: k / 20 })) } };
  for (const key of ["structure", "features", "scores"] as const) {
    const listed = new Set(stepTables(many, key).flatMap((t) => t.rows.map((r) => r.node)));
    const labels = stepHighlight(many, key).labels!;
    assert.ok(labels.length < 20, `${key}: ${labels.length} labels, not all 20`);
    assert.deepEqual(new Set(labels), listed, `${key}: the labelled nodes are the table's`);
    assert.ok(stepHighlight(many, key).sides![0]!.neighbors.every((n) => n.selected), `${key}: every neighbour is still lit`);
  }
  assert.equal(stepHighlight(many, "selection").labels, undefined, "the selected ones are few: all labelled");
});

test("what if: each \"without\" row names the end whose neighbour it removes", () => {
  const labels = stepTables(ex, "whatif")[0]!.rows.map((r) => r.label).filter((l) => l.startsWith("without"));
  assert.deepEqual(labels, ["without n3 alone (a neighbour of a)", "without n4 alone (a neighbour of a)", "without n3 alone (a neighbour of b)"]);
});

test("the scale runs from viridis' light end at 0 to its dark end at 1, clamped", () => {
  assert.equal(shade(0), "#fde725");
  assert.equal(shade(1), "#440154");
  assert.equal(shade(0.5), "#21918c");
  assert.equal(shade(2), "#440154");
  assert.equal(shade(Number.NaN), "#fde725");
  // Halfway between the first two stops, channel by channel.
  assert.equal(shade(0.125), "#aed844");
});

test("a link's step=N opens that step of its pair's walk-through, and round-trips", () => {
  const link = parseHash("#data=synth:medium&seed=0&pair=3,40&step=4");
  assert.deepEqual(link.pair, ["3", "40"]);
  assert.equal(link.step, 4);
  assert.equal(formatHash(link), "#data=synth:medium&seed=0&pair=3,40&step=4");
  assert.equal(parseHash("#data=synth:medium&node=3&step=4").step, null, "a step needs a pair");
  assert.equal(parseHash("#pair=3,40&step=x").step, null);
  assert.equal(parseHash("#pair=3,40&step=0").step, null);
  assert.equal(formatHash({ data: "synth:medium", pair: ["3", "40"], step: null }), "#data=synth:medium&pair=3,40");
  assert.equal(clampStep(99), STEP_KEYS.length);
  assert.equal(clampStep(0), 1);
  assert.equal(clampStep(null), null);
});
