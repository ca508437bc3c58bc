// Unit tests of the graph view's pure parts: search, view transform, hit
// testing, the seeded PRNG, the force layout (run here in node directly) and
// the batching of the static layer's drawing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { buildTree, hitTest, hitTestBrute } from "../src/app/graph/hit";
import { findNodes, describeNode } from "../src/app/graph/index";
import { createLayout, finestIterations, initialPositions } from "../src/app/graph/layout-core";
import { innerEdges, litNodes, neighborEdges, placeLabels } from "../src/app/graph/overlay";
import { seededRandom } from "../src/app/graph/prng";
import { frameServes } from "../src/app/graph/layout-protocol";
import { drawStatic, type Ctx2D } from "../src/app/graph/render-core";
import { bounds, fitTransform, pan, toScreen, toWorld, zoomAbout, MAX_ZOOM, MIN_ZOOM, type Transform } from "../src/app/graph/transform";

describe("findNodes", () => {
  const data = {
    ids: ["35", "1033", "350", "a35b", "X", "x-ray", "103482"],
    labels: Int32Array.from([0, 1, 0, 2, 1, 2, 1]),
    classNames: ["Neural_Networks", "Theory", "Case_Based"],
  };

  test("exact id first, then prefix, then substring", () => {
    assert.deepEqual(findNodes("35", data), [0, 2, 3]);
    assert.deepEqual(findNodes("103", data), [1, 6]);
  });

  test("prefix and substring matches ignore case; exact match respects it", () => {
    assert.deepEqual(findNodes("X", data), [4, 5]);
    assert.deepEqual(findNodes("x", data), [4, 5]);
    assert.deepEqual(findNodes("RAY", data), [5]);
  });

  test("class names match after ids, in index order", () => {
    assert.deepEqual(findNodes("theory", data), [1, 4, 6]);
    // "a" matches id "a35b" and "x-ray" by substring, then the classes whose name contains "a".
    assert.deepEqual(findNodes("a", data), [3, 5, 0, 2]);
  });

  test("limit, empty query, whitespace", () => {
    assert.deepEqual(findNodes("theory", data, 2), [1, 4]);
    assert.deepEqual(findNodes("", data), []);
    assert.deepEqual(findNodes("   ", data), []);
    assert.deepEqual(findNodes(" 35 ", data, 1), [0]);
    assert.deepEqual(findNodes("35", data, 0), []);
  });

  test("without labels only ids match; without class names classes are 'class c'", () => {
    assert.deepEqual(findNodes("theory", { ...data, labels: null }), []);
    assert.deepEqual(findNodes("class 2", { ...data, classNames: null }), [3, 5]);
  });

  test("no duplicates and deterministic", () => {
    const ids = Array.from({ length: 500 }, (_, i) => `n${i}`);
    const r1 = findNodes("n1", { ids, labels: null, classNames: null }, 1000);
    assert.equal(new Set(r1).size, r1.length);
    assert.equal(r1[0], 1); // exact
    assert.deepEqual(r1, findNodes("n1", { ids, labels: null, classNames: null }, 1000));
    assert.equal(r1.length, 111); // n1, n10-n19, n100-n199
  });

  test("describeNode", () => {
    assert.deepEqual(describeNode(1, { ...data, degrees: [1, 2, 3, 4, 5, 6, 7] }), { id: "1033", lines: ["class: Theory", "degree: 2"] });
    assert.deepEqual(describeNode(1, { ...data, labels: null, degrees: [1, 2] }), { id: "1033", lines: ["degree: 2"] });
  });
});

