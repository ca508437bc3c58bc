// The keyboard path through an explanation, in headless Chromium: find a
// node by id, reach its suggestions in a few keys (skip link, one Tab stop
// per list), choose one with the arrows and Enter, and the focus lands in
// the explanation, not at the top of the page; the selected neighbours are
// one Tab stop with arrows inside; on the canvas ] and [ step through the
// node's neighbours (announced) and Enter explains the pair, focus staying
// on the canvas. Saves the explanation on a desktop and a phone viewport
// to build/e2e-artifacts/ (explain-desktop.png, explain-phone.png) and
// checks that on the phone the explanation comes right after the graph,
// before the charts. Behaviour only, no timing. Run with
// `node --test frontend/e2e/keyboard.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const artifacts = join(root, "build", "e2e-artifacts");
let server, browser, page;
const pageErrors = [];

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const app = (fn, arg) => page.evaluate(fn, arg);
/** The id of the focused element and the ids of the regions it is inside. */
const focused = () =>
  app(() => {
    const el = document.activeElement;
    return {
      id: el?.id ?? "",
      node: el?.getAttribute("data-node") ?? null,
      inExplanation: el?.closest("#explain-body") !== null,
      inSuggestions: el?.closest("#suggestions") !== null,
      inSideI: el?.closest(".side-block.i tbody") !== null,
      text: el?.textContent?.trim().slice(0, 40) ?? "",
    };
  });

