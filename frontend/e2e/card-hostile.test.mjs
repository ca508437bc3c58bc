// The explanation card under hostile node names, in headless Chromium: a
// graph whose ids are event handlers, markup that closes the page's
// <code>, scripts, commas, quotes, ampersands, line breaks and control
// characters is trained and exported with `ilpgnn export`. The exported
// page, with every card rendered, must hold no element with an on*
// attribute and no script but the card's, open no dialog, and show each
// pair exactly; a pair with commas and quotes can be typed into a card.
// The embed snippet the page shows, pasted as HTML into a page without a
// security policy (where an injected handler would run), must give the
// same. Needs `make build`; run with
// `node --test frontend/e2e/card-hostile.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, appPage, recordCSPViolations } from "./browser.mjs";

const bin = join(root, "build", "ilpgnn");

// The names, shared with core/cmd/ilpgnn's TestExportHostileNames.
const HOSTILE = JSON.parse(readFileSync(join(root, "core", "bundle", "site", "testdata", "hostile-ids.json"), "utf8"));
const N = 40;
const NAMES = [...HOSTILE, ...Array.from({ length: N - HOSTILE.length }, (_, i) => `n${HOSTILE.length + i}`)];

// The page's pairs, as --pairs takes them (an id may hold commas: export
// cuts at the one comma that leaves two node ids).
const PAIRS = [
  [HOSTILE[0], HOSTILE[1]],
  ["hub,1", `a,b "c"`],
  [HOSTILE[2], HOSTILE[3]],
  ["line\nbreak", "tab\there \x01\x1f\x7f"],
  ["c1 \u0080\u0085\u009f", "--><!-- <!--"],
  ["javascript:alert(5)", "n20"],
];

let dir, site, server, browser, page;
const pageErrors = [];
const requests = [];
const failed = [];
const dialogs = [];
const consoleErrors = [];

// CRC-32 (IEEE, reflected), for the zip's entries.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  return c >>> 0;
});
function crc32(b) {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A version 1.0 .npy file: magic, the header padded to 64 bytes, data. */
function npy(descr, shape, data) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(", ")}${shape.length === 1 ? "," : ""}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += " ";
  header += "\n";
  const head = Buffer.from([0x93, ...Buffer.from("NUMPY"), 1, 0, 0, 0]);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, "latin1"), data]);
}

