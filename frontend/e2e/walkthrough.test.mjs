// "How the model decided" in headless Chromium, as a teacher and a student
// would use it. The command line trains a model of the demo graph and one
// of Cora; the app imports each checkpoint, explains a pair, and walks
// through all seven steps: every step's words and every number it shows
// must equal `ilpgnn explain --json` for the same checkpoint and pair, bit
// for bit. A deep link opens the step it names; the walk-through is used
// from the keyboard alone, and at a phone's 390x844 its steps sit under
// the graph. Screenshots of three steps at both sizes go to
// build/e2e-artifacts/. Needs `make build`; run with
// `node --test frontend/e2e/walkthrough.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, recordCSPViolations, WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const bin = join(root, "build", "ilpgnn");
const cora = resolve(root, "..", "shared", "datasets", "cora");
const artifacts = join(root, "build", "e2e-artifacts");
const STEPS = ["structure", "features", "scores", "selection", "aggregation", "prediction", "whatif"];
// A demo pair the short run links (p above 50%), and a Cora citation.
const DEMO_PAIR = ["3", "612"];
const CORA_PAIR = ["35", "1033"];

let dir, demoCkpt, coraCkpt, server, browser, page;
const requests = [];
const pageErrors = [];

const ilpgnn = (...args) => execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });
const explainJSON = (data, ckpt, [a, b]) => JSON.parse(ilpgnn("explain", "--checkpoint", ckpt, "--data", data, "--pair", `${a},${b}`, "--json"));

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-walk-"));
  demoCkpt = join(dir, "demo.ckpt");
  coraCkpt = join(dir, "cora.ckpt");
  // Short runs with a coarse push for S̃ (the checkpoint carries it, and
  // the app prepares S̃ again on import): the app must equal the command
  // line whatever the weights and the tolerance.
  ilpgnn("train", "--data", "synth:medium", "--seeds", "0", "--epochs", "15", "--ppr-eps", QUICK_PPR_EPS, "--save", demoCkpt);
  ilpgnn("train", "--data", cora, "--seeds", "0", "--epochs", "10", "--ppr-eps", QUICK_PPR_EPS, "--save", coraCkpt);
  server = await serve();
  browser = await launch();
  browser.context.on("request", (r) => requests.push(r.url()));
  page = await appPage(browser.context, pageErrors);
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await recordCSPViolations(browser.context);
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const app = (fn, arg) => page.evaluate(fn, arg);
const shot = (name) => page.screenshot({ path: join(artifacts, `walk-${name}.png`) });

/** Imports a checkpoint file through the checkpoints panel and waits for it to be restored. */
async function importCheckpoint(file) {
  await app(() => (document.getElementById("checkpoints-panel").open = true));
  await page.setInputFiles("#checkpoint-input", file);
  await page.waitForFunction(() => /Restored/.test(document.getElementById("status").textContent));
}

/** The step shown: its number, key, title and words, and every number it shows by key. */
function shown() {
  return app(() => {
    const title = document.getElementById("walk-title");
    if (title === null) return null;
    const values = {};
    for (const el of document.querySelectorAll("#walk td[data-key]")) values[el.dataset.key] = el.dataset.value;
    return {
      step: Number(title.dataset.step),
      key: title.dataset.key,
      title: title.textContent,
      text: document.getElementById("walk-text").textContent,
      values,
      hash: location.hash,
    };
  });
}

/** The value of `explain --json` a shown key names: "i.<id>.<field>" for a neighbour, else a path of fields. */
function lookup(e, key) {
  const m = /^([ij])\.(.+)\.(\w+)$/.exec(key);
  if (m !== null) {
    const n = e[m[1]].neighbors.find((n) => n.id === m[2]);
    if (n !== undefined) return n[m[3]];
  }
  return key.split(".").reduce((v, part) => (v === undefined ? undefined : v[part]), e);
}

