// The Tune button in headless Chromium on the demo graph: a budget out of
// range is refused in words; a one-minute search, started from the
// keyboard, keeps the settings the user changed and searches the others,
// reports every trial, ends with a table of trials, puts the
// chosen settings into the hyperparameter fields and trains a model that
// carries them; a second search cancelled after its first trial leaves the
// fields and the model as they were. No request leaves the page's origin.
// It asserts behaviour, never timing. Run with
// `node --test frontend/e2e/tune.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const artifacts = join(root, "build", "e2e-artifacts");
let server, browser, page;
const requests = [];
const pageErrors = [];

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve();
  browser = await launch();
  browser.context.on("request", (r) => requests.push(r.url()));
  page = await appPage(browser.context, pageErrors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const app = (fn, arg) => page.evaluate(fn, arg);
const shot = (name) => page.screenshot({ path: join(artifacts, `tune-${name}.png`) });

/** The hyperparameter fields' values, by name. */
const fields = () => app(() => Object.fromEntries([...document.querySelectorAll("#hyper-fields input[data-name]")].map((i) => [i.dataset.name, i.type === "checkbox" ? String(i.checked) : i.value])));

test("Tune: every trial reported, the chosen settings applied, trained with and kept; cancel changes nothing", async () => {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  assert.match(await page.textContent("#graph-info"), /1,000 nodes/);
  await page.waitForSelector("#hp-epochs", { state: "attached" });
  await page.locator("#train-panel").scrollIntoViewIfNeeded();

  // A budget out of range is refused before anything runs.
  await page.fill("#tune-budget", "0");
  await page.click("#tune");
  assert.equal(await page.textContent("#tune-error"), 'Cannot tune: the tuning budget must be 1 to 60 minutes (got "0").');
  assert.equal(await app(() => window.ilpgnnExplorer.training), false);

  // Every round at most 12 epochs, a narrow encoder (hidden 16, which the
  // cost model does not see: trials train faster, the plan is the same),
  // and lr and beta as the user sets them: settings the user changed are
  // kept, not searched, so the candidates are drawn from dropout and
  // weight-decay alone; a coarse push for S̃ (ppr-eps) keeps each trial's
  // preparation short. One minute: tune.Plan's search for this graph in a
  // browser, one round of N − 1 candidates and the current settings (a
  // round of 3 or more candidates at the cap ends the search).
  const kept = { epochs: "12", hidden: "16", lr: "0.01", beta: "1", "ppr-eps": QUICK_PPR_EPS };
  await app(() => (document.getElementById("hyper").open = true));
  const defaults = await fields();
  for (const [name, value] of Object.entries(kept)) await page.fill(`#hp-${name}`, value);
  await page.fill("#tune-budget", "1");
  const before = await fields();
  await page.evaluate(() => {
    const el = document.getElementById("progress-text");
    window.trialTexts = [];
    new MutationObserver(() => el.textContent.startsWith("trial ") && window.trialTexts.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.focus("#tune");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => window.ilpgnnExplorer.train.tuneEvents >= 1, null, { timeout: LONG_WAIT });
  // The first finished trial's line (later epochs' lines may already have replaced it on the page):
  // the current settings', trained first as training trains them, to the user's 12 epochs at most.
  const shown = await app(() => window.trialTexts.find((l) => / epochs(, stopped early)? · /.test(l)));
  const scores = String.raw`val (P@1 \d+\.\d%, P@2 \d+\.\d%, AUC \d+\.\d%|AUC \d+\.\d%)`;
  const firstLine = new RegExp(String.raw`^trial 1 of (\d+) · round 1 · (12 epochs|\d+ epochs, stopped early) · dropout [\d.]+, weight-decay [\d.]+ · ${scores} · `)
    .exec(shown);
  assert.ok(firstLine, shown);
  const n = Number(firstLine[1]);
  assert.ok(n >= 3, firstLine[0]);
  assert.ok(await app(() => document.getElementById("progress").value) >= 1 / n);
  assert.equal(await page.isDisabled("#train"), true);
  assert.equal(await page.isDisabled("#cancel"), false);
  await shot("01-first-trial");

  // The search ends, then the model trains with the chosen settings.
  await page.waitForSelector("#tune-table", { timeout: LONG_WAIT });
  const tuned = await app(() => window.ilpgnnExplorer.train.lastTune);
  assert.equal(tuned.cancelled, false);
  assert.equal(tuned.trials.length, n);
  assert.equal(tuned.plan.trials, n);
  assert.ok(tuned.plan.estimatedSeconds > 0 && tuned.plan.estimatedSeconds <= 60, `estimate ${tuned.plan.estimatedSeconds} s`);
  assert.equal(await app(() => window.ilpgnnExplorer.train.tuneEvents), n);
  for (const [name, value] of Object.entries(kept)) assert.equal(tuned.best[name], value, `the user's setting ${name} is kept`);
  // A line per finished trial, in order; within trials, lines counting their epochs: the
  // current settings' 12 at most, then each candidate's round of `epochs`.
  const lines = await app(() => window.trialTexts);
  const ends = lines.filter((l) => / epochs(, stopped early)? · /.test(l));
  const round = /^trial 2 of \d+ · round 1 · (?:\d+ of )?(\d+) epochs · /.exec(ends[1] ?? "");
  assert.ok(round, ends[1]);
  const epochs = Number(round[1]);
  assert.ok(epochs >= 1 && epochs <= 12, round[0]);
  assert.deepEqual(ends.map((l) => new RegExp(String.raw`^trial (\d+) of ${n} · round 1 · (12 epochs|\d+ epochs, stopped early|(\d+ of )?${epochs} epochs) · `).exec(l)?.[1]),
    Array.from({ length: n }, (_, k) => String(k + 1)));
  const inside = lines.filter((l) => !/ epochs(, stopped early)? · /.test(l));
  assert.ok(inside.length > 0, "no line from inside a trial");
  for (const l of inside) assert.match(l, new RegExp(String.raw`^trial \d+ of ${n} · round 1 · epoch \d+ of (12|${epochs}) · dropout `));
  assert.equal(await app(() => document.querySelectorAll("#tune-table tbody tr").length), n);
  assert.equal(await app(() => document.querySelectorAll("#tune-table tbody tr.chosen").length), 1);
  // n trials: n − 1 drawn candidates and the current settings, which stay unless one beats them.
  assert.match(await page.textContent("#tune-summary"),
    new RegExp(`^Tuned ilpgnn: ${n} of ${n} trials in .* Plan: ${n - 1} candidates and the current settings, one round of ${epochs} epochs, estimated at most .* in this browser\\. (Chosen on .*: beta|No candidate beat the current settings)`));
  assert.match(await page.textContent("#tune-seeds"), /chosen on the validation links of seed 0; the test AUC is measured on the test links of seed 0/);
  const applied = await fields();
  for (const [name, value] of Object.entries(tuned.best)) assert.equal(applied[name], value, `field ${name}`);

  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  assert.match(await page.textContent("#train-result"), /Trained ILP-GNN/);
  assert.match(await page.textContent("#progress-text"), /^Done: \d+ epochs/);
  const model = await app(() => window.ilpgnnExplorer.model.info);
  for (const [name, value] of Object.entries(tuned.best)) assert.equal(model.config[name], value, `model setting ${name}`);
  assert.match(await page.textContent("#train-result"), /saved in this browser/);
  await page.locator("#tune-table").scrollIntoViewIfNeeded();
  await shot("02-tuned-and-trained");

  // A second search, cancelled after its first trial: the fields and the
  // model stay as they were. lr goes back to its default first, so that
  // the search has a setting to draw (the chosen ones are kept now, and
  // they may be all of dropout and weight-decay).
  await page.fill("#hp-lr", defaults.lr);
  const settingsBefore = await fields();
  await page.fill("#tune-budget", "5");
  await page.click("#tune");
  await page.waitForFunction(() => window.ilpgnnExplorer.train.tuneEvents >= 1 || document.getElementById("tune-error") !== null, null, { timeout: LONG_WAIT });
  assert.equal(await page.$("#tune-error"), null, "the second search runs");
  await page.click("#cancel");
  await page.waitForSelector("#tune-summary", { timeout: LONG_WAIT });
  assert.match(await page.textContent("#tune-summary"), /^Tuning cancelled: \d+ of \d+ trials/);
  assert.match(await page.textContent("#progress-text"), /^Tuning cancelled after \d+ of \d+ trials; the hyperparameters are unchanged\.$/);
  assert.equal(await app(() => window.ilpgnnExplorer.train.lastTune.cancelled), true);
  assert.deepEqual(await fields(), settingsBefore);
  assert.equal(await app(() => window.ilpgnnExplorer.model.info.key), model.key);
  assert.equal(await app(() => window.ilpgnnExplorer.training), false);
  assert.equal(await page.isDisabled("#tune"), false);
  await shot("03-cancelled");

  const local = /^(blob|data):/;
  const foreign = requests.filter((u) => !u.startsWith(server.origin) && !local.test(u));
  assert.deepEqual(foreign, [], "no request leaves the origin");
  assert.deepEqual(pageErrors, []);
});
