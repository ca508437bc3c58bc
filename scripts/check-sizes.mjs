// Every size of a built file that the guides state is that file's size
// now, within 1%, so that no stated size goes stale unnoticed.
//
// It reads the built site (build/site: `make sizes` runs `make site`
// first) and the repository's Markdown files (git ls-files '*.md').
// STATED names each stated size by the words around it (whitespace
// folded, so rewrapping a paragraph keeps it found), the built file and
// which of its sizes it is: "raw", "gzip" or "brotli" (the .gz or .br
// twin that frontend/scripts/compress.mjs writes). A stated size whose words are no
// longer found fails too: the table must follow the guides.
//
// Any other size (KiB, MiB, KB, kB, MB) that a guide puts within a few
// words after the card, the engine, the WebAssembly, the bundle or
// brotli must be in UNCHECKED, with why it is not a built file's size
// now (a measurement of its day, a limit, Cora's bundle): a new size
// cannot be stated without this check knowing of it. Sizes of memory
// (near "memory", "peak" or "holds") are not files' and are left alone.
//
// Usage: node scripts/check-sizes.mjs [SITE_DIR] (default build/site).
import { existsSync, readFileSync, statSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const site = process.argv[2] ?? join("build", "site");
const TOLERANCE = 0.01;

// A size as the guides write it: a number, maybe with thousands commas,
// and its unit.
const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;
const SIZE = String.raw`(${NUM}) ?(KiB|MiB|KB|kB|MB)`;
const UNITS = { KiB: 1024, MiB: 1024 * 1024, KB: 1000, kB: 1000, MB: 1000 * 1000 };

/** Each stated size: where, by the words around it, of which built file. */
const STATED = [
  { doc: "README.md", words: `main thread, ${SIZE} with brotli`, file: "card/ilpgnn-card.wasm", measure: "brotli" },
  { doc: "wasm/card/README.md", words: `\\| \`ilpgnn-card\\.wasm\` \\| ${SIZE} \\|`, file: "card/ilpgnn-card.wasm", measure: "raw" },
  { doc: "wasm/card/README.md", words: `\\| \`ilpgnn-card\\.wasm\` \\| [^|]+ \\| \\*\\*${SIZE}\\*\\*`, file: "card/ilpgnn-card.wasm", measure: "brotli" },
  { doc: "wasm/card/README.md", words: `\\| \`ilpgnn\\.wasm\`, the app's engine, for comparison \\| ${SIZE} \\|`, file: "ilpgnn.wasm", measure: "raw" },
  { doc: "wasm/card/README.md", words: `the app's engine, for comparison \\| [^|]+ \\| ${SIZE} \\|`, file: "ilpgnn.wasm", measure: "brotli" },
  { doc: "wasm/card/README.md", words: `card's WebAssembly is ${SIZE} as gzip`, file: "card/ilpgnn-card.wasm", measure: "gzip" },
  { doc: "wasm/card/README.md", words: `as gzip and ${SIZE} as brotli`, file: "card/ilpgnn-card.wasm", measure: "brotli" },
  { doc: "docs/test-time.md", words: `brotli compressing the ${SIZE} wasm`, file: "ilpgnn.wasm", measure: "raw" },
  { doc: "docs/test-time.md", words: `26 s of the build for the ${SIZE} wasm`, file: "ilpgnn.wasm", measure: "raw" },
];

/** Sizes near those words that are not a built file's size now, and why. */
const UNCHECKED = [
  { doc: "wasm/card/README.md", words: `the limit is ${SIZE}`, why: "the card's limit, which frontend/e2e/card.test.mjs checks" },
  { doc: "wasm/card/README.md", words: `\\| [^|]+ \\| ${SIZE} \\| ${SIZE} \\| (?:a probe|the card)`, why: "a change's effect, measured when it was made" },
  { doc: "wasm/card/README.md", words: `the bundle \\(${SIZE} with brotli\\)`, why: "Cora's bundle, written by ilpgnn export from a trained model, not by the build" },
  { doc: "core/bundle/FORMAT.md", words: `${SIZE} raw, ${SIZE} with brotli\\. - H\\^r is ${SIZE}`, why: "Cora's bundle, written by ilpgnn export, not by the build" },
  { doc: "docs/test-time.md", words: `\\(${SIZE} against ${SIZE}\\)`, why: "brotli's quality 11 against 10 on the engine, an experiment's record" },
];

const NEAR = /\b(card|engine|wasm|WebAssembly|bundle|brotli)\b/i;
const MEMORY = /memory|peak|holds/i;

if (!existsSync(join(site, "ilpgnn.wasm")) || !existsSync(join(site, "card", "ilpgnn-card.wasm"))) {
  console.error(`check-sizes: no built site in ${site}: run make site first`);
  process.exit(1);
}

/** The built size of file: its bytes, or its brotli twin's. */
function built(file, measure) {
  const twin = { raw: "", gzip: ".gz", brotli: ".br" }[measure];
  if (twin === undefined) throw new Error(`unknown measure ${measure} of ${file}`);
  const path = join(site, file + twin);
  if (!existsSync(path)) throw new Error(`${path} is missing: was the site built by make site?`);
  return statSync(path).size;
}

const bytesOf = (num, unit) => Number(num.replaceAll(",", "")) * UNITS[unit];
const fold = (doc) => readFileSync(doc, "utf8").replace(/\s+/g, " ");

const failures = [];
const covered = new Map(); // doc -> [start, end) spans of known sizes
const cover = (doc, start, end) => {
  if (!covered.has(doc)) covered.set(doc, []);
  covered.get(doc).push([start, end]);
};

for (const s of STATED) {
  const text = fold(s.doc);
  const m = new RegExp(s.words).exec(text);
  if (!m) {
    failures.push(`${s.doc}: no longer says /${s.words}/ (the size of ${s.file}, ${s.measure}): update scripts/check-sizes.mjs's STATED`);
    continue;
  }
  cover(s.doc, m.index, m.index + m[0].length);
  const stated = bytesOf(m[1], m[2]);
  const actual = built(s.file, s.measure);
  const drift = Math.abs(stated - actual) / actual;
  const line = `${s.doc}: "${m[1]} ${m[2]}" for ${s.file} (${s.measure}), built ${actual} bytes`;
  if (drift > TOLERANCE) failures.push(`${line}: ${(100 * drift).toFixed(1)}% off`);
  else console.log(`ok ${line}`);
}
for (const u of UNCHECKED) {
  const matches = [...fold(u.doc).matchAll(new RegExp(u.words, "g"))];
  if (matches.length === 0) failures.push(`${u.doc}: no longer says /${u.words}/ (${u.why}): update scripts/check-sizes.mjs's UNCHECKED`);
  for (const m of matches) cover(u.doc, m.index, m.index + m[0].length);
}

const docs = execFileSync("git", ["ls-files", "*.md"], { encoding: "utf8" }).split("\n").filter(Boolean);
for (const doc of docs) {
  const text = fold(doc);
  for (const m of text.matchAll(new RegExp(SIZE, "g"))) {
    const before = text.slice(Math.max(0, m.index - 60), m.index);
    if (!NEAR.test(before) || MEMORY.test(before)) continue;
    const known = (covered.get(doc) ?? []).some(([a, b]) => a <= m.index && m.index < b);
    if (!known) failures.push(`${doc}: "…${before.slice(-40)}${m[0]}" states a size the check does not know: add it to STATED (which built file) or UNCHECKED (why not)`);
  }
}

if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`every stated size is within ${100 * TOLERANCE}% of the built file's`);
