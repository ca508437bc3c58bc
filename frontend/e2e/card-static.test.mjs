// The embeddable card (wasm/card) on any static host: the folder `ilpgnn
// export` writes for the demo graph, cold-loaded in headless Chromium with
// a fresh profile and its cache off, from hosts that serve it in different
// ways. A plain host (no compression, NAME.gz sent as a file of its own, as
// python3 -m http.server does) must cost at most 3 MB on the wire: the
// loader asks for the .gz twins and decompresses them in the page. A host
// without the twins, one that answers a missing file with its page, one
// that sends the twins with Content-Encoding: gzip, and a browser without
// DecompressionStream must still load the plain files. Every card shows
// the p of `ilpgnn explain --json`, as the precompressing host gives it.
// Needs `make build`; run with `node --test frontend/e2e/card-static.test.mjs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, recordCSPViolations, recordTransfers } from "./browser.mjs";

const bin = join(root, "build", "ilpgnn");
const DATA = "synth:medium";
const LIMIT = 3_000_000;

let dir, site, noTwins, ckpt;
const ilpgnn = (...args) => execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });

before(() => {
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-card-static-"));
  site = join(dir, "site");
  noTwins = join(dir, "no-twins");
  ckpt = join(dir, "model.ckpt");
  // A short run: what is sent does not depend on the weights.
  ilpgnn("train", "--data", DATA, "--seeds", "0", "--epochs", "10", "--save", ckpt);
  ilpgnn("export", "--checkpoint", ckpt, "--data", DATA, "--out", site);
  // The bundle's folder again, for a card a page adds later: the engine
  // then fetches that bundle itself (wasm/card/fetch.go).
  const [folder] = readdirSync(site, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  cpSync(join(site, folder), join(site, "again"), { recursive: true });
  cpSync(site, noTwins, { recursive: true, filter: (src) => !src.endsWith(".gz") });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".gz": "application/gzip" };

/**
 * A static server of folder that never compresses. mode "plain" sends
 * every file as it is, as python3 -m http.server does; "encoded" sends
 * NAME.gz with NAME's type and Content-Encoding: gzip (Apache's AddEncoding,
 * or a bucket's metadata); "spa" answers a missing file with index.html
 * and status 200, as single-page hosts do.
 */
async function staticServer(folder, mode) {
  const server = createServer(async (req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path.endsWith("/")) path += "index.html";
    let file = normalize(join(folder, path));
    if (!file.startsWith(folder)) return res.writeHead(403).end();
    const isFile = await stat(file).then((s) => s.isFile(), () => false);
    if (!isFile && mode !== "spa") return res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    if (!isFile) file = join(folder, "index.html");
    const headers = { "content-type": types[extname(file)] ?? "application/octet-stream" };
    if (mode === "encoded" && file.endsWith(".gz")) {
      headers["content-type"] = types[extname(file.slice(0, -3))] ?? "application/octet-stream";
      headers["content-encoding"] = "gzip";
    }
    res.writeHead(200, headers).end(await readFile(file));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * One cold load of the folder's example page from server: what the first
 * card shows (its p exactly as it carries it, and its pair), each
 * response's path, status and bytes on the wire (those after the load in
 * later), and what went wrong in the page. init, when given, runs in the page before its scripts; then,
 * when given, with the page once the card is shown.
 */
async function coldLoad(server, init, then) {
  const browser = await launch();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error" && !/404/.test(m.text())) problems.push(m.text());
    });
    await recordCSPViolations(browser.context);
    if (init) await browser.context.addInitScript(init);
    const transfers = await recordTransfers(page);
    await page.goto(`${server.origin}/index.html`);
    const card = page.locator("div.ilpgnn-card").first();
    await card.locator("[data-key=prob]").waitFor();
    const shown = await card.evaluate((el) => ({
      p: el.querySelector("[data-key=prob]").dataset.value,
      pair: [el.dataset.a, el.dataset.b],
      error: el.querySelector(".ilpgnn-card-error:not([hidden])")?.textContent ?? "",
    }));
    // Every response of the load, once the card is shown (the favicon's
    // may come later, and is left out of the comparisons).
    await page.waitForLoadState("load");
    await transfers.settled();
    const cold = transfers.length;
    if (then) {
      await then(page);
      await transfers.settled();
    }
    problems.push(...(await page.evaluate(() => window.__csp)).map((v) => `policy: ${v}`));
    const responses = transfers.map((t) => ({ ...t, path: t.url.startsWith(server.origin + "/") ? new URL(t.url).pathname : t.url }));
    const load = responses.slice(0, cold);
    return { ...shown, responses: load, later: responses.slice(cold), bytes: load.reduce((s, r) => s + r.bytes, 0), problems };
  } finally {
    await browser.close();
  }
}

/** The paths of the load's responses with status 200. */
const fetched = (load) => load.responses.filter((r) => r.status === 200).map((r) => r.path);

