// Unit tests of the app's pure parts: deep links, formatting, the graph
// index, and the highlight an explanation becomes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { formatHash, parseHash, presetOf } from "../src/app/hash";
import { bytes, duration, percent, probability } from "../src/app/format";
import { LoadedGraph } from "../src/app/graphdata";
import { litNodes } from "../src/app/graph/overlay";
import { graphSummary, hasAttributions, inputNotesText, pairHighlight, shownNumber } from "../src/app/summary";
import type { Explanation, GraphDescription, Neighbor } from "../src/protocol";

// The ids a user's file may hold (shared with the Go tests and the card's browser test).
const HOSTILE: string[] = JSON.parse(readFileSync(new URL("../../core/bundle/site/testdata/hostile-ids.json", import.meta.url), "utf8"));

test("a pair link round-trips any id, commas included (issue 49)", () => {
  const ids = [...HOSTILE, "Valjean, Jean", "Javert, Inspector", "a+b", "100%", "x&pair=1,2", "#frag", ",", ",,"];
  assert.ok(HOSTILE.some((id) => id.includes(",")));
  for (let k = 0; k < ids.length; k++) {
    const pair: [string, string] = [ids[k]!, ids[(k + 1) % ids.length]!];
    const hash = formatHash({ data: "file:les misérables", pair, step: 4 });
    const back = parseHash(hash);
    assert.deepEqual(back.pair, pair, hash);
    assert.equal(back.step, 4, hash);
    assert.equal(back.data, "file:les misérables", hash);
    // One bare comma: the separator.
    assert.equal(/pair=([^&]*)/.exec(hash)![1]!.split(",").length, 2, hash);
  }
  assert.equal(formatHash({ pair: ["Valjean, Jean", "Javert, Inspector"] }), "#pair=Valjean%2C%20Jean,Javert%2C%20Inspector");
  // Links written before ids were encoded still open: plain ids, spaces as %20 or +, a comma written %2C.
  assert.deepEqual(parseHash("#data=synth:medium&seed=0&pair=12,515&step=4").pair, ["12", "515"]);
  assert.deepEqual(parseHash("#pair=my%20node,other+node").pair, ["my node", "other node"]);
  assert.deepEqual(parseHash("#pair=12%2C515").pair, ["12", "515"]);
  // The broken link of the issue names no pair rather than a wrong one.
  assert.equal(parseHash("#pair=Valjean,%20Jean,Javert,%20Inspector").pair, null);
  assert.equal(parseHash("#pair=%E0%A4%A,2").pair, null, "a malformed escape is no pair");
});

test("deep links parse what they format, and ignore what they cannot read", () => {
  const link = { data: "synth:medium", seed: 0, pair: ["12", "45"] as [string, string], node: null, step: null, train: false, workers: null };
  assert.equal(formatHash(link), "#data=synth:medium&seed=0&pair=12,45");
  assert.deepEqual(parseHash("#data=synth:medium&seed=0&pair=12,45"), link);
  assert.deepEqual(parseHash("data=synth:dense&seed=7&node=3&train=1"), { data: "synth:dense", seed: 7, pair: null, node: "3", step: null, train: true, workers: null });
  // Ids with separators survive the round trip.
  const odd = { data: "file:my graph", seed: null, pair: null, node: "a&b=c", step: null, train: false, workers: null };
  assert.deepEqual(parseHash(formatHash(odd)), odd);
  // Malformed parts are dropped, not guessed.
  assert.deepEqual(parseHash("#seed=-1&pair=1,&pair2=3"), { data: null, seed: null, pair: null, node: null, step: null, train: false, workers: null });
  assert.deepEqual(parseHash("#seed=1e3&pair=1,2,3"), { data: null, seed: null, pair: null, node: null, step: null, train: false, workers: null });
  // A pair wins over a node.
  assert.equal(parseHash("#pair=1,2&node=3").node, null);
  assert.equal(formatHash({}), "");
  assert.equal(presetOf("synth:sparse"), "sparse");
  assert.equal(presetOf("synth:huge"), null);
  assert.equal(presetOf("file:cora"), null);
  assert.equal(presetOf(null), null);
});

test("numbers and durations read as people write them", () => {
  assert.equal(percent(0.91234), "91.2%");
  assert.equal(percent(0.91236, 2), "91.24%");
  assert.equal(percent(Number.NaN), "–");
  // A probability never reads 0% or 100% (as `ilpgnn explain` writes it).
  assert.equal(probability(0.9996), "> 99.9%");
  assert.equal(probability(0.99949), "99.9%");
  assert.equal(probability(0.00001), "< 0.1%");
  assert.equal(probability(0.00001, 2), "< 0.01%");
  assert.equal(probability(1, 2), "> 99.99%");
  assert.equal(probability(0.5), "50.0%");
  assert.equal(duration(850), "850 ms");
  assert.equal(duration(12_400), "12 s");
  assert.equal(duration(185_000), "3 min 05 s");
  assert.equal(duration(3_720_000), "1 h 02 min");
  assert.equal(duration(-1), "–");
  assert.equal(bytes(512), "512 B");
  assert.equal(bytes(12_345), "12.3 kB");
  assert.equal(bytes(4_500_000), "4.5 MB");
});

