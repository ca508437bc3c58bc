// The README's screenshot of the app: the built site (build/site) in
// headless Debian Chromium at 1200x800, walked the way a new user would:
// the demo graph (synth:medium, seed 0) appears by itself, Train with the
// default hyperparameters, click the best-connected node, then its first
// suggested link, and photograph the graph with the pair's explanation
// beside it. Every step is seeded, so the picture changes only when the app
// does. Writes frontend/screenshot.png (or the path given as the argument).
// Usage (after `make site chromium`): node frontend/scripts/screenshot.mjs [OUT.png]
// or `make screenshot`. Not part of `make test`: it asserts nothing.
import { statSync, writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { join, resolve } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch, appPage, clickNode, WAIT, LONG_WAIT } from "../e2e/browser.mjs";

const out = resolve(process.argv[2] ?? join(root, "frontend", "screenshot.png"));
const width = 1200;
const height = 800;

const server = await serve();
const browser = await launch();
const errors = [];
try {
  const page = await appPage(browser.context, errors);
  await page.setViewportSize({ width, height });
  const app = (fn, arg) => page.evaluate(fn, arg);

  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });
  await page.waitForFunction(() => window.ilpgnnExplorer.view.layoutDone(), null, { timeout: WAIT });
  console.log("demo graph drawn; training with the defaults");

  await page.click("#train");
  await page.waitForSelector("#train-result h3", { timeout: LONG_WAIT });
  console.log((await page.textContent("#train-result")).replace(/\s+/g, " ").trim());

  const a = await app(() => {
    const g = window.ilpgnnExplorer.graph;
    let best = 0;
    for (let v = 0; v < g.n; v++) if (g.desc.degrees[v] > g.desc.degrees[best]) best = v;
    return best;
  });
  await page.locator("#graph").scrollIntoViewIfNeeded();
  await clickNode(page, a);
  await page.waitForSelector("#suggestions button");
  const b = Number(await page.getAttribute("#suggestions li:first-child button", "data-node"));
  await clickNode(page, b);
  await page.waitForSelector("#pair-prob");
  // The view frames both ends and their neighbours; the side panel shows
  // the explanation from its top.
  await app(() => document.getElementById("explain-panel").scrollIntoView({ block: "start" }));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(width - 5, 5); // no tooltip over the pair
  await page.waitForTimeout(500);
  console.log(`pair ${await app(() => location.hash)}: ${await page.textContent("#pair-prob")}`);

  // Chromium's PNG is truecolour (~600 KB); 256 colours keep the picture
  // and a third of the bytes.
  const rgba = await pixels(browser.context, await page.screenshot());
  writeFileSync(out, png8(width, height, rgba));
  console.log(`wrote ${out} (${statSync(out).size} bytes)`);
  if (errors.length > 0) throw new Error(`the page reported errors:\n${errors.join("\n")}`);
} finally {
  await browser.close();
  await server.close();
}

/** The RGBA pixels of a PNG, decoded by the browser in a blank page. */
async function pixels(context, png) {
  const blank = await context.newPage();
  try {
    const b64 = await blank.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const img = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
      const ctx = new OffscreenCanvas(img.width, img.height).getContext("2d");
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, img.width, img.height).data;
      let s = "";
      for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return btoa(s);
    }, png.toString("base64"));
    return Buffer.from(b64, "base64");
  } finally {
    await blank.close();
  }
}

/**
 * An indexed-colour PNG of w×h RGBA pixels (alpha ignored: a screenshot is
 * opaque). The palette is the mean colour of the 256 most frequent 15-bit
 * colour boxes, and every pixel takes its nearest palette entry, so the
 * page's flat colours stay exact and only anti-aliased edges move.
 */
function png8(w, h, rgba) {
  const box = (i) => ((rgba[i] >> 3) << 10) | ((rgba[i + 1] >> 3) << 5) | (rgba[i + 2] >> 3);
  const count = new Float64Array(1 << 15);
  const sum = new Float64Array(3 << 15);
  for (let i = 0; i < rgba.length; i += 4) {
    const k = box(i);
    count[k]++;
    for (let c = 0; c < 3; c++) sum[3 * k + c] += rgba[i + c];
  }
  const top = [...count.keys()].filter((k) => count[k] > 0).sort((x, y) => count[y] - count[x] || x - y).slice(0, 256);
  const palette = top.map((k) => [0, 1, 2].map((c) => Math.round(sum[3 * k + c] / count[k])));
  const nearest = new Int16Array(1 << 15).fill(-1);
  const index = Buffer.alloc((w + 1) * h);
  for (let y = 0; y < h; y++) {
    index[y * (w + 1)] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      const k = box(i);
      if (nearest[k] < 0) {
        let best = 0;
        let bestD = Infinity;
        const r = ((k >> 10) << 3) + 4, g = (((k >> 5) & 31) << 3) + 4, b = ((k & 31) << 3) + 4;
        palette.forEach(([pr, pg, pb], p) => {
          const d = 2 * (pr - r) ** 2 + 4 * (pg - g) ** 2 + 3 * (pb - b) ** 2;
          if (d < bestD) [best, bestD] = [p, d];
        });
        nearest[k] = best;
      }
      index[y * (w + 1) + 1 + x] = nearest[k];
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 3, 0, 0, 0], 8); // 8-bit indices, palette, deflate, no filter choice, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("PLTE", Buffer.from(palette.flat())),
    chunk("IDAT", deflateSync(index, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
