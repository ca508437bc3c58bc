// A static server for the browser tests: build/site at /, this folder at
// /e2e/, and the shared datasets at /data/ (for the Cora benchmark). Like a
// good static host it serves .wasm as application/wasm and sends the
// precompressed .br or .gz twin of a file when the browser accepts it;
// with compress: false it is a plain one, as python3 -m http.server is:
// every file as it is, a .gz twin as application/gzip and never with a
// Content-Encoding.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, "..", "..");

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".gz": "application/gzip",
};

async function exists(p) {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * Starts the server on a free loopback port. `wrongWasmType` serves .wasm as
 * application/octet-stream, as a misconfigured host would; `compress: false`
 * never sends a twin in a file's place.
 */
export async function serve({ site = join(root, "build", "site"), datasets = resolve(root, "..", "shared", "datasets"), wrongWasmType = false, compress = true, mounts: extra = [] } = {}) {
  // extra: [[prefix, dir], ...] served before the defaults, e.g. a test's own bundle.
  const mounts = [
    ...extra,
    ["/e2e/", here],
    ["/data/", datasets],
    ["/", site],
  ];
  const log = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const entry = { method: req.method, path: url.pathname, encoding: "" };
    log.push(entry);
    let path = decodeURIComponent(url.pathname);
    if (path.endsWith("/")) path += "index.html";
    const [prefix, dir] = mounts.find(([p]) => path.startsWith(p));
    const file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    let type = types[extname(file)] ?? "application/octet-stream";
    if (wrongWasmType && type === "application/wasm") type = "application/octet-stream";
    const accept = String(req.headers["accept-encoding"] ?? "");
    let body = file;
    let encoding = "";
    for (const [enc, ext] of [["br", ".br"], ["gzip", ".gz"]]) {
      if (compress && accept.includes(enc) && (await exists(file + ext))) {
        body = file + ext;
        encoding = enc;
        break;
      }
    }
    if (!(await exists(body))) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    entry.encoding = encoding;
    const headers = { "content-type": type, "cache-control": "no-cache" };
    if (encoding) headers["content-encoding"] = encoding;
    res.writeHead(200, headers).end(await readFile(body));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, log, close: () => new Promise((ok) => server.close(ok)) };
}