/** A zip of stored entries, as numpy.savez writes them. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += local.length + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The graph of TestExportHostileNames: a ring with chords, "hub,1" joined to a third of the nodes, features from a fixed formula. */
function hostileNPZ() {
  const adj = Array.from({ length: N }, () => new Set());
  const link = (u, v) => { if (u !== v) { adj[u].add(v); adj[v].add(u); } };
  const hub = NAMES.indexOf("hub,1");
  for (let i = 0; i < N; i++) {
    link(i, (i + 1) % N);
    if (i % 3 === 0) link(i, (i + 7) % N);
    if (i % 3 === 1) link(hub, i);
  }
  const indptr = [0];
  const indices = [];
  for (let i = 0; i < N; i++) {
    indices.push(...[...adj[i]].sort((a, b) => a - b));
    indptr.push(indices.length);
  }
  const i64 = (v) => { const b = Buffer.alloc(8 * v.length); v.forEach((x, k) => b.writeBigInt64LE(BigInt(x), 8 * k)); return b; };
  const D = 6;
  const x = Buffer.alloc(4 * N * D);
  for (let k = 0; k < N * D; k++) x.writeFloatLE(Math.abs(Math.sin(k * 12.9898)) % 1, 4 * k);
  const width = Math.max(...NAMES.map((s) => [...s].length));
  const names = Buffer.alloc(4 * width * N);
  NAMES.forEach((s, i) => [...s].forEach((ch, k) => names.writeUInt32LE(ch.codePointAt(0), 4 * (width * i + k))));
  return zip([
    ["adj_indptr.npy", npy("<i8", [N + 1], i64(indptr))],
    ["adj_indices.npy", npy("<i8", [indices.length], i64(indices))],
    ["adj_shape.npy", npy("<i8", [2], i64([N, N]))],
    ["attr_matrix.npy", npy("<f4", [N, D], x)],
    ["node_names.npy", npy(`<U${width}`, [N], names)],
  ]);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-card-hostile-"));
  site = join(dir, "site");
  const data = join(dir, "hostile.npz");
  const ckpt = join(dir, "hostile.ckpt");
  writeFileSync(data, hostileNPZ());
  const ilpgnn = (...args) => execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  ilpgnn("train", "--data", data, "--seeds", "0", "--epochs", "3", "--hidden", "8", "--save", ckpt);
  ilpgnn("export", "--checkpoint", ckpt, "--data", data, "--out", site, "--pairs", PAIRS.map((p) => p.join(",")).join(";"));
  // A page of the reader's own, without a security policy: a handler
  // pasted into it would run.
  writeFileSync(join(site, "blank.html"), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A reader's page</title></head>
<body><h1>My page</h1><div id="pasted"></div></body></html>
`);
  server = await serve({ site });
  browser = await launch();
  browser.context.on("request", (r) => requests.push(r.url()));
  browser.context.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  await recordCSPViolations(browser.context);
  page = await appPage(browser.context, pageErrors);
  watch(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records p's dialogs (and dismisses them) and console errors. */
function watch(p) {
  p.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  p.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(`${m.text()} (${new URL(m.location().url || "about:blank").pathname})`);
  });
}

/** Every attribute named on* in p's DOM, SVG included, as "tag name=value". */
const handlers = (p) => p.evaluate(() => {
  const out = [];
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      if (a.name.toLowerCase().startsWith("on")) out.push(`${el.tagName} ${a.name}=${a.value}`);
    }
  }
  return out;
});

/** What the k-th card of p shows: its pair as the card reflects it, the p line, the drawing's labels. */
const shown = (p, sel) => p.evaluate((sel) => {
  const card = document.querySelector(sel);
  return {
    a: card.getAttribute("data-a"),
    b: card.getAttribute("data-b"),
    pair: card.getAttribute("data-pair"),
    line: card.querySelector(".ilpgnn-card-p span")?.textContent,
    labels: [...card.querySelectorAll("svg g text")].map((t) => t.textContent),
    prob: card.querySelector("[data-key=prob]")?.dataset.value,
  };
}, sel);

function assertShows(s, [a, b], what) {
  assert.equal(s.a, a, `${what}: data-a`);
  assert.equal(s.b, b, `${what}: data-b`);
  // An id with a comma is quoted there, so that the comma of p(a, b) stays the one separator.
  const listed = (id) => (id.includes(",") ? `“${id}”` : id);
  assert.equal(s.line, `p(${listed(a)}, ${listed(b)}) = `, `${what}: the p line`);
  assert.ok(s.labels.includes(a) && s.labels.includes(b), `${what}: the drawing's labels ${JSON.stringify(s.labels)}`);
  const p = Number(s.prob);
  assert.ok(p >= 0 && p <= 1, `${what}: p ${s.prob}`);
  // data-pair is kept only where it reads back as the pair.
  if (s.pair !== null) assert.equal(s.pair, `${a},${b}`, `${what}: data-pair`);
  assert.equal(s.pair === null, /,/.test(a + b) || a.trim() !== a || b.trim() !== b, `${what}: data-pair ${JSON.stringify(s.pair)}`);
}

test("the exported page: every card shows its pair exactly, and nothing runs", async () => {
  await page.goto(`${server.origin}/index.html`);
  await page.waitForFunction((n) => document.querySelectorAll("div.ilpgnn-card [data-key=prob]").length === n, PAIRS.length);
  for (const [k, pr] of PAIRS.entries()) {
    assertShows(await shown(page, `div.ilpgnn-card:nth-of-type(${k + 1})`), pr, `card ${k}`);
  }
  // Hover and focus everything a handler could hang on: the events a
  // pointer passing over and the keyboard's focus would give each element,
  // dispatched in the page (a real hover of each of its 600-odd elements
  // took 15 s); each card also gets a real hover.
  await page.evaluate(() => {
    for (const el of document.querySelectorAll("body *")) {
      for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove", "mouseout", "mouseleave"]) {
        el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window }));
      }
      el.dispatchEvent(new FocusEvent("focus"));
      el.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    }
  });
  for (const card of await page.locator("div.ilpgnn-card").all()) await card.hover();
  assert.deepEqual(await handlers(page), []);
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => ({ src: s.src ? new URL(s.src).pathname : "", text: s.textContent })));
  assert.deepEqual(scripts.map((s) => s.text), scripts.map(() => ""), "an inline script");
  assert.deepEqual(scripts.map((s) => s.src).sort(), ["/ilpgnn-card.js", "/wasm_exec.js"]);
  assert.equal(await page.locator("img, iframe, object, embed, svg script, svg image").count(), 0);
  const title = await page.title();
  assert.equal(title, "Why these links? hostile explained by ILP-GNN");
  assert.deepEqual(dialogs, []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
});

