// The embeddable card's numbers (wasm/card): its size with brotli (from
// build/card-sizes.json, which `make site` writes) and the time from
// navigation to the first card on Cora rendered, in headless Debian
// Chromium, served precompressed from loopback. Each cold load runs in a
// fresh profile (empty HTTP cache); a warm load reloads the same page.
// Prints medians and ranges. Usage: make bench-card [BENCH_CARD_RUNS=7].
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch } from "../e2e/browser.mjs";

const runs = Number(process.env.BENCH_CARD_RUNS ?? 7);
const bin = join(root, "build", "ilpgnn");
const cora = resolve(root, "..", "shared", "datasets", "cora");
const dir = mkdtempSync(join(tmpdir(), "ilpgnn-bench-card-"));
const site = join(dir, "site");
const ckpt = join(dir, "cora.ckpt");
const run = (...args) => execFileSync(bin, args, { encoding: "utf8" });

run("train", "--data", cora, "--seeds", "0", "--epochs", "10", "--save", ckpt);
run("export", "--checkpoint", ckpt, "--data", cora, "--out", site, "--pairs", "35,1033");
// The bundle precompressed, as a static host would serve it.
const bundlePath = join(site, "cora", "card.bundle");
const bundle = readFileSync(bundlePath);
const bundleBr = brotliCompressSync(bundle, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bundle.length } });
writeFileSync(bundlePath + ".br", bundleBr);
for (const name of ["ilpgnn-card.wasm", "ilpgnn-card.js", "ilpgnn-card.css", "wasm_exec.js"]) {
  const raw = readFileSync(join(site, name));
  writeFileSync(join(site, name + ".br"), brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

const server = await serve({ site });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function firstCard(page) {
  await page.waitForFunction(() => window.__firstCard !== undefined, null, { timeout: 120_000 });
  return page.evaluate(() => window.__firstCard);
}

const cold = [];
const warm = [];
try {
  for (let k = 0; k < runs; k++) {
    const browser = await launch();
    try {
      await browser.context.addInitScript(() => {
        new MutationObserver((_, obs) => {
          if (document.querySelector("div.ilpgnn-card [data-key=prob]")) {
            window.__firstCard = performance.now();
            obs.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(`${server.origin}/index.html`);
      cold.push(await firstCard(page));
      await page.reload();
      warm.push(await firstCard(page));
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

const sizes = JSON.parse(readFileSync(join(root, "build", "card-sizes.json"), "utf8"));
const wasm = sizes.find((r) => r.file === "ilpgnn-card.wasm");
const fmt = (xs) => `median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}, ${xs.length} loads)`;
console.log(`card WebAssembly: ${(wasm.raw / 1024).toFixed(1)} KiB raw, ${(wasm.brotli / 1024).toFixed(1)} KiB brotli (${wasm.brotli} bytes; limit 700 KB)`);
console.log(`Cora bundle: ${(bundle.length / 1e6).toFixed(2)} MB raw, ${(bundleBr.length / 1e6).toFixed(2)} MB brotli`);
console.log(`first card on Cora, navigation to rendered, cold: ${fmt(cold)}`);
console.log(`first card on Cora, navigation to rendered, warm reload: ${fmt(warm)}`);
