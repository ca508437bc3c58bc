// Accessibility in headless Chromium: axe-core (npm's, read from
// node_modules, so nothing is fetched) checks the WCAG 2 A and AA rules
// on the app in its main states (the demo graph, after a run trained in
// the tab, the insight panel's hard-negatives table, a pair explained,
// every step of the walk-through) and on the
// page `ilpgnn export` writes, in light and dark schemes, and finds
// nothing. The pair has common neighbours, whose small green tags are
// among what is checked. The exported page asks for no favicon.ico, and
// no request leaves the origin. Needs `make build`; run with
// `node --test frontend/e2e/a11y.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, recordCSPViolations, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

const bin = join(root, "build", "ilpgnn");
const AXE = readFileSync(join(root, "node_modules", "axe-core", "axe.min.js"), "utf8");
const PAIR = ["3", "612"];

let dir, site, appServer, cardServer, browser, page;
const requests = [];
const pageErrors = [];
const ilpgnn = (...args) => execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-a11y-"));
  site = join(dir, "site");
  const ckpt = join(dir, "model.ckpt");
  // A short run: what the page shows is checked, not the model.
  ilpgnn("train", "--data", "synth:medium", "--seeds", "0", "--epochs", "10", "--ppr-eps", QUICK_PPR_EPS, "--save", ckpt);
  ilpgnn("export", "--checkpoint", ckpt, "--data", "synth:medium", "--out", site, "--pairs", PAIR.join(","));
  appServer = await serve();
  cardServer = await serve({ site });
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
  await appServer?.close();
  await cardServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const app = (fn, arg) => page.evaluate(fn, arg);

/**
 * The WCAG 2 A/AA violations axe finds on the page as it is now, one line
 * each with the elements it names. axe is evaluated through the DevTools
 * protocol, which the page's policy does not govern: a script tag of it
 * would be an inline script, which the policy refuses.
 */
async function violations() {
  if (!(await app(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  const found = await app(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    if (r.passes.length === 0) return ["axe checked nothing"];
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${n.target.join(" ")}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, " ")}]` : ""}`).join("; ")}`);
  });
  return found;
}

async function assertNone(what) {
  assert.deepEqual(await violations(), [], `${what}: axe's WCAG 2 A/AA violations`);
}

test("the app: the demo graph, a run trained in the tab, its hard negatives ranked, a pair explained and each step of the walk-through", async () => {
  await page.goto(`${appServer.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await assertNone("the demo graph");

  await app(() => (document.getElementById("hyper").open = true));
  await page.fill("#hp-epochs", "5");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  await assertNone("after training");

  await app(() => (document.getElementById("insight-panel").open = true));
  await page.click("#insight-ranking");
  await page.waitForSelector("#ranking-summary", { timeout: LONG_WAIT });
  await assertNone("the insight panel's hard negatives (HeaRT)");
  await app(() => (document.getElementById("insight-panel").open = false));

  await page.fill("#pair-i", PAIR[0]);
  await page.fill("#pair-j", PAIR[1]);
  await page.press("#pair-j", "Enter");
  await page.waitForSelector("#pair-prob");
  await page.waitForFunction((t) => document.getElementById("explain-heading")?.textContent === t, `Why ${PAIR[0]} – ${PAIR[1]}?`);
  // The pair has common neighbours: their small tags are among what is checked.
  assert.ok((await page.locator(".tag.common").count()) > 0, "the explanation tags a common neighbour");
  await assertNone("a pair explained");

  await page.click("#walk-open");
  for (let n = 1; n <= 7; n++) {
    if (n > 1) await page.click("#walk-next");
    await page.waitForFunction((n) => document.getElementById("walk-title")?.dataset.step === String(n), n);
    await assertNone(`the walk-through's step ${n}`);
  }
});

test("the page `ilpgnn export` writes, light and dark, its walk-through open", async () => {
  await page.goto(`${cardServer.origin}/`);
  await page.waitForFunction(() => document.querySelector("div.ilpgnn-card [data-key=prob]") !== null);
  assert.ok((await page.locator("span.ilpgnn-card-common").count()) > 0, "the card tags a common neighbour");
  await assertNone("the exported page");
  await page.locator("details.ilpgnn-card-walk summary").first().click();
  await assertNone("the exported page, its walk-through open");
  await page.emulateMedia({ colorScheme: "dark" });
  await assertNone("the exported page, dark");
  await page.emulateMedia({ colorScheme: "light" });
});

test("no request for favicon.ico, none left the origin, the policy blocked nothing, no error", async () => {
  assert.deepEqual(requests.filter((u) => new URL(u).pathname.endsWith("/favicon.ico")), []);
  const ours = (u) => u.startsWith(appServer.origin + "/") || u.startsWith(cardServer.origin + "/");
  assert.deepEqual(requests.filter((u) => !ours(u)), []);
  assert.deepEqual(await app(() => window.__csp), []);
  assert.deepEqual(pageErrors, []);
});