test("a pair with commas and quotes, typed into a card, and a hostile node's suggestions", async () => {
  const card = page.locator("div.ilpgnn-card").nth(0);
  const inputs = card.locator("input");
  await inputs.nth(0).fill("hub,1");
  await inputs.nth(1).fill(`a,b "c"`);
  await inputs.nth(1).press("Enter");
  await page.waitForFunction(() => document.querySelector("div.ilpgnn-card").getAttribute("data-a") === "hub,1");
  assertShows(await shown(page, "div.ilpgnn-card"), ["hub,1", `a,b "c"`], "typed pair");
  // The same pair as the page's second card, which export named: equal p.
  assert.equal((await shown(page, "div.ilpgnn-card")).prob, (await shown(page, "div.ilpgnn-card:nth-of-type(2)")).prob);

  await inputs.nth(0).fill(HOSTILE[0]);
  await card.getByRole("button", { name: "Suggest links" }).click();
  const buttons = card.locator(".ilpgnn-card-suggest button");
  await buttons.first().waitFor();
  const ids = (await buttons.allTextContents()).map((t) => t.slice(0, t.lastIndexOf(" · p ")));
  assert.ok(ids.length > 0 && ids.every((id) => NAMES.includes(id)), JSON.stringify(ids));
  await buttons.nth(0).click();
  await page.waitForFunction((b) => document.querySelector("div.ilpgnn-card").getAttribute("data-b") === b, ids[0]);
  assertShows(await shown(page, "div.ilpgnn-card"), [HOSTILE[0], ids[0]], "suggested pair");
  assert.equal(await card.locator(".ilpgnn-card-suggest .ilpgnn-card-label").textContent(), `Likely new links of ${HOSTILE[0]}:`);
  assert.deepEqual(await handlers(page), []);
  assert.deepEqual(dialogs, []);
});

test("the shown snippet, pasted into a page without a policy, is the card and nothing else", async () => {
  const snippet = await page.locator("pre code").textContent();
  const fresh = await browser.context.newPage();
  watch(fresh);
  fresh.on("pageerror", (e) => pageErrors.push(String(e)));
  await fresh.goto(`${server.origin}/blank.html`);
  const pasted = await fresh.evaluate((html) => {
    const box = document.getElementById("pasted");
    box.innerHTML = html;
    return [...box.childNodes].map((n) => n.nodeType === 1 ? n.tagName : n.textContent.trim() ? `text ${n.textContent}` : "").filter(Boolean);
  }, snippet);
  assert.deepEqual(pasted, ["DIV", "SCRIPT"], snippet);
  assert.deepEqual(await handlers(fresh), []);
  const attrs = await fresh.evaluate(() => {
    const div = document.querySelector("#pasted div");
    return Object.fromEntries([...div.attributes].map((a) => [a.name, a.value]));
  });
  // data-pair where it reads back as the pair, else data-a and data-b.
  const [a, b] = PAIRS[0];
  const plain = !/,/.test(a + b) && a.trim() === a && b.trim() === b;
  assert.deepEqual(attrs, { class: "ilpgnn-card", "data-src": "hostile/", ...(plain ? { "data-pair": `${a},${b}` } : { "data-a": a, "data-b": b }) });
  // A script set through innerHTML does not run: start the card as the
  // pasted <script> would in a page's source.
  await fresh.evaluate(() => {
    const s = document.createElement("script");
    s.src = document.querySelector("#pasted script").getAttribute("src");
    document.body.append(s);
  });
  await fresh.waitForFunction(() => document.querySelector("#pasted [data-key=prob]"));
  assertShows(await shown(fresh, "#pasted div.ilpgnn-card"), PAIRS[0], "the pasted card");
  for (const el of await fresh.locator("#pasted *:visible").all()) await el.hover({ force: true, timeout: 2_000 }).catch(() => {});
  assert.deepEqual(await handlers(fresh), []);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(pageErrors, []);
  await fresh.close();
});

test("no dialog, page error, console error or request off the origin anywhere", () => {
  assert.deepEqual(requests.filter((u) => !u.startsWith(server.origin + "/")), []);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(failed, []);
  // The browser asks for a favicon the folder does not have, unseen by the
  // request log; its console line is the only error allowed.
  assert.deepEqual(consoleErrors.filter((t) => !/status of 404 .*\(\/favicon\.ico\)$/.test(t)), []);
});