function assertSameCard(load, want, what) {
  assert.equal(load.error, "", `${what}: the card says ${load.error}`);
  assert.deepEqual(load.pair, want.pair, `${what}: another pair`);
  assert.equal(load.p, want.p, `${what}: another p`);
  assert.deepEqual(load.problems, [], `${what}: errors in the page`);
  for (const r of load.responses) assert.ok(r.path.startsWith("/"), `${what}: a request left the origin: ${r.url}`);
}

let reference;

test("from a precompressing host, the card asks for its files by name and shows explain's p", async () => {
  const server = await serve({ site });
  try {
    reference = await coldLoad(server);
  } finally {
    await server.close();
  }
  const e = JSON.parse(ilpgnn("explain", "--checkpoint", ckpt, "--data", DATA, "--pair", reference.pair.join(","), "--json"));
  // The shortest decimal of a float64 on both sides: equal numbers, equal bits.
  assert.equal(Number(reference.p), e.prob);
  assert.deepEqual(reference.problems, []);
  const got = fetched(reference);
  assert.ok(got.includes("/ilpgnn-card.wasm"), got.join(" "));
  assert.ok(got.every((p) => !p.endsWith(".gz")), `twins asked for although the host compresses: ${got.join(" ")}`);
});

test("from a plain static host, the card reads the .gz twins: at most 3 MB on the wire, the same p", async () => {
  const server = await staticServer(site, "plain");
  let load, later;
  try {
    load = await coldLoad(server, undefined, async (page) => {
      later = await page.evaluate(async (pair) => {
        const div = document.createElement("div");
        div.className = "ilpgnn-card";
        div.dataset.src = "again/";
        [div.dataset.a, div.dataset.b] = pair;
        document.body.append(div);
        window.ilpgnnCard.scan();
        while (!div.querySelector("[data-key=prob], .ilpgnn-card-error:not([hidden])")) await new Promise((ok) => setTimeout(ok, 50));
        return div.querySelector("[data-key=prob]")?.dataset.value ?? div.textContent;
      }, reference.pair);
    });
  } finally {
    await server.close();
  }
  assertSameCard(load, reference, "plain host");
  assert.equal(later, reference.p, "a card added later");
  const got = fetched(load);
  assert.ok(got.includes("/ilpgnn-card.wasm.gz") && !got.includes("/ilpgnn-card.wasm"), got.join(" "));
  assert.ok(got.some((p) => p.endsWith("/card.bundle.gz")) && !got.some((p) => p.endsWith("/card.bundle")), got.join(" "));
  assert.deepEqual(load.later.filter((r) => r.path !== "/favicon.ico").map((r) => `${r.status} ${r.path}`), ["200 /again/card.bundle.gz"]);
  const list = load.responses.map((r) => `${r.status} ${r.bytes} ${r.path}`).join("\n");
  assert.ok(load.bytes <= LIMIT, `a cold load took ${load.bytes} bytes, over ${LIMIT}:\n${list}`);
});

test("without the .gz twins, the card reads the plain files and shows the same p", async () => {
  const server = await staticServer(noTwins, "plain");
  let load;
  try {
    load = await coldLoad(server);
  } finally {
    await server.close();
  }
  assertSameCard(load, reference, "no twins");
  const got = fetched(load);
  assert.ok(got.includes("/ilpgnn-card.wasm") && got.some((p) => p.endsWith("/card.bundle")), got.join(" "));
  const missing = load.responses.filter((r) => r.status === 404).map((r) => r.path);
  assert.ok(missing.includes("/ilpgnn-card.wasm.gz"), missing.join(" "));
});

test("a host that answers a missing twin with its page (200) still gives the plain files", async () => {
  const server = await staticServer(noTwins, "spa");
  let load;
  try {
    load = await coldLoad(server);
  } finally {
    await server.close();
  }
  assertSameCard(load, reference, "single-page host");
  const got = fetched(load);
  assert.ok(got.includes("/ilpgnn-card.wasm") && got.some((p) => p.endsWith("/card.bundle")), got.join(" "));
});

test("twins sent with Content-Encoding: gzip are taken as the browser decoded them", async () => {
  const server = await staticServer(site, "encoded");
  let load;
  try {
    load = await coldLoad(server);
  } finally {
    await server.close();
  }
  assertSameCard(load, reference, "encoded twins");
  const got = fetched(load);
  assert.ok(got.includes("/ilpgnn-card.wasm.gz") && !got.includes("/ilpgnn-card.wasm"), got.join(" "));
  assert.ok(load.bytes <= LIMIT, `a cold load took ${load.bytes} bytes, over ${LIMIT}`);
});

test("a browser without DecompressionStream reads the plain files", async () => {
  const server = await staticServer(site, "plain");
  let load;
  try {
    load = await coldLoad(server, () => {
      delete window.DecompressionStream;
    });
  } finally {
    await server.close();
  }
  assertSameCard(load, reference, "no DecompressionStream");
  const got = fetched(load);
  assert.ok(got.includes("/ilpgnn-card.wasm") && got.every((p) => !p.endsWith(".gz")), got.join(" "));
});
