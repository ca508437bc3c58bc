// The graph view's test page (./page.ts and ./index.html) built into a
// temporary folder with the layout worker and Amazon Photo's graph, for the
// browser test (../graphview.test.mjs) and bench-app's graph view section
// (../../scripts/bench-app.mjs). Serve the folder at /gv/ next to the
// shared datasets at /data/ (serve({ mounts: [["/gv/", dir]] })).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..", "..");
export const datasets = resolve(root, "..", "shared", "datasets");

/** A gnn-benchmark .npz's (Amazon Photo's, Coauthor CS's; stored, uncompressed) symmetrised edges, labels and class names. */
export function readPhoto(file) {
  const buf = readFileSync(file);
  const members = new Map();
  for (let off = 0; buf.readUInt32LE(off) === 0x04034b50; ) {
    const method = buf.readUInt16LE(off + 8), size = buf.readUInt32LE(off + 18);
    const nameLen = buf.readUInt16LE(off + 26), extraLen = buf.readUInt16LE(off + 28);
    const name = buf.subarray(off + 30, off + 30 + nameLen).toString();
    const start = off + 30 + nameLen + extraLen;
    if (method !== 0) throw new Error(`${name}: compressed members are not supported`);
    members.set(name, buf.subarray(start, start + size));
    off = start + size;
  }
  const npy = (name) => {
    const b = members.get(name);
    const headerLen = b.readUInt16LE(8);
    const header = b.subarray(10, 10 + headerLen).toString();
    const body = b.subarray(10 + headerLen);
    return { header, body: body.buffer.slice(body.byteOffset, body.byteOffset + body.length) };
  };
  const indices = new Int32Array(npy("adj_indices.npy").body);
  const indptr = new Int32Array(npy("adj_indptr.npy").body);
  const labels64 = new BigInt64Array(npy("labels.npy").body);
  const classNames = [];
  const names = npy("class_names.npy");
  const unicode = /<U(\d+)/.exec(names.header);
  if (unicode) {
    const width = Number(unicode[1]);
    const text = Buffer.from(names.body);
    for (let o = 0; o < text.length; o += 4 * width) {
      let s = "";
      for (let c = 0; c < width; c++) {
        const cp = text.readUInt32LE(o + 4 * c);
        if (cp) s += String.fromCodePoint(cp);
      }
      classNames.push(s);
    }
  } else {
    // Coauthor CS stores its names as pickled objects: number the classes instead.
    for (let c = 0, k = Math.max(-1, ...Array.from(labels64, Number)) + 1; c < k; c++) classNames.push(`class ${c}`);
  }
  const n = indptr.length - 1;
  const seen = new Set();
  const edges = [];
  for (let i = 0; i < n; i++) {
    for (let p = indptr[i]; p < indptr[i + 1]; p++) {
      const j = indices[p];
      if (i === j) continue;
      const key = Math.min(i, j) * n + Math.max(i, j);
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push(Math.min(i, j), Math.max(i, j));
    }
  }
  return { edges: Uint32Array.from(edges), labels: Int32Array.from(labels64, Number), classNames };
}

/** Bundles the page and the layout worker and writes Photo's files into a new temporary folder; returns the folder. */
export async function buildGraphviewPage() {
  const dir = mkdtempSync(join(tmpdir(), "graphview-"));
  const common = { bundle: true, target: "es2022", platform: "browser", logLevel: "warning", sourcemap: "inline" };
  await Promise.all([
    build({ ...common, entryPoints: [join(here, "page.ts")], outfile: join(dir, "page.js"), format: "esm" }),
    build({ ...common, entryPoints: [join(root, "frontend", "src", "app", "graph", "layout-worker.ts")], outfile: join(dir, "layout.js"), format: "iife" }),
  ]);
  copyFileSync(join(here, "index.html"), join(dir, "index.html"));
  writeGraph(dir, "photo", readPhoto(join(datasets, "amazon_photo", "amazon_electronics_photo.npz")));
  return dir;
}

/** Writes graph g ({ edges, labels, classNames }) into the page's folder as `name`, for page.ts's gv.load(name). */
export function writeGraph(dir, name, g) {
  writeFileSync(join(dir, `${name}-edges.bin`), Buffer.from(g.edges.buffer, g.edges.byteOffset, g.edges.byteLength));
  writeFileSync(join(dir, `${name}-labels.bin`), Buffer.from(g.labels.buffer, g.labels.byteOffset, g.labels.byteLength));
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ classNames: g.classNames }));
}
