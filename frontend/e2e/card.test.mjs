// The embeddable explanation card (wasm/card) in headless Chromium, as a
// tutorial author would use it: `ilpgnn export` writes a Cora folder, a
// plain static server serves it, and a page with its own content embeds
// two cards. Every number a card shows must equal `ilpgnn explain --json`
// for the same checkpoint and pair, bit for bit; another pair and a node's
// suggestions are picked from the keyboard; damaged, foreign, newer and
// missing bundles say so inside their card. No request leaves the origin,
// and no error reaches the console. Needs `make build` (the binary with
// the card embedded); run with `node --test frontend/e2e/card.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, recordCSPViolations } from "./browser.mjs";

const bin = join(root, "build", "ilpgnn");
const cora = resolve(root, "..", "shared", "datasets", "cora");
const artifacts = join(root, "build", "e2e-artifacts");
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
const PAIRS = [["35", "1033"], ["1033", "103482"]];

let dir, site, ckpt, server, browser, page;
const requests = [];
const consoleErrors = [];
const pageErrors = [];

const ilpgnn = (...args) => execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });
const explainJSON = (a, b) => JSON.parse(ilpgnn("explain", "--checkpoint", ckpt, "--data", cora, "--pair", `${a},${b}`, "--json"));

function hostPage(title, cards) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${title}</title></head>
<body>
<h1 id="own-heading">A tutorial on citation links</h1>
<p id="own-text">This page has its own content; the cards must leave it alone.</p>
${cards}
<p id="own-footer">The end of the page's own content.</p>
<script src="ilpgnn-card.js"></script>
</body></html>
`;
}

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-card-"));
  site = join(dir, "site");
  ckpt = join(dir, "cora.ckpt");
  // A short run: the card must equal the command line whatever the weights.
  ilpgnn("train", "--data", cora, "--seeds", "0", "--epochs", "10", "--save", ckpt);
  ilpgnn("export", "--checkpoint", ckpt, "--data", cora, "--out", site, "--pairs", PAIRS.map((p) => p.join(",")).join(";"));
  writeFileSync(join(site, "host.html"), hostPage("Two cards", PAIRS.map(([a, b]) =>
    `<div class="ilpgnn-card" data-src="cora/" data-pair="${a},${b}"></div>`).join("\n<p>Text between the cards.</p>\n")));

  // Bad bundles, each in its own folder.
  const good = readFileSync(join(site, "cora", "card.bundle"));
  const put = (name, bytes) => {
    mkdirSync(join(site, name), { recursive: true });
    writeFileSync(join(site, name, "card.bundle"), bytes);
  };
  const damaged = Buffer.from(good);
  damaged[damaged.length >> 1] ^= 0x10;
  put("damaged", damaged);
  put("foreign", readFileSync(join(site, "index.html")));
  const newer = Buffer.from(good);
  newer.writeUInt32LE(99, 8); // the version, after the 8-byte magic
  put("newer", newer);
  put("cut", good.subarray(0, good.length - 1000));
  writeFileSync(join(site, "bad.html"), hostPage("Bad bundles", ["missing", "damaged", "foreign", "newer", "cut"].map((name) =>
    `<div class="ilpgnn-card" id="card-${name}" data-src="${name}/" data-pair="35,1033"></div>`).join("\n")));

  server = await serve({ site });
  browser = await launch();
  browser.context.on("request", (r) => requests.push(r.url()));
  page = await appPage(browser.context, pageErrors);
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  await recordCSPViolations(browser.context);
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every number card k shows, by key, exactly as it carries it. */
function numbers(k) {
  return page.evaluate((k) => {
    const card = document.querySelectorAll("div.ilpgnn-card")[k];
    const out = {};
    for (const el of card.querySelectorAll("[data-key]")) out[el.dataset.key] = el.dataset.value;
    const walk = card.querySelector("details.ilpgnn-card-walk");
    const steps = [...(walk?.querySelectorAll("li") ?? [])].map((li) => ({ key: li.dataset.step, title: li.querySelector(".ilpgnn-card-step-title")?.textContent, text: li.querySelector(".ilpgnn-card-step-text")?.textContent.trim() }));
    return { values: out, reading: card.querySelector(".ilpgnn-card-reading")?.textContent, removal: card.querySelector(".ilpgnn-card-removal")?.textContent, steps, walkOpen: walk?.open };
  }, k);
}

/** The numbers the command line's JSON says a card must show. */
function expected(e) {
  const out = { prob: e.prob, prob_random: e.prob_random, prob_removed: e.prob_removed, prob_random_removed: e.prob_random_removed };
  for (const [key, side] of [["i", e.i], ["j", e.j]]) {
    for (const n of side.neighbors.filter((n) => n.selected)) {
      out[`${key}.${n.id}.weight`] = n.weight;
      out[`${key}.${n.id}.attribution`] = n.attribution;
      out[`${key}.${n.id}.prob_without`] = n.prob_without;
    }
  }
  return out;
}

function assertSame(card, e, what) {
  const want = expected(e);
  assert.deepEqual(Object.keys(card.values).sort(), Object.keys(want).sort(), `${what}: the card shows other numbers`);
  for (const [key, v] of Object.entries(want)) {
    // Both sides are the shortest decimals of float64s: equal as numbers
    // means equal bit for bit.
    assert.equal(Number(card.values[key]), v, `${what}: ${key}`);
  }
  assert.equal(card.reading, e.reading, `${what}: reading`);
  assert.equal(card.removal, e.removal, `${what}: removal`);
  // The walk-through: the steps of explain --json, word for word.
  assert.equal(e.steps.length, 7);
  assert.deepEqual(card.steps, e.steps, `${what}: the walk-through's steps`);
}

