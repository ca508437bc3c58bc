// The formats analysts keep graphs in, opened through the app's file
// input in headless Chromium: Zachary's karate club as networkx writes it
// (GraphML, GEXF, node-link JSON) and as graphology serializes it (issue
// 33; core/load/testdata/karate.py wrote them). Each opens as 34 nodes and
// 78 edges with its one numeric attribute as a feature, and a JSON file
// that is no graph is refused with the loader's message while the graph
// before stays; the club's edges alone get one-hot ids as features, and
// the line under the canvas says so. Run with `node --test frontend/e2e/formats.test.mjs` after
// `make build`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT } from "./browser.mjs";

const testdata = join(root, "core", "load", "testdata");
let server, browser, page;
const pageErrors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const info = () => page.textContent("#graph-info");

for (const file of ["karate.graphml", "karate.gexf", "karate.nodelink.json", "karate.graphology.json"]) {
  test(`${file} opens as Zachary's karate club`, async () => {
    await page.setInputFiles("#file-input", join(testdata, file));
    await page.waitForFunction((name) => document.getElementById("graph-info").textContent.startsWith(`${name}: `),
      file.replace(/\.[^.]+$/, ""), { timeout: WAIT });
    assert.match(await info(), /: 34 nodes, 78 edges · 1 feature · /);
    const g = await page.evaluate(() => {
      const d = window.ilpgnnExplorer.graph.desc;
      return { featureDim: d.featureDim, n0: d.degrees[d.ids.indexOf("n0")], n33: d.degrees[d.ids.indexOf("n33")] };
    });
    // The club's instructor and administrator, by networkx's data: 16 and 17 members each.
    assert.deepEqual(g, { featureDim: 1, n0: 16, n33: 17 }, "the one numeric attribute is the feature; the two leaders' degrees");
  });
}

test("a JSON file that is no graph is refused and the karate club stays", async () => {
  await page.setInputFiles("#file-input", { name: "settings.json", mimeType: "application/json", buffer: Buffer.from('{"lr": 0.01}') });
  // #data-error also carries the previous file's notes (the karate club's
  // ignored edge attributes), so wait for the refusal itself.
  await page.waitForFunction(() => {
    const el = document.getElementById("data-error");
    return !el.hidden && el.textContent.includes("settings.json");
  }, null, { timeout: WAIT });
  assert.match(await info(), /: 34 nodes, 78 edges/);
  assert.deepEqual(pageErrors, []);
});

test("the club's edges without attributes get one-hot ids, and the page says the features are made up", async () => {
  const { links } = JSON.parse(readFileSync(join(testdata, "karate.nodelink.json"), "utf8"));
  const csv = links.map((l) => `${l.source},${l.target}`).join("\n") + "\n";
  await page.setInputFiles("#file-input", { name: "edges.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.waitForFunction(() => document.getElementById("graph-info").textContent.startsWith("edges: "), null, { timeout: WAIT });
  assert.match(await info(), /^edges: 34 nodes, 78 edges · 34 features: one-hot node ids \(the input has no numeric or categorical node attributes\) · /);
  assert.deepEqual(pageErrors, []);
});
