// Checkpoints that pass every checksum but lie, imported through the app's
// checkpoint panel: a checkpoint trained in the page is exported, edited
// here (its config or its weights) and re-encoded with fresh CRC-32C
// checksums, as someone who knows the format could. Each is refused with a
// message naming the problem, nothing is stored, and the engine worker
// survives: the current model keeps explaining and the good file imports
// and explains the same. Run with `node --test frontend/e2e/hostile.test.mjs`
// after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { serve } from "./server.mjs";
import { launch, appPage, WAIT, LONG_WAIT, QUICK_PPR_EPS } from "./browser.mjs";

let server, browser, page;
const pageErrors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await appPage(browser.context, pageErrors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// CRC-32C (Castagnoli, reflected), as the format's checksums.
const crcTable = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32c(b) {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Decodes a version 1 checkpoint (core/checkpoint/FORMAT.md) into its parts. */
function decode(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const hdrLen = dv.getUint32(12, true);
  let o = 28;
  const bytes = () => {
    const n = dv.getUint32(o, true);
    o += 4 + n;
    return buf.subarray(o - n, o);
  };
  const c = { model: bytes(), dataset: bytes() };
  c.fixed = buf.subarray(o, o + 48); // fingerprint, seed, created
  o += 48;
  c.configRaw = bytes();
  c.config = JSON.parse(new TextDecoder().decode(c.configRaw));
  c.configWas = JSON.stringify(c.config);
  c.metrics = [];
  const metrics = dv.getUint32(o, true);
  o += 4;
  for (let i = 0; i < metrics; i++) {
    const name = bytes();
    c.metrics.push([name, buf.subarray(o, o + 8)]);
    o += 8;
  }
  c.tensors = [];
  const tensors = dv.getUint32(o, true);
  o += 4;
  for (let i = 0; i < tensors; i++) {
    const name = new TextDecoder().decode(bytes());
    c.tensors.push({ name, rows: dv.getUint32(o, true), cols: dv.getUint32(o + 4, true) });
    o += 8;
  }
  assert.equal(o, 28 + hdrLen, "header length");
  let d = 32 + hdrLen;
  for (const t of c.tensors) {
    t.data = new Float32Array(t.rows * t.cols);
    for (let j = 0; j < t.data.length; j++, d += 4) t.data[j] = dv.getFloat32(d, true);
  }
  return c;
}

/** Encodes parts back into a checkpoint, with its three checksums recomputed. */
function encode(c) {
  const parts = [];
  const u32 = (v) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    parts.push(b);
  };
  const bytes = (b) => (u32(b.length), parts.push(b));
  bytes(c.model);
  bytes(c.dataset);
  parts.push(c.fixed);
  // Go writes its own JSON; keep its bytes unless the test edited the config.
  const cfg = JSON.stringify(c.config);
  bytes(cfg === c.configWas ? c.configRaw : new TextEncoder().encode(cfg));
  u32(c.metrics.length);
  for (const [name, v] of c.metrics) (bytes(name), parts.push(v));
  u32(c.tensors.length);
  for (const t of c.tensors) (bytes(new TextEncoder().encode(t.name)), u32(t.rows), u32(t.cols));
  const hdr = Buffer.concat(parts);
  const n = c.tensors.reduce((s, t) => s + t.data.length, 0);
  const out = Buffer.alloc(36 + hdr.length + 4 * n);
  out.write("ILPGNNCK", 0, "latin1");
  out.writeUInt32LE(1, 8);
  out.writeUInt32LE(hdr.length, 12);
  out.writeBigUInt64LE(BigInt(4 * n), 16);
  out.writeUInt32LE(crc32c(out.subarray(0, 24)), 24);
  hdr.copy(out, 28);
  out.writeUInt32LE(crc32c(out.subarray(0, 28 + hdr.length)), 28 + hdr.length);
  let d = 32 + hdr.length;
  for (const t of c.tensors) for (const v of t.data) d = out.writeFloatLE(v, d);
  out.writeUInt32LE(crc32c(out.subarray(0, d)), d);
  return out;
}

/** The good checkpoint edited by fn, re-encoded. */
function edited(good, fn) {
  const c = decode(good);
  fn(c);
  return encode(c);
}

const tensor = (c, name) => c.tensors.find((t) => t.name === name);

/** Imports a file through the panel's file input and returns the error the panel shows for it. */
async function importError(name, buffer) {
  await page.setInputFiles("#checkpoint-input", { name, mimeType: "application/octet-stream", buffer });
  const shown = await page.waitForFunction(
    (name) => {
      const p = document.querySelector("#checkpoint-list p.error");
      return p?.textContent.startsWith(`${name}:`) ? p.textContent : false;
    },
    name,
    { timeout: WAIT },
  );
  return shown.jsonValue();
}

async function explainPair(i, j) {
  await page.fill("#pair-i", String(i));
  await page.fill("#pair-j", String(j));
  await page.click("#pair-form button[type=submit]");
  await page.waitForFunction(([i, j]) => new RegExp(`Why ${i} – ${j}\\?`).test(document.getElementById("explain-body").textContent), [i, j], { timeout: WAIT });
  return page.textContent("#pair-prob");
}

test("hostile checkpoints are refused by name and the app keeps working", async () => {
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.ilpgnnExplorer?.metrics.firstGraphMs !== undefined, null, { timeout: WAIT });

  // A real checkpoint of the demo graph: two epochs of a narrow encoder
  // with a coarse push for S̃ (each import that fits the graph prepares it
  // again), exported from the panel.
  await page.locator("#train-panel").scrollIntoViewIfNeeded();
  await page.evaluate(() => (document.getElementById("hyper").open = true));
  await page.waitForSelector("#hp-epochs");
  await page.fill("#hp-epochs", "2");
  await page.fill("#hp-hidden", "16");
  await page.fill("#hp-ppr-eps", QUICK_PPR_EPS);
  await page.click("#train");
  await page.waitForFunction(() => /Trained ILP-GNN/.test(document.getElementById("train-result").textContent), null, { timeout: LONG_WAIT });
  await page.click("#checkpoints-panel > summary");
  await page.waitForSelector("#checkpoint-list tr[data-key]");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#checkpoint-list tr[data-key] >> text=Export")]);
  const good = new Uint8Array(await readFile(await download.path()));
  const prob = await explainPair(3, 40);
  assert.match(prob, /^\d+\.\d%/);

  const c = decode(good);
  const w1 = tensor(c, "W1");
  const [d0, hidden] = [w1.rows, w1.cols];
  assert.equal(c.config.feature_dim, d0);
  assert.deepEqual(encode(c), Buffer.from(good), "the test's codec writes the app's bytes back");

  const cases = [
    {
      file: "fewer-features.ckpt",
      data: edited(good, (c) => {
        c.config.feature_dim = 10;
        for (const t of [tensor(c, "W1"), tensor(c, "Wx")]) [t.rows, t.data] = [10, t.data.subarray(0, 10 * t.cols)];
      }),
      want: new RegExp(`feature_dim is 10, but graph .* has ${d0} features per node`),
    },
    {
      file: "huge-hidden.ckpt",
      data: edited(good, (c) => (c.config.config.Model.Hidden = 200_000_000)),
      want: `tensor W1 is ${d0}x${hidden}, but its config (hidden 200000000, feature_dim ${d0}) needs ${d0}x200000000`,
    },
    {
      file: "nan.ckpt",
      data: edited(good, (c) => c.tensors.forEach((t) => t.data.fill(NaN))),
      want: "tensor W1 has a non-finite weight, NaN, at index 0 (row 0, col 0)",
    },
    {
      file: "one-inf.ckpt",
      data: edited(good, (c) => (tensor(c, "W2").data[hidden + 2] = Infinity)),
      want: `tensor W2 has a non-finite weight, +Inf, at index ${hidden + 2} (row 1, col 2)`,
    },
    {
      // A bit flipped on disk: the checksum names it, and the message names the file once.
      file: "flipped.ckpt",
      data: (() => {
        const b = Buffer.from(good);
        b[b.length - 10] ^= 4;
        return b;
      })(),
      want: /^flipped\.ckpt: not a usable checkpoint: corrupt checkpoint: file \(tensor data\) checksum mismatch \(stored [0-9a-f]{8}, computed [0-9a-f]{8}\)$/,
    },
    {
      file: "garbage.ckpt",
      data: Buffer.concat([Buffer.from("ILPGNNCK"), Buffer.from("some bytes that are no checkpoint at all")]),
      want: "not a checkpoint, or damaged",
    },
  ];
  for (const { file, data, want } of cases) {
    const shown = await importError(file, data);
    assert.ok(shown.startsWith(`${file}: not a usable checkpoint: `), `${file}: shown ${JSON.stringify(shown)}, want the file named once`);
    if (want instanceof RegExp) assert.match(shown, want);
    else assert.ok(shown.includes(want), `${file}: shown ${JSON.stringify(shown)}, want ${JSON.stringify(want)}`);
    assert.match(await page.textContent("#status"), /Import failed/);
  }

  // The worker is alive and the current model is the one trained here
  // (another pair first, so that the answer awaited is a new one).
  await explainPair(40, 3);
  assert.equal(await explainPair(3, 40), prob);
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint-list tr[data-key]").length === 1, null, { timeout: WAIT });

  // The good file imports, becomes the current model and explains the same.
  await page.setInputFiles("#checkpoint-input", { name: "good.ckpt", mimeType: "application/octet-stream", buffer: Buffer.from(good) });
  await page.waitForFunction(() => /Restored/.test(document.getElementById("status").textContent), null, { timeout: WAIT });
  assert.match(await page.textContent("#train-result"), /Current model: ILP-GNN/);
  await explainPair(40, 3);
  assert.equal(await explainPair(3, 40), prob);
  assert.equal((await page.$$("#checkpoint-list tr[data-key]")).length, 1, "only the good checkpoint is stored");

  // The command line writes no creation time (created 0): the same file as
  // it would write it shows no time, where it once showed 1970-01-01 00:00.
  const cli = decode(good);
  cli.fixed = Buffer.from(cli.fixed);
  cli.fixed.fill(0, 40, 48);
  await page.setInputFiles("#checkpoint-input", { name: "cli.ckpt", mimeType: "application/octet-stream", buffer: encode(cli) });
  await page.waitForFunction(() => /^Restored .*test AUC/.test(document.getElementById("status").textContent) && !/trained/.test(document.getElementById("status").textContent), null, {
    timeout: WAIT,
  });
  assert.match(await page.textContent("#status"), /^Restored checkpoint [0-9a-f]{8}…-[0-9a-f]{16} of [^,]+, test AUC \d+\.\d\d%, completed run$/);
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint-list tr[data-key]").length === 1, null, { timeout: WAIT });
  for (const sel of ["#train-result", "#checkpoint-list"]) assert.doesNotMatch(await page.textContent(sel), /1970|\btrained \d/, sel);
  assert.deepEqual(pageErrors, []);
});
