// The larger shared datasets open in the app, in headless Chromium: Amazon
// Computers through the file input and Coauthor CS dropped on the page (its
// bytes fetched from the test server's /data/), each summarised with the
// sizes their sources publish (gnn-benchmark: Computers 13,752 nodes and
// 245,861 undirected edges, 767 features; Coauthor CS 18,333 nodes, 163,788
// directed = 81,894 undirected edges, 6,805 features); Coauthor CS then
// trains an epoch (a narrow encoder and a looser PPR tolerance, which make
// the run some six times shorter: the test is about the graph, not the
// model). Run with `node --test frontend/e2e/datasets.test.mjs`
// after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const datasets = resolve(root, "..", "shared", "datasets");

let server, browser, page;
const pageErrors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until the app shows the graph of dataKey, with no error (a loader's note may show); returns its summary line. */
async function loaded(dataKey) {
  await page.waitForFunction(
    (key) => {
      const shown = document.getElementById("data-error");
      return window.ilpgnnExplorer.dataKey === key && !(shown.checkVisibility() && shown.dataset.kind === "error");
    },
    dataKey,
    { timeout: WAIT },
  );
  return page.textContent("#graph-info");
}

test("Amazon Computers opens through the file input", async () => {
  await page.setInputFiles("#file-input", join(datasets, "amazon_computers", "amazon_electronics_computers.npz"));
  const info = await loaded("file:amazon_electronics_computers");
  assert.match(info, /^amazon_electronics_computers: 13,752 nodes, 245,861 edges · 767 features · /);
  assert.equal(await page.evaluate(() => location.hash), "#data=file:amazon_electronics_computers");
});

test("Coauthor CS opens when dropped on the page and trains an epoch", async () => {
  await page.evaluate(async () => {
    const blob = await (await fetch("/data/coauthor_cs/ms_academic_cs.npz")).blob();
    const dt = new DataTransfer();
    dt.items.add(new File([blob], "ms_academic_cs.npz"));
    window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const info = await loaded("file:ms_academic_cs");
  assert.match(info, /^ms_academic_cs: 18,333 nodes, 81,894 edges · 6805 features · /);

  await page.evaluate(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-epochs");
  await page.fill("#hp-epochs", "1");
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForFunction(() => document.querySelector("#train-result h3, #train-error") !== null && !window.ilpgnnExplorer.training, null, { timeout: LONG_WAIT, polling: 500 });
  assert.equal(await page.textContent("#train-result h3"), "Trained ILP-GNN", await page.textContent("#train-result"));
  assert.match(await page.textContent("#progress-text"), /^Done: 1 epochs in /);
  // No groundtruth to keep the weights by: the result says what AUC costs.
  assert.match(await page.textContent("#train-result"), /weights kept onvalidation AUC/);
  assert.match(await page.textContent("#selection-note"), /^Weights kept on validation AUC: this graph has no groundtruth explanations/);
  assert.deepEqual(pageErrors, []);
});