function describe(n: number, edges: Array<[number, number]>, ids?: string[]): GraphDescription {
  const stats = { density: 0, minDegree: 0, maxDegree: 0, meanDegree: 0, medianDegree: 0, isolated: 0, components: 1, largestComponent: n };
  const degrees = new Array<number>(n).fill(0);
  for (const [a, b] of edges) {
    degrees[a]!++;
    degrees[b]!++;
  }
  return {
    name: "t", fingerprint: "f", nodes: n, edges: edges.length, featureDim: 0, stats, hasLabels: false, hasGroundtruth: false, synthetic: null, madeUpFeatures: "",
    missingFeatures: 0, missingFeatureIds: [], inputNotes: [], trainMemoryBytes: 1 << 20, trainEpochSeconds: [2, 1.14],
    ids: ids ?? Array.from({ length: n }, (_, v) => `n${v}`), degrees, labels: null, classNames: null, edgeList: edges.flat(),
  };
}

test("the graph index agrees with a brute-force scan of the edge list", () => {
  // A seeded random graph (a small LCG keeps the test deterministic).
  let state = 12345;
  const rand = (k: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % k);
  const n = 60;
  const set = new Set<string>();
  const edges: Array<[number, number]> = [];
  while (edges.length < 150) {
    const a = rand(n), b = rand(n);
    if (a === b) continue;
    const [i, j] = a < b ? [a, b] : [b, a];
    if (set.has(`${i},${j}`)) continue;
    set.add(`${i},${j}`);
    edges.push([i, j]);
  }
  const g = new LoadedGraph(describe(n, edges));
  for (let v = 0; v < n; v++) {
    const brute = edges.flatMap(([a, b]) => (a === v ? [b] : b === v ? [a] : [])).sort((x, y) => x - y);
    assert.deepEqual(g.neighbors(v).sort((x, y) => x - y), brute, `neighbours of ${v}`);
    for (let u = 0; u < n; u++) assert.equal(g.linked(v, u), set.has(`${Math.min(u, v)},${Math.max(u, v)}`));
  }
});

test("nodes resolve by id first, then by index", () => {
  const g = new LoadedGraph(describe(4, [[0, 1]], ["10", "a", "0", "b"]));
  assert.equal(g.resolve("10"), 0);
  assert.equal(g.resolve(" a "), 1);
  assert.equal(g.resolve("0"), 2, "an id wins over an index");
  assert.equal(g.resolve("3"), 3, "an index when no id matches");
  assert.equal(g.resolve("4"), null);
  assert.equal(g.resolve("zzz"), null);
  assert.equal(g.className(0), null);
});

function nb(node: number, selected: boolean, common: boolean, weight: number, attribution = 0): Neighbor {
  return { node, id: String(node), structure: 0.5, features: 0.5, learnt: 0.5, untrained: 0, score: 0.5, common, selected, weight, shift: 0, rank: selected ? 1 : 0, attribution, prob_without: 0 };
}

function explanation(i: Neighbor[], j: Neighbor[]): Explanation {
  return {
    i: { node: 1, id: "1", norm: 1, own: 0, neighbors: i },
    j: { node: 2, id: "2", norm: 1, own: 0, neighbors: j },
    model: { alpha: 0.3, anchor: 0, k: 3, structure_scaled: true, tau: 1, beta: 1, temperature: 1, bias: 0 },
    logit: 1.386, steps: [],
    prob: 0.8, linked: false, masked: false, prob_random: 0.5, prob_removed: 0.3, prob_random_removed: 0.6, random_draws: 10, reading: "r", removal: "Removing the 2 selected neighbours of 1 and the 2 of 2 lowers p from 0.80 to 0.30; removing as many random neighbours lowers it to 0.60 (mean of 10 draws).",
    groundtruth: { i: [5], j: [7], role: "test" },
  };
}

test("an explanation becomes the pair and its selected neighbours on the canvas, edges by weight when no attribution is given", () => {
  // Common neighbour 8 is not selected: it stays out of the explanation (dimmed, no diamond).
  const ex = explanation([nb(5, true, true, 0.6), nb(6, false, false, 0), nb(8, false, true, 0)], [nb(5, true, true, 0.4), nb(7, true, false, 0.3)]);
  assert.equal(hasAttributions(ex), false);
  assert.equal(shownNumber(ex, ex.i.neighbors[0]!), 0.6);
  const h = pairHighlight(ex);
  assert.deepEqual(h.selected, [1, 2]);
  assert.equal(h.sides?.length, 2);
  // Strength: weight / the largest weight in the explanation (0.6).
  assert.deepEqual(h.sides?.[0]?.neighbors, [{ node: 5, strength: 1, selected: true }, { node: 6, strength: 0, selected: false }, { node: 8, strength: 0, selected: false }]);
  assert.deepEqual(h.sides?.[1]?.neighbors, [{ node: 5, strength: 0.4 / 0.6, selected: true }, { node: 7, strength: 0.5, selected: true }]);
  assert.notEqual(h.sides?.[0]?.color, h.sides?.[1]?.color);
  assert.deepEqual(h.common, [5]);
  assert.deepEqual(h.groundtruth, [5, 7]);
  assert.deepEqual(h.pairLink, { i: 1, j: 2, prob: 0.8, linked: false });
  assert.deepEqual(litNodes(h).sort(), [1, 2, 5, 7]);
  delete ex.groundtruth;
  assert.equal(pairHighlight(ex).groundtruth, undefined);
});

