// Launches Debian's Chromium headless through playwright-core, with the
// flags that keep it off the network (this machine has none, and the app
// must not use one anyway), in a fresh profile.
import { chromium } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

// How long the browser tests wait. The tests assert behaviour, not speed,
// and must pass on a machine five times slower than a quiet 2-core one:
// each limit is well over five times what the step it bounds takes there.
// WAIT bounds every step that takes under a minute on that machine (page
// loads, the first graph, a layout, a click's answer) and is Playwright's
// default for every action, wait and navigation; LONG_WAIT bounds a
// training run or the fidelity curve, which take a few minutes at most.
const MINUTE = 60_000;
export const WAIT = 5 * MINUTE;
export const LONG_WAIT = 20 * MINUTE;

// The S̃ push tolerance (the ppr-eps hyperparameter) of the tests whose
// ILP-GNN runs are not about S̃: preparing the 1000-node demo graph's S̃
// at the default 5e-5 takes about 3 s in Chromium, for every run and
// every restore of its checkpoint, and 0.4 s at this tolerance
// (docs/test-time.md). The runs that must use the defaults leave it.
export const QUICK_PPR_EPS = "0.001";

export async function launch() {
  const profile = await mkdtemp(join(tmpdir(), "ilpgnn-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.setDefaultTimeout(WAIT);
  context.setDefaultNavigationTimeout(WAIT);
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The context's first page at the size the app tests use, pushing every
 * uncaught page error onto errors.
 */
export async function appPage(context, errors) {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 1280, height: 800 });
  page.on("pageerror", (e) => errors.push(String(e)));
  return page;
}

/** Opens the harness page and waits for the engine to be ready. */
export async function openHarness(context, origin) {
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${origin}/e2e/harness.html`);
  await page.waitForFunction(() => window.harness !== undefined);
  const ready = await page.evaluate(() => window.harness.ready());
  return { page, errors, ready };
}

/** Clicks node v of the app's graph canvas at its drawn position, as a user would (the view brings it into sight first). */
export async function clickNode(page, v) {
  await page.locator("#graph").scrollIntoViewIfNeeded();
  const [x, y] = await page.evaluate((v) => {
    const a = window.ilpgnnExplorer;
    a.view.focus([v], { zoom: true });
    const [sx, sy] = a.view.screenOf(v);
    const r = document.getElementById("graph").getBoundingClientRect();
    return [r.left + sx, r.top + sy];
  }, v);
  await page.waitForTimeout(50);
  await page.mouse.click(x, y);
}

/**
 * Records every Content-Security-Policy violation of the context's pages
 * in window.__csp ("directive blocked-URI"), from the first moment of
 * every load.
 */
export function recordCSPViolations(context) {
  return context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/**
 * Records what page's loads cost on the wire, with its HTTP cache off: one
 * entry per finished response, { url, status, bytes }, where bytes is
 * Chromium's encodedDataLength (headers and body as received, before any
 * Content-Encoding is decoded). Resolves to the live array; its settled()
 * resolves once every request started so far has finished or failed.
 */
export async function recordTransfers(page) {
  const cdp = await page.context().newCDPSession(page);
  const responses = new Map();
  const pending = new Set();
  let wake = () => {};
  const out = [];
  const done = (id) => {
    pending.delete(id);
    if (pending.size === 0) wake();
  };
  cdp.on("Network.requestWillBeSent", (e) => pending.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => responses.set(e.requestId, e.response));
  cdp.on("Network.loadingFinished", (e) => {
    const r = responses.get(e.requestId);
    out.push({ url: r?.url ?? "", status: r?.status ?? 0, bytes: e.encodedDataLength });
    done(e.requestId);
  });
  cdp.on("Network.loadingFailed", (e) => done(e.requestId));
  out.settled = () => (pending.size === 0 ? Promise.resolve() : new Promise((ok) => { wake = ok; }));
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  return out;
}
