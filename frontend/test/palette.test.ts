// The palette rule: class colours and the explanation's highlight colours
// are two families that never meet, for any number of classes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nodeStyle } from "../src/app/graph/style";
import { classColor, classPalette, deltaE, HIGHLIGHTS, hslHex, lab, NEUTRAL } from "../src/app/palette";

test("lab and deltaE agree with published values", () => {
  // sRGB white and black, and pure red (CIELAB 53.24, 80.09, 67.20).
  const near = (got: number[], want: number[]) => assert.ok(got.every((v, k) => Math.abs(v - want[k]!) < 0.05), `${got} is not ${want}`);
  near(lab("#ffffff"), [100, 0, 0]);
  near(lab("#000000"), [0, 0, 0]);
  const red = lab("#FF0000");
  assert.ok(Math.abs(red[0] - 53.24) < 0.05 && Math.abs(red[1] - 80.09) < 0.05 && Math.abs(red[2] - 67.2) < 0.05, String(red));
  assert.ok(Math.abs(deltaE("#ffffff", "#000000") - 100) < 0.01);
  assert.throws(() => lab("red"), /"red" is not a #rrggbb colour/);
  assert.equal(hslHex(0, 1, 0.5), "#ff0000");
  assert.equal(hslHex(120, 1, 0.25), "#008000");
  assert.equal(hslHex(240, 0, 0.5), "#808080");
});

test("no class colour equals, or comes near, a highlight colour, for any class count", () => {
  const highlights = HIGHLIGHTS.map((c) => c.toLowerCase());
  for (const count of [1, 2, 7, 8, 10, 12, 40, 255, 1000]) {
    const palette = classPalette(count);
    assert.equal(palette.length, count);
    for (const c of palette) {
      assert.ok(!highlights.includes(c.toLowerCase()), `class colour ${c} is a highlight colour`);
      for (const h of HIGHLIGHTS) assert.ok(deltaE(c, h) >= 20, `class colour ${c} is only ${deltaE(c, h).toFixed(1)} from highlight ${h}`);
      assert.ok(deltaE(c, NEUTRAL) >= 10, `class colour ${c} is near the neutral grey`);
    }
  }
  // The highlights differ among themselves in hue and strength by far.
  for (const a of HIGHLIGHTS) for (const b of HIGHLIGHTS) if (a !== b) assert.ok(deltaE(a, b) >= 40, `${a} and ${b}`);
});

test("the first ten classes have ten distinct colours, and a class keeps its colour whatever the count", () => {
  const ten = classPalette(10);
  assert.equal(new Set(ten).size, 10);
  for (let a = 0; a < 10; a++) for (let b = 0; b < a; b++) assert.ok(deltaE(ten[a]!, ten[b]!) >= 10, `classes ${a} and ${b}: ${ten[a]} ${ten[b]}`);
  assert.deepEqual(classPalette(40).slice(0, 10), ten);
  assert.equal(classColor(3), ten[3]);
});

test("the static layer gets one colour per class and the neutral grey for unlabelled nodes", () => {
  const labels = Int32Array.from([0, 9, -1, 3]);
  const { style } = nodeStyle({ n: 4, edges: new Uint32Array(0), ids: ["a", "b", "c", "d"], degrees: [1, 1, 1, 1], labels, classNames: null });
  assert.equal(style.palette.length, 11);
  assert.deepEqual([...style.colorIndex], [0, 9, 10, 3]);
  assert.equal(style.palette[9], classColor(9));
  assert.equal(style.palette[10], NEUTRAL);
  assert.ok(!style.palette.some((c) => HIGHLIGHTS.includes(c as (typeof HIGHLIGHTS)[number])));
});
