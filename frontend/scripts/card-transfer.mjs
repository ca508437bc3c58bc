// What a cold load of the embeddable card costs on the wire: `ilpgnn
// export` writes a folder for DATA (default synth:medium, the demo graph;
// a short training run, since the sizes do not depend on the weights),
// which is served by `python3 -m http.server`
// (a plain static host: no compression, .gz files sent as they are) and by
// the browser tests' precompressing server (frontend/e2e/server.mjs), and
// each loads the example page once in headless Chromium with a fresh
// profile and its cache off. Prints the bytes of every response, as
// Chromium received them, and their sum. Needs `make build`; usage: node
// frontend/scripts/card-transfer.mjs [DATA] (python3 is skipped when
// missing).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch, recordTransfers } from "../e2e/browser.mjs";

const bin = join(root, "build", "ilpgnn");
const data = process.argv[2] ?? "synth:medium";
const dir = mkdtempSync(join(tmpdir(), "ilpgnn-card-transfer-"));
const site = join(dir, "site");
const ckpt = join(dir, "model.ckpt");
const run = (...args) => execFileSync(bin, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });

run("train", "--data", data, "--seeds", "0", "--epochs", "10", "--save", ckpt);
run("export", "--checkpoint", ckpt, "--data", data, "--out", site);

async function freePort() {
  const s = createServer();
  await new Promise((ok) => s.listen(0, "127.0.0.1", ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/** python3 -m http.server on site, once it answers; null without python3. */
async function python() {
  const port = await freePort();
  let child;
  try {
    child = spawn("python3", ["-m", "http.server", "--bind", "127.0.0.1", String(port)], { cwd: site, stdio: "ignore" });
    await new Promise((ok, fail) => { child.once("spawn", ok); child.once("error", fail); });
  } catch {
    return null;
  }
  const origin = `http://127.0.0.1:${port}`;
  for (let k = 0; k < 600; k++) {
    try {
      await fetch(origin + "/");
      return { origin, close: async () => child.kill() };
    } catch {
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
  child.kill();
  throw new Error("python3 -m http.server did not answer");
}

async function coldLoad(name, server) {
  const browser = await launch();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const got = await recordTransfers(page);
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => document.querySelector("div.ilpgnn-card [data-key=prob]") !== null);
    const p = await page.evaluate(() => document.querySelector("div.ilpgnn-card [data-key=prob]").dataset.value);
    await page.waitForLoadState("load");
    await got.settled();
    console.log(`${name}: ${got.reduce((s, r) => s + r.bytes, 0)} bytes in ${got.length} responses, p = ${p}`);
    for (const r of got) console.log(`  ${String(r.bytes).padStart(9)}  ${r.status}  ${new URL(r.url).pathname}`);
  } finally {
    await browser.close();
  }
}

try {
  const py = await python();
  if (py) {
    try {
      await coldLoad("python3 -m http.server", py);
    } finally {
      await py.close();
    }
  } else {
    console.log("python3 -m http.server: skipped, no python3");
  }
  const precompressed = await serve({ site });
  try {
    await coldLoad("precompressing server (frontend/e2e/server.mjs)", precompressed);
  } finally {
    await precompressed.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