describe("view transform", () => {
  const close = (a: number, b: number, eps = 1e-9): void => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(a), Math.abs(b)), `${a} != ${b}`);

  test("screen and world are inverse", () => {
    const t: Transform = { k: 2.5, x: -40, y: 17 };
    const [sx, sy] = toScreen(t, 3, -4);
    close(sx, 3 * 2.5 - 40);
    close(sy, -4 * 2.5 + 17);
    const [wx, wy] = toWorld(t, sx, sy);
    close(wx, 3);
    close(wy, -4);
  });

  test("zooming about a point keeps that point fixed", () => {
    const rand = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const t: Transform = { k: 0.05 + rand() * 5, x: (rand() - 0.5) * 2000, y: (rand() - 0.5) * 2000 };
      const px = rand() * 1200, py = rand() * 800;
      const factor = Math.exp((rand() - 0.5) * 4);
      const before = toWorld(t, px, py);
      const z = zoomAbout(t, px, py, factor);
      const after = toWorld(z, px, py);
      close(after[0], before[0], 1e-9);
      close(after[1], before[1], 1e-9);
      const [sx, sy] = toScreen(z, before[0], before[1]);
      close(sx, px, 1e-9);
      close(sy, py, 1e-9);
    }
  });

  test("zoom is clamped", () => {
    const t: Transform = { k: 1, x: 0, y: 0 };
    assert.equal(zoomAbout(t, 10, 10, 1e6).k, MAX_ZOOM);
    assert.equal(zoomAbout(t, 10, 10, 1e-6).k, MIN_ZOOM);
    // Even clamped, the point stays put.
    const z = zoomAbout(t, 10, 20, 1e6);
    close(toScreen(z, ...toWorld(t, 10, 20))[0], 10);
  });

  test("pan moves everything by the offset", () => {
    const t = pan({ k: 3, x: 1, y: 2 }, 5, -7);
    assert.deepEqual(t, { k: 3, x: 6, y: -5 });
  });

  test("fit puts the bounds inside the viewport, centred", () => {
    const pos = Float32Array.from([-100, -50, 300, 20, 40, 250]);
    const b = bounds(pos)!;
    assert.deepEqual(b, { minX: -100, minY: -50, maxX: 300, maxY: 250 });
    const t = fitTransform(b, 800, 600, 20);
    for (let i = 0; i < 3; i++) {
      const [x, y] = toScreen(t, pos[2 * i]!, pos[2 * i + 1]!);
      assert.ok(x >= 20 - 1e-6 && x <= 780 + 1e-6 && y >= 20 - 1e-6 && y <= 580 + 1e-6, `${x},${y}`);
    }
    const [cx, cy] = toScreen(t, 100, 100);
    close(cx, 400);
    close(cy, 300);
    assert.deepEqual(bounds(pos, [0, 2]), { minX: -100, minY: -50, maxX: 40, maxY: 250 });
    assert.equal(bounds(new Float32Array(0)), null);
  });
});

describe("hit testing", () => {
  test("quadtree agrees with brute force on random points", () => {
    const rand = seededRandom(11);
    const n = 2000;
    const pos = new Float32Array(2 * n);
    for (let i = 0; i < 2 * n; i++) pos[i] = rand() * 1000;
    const radii = Float32Array.from({ length: n }, () => 1 + rand() * 6);
    const radius = (i: number): number => radii[i]!;
    const tree = buildTree(pos);
    let hits = 0;
    for (let q = 0; q < 3000; q++) {
      const x = rand() * 1000, y = rand() * 1000;
      const got = hitTest(tree, pos, x, y, radius, 7, 3);
      const want = hitTestBrute(pos, x, y, radius, 3);
      assert.equal(got, want, `query ${x},${y}`);
      if (got >= 0) hits++;
    }
    assert.ok(hits > 300 && hits < 2900, `a mix of hits and misses (${hits})`);
    // A click exactly on a node finds it.
    for (let i = 0; i < n; i += 97) assert.equal(hitTestBrute(pos, pos[2 * i]!, pos[2 * i + 1]!, radius, 0) >= 0, true);
  });

  test("a point far from every node misses", () => {
    const pos = Float32Array.from([0, 0, 10, 10]);
    const tree = buildTree(pos);
    assert.equal(hitTest(tree, pos, 100, 100, () => 2, 2, 3), -1);
    assert.equal(hitTest(tree, pos, 11, 11, () => 2, 2, 3), 1);
  });
});

describe("seeded PRNG", () => {
  test("same seed, same sequence; different seeds differ; values in [0, 1)", () => {
    const a = seededRandom(42), b = seededRandom(42), c = seededRandom(43);
    const sa = Array.from({ length: 1000 }, a), sb = Array.from({ length: 1000 }, b), sc = Array.from({ length: 1000 }, c);
    assert.deepEqual(sa, sb);
    assert.notDeepEqual(sa, sc);
    assert.ok(sa.every((v) => v >= 0 && v < 1));
    const mean = sa.reduce((s, v) => s + v, 0) / sa.length;
    assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
  });
});

/** A graph of k dense communities joined by a few edges, plus isolated nodes. */
function communities(n: number, k: number, seed: number): Uint32Array {
  const rand = seededRandom(seed);
  const edges: number[] = [];
  const seen = new Set<number>();
  const add = (a: number, b: number): void => {
    if (a === b) return;
    const key = Math.min(a, b) * n + Math.max(a, b);
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(a, b);
  };
  const members = n - 10; // the last 10 nodes stay isolated
  for (let i = 0; i < members; i++) {
    for (let d = 0; d < 3; d++) {
      const c = i % k;
      const j = c + k * Math.floor(rand() * Math.floor(members / k));
      add(i, rand() < 0.03 ? Math.floor(rand() * members) : Math.min(j, members - 1));
    }
  }
  return new Uint32Array(edges);
}