/** Every label and disc of the page's drawings that reaches outside its drawing's box, where it would be clipped. */
const outsideTheBox = () => page.evaluate(() => [...document.querySelectorAll("svg.ilpgnn-card-drawing")].flatMap((svg) => {
  const v = svg.viewBox.baseVal;
  return [...svg.querySelectorAll("text, circle")].flatMap((el) => {
    const b = el.getBBox();
    const inside = b.width > 0 && b.x >= v.x && b.y >= v.y && b.x + b.width <= v.x + v.width && b.y + b.height <= v.y + v.height;
    return inside ? [] : [`${el.tagName} ${el.textContent || el.getAttribute("cx")} at ${b.x},${b.y} ${b.width}x${b.height} in ${v.width}x${v.height}`];
  });
}));

const waitCards = (n) => page.waitForFunction((n) =>
  [...document.querySelectorAll("div.ilpgnn-card")].filter((c) => c.querySelector("[data-key=prob]")).length >= n, n);

test("two cards on a page of its own equal `ilpgnn explain --json`", async () => {
  await page.goto(`${server.origin}/host.html`);
  await waitCards(2);
  for (const [k, [a, b]] of PAIRS.entries()) {
    assertSame(await numbers(k), explainJSON(a, b), `card ${k} (${a}, ${b})`);
  }
  // The walk-through is offered collapsed; opened, it stays open for the card's next pair.
  assert.equal((await numbers(0)).walkOpen, false, "the walk-through starts collapsed");
  await page.locator("div.ilpgnn-card").nth(1).locator("details.ilpgnn-card-walk summary").click();
  assert.equal((await numbers(1)).walkOpen, true);
  await page.locator("div.ilpgnn-card").nth(1).locator("details.ilpgnn-card-walk").screenshot({ path: join(artifacts, "card-walkthrough.png") });
  // The page's own content is untouched, and in its order around the cards.
  assert.equal(await page.textContent("#own-heading"), "A tutorial on citation links");
  const order = await page.evaluate(() => [...document.body.children].map((e) => e.id || e.className || e.tagName));
  assert.deepEqual(order.slice(0, 2), ["own-heading", "own-text"]);
  assert.ok(order.includes("own-footer"));
  // One engine and one bundle for both cards.
  const fetched = (path) => server.log.filter((r) => r.path === path).length;
  assert.equal(fetched("/ilpgnn-card.wasm"), 1);
  assert.equal(fetched("/cora/card.bundle"), 1);
  // A drawing with both ends and every selected neighbour.
  const drawn = await page.evaluate(() => [...document.querySelectorAll("div.ilpgnn-card")[0].querySelectorAll("svg g text")].map((t) => t.textContent));
  assert.ok(drawn.includes("35") && drawn.includes("1033"), drawn.join(","));
  assert.deepEqual(await outsideTheBox(), [], "drawn outside its drawing's box");
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  await page.screenshot({ path: join(artifacts, "card-light.png"), fullPage: true });
});

