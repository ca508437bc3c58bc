// Training on every core, the app's side, in headless Chromium: a link's
// `workers=1` reaches the Cores selector and the link the page keeps; a
// run on the small synthetic graph says "training on 1 core" while it
// trains and in its result; Cancel says "Cancelling…" in the same task as
// the press, with the button disabled, and the run then ends cancelled; a
// bad `workers` value is ignored with a note. Behaviour only, no timing.
// Run with `node --test frontend/e2e/cores.test.mjs` after `make site`.
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
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const app = (fn, arg) => page.evaluate(fn, arg);
const shot = (name) => page.screenshot({ path: join(artifacts, `cores-${name}.png`) });

async function open(url) {
  await page.goto(url);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.waitForSelector("#hp-epochs", { state: "attached", timeout: WAIT });
}

async function setHyper(name, value) {
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector(`#hp-${name}`);
  await page.fill(`#hp-${name}`, String(value));
}

test("workers=1 in the link: the run trains on 1 core and says so; Cancel says Cancelling… at once", async () => {
  await open(`${server.origin}/#data=synth:sparse&seed=0&workers=1`);
  assert.equal(await page.inputValue("#train-workers"), "1", "the selector shows the link's choice");
  assert.match(await app(() => location.hash), /&workers=1(&|$)/, "the page's link keeps it");
  assert.equal(await page.isHidden("#workers-note"), true);
  // Before training, the page estimates an epoch on the chosen workers,
  // and again when the choice changes: auto is the engine's default.
  const estimate = (n) => new RegExp(`an epoch takes (under a second|roughly \\d+ (s|min)) on ${n} workers? \\(estimated from its size\\)\\.$`);
  assert.match(await page.textContent("#no-model"), estimate(1));
  const auto = await app(() => window.ilpgnnExplorer.store.get("engineInfo").defaultWorkers);
  await page.selectOption("#train-workers", "");
  assert.match(await page.textContent("#no-model"), estimate(auto));
  await page.selectOption("#train-workers", "1");
  assert.match(await page.textContent("#no-model"), estimate(1));

  // A short run with small batches, so its epochs are sharded (reports
  // within them); narrow, with a coarse push for S̃, so it prepares and
  // trains fast.
  await setHyper("epochs", 3);
  await setHyper("patience", 3);
  await setHyper("batch-size", 64);
  await setHyper("hidden", 16);
  await setHyper("ppr-eps", QUICK_PPR_EPS);
  await app(() => {
    const el = document.getElementById("progress-text");
    window.progressTexts = [];
    new MutationObserver(() => window.progressTexts.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.click("#train");
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  const texts = await app(() => window.progressTexts);
  const epochs = texts.filter((t) => /^epoch \d+ of at most 3 /.test(t));
  assert.ok(epochs.length >= 1, texts.join("\n"));
  for (const t of epochs) assert.match(t, / · training on 1 core · /, t);
  // Reports within an epoch (throttled by the engine, so maybe few) name their phase.
  for (const t of epochs.filter((t) => !/validation AUC \d/.test(t))) {
    assert.match(t, /^epoch \d+ of at most 3 · (encoder|validation|selection and losses \d+\/16|backward) · training on 1 core · /, t);
  }
  assert.match(await page.textContent("#progress-text"), /^Done: \d+ epochs in /);
  assert.match(await page.textContent("#train-result"), /trained on1 core/);
  await shot("01-trained");

  // A long run, cancelled: the press and what the page says are one task,
  // so the engine cannot have answered yet.
  await setHyper("epochs", 1000);
  await setHyper("patience", 1000);
  await page.click("#train");
  await page.waitForFunction(() => window.ilpgnnExplorer.train.progressEvents >= 2, null, { timeout: WAIT });
  const pressed = await app(() => {
    const before = window.ilpgnnExplorer.training;
    document.getElementById("cancel").click();
    return {
      before,
      text: document.getElementById("progress-text").textContent,
      status: document.getElementById("status").textContent,
      disabled: document.getElementById("cancel").disabled,
    };
  });
  assert.deepEqual(pressed, { before: true, text: "Cancelling…", status: "Cancelling…", disabled: true });
  await shot("02-cancelling");
  await page.waitForFunction(() => /^Stopped (during|after) epoch \d+/.test(document.getElementById("progress-text").textContent), null, { timeout: LONG_WAIT });
  // The result shows before the checkpoint list is read again; Train comes back after it.
  await page.waitForFunction(() => !document.getElementById("train").disabled, null, { timeout: WAIT });
  assert.equal(await page.isDisabled("#cancel"), true);
  assert.equal(await app(() => window.ilpgnnExplorer.training), false);
  assert.doesNotMatch(await page.textContent("#status"), /Cancelling/);
  assert.deepEqual(pageErrors, []);
});

test("a workers value out of range or not a number is ignored with a note; auto is kept", async () => {
  for (const bad of ["99", "two"]) {
    // A query of its own makes each a fresh page load, not a hash change.
    await open(`${server.origin}/?${bad}#data=synth:sparse&seed=0&workers=${bad}`);
    assert.equal(await page.isHidden("#workers-note"), false, bad);
    assert.match(await page.textContent("#workers-note"), new RegExp(`^Ignored workers=“${bad}” in the link: it must be a whole number of cores from 1 to 16\\.`));
    assert.equal(await page.inputValue("#train-workers"), "", `auto is kept for workers=${bad}`);
    assert.doesNotMatch(await app(() => location.hash), /workers=/, "the page's link drops it");
  }
  await shot("03-ignored");
  assert.deepEqual(pageErrors, []);
});