/** Checks that the step shown is step n of e's walk-through: its words, and each number bit for bit. */
async function assertStep(e, n, what) {
  await page.waitForFunction((n) => document.getElementById("walk-title")?.dataset.step === String(n), n);
  const s = await shown();
  const want = e.steps[n - 1];
  assert.equal(s.key, STEPS[n - 1], `${what}: step ${n}'s key`);
  assert.equal(want.key, STEPS[n - 1]);
  assert.equal(s.title, `Step ${n} of 7: ${want.title}`, `${what}: step ${n}'s title`);
  assert.equal(s.text, want.text, `${what}: step ${n}'s words`);
  const keys = Object.keys(s.values);
  assert.ok(keys.length > 0, `${what}: step ${n} shows no numbers`);
  for (const key of keys) {
    const v = lookup(e, key);
    assert.equal(typeof v, "number", `${what}: step ${n}'s ${key} is no number of explain --json`);
    // Both are the shortest decimals of float64s: equal as numbers means equal bit for bit.
    assert.equal(Number(s.values[key]), v, `${what}: step ${n}'s ${key}`);
  }
  assert.match(s.hash, new RegExp(`&step=${n}(&|$)`), `${what}: the URL names step ${n}`);
  return s;
}

/** Walks from step 1 to 7 with the → key, checking each step; screenshots the steps named in shots. */
async function walkAll(e, what, shots = {}) {
  for (let n = 1; n <= 7; n++) {
    if (n > 1) await page.keyboard.press("ArrowRight");
    await assertStep(e, n, what);
    if (shots[n]) await shot(shots[n]);
  }
  // → on the last step stays there; ← goes back.
  await page.keyboard.press("ArrowRight");
  await assertStep(e, 7, what);
  await page.keyboard.press("ArrowLeft");
  await assertStep(e, 6, what);
}

test("the demo graph: a deep link opens its step; all seven steps equal explain --json, from the keyboard", async () => {
  const e = explainJSON("synth:medium", demoCkpt, DEMO_PAIR);
  await page.goto(`${server.origin}/#data=synth:medium&seed=0`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await importCheckpoint(demoCkpt);

  // A deep link opens the step it names, on the canvas too.
  await page.goto(`${server.origin}/#data=synth:medium&seed=0&pair=${DEMO_PAIR.join(",")}&step=4`);
  await assertStep(e, 4, "deep link");
  const lit = await app(() => window.ilpgnnExplorer.view.currentHighlight());
  assert.deepEqual(lit.selected, [e.i.node, e.j.node], "the canvas shows the pair");
  // Step 4 (selection) lights the selected neighbours only.
  const selected = new Set([...e.i.neighbors, ...e.j.neighbors].filter((n) => n.selected).map((n) => n.node));
  for (const side of lit.sides) for (const n of side.neighbors) assert.equal(n.selected, selected.has(n.node), `neighbour ${n.node} lit at the selection step`);

  // The canvas keeps the pair in view: panned away, the next step brings it back.
  const onScreen = () => app((ends) => {
    const v = window.ilpgnnExplorer.view;
    const { width, height } = v.size();
    return ends.every((n) => {
      const p = v.screenOf(n);
      return p !== null && p[0] >= 0 && p[1] >= 0 && p[0] <= width && p[1] <= height;
    });
  }, [e.i.node, e.j.node]);
  assert.ok(await onScreen(), "the pair is in view");
  await app((ends) => {
    const v = window.ilpgnnExplorer.view;
    const p = v.screenOf(ends[0]);
    v.setTransform({ ...v.transform(), x: v.transform().x - p[0] - 5000 });
  }, [e.i.node]);
  assert.ok(!(await onScreen()), "panned away");
  await page.focus("#walk");
  await page.keyboard.press("ArrowLeft");
  await assertStep(e, 3, "after panning away");
  assert.ok(await onScreen(), "the step brought the pair back into view");
  // Step 3 lights every neighbour but labels only the nodes its tables list.
  const [labels, listed] = await app(() => [window.ilpgnnExplorer.view.currentHighlight().labels, [...document.querySelectorAll("#walk button[data-node]")].map((b) => Number(b.dataset.node))]);
  assert.deepEqual([...new Set(labels)].sort((a, b) => a - b), [...new Set(listed)].sort((a, b) => a - b), "step 3 labels its tables' nodes");

  // The keyboard alone: back to step 1, through all seven, Escape leaves.
  for (let k = 0; k < 2; k++) await page.keyboard.press("ArrowLeft");
  await assertStep(e, 1, "demo");
  await walkAll(e, "demo", { 1: "desktop-1-structure", 4: "desktop-4-selection", 6: "desktop-6-prediction" });
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.getElementById("walk") === null);
  assert.equal(await app(() => document.activeElement?.id), "walk-open", "Escape returns to the button that opened it");
  assert.doesNotMatch(await app(() => location.hash), /step=/, "a closed walk-through leaves the URL");
  // Enter on the button opens it again at step 1.
  await page.keyboard.press("Enter");
  await assertStep(e, 1, "reopened");
});