test("another pair and a node's suggestions, from the keyboard", async () => {
  const card = page.locator("div.ilpgnn-card").nth(1);
  const inputs = card.locator("input");
  await inputs.nth(0).focus();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("35");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("103482");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("div.ilpgnn-card")[1].getAttribute("data-pair") === "35,103482");
  assertSame(await numbers(1), explainJSON("35", "103482"), "typed pair");
  assert.equal((await numbers(1)).walkOpen, true, "the opened walk-through stays open for the next pair");

  // A mistyped id is said in the card; the explanation shown stays.
  await inputs.nth(1).fill("no-such-node");
  await inputs.nth(1).press("Enter");
  await card.locator(".ilpgnn-card-error:not([hidden])").waitFor();
  assert.equal(await card.locator(".ilpgnn-card-error").textContent(), `No node "no-such-node" in cora`);
  assertSame(await numbers(1), explainJSON("35", "103482"), "after a mistake");

  // Suggestions: Tab from the second input to Explain, then to Suggest.
  await inputs.nth(1).focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const buttons = card.locator(".ilpgnn-card-suggest button");
  await buttons.first().waitFor();
  const want = JSON.parse(ilpgnn("suggest", "--checkpoint", ckpt, "--data", cora, "--node", "35", "--top", "5", "--json"));
  const shown = await buttons.allTextContents();
  assert.deepEqual(shown.map((t) => t.split(" · ")[0]), want.map((s) => s.id));
  await buttons.nth(0).focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction((id) => document.querySelectorAll("div.ilpgnn-card")[1].getAttribute("data-pair") === `35,${id}`, want[0].id);
  assertSame(await numbers(1), explainJSON("35", want[0].id), "suggested pair");
});

test("a card the page adds later renders on ilpgnnCard.scan()", async () => {
  await page.evaluate(() => {
    const div = document.createElement("div");
    div.className = "ilpgnn-card";
    div.dataset.src = "cora/";
    div.dataset.pair = "35,82920";
    document.body.append(div);
    window.ilpgnnCard.scan();
  });
  await waitCards(3);
  assertSame(await numbers(2), explainJSON("35", "82920"), "added card (35, 82920)");
  // A pair of many common neighbours: they stack in rows above and below
  // the pair, and the drawing grows to hold them all.
  const commons = await page.evaluate(() => document.querySelectorAll("div.ilpgnn-card")[2].querySelectorAll("svg g.ilpgnn-card-common").length);
  assert.ok(commons >= 4, `${commons} common neighbours drawn`);
  assert.deepEqual(await outsideTheBox(), [], "drawn outside its drawing's box");
  await page.evaluate(() => document.querySelectorAll("div.ilpgnn-card")[2].remove());
});

test("the card follows a dark colour scheme", async () => {
  const bg = () => page.evaluate(() => getComputedStyle(document.querySelector("div.ilpgnn-card")).backgroundColor);
  await page.emulateMedia({ colorScheme: "light" });
  const light = await bg();
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await bg();
  assert.equal(light, "rgb(255, 255, 255)");
  assert.notEqual(dark, light);
  await page.screenshot({ path: join(artifacts, "card-dark.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
});

test("missing, damaged, foreign, newer and cut bundles say so inside their card", async () => {
  const before = consoleErrors.length;
  await page.goto(`${server.origin}/bad.html`);
  const said = {};
  for (const name of ["missing", "damaged", "foreign", "newer", "cut"]) {
    const box = page.locator(`#card-${name} .ilpgnn-card-error`);
    await box.waitFor();
    said[name] = await box.textContent();
  }
  assert.match(said.missing, /^No bundle at .*\/missing\/card\.bundle \(HTTP 404\)/);
  assert.match(said.damaged, /^The bundle at .* cannot be read: damaged: the checksum does not match/);
  // A message that opens with a URL keeps its case ("http://", not "Http://").
  assert.ok(said.foreign.startsWith(`${server.origin}/foreign/card.bundle is not an explanation bundle`), said.foreign);
  assert.match(said.newer, /made by a newer ILP-GNN \(format 99/);
  assert.match(said.cut, /damaged: .*cut short in transfer/);
  // The only console errors are the browser's own line for the 404.
  assert.deepEqual(consoleErrors.slice(before).filter((t) => !/404/.test(t)), []);
  await page.screenshot({ path: join(artifacts, "card-bad.png"), fullPage: true });
});

test("the card's WebAssembly stays within its budget: 700 KB with brotli", () => {
  const sizes = JSON.parse(readFileSync(join(root, "build", "card-sizes.json"), "utf8"));
  const wasm = sizes.find((r) => r.file === "ilpgnn-card.wasm");
  assert.ok(wasm.brotli <= 700_000, `ilpgnn-card.wasm is ${wasm.brotli} bytes with brotli, over 700,000 (wasm/card/README.md says what cut it before)`);
});

test("no request left the origin, no error, no policy violation", async () => {
  const origin = server.origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin + "/")), []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors.filter((t) => !/404/.test(t)), []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
});
