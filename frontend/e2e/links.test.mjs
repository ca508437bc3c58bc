// Links that must land (issue 49), in headless Chromium, each test in a
// fresh browser profile. A pair of ids with commas (and every hostile id
// of core/bundle/site/testdata/hostile-ids.json) travels in a link and
// survives a reload, with its model restored and the ids quoted in the
// sentences; a walk-through step linked before any model says what it
// waits for and opens once a model is trained, or restored on a reload; a
// link to a graph this browser does not keep names it, shows nothing else
// unasked, and lands once its files are opened; several opened graphs are
// kept, listed with Remove, and the oldest beyond the budget is dropped
// with a word. Run with `node --test frontend/e2e/links.test.mjs` after
// `make site`.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const HOSTILE = JSON.parse(readFileSync(join(root, "core", "bundle", "site", "testdata", "hostile-ids.json"), "utf8"));

let server, browser, page, requests;
const pageErrors = [];

/** A fresh profile and server for one test. */
async function fresh() {
  server = await serve();
  browser = await launch();
  requests = [];
  browser.context.on("request", (r) => requests.push(r.url()));
  page = await appPage(browser.context, pageErrors);
}

afterEach(async () => {
  const foreign = (requests ?? []).filter((u) => !u.startsWith(server.origin) && !u.startsWith("blob:") && !u.startsWith("data:"));
  await browser?.close();
  await server?.close();
  assert.deepEqual(foreign, [], "no request left the origin");
  assert.deepEqual(pageErrors.splice(0), []);
});

const app = (fn, arg) => page.evaluate(fn, arg);

/** A pair's link as the app writes it: each id percent-encoded (':' kept), a bare comma between. */
const pairParam = (a, b) => [a, b].map((id) => encodeURIComponent(id).replace(/%3A/gi, ":")).join(",");

/** A networkx node-link JSON graph: a ring of the ids with chords, so every node has neighbours. */
function ringJSON(ids) {
  const links = [];
  for (let k = 0; k < ids.length; k++) {
    links.push({ source: ids[k], target: ids[(k + 1) % ids.length] });
    if (k % 3 === 0) links.push({ source: ids[k], target: ids[(k + 5) % ids.length] });
  }
  return Buffer.from(JSON.stringify({ directed: false, multigraph: false, graph: {}, nodes: ids.map((id) => ({ id })), links }));
}

async function openJSON(name, ids) {
  await page.setInputFiles("#file-input", { name: `${name}.json`, mimeType: "application/json", buffer: ringJSON(ids) });
  await page.waitForFunction((n) => window.ilpgnnExplorer?.dataKey === `file:${n}` && window.ilpgnnExplorer.graph !== null, name, { timeout: WAIT });
  await page.waitForFunction((n) => document.getElementById("kept-text").textContent.includes(`The graph ${n} is kept`), name, { timeout: WAIT });
}