test("at 390x844 the steps sit under the graph, fit the screen, and work from the keyboard", async () => {
  const e = explainJSON("synth:medium", demoCkpt, DEMO_PAIR);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.origin}/#data=synth:medium&seed=0&pair=${DEMO_PAIR.join(",")}&step=1`);
  await page.reload();
  await assertStep(e, 1, "phone");
  const [canvas, walk] = await app(() => ["graph", "walk"].map((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
  }));
  assert.ok(walk.top >= canvas.bottom, `the steps (top ${walk.top}) sit under the graph (bottom ${canvas.bottom})`);
  assert.ok(walk.left >= 0 && walk.right <= 390, `the steps fit the screen's width: ${walk.left}..${walk.right}`);
  assert.ok(await app(() => document.documentElement.scrollWidth <= 390), "nothing scrolls sideways");
  for (const [n, name] of [[1, "phone-1-structure"], [4, "phone-4-selection"], [6, "phone-6-prediction"]]) {
    while ((await shown()).step < n) await page.keyboard.press("ArrowRight");
    await assertStep(e, n, "phone");
    await page.locator("#walk").scrollIntoViewIfNeeded();
    await shot(name);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("Cora: a pair typed in, the walk-through reached by Tab and Enter, all seven steps equal explain --json", async () => {
  const e = explainJSON(cora, coraCkpt, CORA_PAIR);
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.setInputFiles("#file-input", [join(cora, "cora.content"), join(cora, "cora.cites")]);
  await page.waitForFunction(() => /2,708 nodes/.test(document.getElementById("graph-info").textContent), null, { timeout: WAIT });
  await importCheckpoint(coraCkpt);

  await page.focus("#pair-i");
  await page.keyboard.type(CORA_PAIR[0]);
  await page.keyboard.press("Tab");
  await page.keyboard.type(CORA_PAIR[1]);
  await page.keyboard.press("Enter");
  await page.waitForFunction((t) => document.getElementById("explain-heading")?.textContent === t, `Why ${CORA_PAIR[0]} – ${CORA_PAIR[1]}?`);
  await page.focus("#explain-heading");
  for (let k = 0; k < 40 && (await app(() => document.activeElement?.id)) !== "walk-open"; k++) await page.keyboard.press("Tab");
  assert.equal(await app(() => document.activeElement?.id), "walk-open", "Tab reaches “How the model decided”");
  await page.keyboard.press("Enter");
  await walkAll(e, "cora");
  assert.ok(Object.keys((await shown()).values).length > 0);
});

test("no request left the page's origin, the CSP blocked nothing, and the page logged no error", async () => {
  const foreign = requests.filter((u) => !u.startsWith(server.origin) && !u.startsWith("blob:") && !u.startsWith("data:"));
  assert.deepEqual(foreign, []);
  assert.deepEqual(await app(() => window.__csp), []);
  assert.deepEqual(pageErrors, []);
});
