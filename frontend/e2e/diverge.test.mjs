// A training run that diverges, in headless Chromium: with an absurd
// learning rate the train panel shows the engine's error (the epoch, a
// lower learning rate) instead of a result, and the demo graph stays
// loaded: the next run with a sane learning rate trains on it. Run with
// `node --test frontend/e2e/diverge.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

let server, browser, page;
const pageErrors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("a diverged run says so and keeps the graph usable", async () => {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.locator("#train-panel").scrollIntoViewIfNeeded();
  await page.evaluate(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-lr", { timeout: WAIT });
  const info = await page.textContent("#graph-info");

  // A narrow encoder (hidden 16) and a coarse push for S̃ (ppr-eps) for
  // both runs: they prepare and train fast, and the divergence and the
  // error's words depend on neither.
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.fill("#hp-lr", "1e30");
  await page.fill("#hp-warmup", "0");
  await page.fill("#hp-epochs", "20");
  await page.click("#train");
  await page.waitForSelector("#train-error", { timeout: LONG_WAIT });
  const msg = await page.textContent("#train-error");
  assert.match(msg, /^Training failed: .*epoch \d+: .*training diverged; try a lower learning rate than 1e\+30/);
  assert.match(await page.textContent("#progress-text"), /graph and any earlier model are unchanged/);
  assert.equal(await page.isDisabled("#train"), false, "Train is enabled again");
  assert.equal(await page.textContent("#graph-info"), info, "the graph is still loaded");

  // The same graph trains with a sane learning rate.
  await page.fill("#hp-lr", "0.001");
  await page.fill("#hp-epochs", "3");
  await page.click("#train");
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  assert.match(await page.textContent("#train-result"), /Trained ILP-GNN/);
  assert.deepEqual(pageErrors, []);
});