/** A short ILP-GNN run: the tests are about links, not about the model. */
async function trainShort() {
  await page.locator("#train-panel").scrollIntoViewIfNeeded();
  await app(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-epochs");
  await page.fill("#hp-epochs", "2");
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForFunction(() => /Trained ILP-GNN/.test(document.getElementById("train-result").textContent), null, { timeout: LONG_WAIT });
}

/** The ids of the selected pair, or null. */
const selectedPair = () =>
  app(() => {
    const a = window.ilpgnnExplorer;
    const s = a.selection;
    return s.kind === "pair" ? [a.graph.id(s.i), a.graph.id(s.j)] : null;
  });

test("ids with commas, and every hostile id, round-trip through a link and a reload; sentences quote them", async () => {
  await fresh();
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  const names = ["Valjean, Jean", "Javert, Inspector", "Brujon", "Gueulemer", "Claquesous, Thenardier", "Jondrette", ...HOSTILE];
  const ids = [...names, ...Array.from({ length: 40 - names.length }, (_, k) => `n${k}`)];
  await openJSON("lesmis", ids);
  await trainShort();

  // The pair: the app writes each comma of an id as %2C.
  await page.goto(`${server.origin}/#data=file:lesmis&pair=${pairParam("Valjean, Jean", "Javert, Inspector")}`);
  await page.waitForFunction(() => document.getElementById("reading")?.textContent.length > 0, null, { timeout: WAIT });
  assert.equal(await app(() => location.hash), "#data=file:lesmis&pair=Valjean%2C%20Jean,Javert%2C%20Inspector");
  assert.deepEqual(await selectedPair(), ["Valjean, Jean", "Javert, Inspector"]);
  const reading = await page.textContent("#reading");
  assert.ok(reading.includes("“Valjean, Jean”") && reading.includes("“Javert, Inspector”"), reading);
  assert.doesNotMatch(reading.replaceAll(/“[^”]*”/g, "X"), /Valjean|Javert/, `every mention is quoted: ${reading}`);

  // A reload reopens the kept graph, restores its model and explains the same pair.
  await page.reload();
  await page.waitForFunction(() => document.getElementById("reading")?.textContent.length > 0, null, { timeout: WAIT });
  assert.deepEqual(await selectedPair(), ["Valjean, Jean", "Javert, Inspector"]);
  assert.notEqual(await app(() => window.ilpgnnExplorer.model), null, "the model is restored, not only offered");
  assert.equal(await app(() => window.ilpgnnExplorer.metrics.trainRuns), 0);

  // Every hostile id, paired with the next, through the link and a reload.
  for (let k = 0; k < HOSTILE.length; k++) {
    const pair = [HOSTILE[k], HOSTILE[(k + 1) % HOSTILE.length]];
    const hash = `#data=file:lesmis&pair=${pairParam(...pair)}`;
    await page.goto(`${server.origin}/${hash}`);
    await page.waitForFunction((want) => {
      const a = window.ilpgnnExplorer;
      const s = a?.selection;
      return s?.kind === "pair" && a.graph.id(s.i) === want[0] && a.graph.id(s.j) === want[1];
    }, pair, { timeout: WAIT });
    assert.equal(await app(() => location.hash), hash, `the app writes the link back: ${JSON.stringify(pair)}`);
    await page.reload();
    await page.waitForFunction(() => document.getElementById("reading")?.textContent.length > 0, null, { timeout: WAIT });
    assert.deepEqual(await selectedPair(), pair, `after a reload: ${JSON.stringify(pair)}`);
    assert.equal(await app(() => location.hash), hash);
  }
});

test("a linked step before any model says what it waits for, and opens once a model is trained or restored", async () => {
  await fresh();
  await page.goto(`${server.origin}/#data=synth:sparse&seed=0&pair=3,40&step=4`);
  await page.waitForSelector("#walk-waiting", { timeout: WAIT });
  assert.equal(
    await page.textContent("#walk-waiting"),
    "Train a model (or restore a checkpoint) to see step 4 of 7 of how the model decided 3 – 40: this link opens it here once a model exists.",
  );
  assert.match(await app(() => location.hash), /&pair=3,40&step=4$/, "the URL keeps the step it waits for");

  await trainShort();
  await page.waitForFunction(() => document.getElementById("walk-title")?.dataset.step === "4", null, { timeout: WAIT });
  assert.match(await app(() => location.hash), /&pair=3,40&step=4$/);

  // The same link on a reload: the stored model is restored and the step opens.
  await page.reload();
  await page.waitForFunction(() => document.getElementById("walk-title")?.dataset.step === "4", null, { timeout: WAIT });
  assert.equal(await app(() => window.ilpgnnExplorer.metrics.trainRuns), 0);
  assert.equal(await page.$("#walk-waiting"), null);
});

test("a link to a graph this browser does not keep names it, shows nothing else unasked, and lands once its files open", async () => {
  await fresh();
  await page.goto(`${server.origin}/#data=file:gone&pair=${pairParam("a, b", "c")}`);
  await page.waitForSelector("#link-open-files", { timeout: WAIT });
  assert.equal(
    await page.textContent("#data-error"),
    "This link needs the graph gone, which this browser does not keep. It was opened from files, and nothing was uploaded, so the page cannot fetch it: open the same files to continue. Open its files… Show the demo graph instead",
  );
  assert.match(await page.textContent("#canvas-note"), /needs the graph gone/);
  // No graph comes in its place: the check runs after the engine is ready.
  await app(() => window.ilpgnnExplorer.engine.ready);
  assert.equal(await app(() => window.ilpgnnExplorer.graph), null);
  assert.equal(await page.isVisible("#link-open-files"), true);

  // Opening the files the link names lands on its pair.
  await page.setInputFiles("#file-input", { name: "gone.json", mimeType: "application/json", buffer: ringJSON(["a, b", "c", "d", "e", "f", "g"]) });
  await page.waitForFunction(() => window.ilpgnnExplorer.selection.kind === "pair", null, { timeout: WAIT });
  assert.deepEqual(await selectedPair(), ["a, b", "c"]);
  assert.equal(await app(() => location.hash), `#data=file:gone&pair=${pairParam("a, b", "c")}`);
});

test("several opened graphs are kept and listed with Remove; the oldest beyond the budget goes, with a word", async () => {
  await fresh();
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await openJSON("one", ["a", "b", "c", "d", "e"]);
  await openJSON("two", ["p", "q", "r", "s", "t"]);
  await page.waitForFunction(() => document.querySelectorAll("#kept-list li").length === 2, null, { timeout: WAIT });
  assert.deepEqual(await app(() => [...document.querySelectorAll("#kept-list li")].map((li) => li.dataset.key)), ["file:two", "file:one"]);
  assert.match(await page.textContent("#kept-graphs summary"), /^Graphs kept in this browser: 2 \([\d.]+ k?B of 128 MB\)$/);
  assert.match(await page.textContent("#kept-graphs"), /up to 128 MB in all/);
  // The other one is on offer in the picker, and reopens from it.
  await page.selectOption("#preset", "kept:file:one");
  await page.waitForFunction(() => window.ilpgnnExplorer.dataKey === "file:one", null, { timeout: WAIT });

  // Two older records that fill the budget between them (their sizes as
  // recorded; the files themselves are small): the next graph kept drops
  // the oldest, and says so.
  await app(
    () =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open("ilpgnn-files", 1);
        req.onsuccess = () => {
          const tx = req.result.transaction("graphs", "readwrite");
          const put = (dataKey, saved, bytes) => tx.objectStore("graphs").put({ dataKey, saved, bytes, files: { "x.csv": new Blob(["a,b\n"]) } }, dataKey);
          put("file:oldest", 1, 80e6);
          put("file:older", 2, 48e6);
          tx.oncomplete = () => (req.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
        req.onerror = () => reject(req.error);
      }),
  );
  await openJSON("three", ["u", "v", "w", "x", "y"]);
  const said = await page.textContent("#kept-text");
  assert.match(said, /^The graph three is kept in this browser \(never uploaded\), so a reload reopens it\. To stay within the 128 MB this page keeps, this browser no longer keeps (.+) \(the oldest(?: ones)?\): open (its|their) files again to reopen (it|them)\.$/);
  const gone = /no longer keeps (.+) \(the oldest/.exec(said)[1];
  assert.ok(gone.startsWith("oldest"), said);
  await page.waitForFunction(() => !document.querySelector('#kept-list li[data-key="file:oldest"]') && document.querySelector("#kept-list li") !== null, null, { timeout: WAIT });
  const left = await app(() => [...document.querySelectorAll("#kept-list li")].map((li) => li.dataset.key));
  assert.ok(!left.includes("file:oldest") && left.includes("file:three"), JSON.stringify(left));

  // Remove takes one off the list and out of the picker.
  await page.click("#kept-graphs summary");
  await page.click('#kept-list li[data-key="file:one"] button');
  await page.waitForFunction(() => document.querySelector('#kept-list li[data-key="file:one"]') === null, null, { timeout: WAIT });
  assert.equal(await app(() => document.querySelector('#preset option[value="kept:file:one"]')), null);
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#kept-list li") !== null, null, { timeout: WAIT });
  assert.ok(!(await app(() => [...document.querySelectorAll("#kept-list li")].map((li) => li.dataset.key))).includes("file:one"));
});
