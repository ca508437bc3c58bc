// A graph opened from files when the browser's storage is full, in
// headless Chromium: the page says that the graph is not kept for the next
// visit and why, in one sentence (it once read "edges is not kept for the
// next visit: ." — Chromium's QuotaExceededError has an empty message). The
// origin's quota is set to one byte through the DevTools protocol. Run with
// `node --test frontend/e2e/storage.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "./server.mjs";
import { launch, appPage, WAIT } from "./browser.mjs";

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

test("a full storage says the graph is not kept, and why", async () => {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: server.origin, quotaSize: 1 });

  let edges = "source,target\n";
  for (let i = 0; i < 300; i++) edges += `${i},${(7 * i + 1) % 300}\n`;
  await page.setInputFiles("#file-input", { name: "edges.csv", mimeType: "text/csv", buffer: Buffer.from(edges) });
  await page.waitForFunction(() => /^edges: 300 nodes/.test(document.getElementById("graph-info").textContent), null, { timeout: WAIT });
  await page.waitForFunction(() => /kept/.test(document.getElementById("kept-text").textContent), null, { timeout: WAIT });
  assert.match(
    await page.textContent("#kept-text"),
    /^The graph edges is not kept for the next visit: the browser's storage is full \(QuotaExceededError(: [^)]+)?\)\.$/,
  );
  assert.equal(await page.isHidden("#forget-files"), true, "nothing kept, nothing to forget");
  assert.deepEqual(pageErrors, []);
});
