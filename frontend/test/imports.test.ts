// The front end imports in one direction: no module imports one that
// (through others) imports it back. The App once imported the panels and
// they imported the App; this test fails if such a cycle comes back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findCycle, importGraph, importSpecifiers } from "./importgraph";

// This file runs bundled in build/frontend-test/; the sources are in frontend/src.
const src = fileURLToPath(new URL("../../frontend/src/", import.meta.url)).replace(/\/$/, "");

test("import specifiers: named, default, type-only, side-effect, re-exports, multi-line; not comments or dynamic imports", () => {
  const source = [
    'import { a, type B } from "./a";',
    'import type { C } from "../c";',
    'import D, { e } from "./d/index";',
    'import "./side";',
    'export { f } from "./f";',
    'export * from "./g";',
    "import {\n  h,\n  i,\n} from './h';",
    '// import { no } from "./commented";',
    '/* import { no } from "./block"; */',
    'const lazy = import("./dynamic");',
    'export const s = "./not-an-import";',
    'import { quadtree } from "d3-quadtree";',
  ].join("\n");
  assert.deepEqual(importSpecifiers(source), ["./a", "../c", "./d/index", "./side", "./f", "./g", "./h", "d3-quadtree"]);
});

test("findCycle: null on a DAG, the cycle's path on a graph with one", () => {
  const dag = new Map([
    ["app.ts", ["panels/train.ts", "store.ts"]],
    ["panels/train.ts", ["store.ts", "errors.ts"]],
    ["store.ts", []],
    ["errors.ts", []],
  ]);
  assert.equal(findCycle(dag), null);
  // The old shape: the app imports a panel, the panel imports the app.
  const cyclic = new Map(dag);
  cyclic.set("panels/train.ts", ["store.ts", "app.ts"]);
  assert.deepEqual(findCycle(cyclic), ["app.ts", "panels/train.ts", "app.ts"]);
  // A longer loop, and a self-import.
  assert.deepEqual(findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
  assert.deepEqual(findCycle(new Map([["a", ["a"]]])), ["a", "a"]);
});

test("importGraph resolves files and folders; a cycle written to disk is found", () => {
  const dir = mkdtempSync(join(tmpdir(), "importgraph-"));
  try {
    mkdirSync(join(dir, "panels"));
    mkdirSync(join(dir, "charts"));
    writeFileSync(join(dir, "app.ts"), 'import { Panel } from "./panels/panel";\nimport { chart } from "./charts";\n');
    writeFileSync(join(dir, "charts", "index.ts"), "export const chart = 1;\n");
    writeFileSync(join(dir, "panels", "panel.ts"), 'import type { App } from "../app";\nexport class Panel {}\n');
    const g = importGraph(dir);
    assert.deepEqual(g.get("app.ts"), ["charts/index.ts", "panels/panel.ts"]);
    assert.deepEqual(g.get("panels/panel.ts"), ["app.ts"]);
    assert.deepEqual(findCycle(g), ["app.ts", "panels/panel.ts", "app.ts"]);
    writeFileSync(join(dir, "panels", "panel.ts"), "export class Panel {}\n");
    assert.equal(findCycle(importGraph(dir)), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("frontend/src has no import cycle", () => {
  const g = importGraph(src);
  // The graph was read: the app imports its panels and the store.
  assert.ok(g.get("app/app.ts")?.includes("app/panels/train.ts"), `app/app.ts imports: ${g.get("app/app.ts")}`);
  assert.ok(g.get("app/panels/train.ts")?.includes("app/store.ts"));
  const cycle = findCycle(g);
  assert.equal(cycle, null, `import cycle: ${cycle?.join(" -> ")}`);
});
