// The keyboard's ways through lists and neighbours: the roving tabindex's
// moves and the canvas's neighbour cursor.
import assert from "node:assert/strict";
import { test } from "node:test";

import { rovingIndex } from "../src/app/roving";
import { NeighborCursor } from "../src/app/stepper";

test("roving: arrows move one item and stop at the ends, Home and End jump, other keys are not the list's", () => {
  assert.equal(rovingIndex("ArrowDown", 0, 3), 1);
  assert.equal(rovingIndex("ArrowRight", 1, 3), 2);
  assert.equal(rovingIndex("ArrowDown", 2, 3), 2);
  assert.equal(rovingIndex("ArrowUp", 2, 3), 1);
  assert.equal(rovingIndex("ArrowLeft", 0, 3), 0);
  assert.equal(rovingIndex("Home", 2, 3), 0);
  assert.equal(rovingIndex("End", 0, 3), 2);
  assert.equal(rovingIndex("Tab", 0, 3), null);
  assert.equal(rovingIndex("Enter", 0, 3), null);
  assert.equal(rovingIndex("ArrowDown", 0, 0), null);
});

test("the neighbour cursor steps forward and back with wrap-around and starts again for a new node", () => {
  const c = new NeighborCursor();
  const nbrs = new Map<number, number[]>([[5, [10, 11, 12]], [6, [20]], [7, []]]);
  const of = (v: number) => nbrs.get(v) ?? [];
  assert.equal(c.current(of), null);
  assert.deepEqual(c.step(5, of(5), 1), { node: 10, index: 0, count: 3 });
  assert.deepEqual(c.step(5, of(5), 1), { node: 11, index: 1, count: 3 });
  assert.deepEqual(c.step(5, of(5), 1), { node: 12, index: 2, count: 3 });
  assert.deepEqual(c.step(5, of(5), 1), { node: 10, index: 0, count: 3 }, "wraps after the last");
  assert.deepEqual(c.step(5, of(5), -1), { node: 12, index: 2, count: 3 }, "wraps before the first");
  assert.deepEqual(c.current(of), { anchor: 5, node: 12 });
  assert.equal(c.anchorNode(), 5);
  // Another node: from its first neighbour, or stepping back its last.
  assert.deepEqual(c.step(6, of(6), -1), { node: 20, index: 0, count: 1 });
  assert.deepEqual(c.step(6, of(6), 1), { node: 20, index: 0, count: 1 });
  assert.equal(c.step(7, of(7), 1), null, "no neighbours");
  assert.equal(c.current(of), null);
  c.step(5, of(5), -1);
  assert.deepEqual(c.current(of), { anchor: 5, node: 12 });
  c.reset();
  assert.equal(c.current(of), null);
  assert.equal(c.anchorNode(), -1);
});