function settle(n: number, edges: Uint32Array, seed: number): Float32Array {
  const layout = createLayout(n, edges, { seed });
  while (!layout.done()) layout.step(25);
  assert.ok(layout.ticks() <= layout.maxTicks);
  return layout.write();
}

describe("force layout core", () => {
  const n = 400;
  const edges = communities(n, 5, 3);

  test("same seed gives identical positions, another seed different ones", () => {
    const a = settle(n, edges, 1);
    const b = settle(n, edges, 1);
    const c = settle(n, edges, 2);
    assert.deepEqual(a, b);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - c[i]!);
    assert.ok(diff / a.length > 1, `mean coordinate difference ${diff / a.length}`);
    assert.notDeepEqual(initialPositions(n, 1), initialPositions(n, 2));
  });

  test("same seed, same positions at every iteration, across the levels", () => {
    // Large enough to coarsen over several levels; with isolated nodes and a star.
    const big = communities(3000, 12, 4);
    const extra: number[] = [];
    for (let v = 1; v < 60; v++) extra.push(3000, 3000 + v);
    const edges2 = Uint32Array.from([...big, ...extra]);
    const n2 = 3000 + 60 + 25; // the last 25 isolated
    const a = createLayout(n2, edges2, { seed: 4 });
    const b = createLayout(n2, edges2, { seed: 4 });
    assert.equal(a.maxTicks, b.maxTicks);
    assert.ok(a.maxTicks > finestIterations(n2, edges2.length / 2), "coarse levels ran before the finest");
    assert.deepEqual(a.write(), b.write());
    let steps = 0;
    while (!a.done()) {
      a.step(7);
      b.step(7);
      const pa = a.write();
      assert.ok(pa.every(Number.isFinite));
      assert.deepEqual(pa, b.write());
      steps++;
    }
    assert.ok(b.done() && steps > 3);
    assert.notDeepEqual(createLayout(n2, edges2, { seed: 5 }).write(), a.write());
  });

  test("positions are finite and bounded; isolated nodes stay near", () => {
    const p = settle(n, edges, 5);
    assert.equal(p.length, 2 * n);
    assert.ok(p.every(Number.isFinite));
    const b = bounds(p)!;
    assert.ok(b.maxX - b.minX < 5000 && b.maxY - b.minY < 5000, JSON.stringify(b));
  });

  test("connected nodes end much closer than random pairs", () => {
    const p = settle(n, edges, 9);
    const dist = (i: number, j: number): number => Math.hypot(p[2 * i]! - p[2 * j]!, p[2 * i + 1]! - p[2 * j + 1]!);
    let linked = 0;
    const m = edges.length / 2;
    for (let e = 0; e < m; e++) linked += dist(edges[2 * e]!, edges[2 * e + 1]!);
    linked /= m;
    const rand = seededRandom(99);
    let random = 0;
    for (let q = 0; q < 5000; q++) random += dist(Math.floor(rand() * n), Math.floor(rand() * n));
    random /= 5000;
    assert.ok(linked < 0.5 * random, `linked ${linked.toFixed(1)} vs random ${random.toFixed(1)}`);
    // And the layout improved on its random start.
    const p0 = initialPositions(n, 9);
    let start = 0;
    for (let e = 0; e < m; e++) start += Math.hypot(p0[2 * edges[2 * e]!]! - p0[2 * edges[2 * e + 1]!]!, p0[2 * edges[2 * e]! + 1]! - p0[2 * edges[2 * e + 1]! + 1]!);
    assert.ok(linked < 0.5 * (start / m));
  });

  test("stops at alphaMin or the tick cap; given positions are the start", () => {
    const layout = createLayout(n, edges, { seed: 1, maxTicks: 20 });
    assert.equal(layout.step(1000), 20);
    assert.equal(layout.done(), true);
    assert.equal(layout.step(5), 0);
    const start = Float32Array.from({ length: 2 * n }, (_, i) => i);
    assert.deepEqual(createLayout(n, edges, { positions: start }).write(), start);
    assert.ok(finestIterations(7650, 119081) < finestIterations(2708, 5278));
  });

  test("an empty graph and self-loops are fine", () => {
    assert.equal(settle(0, new Uint32Array(0), 1).length, 0);
    const p = settle(3, Uint32Array.from([0, 0, 1, 2]), 1);
    assert.ok(p.every(Number.isFinite));
  });
});

