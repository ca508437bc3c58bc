// Writes the gzip (-9) and brotli (quality 11) twins of the site's
// compressible files, so a static host (or `ilpgnn serve`) can send them
// precompressed, and prints each file's raw, gzip and brotli sizes.
// Usage: node frontend/scripts/compress.mjs build/site [--json FILE]
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, extname } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: compress.mjs SITE_DIR [--json FILE]");
  process.exit(2);
}
const jsonAt = process.argv.indexOf("--json");
const compressible = new Set([".wasm", ".js", ".css", ".html", ".map", ".json", ".svg"]);

const rows = [];
for (const name of (await readdir(dir)).sort()) {
  if (!compressible.has(extname(name))) continue;
  const raw = await readFile(join(dir, name));
  const gz = gzipSync(raw, { level: 9 });
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      [constants.BROTLI_PARAM_MODE]: extname(name) === ".wasm" ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  await writeFile(join(dir, name + ".gz"), gz);
  await writeFile(join(dir, name + ".br"), br);
  rows.push({ file: name, raw: raw.length, gzip: gz.length, brotli: br.length });
}

const kb = (n) => (n / 1024).toFixed(1).padStart(9);
console.log(`${"file".padEnd(22)}${"raw KiB".padStart(9)}${"gzip".padStart(9)}${"brotli".padStart(9)}`);
for (const r of rows) console.log(`${r.file.padEnd(22)}${kb(r.raw)}${kb(r.gzip)}${kb(r.brotli)}`);
if (jsonAt > 0) await writeFile(process.argv[jsonAt + 1], JSON.stringify(rows, null, 2) + "\n");