test("keyboard: find a node, choose a suggestion, stay in the explanation, step through neighbours on the canvas", async () => {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  // No data, no chart: the training charts are hidden until the first epoch.
  assert.equal(await page.isHidden("#loss-chart"), true, "the empty loss chart is hidden");
  assert.equal(await page.isHidden("#auc-chart"), true, "the empty AUC chart is hidden");

  // A short training run with a narrow encoder and a coarse push for S̃:
  // the path needs a model, not a good one.
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-epochs");
  await page.fill("#hp-epochs", "3");
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await app(() => (document.getElementById("hyper").open = false)); // as a user leaves it
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  assert.equal(await page.isVisible("#loss-chart"), true, "the loss chart shows once it has data");

  // Find a node with a few neighbours by its id, from the keyboard.
  const a = await app(() => {
    const g = window.ilpgnnExplorer.graph;
    for (let v = 0; v < g.n; v++) if (g.neighbors(v).length >= 4) return v;
    return 0;
  });
  const aId = await app((v) => window.ilpgnnExplorer.graph.id(v), a);
  await page.focus("#search");
  await page.keyboard.type(aId);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#suggestions button");
  assert.deepEqual(await app(() => window.ilpgnnExplorer.selection), { kind: "node", node: a });

  // From the search box, Tab reaches the first suggestion in a handful of
  // stops: the node's neighbour list is one stop, not one per neighbour.
  let tabs = 0;
  while (!(await focused()).inSuggestions && tabs < 60) {
    await page.keyboard.press("Tab");
    tabs++;
  }
  console.log(`# Tabs from the search box to the first suggestion: ${tabs}`);
  assert.ok(tabs <= 25, `the first suggestion took ${tabs} Tabs`);
  // From the top of the page (a probe button before everything stands for
  // the browser's address bar): the skip link, then two Tabs.
  await app(() => {
    const probe = document.createElement("button");
    probe.id = "probe";
    probe.textContent = "probe";
    document.body.prepend(probe);
    probe.focus();
  });
  await page.keyboard.press("Tab");
  await app(() => document.getElementById("probe").remove());
  assert.match((await focused()).text, /Skip to the explanation/);
  await page.keyboard.press("Enter");
  assert.equal((await focused()).id, "explain-body");
  await page.keyboard.press("Tab");
  assert.equal((await focused()).inExplanation, true, "the node's neighbour list");
  await page.keyboard.press("Tab");
  const first = await focused();
  assert.equal(first.inSuggestions, true, "skip link + 2 Tabs reach the suggestions");
  const suggested = await app(() => [...document.querySelectorAll("#suggestions button")].map((b) => Number(b.getAttribute("data-node"))));
  assert.equal(Number(first.node), suggested[0]);

  // Arrows move inside the list; Enter chooses.
  await page.keyboard.press("ArrowDown");
  assert.equal(Number((await focused()).node), suggested[1]);
  await page.keyboard.press("ArrowUp");
  assert.equal(Number((await focused()).node), suggested[0]);
  await page.keyboard.press("Enter");
  await page.waitForSelector("#pair-prob");
  await page.waitForFunction(() => document.activeElement?.id === "explain-heading");
  const b = suggested[0];
  assert.deepEqual(await app(() => window.ilpgnnExplorer.selection), { kind: "pair", i: a, j: b });
  const f = await focused();
  assert.equal(f.inExplanation, true, `focus is in the explanation, not ${f.id}`);

  // The definitions sit next to the explanation, one line each.
  const terms = await app(() => [...document.querySelectorAll("#explain-defs dt")].map((dt) => dt.textContent));
  assert.deepEqual(terms, ["p", "structure", "features", "b", "attribution"]);

  // Tab from the heading: first the walk-through's button, then the
  // selected neighbours of i, one Tab stop whose arrows step through them.
  const selectedI = await app(() => [...document.querySelectorAll(".side-block.i tbody tr.selected button")].map((x) => Number(x.getAttribute("data-node"))));
  await page.keyboard.press("Tab");
  assert.equal((await focused()).id, "walk-open", "Tab from the heading reaches “How the model decided”");
  await page.keyboard.press("Tab");
  const n0 = await focused();
  assert.equal(n0.inSideI, true, `Tab from the heading reaches i's first selected neighbour, not ${n0.text}`);
  assert.equal(Number(n0.node), selectedI[0]);
  if (selectedI.length > 1) {
    await page.keyboard.press("ArrowDown");
    const n1 = await focused();
    assert.equal(Number(n1.node), selectedI[1]);
    assert.equal(n1.inExplanation, true);
  }

  // Desktop screenshot of the explanation.
  await page.locator("#explain-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "explain-desktop.png") });

  // The canvas: ] and [ step through a's neighbours, announced; Enter explains.
  const nbrs = await app((v) => window.ilpgnnExplorer.graph.neighbors(v), a);
  await page.focus("#graph");
  await page.keyboard.press("]");
  assert.equal(await app(() => window.ilpgnnExplorer.view.cursorNode()), nbrs[0]);
  const id0 = await app((v) => window.ilpgnnExplorer.graph.id(v), nbrs[0]);
  assert.match(await page.textContent("#graph-announce"), new RegExp(`^Neighbour 1 of ${nbrs.length} of node ${aId}: node ${id0}\\b`));
  await page.keyboard.press("]");
  assert.equal(await app(() => window.ilpgnnExplorer.view.cursorNode()), nbrs[1]);
  assert.match(await page.textContent("#graph-announce"), new RegExp(`^Neighbour 2 of ${nbrs.length}`));
  await page.keyboard.press("[");
  await page.keyboard.press("[");
  assert.equal(await app(() => window.ilpgnnExplorer.view.cursorNode()), nbrs[nbrs.length - 1], "[ before the first wraps to the last");
  await page.keyboard.press("]");
  await page.keyboard.press("]");
  assert.equal(await app(() => window.ilpgnnExplorer.view.cursorNode()), nbrs[1]);
  await page.keyboard.press("Enter");
  await page.waitForFunction(([i, j]) => {
    const s = window.ilpgnnExplorer.selection;
    return s.kind === "pair" && s.i === i && s.j === j;
  }, [a, nbrs[1]]);
  const id1 = await app((v) => window.ilpgnnExplorer.graph.id(v), nbrs[1]);
  await page.waitForFunction((t) => document.getElementById("explain-heading")?.textContent === t, `Why ${aId} – ${id1}?`);
  assert.equal((await focused()).id, "graph", "focus stays on the canvas");
  // The stepping goes on from there: the same node's next neighbour.
  await page.keyboard.press("]");
  assert.equal(await app(() => window.ilpgnnExplorer.view.cursorNode()), nbrs[2 % nbrs.length]);

  // On a phone the explanation comes right after the graph, before the charts.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.getElementById("graph").getBoundingClientRect().width <= 390);
  const box = await app(() => {
    const top = (id) => document.getElementById(id).getBoundingClientRect().top + window.scrollY;
    const bottom = (id) => document.getElementById(id).getBoundingClientRect().bottom + window.scrollY;
    return { explain: top("explain-panel"), loss: top("loss-chart"), train: top("train-panel"), graphPane: bottom("canvas-wrap") };
  });
  assert.equal(await page.isVisible("#loss-chart"), true);
  assert.ok(box.explain < box.loss, `explanation top ${box.explain} above the charts' top ${box.loss}`);
  assert.ok(box.explain < box.train, `explanation before the Train panel: ${JSON.stringify(box)}`);
  assert.ok(box.explain > box.graphPane, `explanation after the graph: ${JSON.stringify(box)}`);
  // The graph from the pair down, then the explanation (a full-page shot would
  // resize the viewport and catch the canvas blank).
  await app(() => {
    const r = document.getElementById("canvas-wrap").getBoundingClientRect();
    window.scrollTo(0, window.scrollY + r.top + r.height * 0.3);
  });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.frameStats().frames > 0);
  await page.screenshot({ path: join(artifacts, "explain-phone.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  assert.deepEqual(pageErrors, []);
});