describe("static layer drawing", () => {
  function recorder(): { ctx: Ctx2D; ops: Record<string, number> } {
    const ops: Record<string, number> = {};
    const count = (name: string) => () => {
      ops[name] = (ops[name] ?? 0) + 1;
    };
    const ctx: Ctx2D = {
      fillStyle: "",
      strokeStyle: "",
      lineWidth: 1,
      globalAlpha: 1,
      setTransform: count("setTransform"),
      clearRect: count("clearRect"),
      beginPath: count("beginPath"),
      moveTo: count("moveTo"),
      lineTo: count("lineTo"),
      arc: count("arc"),
      rect: count("rect"),
      fill: count("fill"),
      stroke: count("stroke"),
    };
    return { ctx, ops };
  }

  test("edges in one path, nodes in one path per colour, off-screen culled", () => {
    const n = 300;
    const edges = communities(n, 3, 1);
    const pos = settle(n, edges, 1);
    const colorIndex = Uint8Array.from({ length: n }, (_, i) => i % 3);
    const scene = { pos, edges, palette: ["#a", "#b", "#c", "#d"], colorIndex, radius: new Float32Array(n).fill(3), edgeColor: "e", dimColor: "d" };
    const t = fitTransform(bounds(pos)!, 800, 600);
    const { ctx, ops } = recorder();
    drawStatic(ctx, scene, t, 800, 600, 2, false);
    assert.equal(ops["stroke"], 1);
    assert.equal(ops["fill"], 3);
    assert.equal(ops["lineTo"], edges.length / 2);
    assert.equal(ops["arc"], n);
    // Zoomed into a corner, most of it is culled.
    const zoomed = recorder();
    drawStatic(zoomed.ctx, scene, zoomAbout(t, 0, 0, 8), 800, 600, 2, true);
    assert.ok((zoomed.ops["arc"] ?? 0) < n / 2);
    assert.equal(zoomed.ctx.fillStyle, "d");
  });

  test("neighborEdges: only real edges from a selected node to a highlighted neighbour", () => {
    const edges = Uint32Array.from([0, 1, 2, 0, 1, 2, 3, 4, 2, 5]);
    assert.deepEqual(neighborEdges({ selected: [0], neighbors: [1, 2, 4] }, edges), [0, 1, 0, 2]);
    // Pair before an explanation: both ends' neighbours, each edge from its own end.
    assert.deepEqual(neighborEdges({ selected: [0, 2], neighbors: [1, 2, 0, 5] }, edges), [0, 1, 2, 0, 0, 2, 2, 1, 2, 5]);
    assert.deepEqual(neighborEdges({ selected: [0] }, edges), []);
  });

  test("litNodes: one node lights every node its highlight mentions, once", () => {
    const lit = litNodes({
      selected: [1],
      neighbors: [3, 4, 3],
      common: [3],
      groundtruth: [5],
      candidates: [{ node: 6, prob: 0.5 }],
    });
    assert.deepEqual(lit.sort(), [1, 3, 4, 5, 6]);
  });

  test("litNodes and innerEdges: a pair lights only itself, its selected neighbours and the edges among them", () => {
    // 1-2 the pair; 3 selected by 1, 4 unselected of 1, 6 selected by 2,
    // 5 groundtruth but unselected, 7 elsewhere.
    const h = {
      selected: [1, 2],
      sides: [
        { node: 1, color: "b", neighbors: [{ node: 3, strength: 0.3, selected: true }, { node: 4, strength: 0, selected: false }] },
        { node: 2, color: "v", neighbors: [{ node: 6, strength: 1, selected: true }, { node: 5, strength: 0, selected: false }] },
      ],
      common: [],
      groundtruth: [5],
      pairLink: { i: 1, j: 2, prob: 0.9, linked: true },
    };
    assert.deepEqual(litNodes(h).sort(), [1, 2, 3, 6]);
    const dimmed = [4, 5, 7].filter((v) => litNodes(h).includes(v));
    assert.deepEqual(dimmed, [], "unselected and groundtruth-only neighbours are dimmed");
    // Edges: 1-3 and 2-6 the sides draw, 1-2 the pair link; 3-6 and 2-3
    // join lit nodes; 1-4, 2-5, 6-7 leave the explanation.
    const edges = Uint32Array.from([1, 3, 2, 6, 1, 2, 3, 6, 3, 2, 1, 4, 2, 5, 6, 7]);
    assert.deepEqual(innerEdges(h, edges), [3, 6, 3, 2]);
    assert.deepEqual(innerEdges({ selected: [1], neighbors: [3] }, edges), [], "no inner edges outside pair mode");
  });

  test("placeLabels: a free spot keeps its label to the right; crowded labels never overlap", () => {
    const one = placeLabels([{ x: 100, y: 100, r: 4, width: 30, height: 15 }]);
    assert.deepEqual([one[0]!.x, one[0]!.y, one[0]!.clear], [112, 100, true]);
    // Twelve nodes on almost the same spot, and a fixed box (the probability) beside them.
    const fixed = [{ left: 110, top: 90, right: 160, bottom: 110 }];
    const reqs = Array.from({ length: 12 }, (_, k) => ({ x: 100 + (k % 3), y: 100 + (k % 2), r: 4, width: 20 + k, height: 15 }));
    const placed = placeLabels(reqs, fixed);
    assert.ok(placed.every((p) => p.clear), "every label found a clear spot");
    const boxes = [...fixed, ...placed.map((p) => p.box)];
    for (let a = 0; a < boxes.length; a++)
      for (let b = 0; b < a; b++) {
        const p = boxes[a]!, q = boxes[b]!;
        const overlap = p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
        assert.equal(overlap, false, `labels ${a} and ${b} overlap: ${JSON.stringify([p, q])}`);
      }
    placed.forEach((p, k) => {
      assert.ok(Math.abs(p.box.right - p.box.left - reqs[k]!.width) < 1e-9);
      assert.equal(p.box.top, p.y - 7.5);
    });
  });

  test("placeLabels: a label keeps off the other labelled nodes' discs", () => {
    // Node B sits where A's label would go (right of A): A's label moves left.
    const [la, lb] = placeLabels([
      { x: 100, y: 100, r: 4, width: 30, height: 15 },
      { x: 125, y: 100, r: 4, width: 30, height: 15 },
    ]);
    assert.deepEqual([la!.x, la!.y, la!.clear], [100 - 12 - 30, 100, true]);
    assert.deepEqual([lb!.x, lb!.y, lb!.clear], [137, 100, true]);
    // A request with r = 0 (the probability) has no disc to avoid.
    const [p, q] = placeLabels([
      { x: 100, y: 100, r: 0, width: 40, height: 15 },
      { x: 95, y: 100, r: 0, width: 10, height: 15 },
    ]);
    assert.equal(p!.x, 108);
    assert.ok(q!.clear && q!.box.right <= p!.box.left, JSON.stringify([p, q]));
  });

  test("placeLabels: a selected node's label stays beside its node, over a crowd's discs if need be", () => {
    // A ring of labelled nodes around A covers every spot of A's nearest ring.
    const crowd = Array.from({ length: 16 }, (_, k) => ({ x: 100 + 24 * Math.cos((k * Math.PI) / 8), y: 100 + 24 * Math.sin((k * Math.PI) / 8), r: 4, width: 30, height: 15 }));
    const far = placeLabels([{ x: 100, y: 100, r: 4, width: 60, height: 15 }, ...crowd])[0]!;
    const near = placeLabels([{ x: 100, y: 100, r: 4, width: 60, height: 15, near: true }, ...crowd])[0]!;
    const reach = (p: { box: { left: number; top: number; right: number; bottom: number } }) =>
      Math.hypot(Math.max(p.box.left - 100, 0, 100 - p.box.right), Math.max(p.box.top - 100, 0, 100 - p.box.bottom));
    assert.ok(reach(far) > 4 + 8 + 8, `without near, the label moves out: ${reach(far)}`);
    assert.ok(reach(near) <= 4 + 8 + 1e-9, `a near label sits on its nearest ring: ${JSON.stringify(near)}`);
    assert.ok(near.clear, "and overlaps no other label");
  });
});

test("a worker frame serves a view with the same canvas and dimming, fitted while fitting, else at exactly its transform", () => {
  const have = { width: 800, height: 600, dpr: 2, k: 1.5, x: 10, y: -4, dimmed: false, fit: false };
  assert.equal(frameServes(have, { ...have }), true);
  assert.equal(frameServes(have, { ...have, x: 11 }), false, "panned");
  assert.equal(frameServes(have, { ...have, k: 1.6 }), false, "zoomed");
  assert.equal(frameServes(have, { ...have, dimmed: true }), false, "a highlight dims the static layer");
  assert.equal(frameServes(have, { ...have, dpr: 1 }), false);
  assert.equal(frameServes(have, { ...have, width: 801 }), false);
  // While the view fits itself, only a fitted render will do, whatever its transform.
  assert.equal(frameServes(have, { ...have, fit: true }), false);
  assert.equal(frameServes({ ...have, fit: true, k: 9 }, { ...have, fit: true }), true);
  // A fitted render at the same transform serves a view that stopped fitting.
  assert.equal(frameServes({ ...have, fit: true }, have), true);
});
