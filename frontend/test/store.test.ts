// The app's store: typed state round trip, change subscriptions, batched updates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoadedGraph } from "../src/app/graphdata";
import { AppStore, Store, type Selection } from "../src/app/store";
import type { GraphDescription } from "../src/protocol";

test("a new app store holds the defaults; every key reads back what was set", () => {
  const s = new AppStore();
  assert.deepEqual(s.snapshot(), { engineInfo: null, graph: null, dataKey: "synth:medium", dataSeed: 0, model: null, selection: { kind: "none" }, training: false, kept: null, workers: null });
  assert.deepEqual(s.metrics, { trainRuns: 0 });
  const stats = { density: 0, minDegree: 1, maxDegree: 2, meanDegree: 4 / 3, medianDegree: 1, isolated: 0, components: 1, largestComponent: 3 };
  const desc: GraphDescription = {
    name: "tiny", fingerprint: "f1", nodes: 3, edges: 2, featureDim: 0, stats, hasLabels: false, hasGroundtruth: false, synthetic: null, madeUpFeatures: "",
    missingFeatures: 0, missingFeatureIds: [], inputNotes: [], trainMemoryBytes: 1 << 20, trainEpochSeconds: [2, 1.14], ids: ["a", "b", "c"], degrees: [1, 2, 1], labels: null, classNames: null, edgeList: [0, 1, 1, 2],
  };
  const g = new LoadedGraph(desc);
  const sel: Selection = { kind: "pair", i: 0, j: 2 };
  s.set("graph", g);
  s.set("dataKey", "file:tiny");
  s.set("dataSeed", null);
  s.set("selection", sel);
  s.set("training", true);
  s.set("workers", 3);
  assert.equal(s.get("graph"), g);
  assert.equal(s.get("graph")?.id(2), "c");
  assert.deepEqual(s.get("graph")?.neighbors(1), [0, 2]);
  assert.equal(s.get("dataKey"), "file:tiny");
  assert.equal(s.get("dataSeed"), null);
  assert.equal(s.get("selection"), sel);
  assert.equal(s.get("training"), true);
  assert.equal(s.get("workers"), 3);
  // The snapshot is a copy: writing it leaves the store alone.
  const snap = s.snapshot() as { training: boolean };
  snap.training = false;
  assert.equal(s.get("training"), true);
  // Initial values override the defaults.
  assert.equal(new AppStore({ dataKey: "synth:dense", dataSeed: 7 }).get("dataSeed"), 7);
});

test("subscribers run on a change with the new and previous value, not on the same value, and stop when unsubscribed", () => {
  const s = new Store({ count: 0, name: "a" });
  const seen: Array<[number, number]> = [];
  const names: string[] = [];
  const stop = s.subscribe("count", (v, prev) => seen.push([v, prev]));
  s.subscribe("name", (v) => names.push(v));
  s.set("count", 1);
  s.set("count", 1); // unchanged: no call
  s.set("count", 5);
  s.set("name", "b");
  assert.deepEqual(seen, [[1, 0], [5, 1]]);
  assert.deepEqual(names, ["b"]);
  stop();
  s.set("count", 6);
  assert.deepEqual(seen, [[1, 0], [5, 1]]);
  assert.equal(s.get("count"), 6);
  // NaN is NaN (Object.is): setting it again is no change.
  const n = new Store({ x: Number.NaN });
  let calls = 0;
  n.subscribe("x", () => calls++);
  n.set("x", Number.NaN);
  assert.equal(calls, 0);
});

test("update sets every key before any subscriber runs, and notifies only the keys that changed", () => {
  const s = new Store({ a: 1, b: 2, c: 3 });
  const log: string[] = [];
  s.subscribe("a", (v) => log.push(`a=${v} sees b=${s.get("b")}`));
  s.subscribe("b", (v) => log.push(`b=${v} sees a=${s.get("a")}`));
  s.subscribe("c", () => log.push("c"));
  s.update({ a: 10, b: 20, c: 3 });
  assert.deepEqual(log, ["a=10 sees b=20", "b=20 sees a=10"]);
});

test("a subscriber may unsubscribe itself while being called; the others still run", () => {
  const s = new Store({ v: 0 });
  const calls: string[] = [];
  const stopFirst = s.subscribe("v", () => {
    calls.push("first");
    stopFirst();
  });
  s.subscribe("v", () => calls.push("second"));
  s.set("v", 1);
  s.set("v", 2);
  assert.deepEqual(calls, ["first", "second", "second"]);
});
