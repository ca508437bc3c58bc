// Test harness page: starts the real engine worker from the built site and
// exposes a few steps for the browser tests to call with page.evaluate.
import { startEngine, EngineError } from "../engine.js";

const engine = startEngine("worker.js");
const progress = [];
const prepares = []; // ILP-GNN's preparation reports, before epoch 1

function plain(err) {
  return err instanceof EngineError
    ? { name: err.name, code: err.code, message: err.message, detail: err.detail, file: err.file, line: err.line }
    : { name: err?.name, message: String(err?.message ?? err) };
}

// Each step resolves to plain data; failures come back as {error}.
async function step(fn) {
  try {
    return { ok: await fn() };
  } catch (err) {
    return { error: plain(err) };
  }
}

window.harness = {
  engine,
  progress,
  ready: () => step(() => engine.ready),
  generate: (preset, seed) => step(() => engine.generate(preset, seed)),
  describe: () => step(() => engine.describe()),
  train: (config, opts = {}) =>
    step(async () => {
      progress.length = 0;
      prepares.length = 0;
      const ctl = new AbortController();
      const res = engine.train(config, {
        ...opts,
        signal: ctl.signal,
        onProgress: (p) => {
          if (p.prepare) {
            prepares.push(p);
            return;
          }
          progress.push({ ...p, at: performance.now() });
          if (opts.abortAfter && progress.length === opts.abortAfter) ctl.abort();
        },
      });
      return { result: await res, progress: progress.slice(), prepares: prepares.slice() };
    }),
  explain: (i, j) => step(() => engine.explain(i, j)),
  suggest: (n, top) => step(() => engine.suggest(n, top)),
  compare: (i, j, top) => step(() => engine.compare(i, j, top)),
  evaluate: () => step(() => engine.evaluate()),
  list: () => step(() => engine.listCheckpoints()),
  loadCheckpoint: (key) => step(() => engine.loadCheckpoint(key)),
  exportCheckpoint: (key) =>
    step(async () => {
      const { filename, bytes } = await engine.exportCheckpoint(key);
      const digest = await crypto.subtle.digest("SHA-256", bytes);
      const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      let bin = "";
      for (let k = 0; k < bytes.length; k += 0x8000) bin += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
      return { filename, size: bytes.length, sha256: hex, base64: btoa(bin) };
    }),
  deleteCheckpoint: (key) => step(() => engine.deleteCheckpoint(key)),
  importBase64: (name, b64) =>
    step(() => engine.importCheckpoint(name, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)))),
  loadText: (files) =>
    step(() => {
      const enc = new TextEncoder();
      return engine.loadFiles(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])));
    }),
  loadUrls: (urls) =>
    step(async () => {
      const files = {};
      for (const [name, url] of Object.entries(urls)) {
        const r = await fetch(url);
        if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
        files[name] = new Uint8Array(await r.arrayBuffer());
      }
      return engine.loadFiles(files);
    }),
};
document.title += " (ready)";
