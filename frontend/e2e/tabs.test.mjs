// Two tabs of the app in one browser profile share one checkpoint store
// (IndexedDB "ilpgnn"). In headless Chromium on the sparse synthetic graph:
// both tabs train and keep a model at the same time, both reload, and each
// lists both models and restores the other's; keeping a model asks the
// browser for persistent storage once and the storage line says what it
// answered; then a newer release's open of the database at a higher
// version (done here from one tab's page) completes instead of being
// blocked by the tabs' connections, and both tabs say they must be
// reloaded. Headless Chromium refuses persistence by default; a second
// test grants it (in a profile of its own) and checks the other wording.
// Run with `node --test frontend/e2e/tabs.test.mjs` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

// The engine's database and its version (store.Schema, wasm/PROTOCOL.md).
const DB = "ilpgnn";
const VERSION = 1;

let server, browser, a, b;
const pageErrors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  // Every call of navigator.storage.persist(), and its answer, in
  // window.__persist of each page: the test checks that the page asked.
  await browser.context.addInitScript(() => {
    window.__persist = [];
    const proto = globalThis.StorageManager?.prototype;
    if (!proto?.persist) return;
    const persist = proto.persist;
    proto.persist = async function () {
      const call = { answer: null };
      window.__persist.push(call);
      call.answer = await persist.call(this);
      return call.answer;
    };
  });
  a = await appPage(browser.context, pageErrors);
  b = await browser.context.newPage();
  await b.setViewportSize({ width: 1280, height: 800 });
  b.on("pageerror", (e) => pageErrors.push(String(e)));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const URL_HASH = "#data=synth:sparse&seed=0";