test("with attributions, edge strengths follow their size normalised within the explanation, not the weights", () => {
  const ex = explanation([nb(5, true, false, 0.5, 0.2), nb(6, true, false, 0.5, -0.8)], [nb(7, true, false, 1, 0.4), nb(9, false, false, 0, 0)]);
  assert.equal(hasAttributions(ex), true);
  assert.equal(shownNumber(ex, ex.j.neighbors[0]!), 0.4);
  const h = pairHighlight(ex);
  assert.deepEqual(h.sides?.[0]?.neighbors.map((n) => n.strength), [0.2 / 0.8, 1]);
  assert.deepEqual(h.sides?.[1]?.neighbors.map((n) => n.strength), [0.4 / 0.8, 0]);
});

test("the graph summary names size, features and structure", () => {
  const d = describe(3, [[0, 1], [1, 2]]);
  d.stats.meanDegree = 4 / 3;
  assert.equal(graphSummary({ ...d, nodes: 2708, edges: 5278, featureDim: 1433, name: "cora" }), "cora: 2,708 nodes, 5,278 edges · 1433 features · mean degree 1.3 · all connected");
  // Cora as loaded has 78 connected parts: counted so, never as "components" the legend could mean.
  d.stats.components = 78;
  assert.match(graphSummary({ ...d, name: "cora" }), / · 78 connected parts$/);
  assert.equal(inputNotesText(d), null);
});

test("the graph summary says when the features were made up, and what they are", () => {
  const d = describe(3, [[0, 1], [1, 2]]);
  d.stats.meanDegree = 4 / 3;
  const madeUpFeatures = "one-hot node ids (the input has no numeric or categorical node attributes)";
  assert.equal(graphSummary({ ...d, featureDim: 3, madeUpFeatures }),
    "t: 3 nodes, 2 edges · 3 features: one-hot node ids (the input has no numeric or categorical node attributes) · mean degree 1.3 · all connected");
  assert.match(graphSummary({ ...d, featureDim: 1 }), / · 1 feature · /);
});

test("nodes without a feature row are counted in the summary, and the loader's notes shown as one", () => {
  const d = describe(3, [[0, 1], [1, 2]]);
  const ids = ["197556", "ghani01hypertext", "38137", "95786", "nielsen00designing"];
  // What `ilpgnn inspect` says of Citeseer, as the engine sends it.
  const notes = [
    "56 duplicate edges (the same pair again, in either order) and 124 self-loops (an edge from a node to itself) removed",
    '15 nodes have no feature row (ids "197556", "ghani01hypertext", "38137", "95786", "nielsen00designing", ...); their features are all zero',
  ];
  const citeseer = { ...d, name: "citeseer", missingFeatures: 15, missingFeatureIds: ids, inputNotes: notes };
  assert.match(graphSummary(citeseer), / · 15 without a feature row$/);
  assert.equal(inputNotesText(citeseer), `citeseer: ${notes[0]}; ${notes[1]}.`);
});

test("kept graphs stay within the budget: the oldest go first, and the sentence names them (issue 49)", async () => {
  const { KEPT_BUDGET_BYTES, keptSentence, toEvict } = await import("../src/app/filestore");
  const held = [
    { dataKey: "file:b", saved: 2, bytes: 40e6 },
    { dataKey: "file:a", saved: 1, bytes: 50e6 },
    { dataKey: "file:c", saved: 3, bytes: 30e6 },
  ];
  assert.equal(KEPT_BUDGET_BYTES, 128e6);
  assert.deepEqual(toEvict(held, 8e6), [], "128 MB fit exactly");
  assert.deepEqual(toEvict(held, 9e6), ["file:a"]);
  assert.deepEqual(toEvict(held, 60e6), ["file:a", "file:b"]);
  assert.deepEqual(toEvict([], 128e6), []);
  assert.equal(keptSentence("file:cora", { kept: true }), "The graph cora is kept in this browser (never uploaded), so a reload reopens it.");
  assert.equal(
    keptSentence("file:cora", { kept: true, evicted: ["file:a"] }),
    "The graph cora is kept in this browser (never uploaded), so a reload reopens it. To stay within the 128 MB this page keeps, this browser no longer keeps a (the oldest): open its files again to reopen it.",
  );
  assert.match(keptSentence("file:cora", { kept: true, evicted: ["file:a", "file:b"] }), /no longer keeps a and b \(the oldest ones\): open their files again to reopen them\.$/);
});
