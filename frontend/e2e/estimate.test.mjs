// The train panel's progress while a run trains, in headless Chromium: the
// bar counts epochs done of the maximum, the line says the time elapsed and
// when early stopping would end the run (best epoch + patience) or, where
// that is not sooner, "at most about … left"; the estimate's explanation
// leads with that epoch, then the upper bound and its basis. Every report is
// recorded in the page as it is shown (a MutationObserver), so the check
// does not depend on how fast the run goes. The run is on the sparse
// synthetic graph with a narrow encoder (hidden 16): the estimate's text
// does not depend on the epochs' cost. Run with
// `node --test frontend/e2e/estimate.test.mjs` after `make site`.
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

const EPOCHS = 40;
// The synthetic graphs have groundtruth: the engine selects on explanation
// precision, with experiment.PrecisionPatience (30) unless asked otherwise.
const PATIENCE = 30;

test("training shows epochs done, elapsed time and an upper-bound estimate of the time left", async () => {
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.evaluate(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-epochs", { timeout: WAIT });
  await page.fill("#hp-epochs", String(EPOCHS));
  // Narrow and with a coarse push for S̃: the estimate is of epochs, not
  // of the model's quality.
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  assert.equal(await page.isHidden("#progress-eta"), true, "no estimate before a run");

  await page.evaluate(() => {
    window.__shown = [];
    const text = document.getElementById("progress-text");
    const eta = document.getElementById("progress-eta");
    const bar = document.getElementById("progress");
    new MutationObserver(() => {
      window.__shown.push({ text: text.textContent, eta: eta.hidden ? null : eta.textContent, bar: bar.value });
    }).observe(text, { childList: true, characterData: true, subtree: true });
  });
  await page.click("#train");
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  const shown = await page.evaluate(() => window.__shown);

  // Where early stopping comes before the last epoch it leads; else the upper bound.
  const epochLine = new RegExp(`^epoch (\\d+) of at most ${EPOCHS} · loss [\\d.]+ · validation AUC [\\d.]+% \\(best [\\d.]+% at epoch (\\d+)\\) · (.+) elapsed · (early stopping in about .+ unless validation improves|at most about .+ left)$`);
  const reports = shown.filter((s) => epochLine.test(s.text));
  assert.ok(reports.length >= 2, `at least two epoch reports, got:\n${shown.map((s) => s.text).join("\n")}`);
  for (const r of reports) {
    const [, epoch, best] = epochLine.exec(r.text).map(Number);
    // The bar: epochs done of the most the run may take.
    assert.equal(r.bar, epoch / EPOCHS, r.text);
    const eta = new RegExp(
      `^Time left: (early stopping ends it at epoch (\\d+), in about .+, unless validation improves; )?at most about .+ left \\(median of the last (\\d+) epochs?, .+ each, × ${EPOCHS - epoch} epochs to go\\)\\. Engine memory [\\d.]+ (kB|MB)\\.$`,
    );
    const m = eta.exec(r.eta ?? "");
    assert.ok(m, `estimate at epoch ${epoch}: ${r.eta}`);
    // The median covers the epochs so far, ten at most.
    assert.equal(Number(m[3]), Math.min(epoch, 10), r.eta);
    const stop = best + PATIENCE;
    if (stop < EPOCHS) {
      assert.equal(Number(m[2]), stop, `early stopping at best ${best} + patience ${PATIENCE}: ${r.eta}`);
      assert.match(r.text, / · early stopping in about .+ unless validation improves$/, r.text);
    } else assert.equal(m[1], undefined, `no early stop before the last epoch: ${r.eta}`);
  }

  const done = await page.textContent("#progress-text");
  assert.match(done, /^Done: \d+ epochs in /);
  assert.equal(await page.isHidden("#progress-eta"), true, "the estimate goes when the run ends");
  assert.deepEqual(pageErrors, []);
});