async function open(page) {
  await page.goto(`${server.origin}/${URL_HASH}`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
}

async function setHyper(page, name, value) {
  await page.evaluate(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector(`#hp-${name}`);
  await page.fill(`#hp-${name}`, String(value));
}

/** Sets up a short ILP-GNN run with seed (a narrow encoder, a coarse S̃ push) and starts it. */
async function startRun(page, seed) {
  await page.locator("#train-panel").scrollIntoViewIfNeeded();
  await page.selectOption("#model", "ilpgnn");
  await page.fill("#train-seed", String(seed));
  await setHyper(page, "epochs", 3);
  await setHyper(page, "patience", 3);
  await setHyper(page, "hidden", 16);
  await setHyper(page, "ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
}

async function finished(page) {
  await page.waitForFunction(() => /^Done: 3 epochs/.test(document.getElementById("progress-text").textContent), null, { timeout: LONG_WAIT });
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  assert.match(await page.textContent("#train-result"), /saved in this browser/);
  return page.evaluate(() => window.ilpgnnExplorer.model.info.key);
}

/** The keys of the checkpoint list once it has n rows. */
async function listedKeys(page, n) {
  const panel = page.locator("#checkpoints-panel");
  if (!(await panel.evaluate((d) => d.open))) await page.click("#checkpoints-panel > summary");
  await page.waitForFunction((n) => document.querySelectorAll("#checkpoint-list tr[data-key]").length === n, n, { timeout: WAIT });
  return page.evaluate(() => [...document.querySelectorAll("#checkpoint-list tr[data-key]")].map((tr) => tr.dataset.key).sort());
}

async function restore(page, key) {
  await page.click(`#checkpoint-list tr[data-key="${key}"] >> text=Restore`);
  await page.waitForFunction((key) => window.ilpgnnExplorer.model?.info.key === key, key, { timeout: LONG_WAIT });
}

test("two tabs keep their models side by side, and a newer tab's upgrade is not blocked", async (t) => {
  await open(a);
  await open(b);

  // 1. Both tabs train at the same time; each keeps its model.
  await startRun(a, 1);
  await startRun(b, 2);
  const [keyA, keyB] = await Promise.all([finished(a), finished(b)]);
  assert.notEqual(keyA, keyB);

  // 2. Keeping a model asked the browser for persistent storage (once per
  // tab at most, and not at all where the other tab's request was granted
  // already), and the storage line says what the browser answers.
  for (const page of [a, b]) {
    await page.waitForFunction(() => document.getElementById("storage-status").dataset.persistenceAsked === "true", null, { timeout: WAIT });
  }
  const calls = await Promise.all([a, b].map((p) => p.evaluate(() => window.__persist.length)));
  assert.ok(calls[0] + calls[1] >= 1, `persist() calls: ${calls}`);
  for (const [k, page] of [a, b].entries()) {
    assert.ok(calls[k] <= 1, `tab ${k} asked ${calls[k]} times`);
    const { shown, text, persisted, asked } = await page.evaluate(async () => ({
      shown: document.getElementById("storage-status").dataset.persistence,
      text: document.getElementById("storage-status").textContent,
      persisted: await navigator.storage.persisted(),
      asked: window.__persist.map((c) => c.answer),
    }));
    assert.equal(shown, persisted ? "persistent" : "best-effort", `tab ${k}: shows ${shown}, persisted() ${persisted}`);
    assert.match(text, persisted ? /kept in this browser, persistent/i : /kept in this browser; the browser may evict them when space runs low/i);
    if (!persisted) assert.deepEqual(asked, [false], `tab ${k} was refused, so it must have asked`);
    t.diagnostic(`tab ${k}: persist() answers ${JSON.stringify(asked)}, persisted() ${persisted}`);
  }

  // 3. Both reload: each lists both models and restores the other tab's.
  await Promise.all([a.reload(), b.reload()]);
  for (const page of [a, b]) {
    await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
    assert.deepEqual(await listedKeys(page, 2), [keyA, keyB].sort());
  }
  await restore(a, keyB);
  await restore(b, keyA);

  // 4. A newer release opens the database at a higher version while both
  // tabs hold it open: they let go (so the open completes, never blocked)
  // and say that the app must be reloaded.
  const upgrade = await b.evaluate(
    ({ name, version }) =>
      new Promise((resolve) => {
        let blocked = 0;
        const req = indexedDB.open(name, version);
        req.onblocked = () => blocked++;
        req.onsuccess = () => {
          const db = req.result;
          const out = { version: db.version, stores: [...db.objectStoreNames].sort(), blocked };
          db.close();
          resolve(out);
        };
        req.onerror = () => resolve({ error: String(req.error), blocked });
      }),
    { name: DB, version: VERSION + 1 },
  );
  assert.deepEqual(upgrade, { version: VERSION + 1, stores: ["meta", "weights"], blocked: 0 });
  for (const page of [a, b]) {
    await page.waitForFunction(() => /updated in another tab: reload to keep working/.test(document.getElementById("storage-status").textContent), null, { timeout: WAIT });
    assert.match(await page.textContent("#status"), /^This app was updated in another tab: reload to keep working\./);
    // The store answers at once, with the reason, instead of hanging.
    await page.evaluate(() => window.ilpgnnExplorer.checkpoints.refresh());
    assert.match(await page.textContent("#checkpoint-list"), /updated in another tab: reload to keep working/);
    // The model restored before stays usable.
    assert.notEqual(await page.evaluate(() => window.ilpgnnExplorer.model?.info.key ?? null), null);
  }

  // 5. A tab of this release reloaded on the newer database says why it
  // keeps checkpoints for the session only, and works on.
  await a.reload();
  await a.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  assert.match(await a.textContent("#storage-status"), /^Checkpoints are kept for this session only: .*newer release/);
  assert.deepEqual(pageErrors, []);
});

// The other answer: with the durable-storage permission granted (as a
// browser may grant it to a site the user engages with), the storage line
// says the models are kept persistently, and the page asks no more than once.
test("persistent storage is said in the storage line", async (t) => {
  const granted = await launch();
  try {
    await granted.context.addInitScript(() => {
      window.__persist = [];
      const proto = globalThis.StorageManager?.prototype;
      if (!proto?.persist) return;
      const persist = proto.persist;
      proto.persist = async function () {
        const answer = await persist.call(this);
        window.__persist.push(answer);
        return answer;
      };
    });
    const page = await appPage(granted.context, pageErrors);
    const cdp = await granted.context.newCDPSession(page);
    await cdp.send("Browser.grantPermissions", { origin: server.origin, permissions: ["durableStorage"] });
    await open(page);
    await startRun(page, 3);
    await finished(page);
    await page.waitForFunction(() => document.getElementById("storage-status").dataset.persistenceAsked === "true", null, { timeout: WAIT });
    const { asked, persisted, shown, text } = await page.evaluate(async () => ({
      asked: window.__persist,
      persisted: await navigator.storage.persisted(),
      shown: document.getElementById("storage-status").dataset.persistence,
      text: document.getElementById("storage-status").textContent,
    }));
    t.diagnostic(`persist() answers ${JSON.stringify(asked)}, persisted() ${persisted}`);
    // Granted: persistent, whether Chromium says so before the page asks
    // (then the page does not ask) or in answer to its request.
    assert.equal(persisted, true);
    assert.equal(shown, "persistent");
    assert.match(text, /Kept in this browser, persistent/);
    assert.ok(asked.length === 0 || (asked.length === 1 && asked[0] === true), `asked ${JSON.stringify(asked)}`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await granted.close();
  }
});
