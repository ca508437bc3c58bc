// Builds the page side of the site into build/site/:
//   index.html, app.css, ...  copied from public/
//   app.js     the app (ESM), loaded by index.html
//   layout.js  the force-layout worker (IIFE)
//   worker.js  the engine Worker's bootstrap (IIFE: a classic worker, for importScripts)
//   engine.js  ESM exporting startEngine, EngineClient, EngineError (for embedders and tests)
// all minified with linked source maps. Usage: `node frontend/build.mjs`.
// wasm_exec.js (from Go's GOROOT/lib/wasm) and ilpgnn.wasm must be placed
// next to them by the Go build; this script does not produce them.

import { cpSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const frontend = dirname(fileURLToPath(import.meta.url));
const root = resolve(frontend, "..");
const site = join(root, "build", "site");

const common = {
  bundle: true,
  minify: true,
  sourcemap: "linked",
  target: "es2022",
  platform: "browser",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  // Leave the sources out of the maps: third-party headers carry URLs the
  // external-URL check below would (rightly) refuse to ship.
  sourcesContent: false,
};

cpSync(join(root, "public"), site, { recursive: true });

const results = await Promise.all([
  build({ ...common, entryPoints: [join(frontend, "src", "app", "main.ts")], outfile: join(site, "app.js"), format: "esm" }),
  build({ ...common, entryPoints: [join(frontend, "src", "app", "graph", "layout-worker.ts")], outfile: join(site, "layout.js"), format: "iife" }),
  build({ ...common, entryPoints: [join(frontend, "src", "worker.ts")], outfile: join(site, "worker.js"), format: "iife" }),
  build({ ...common, entryPoints: [join(frontend, "src", "engine.ts")], outfile: join(site, "engine.js"), format: "esm" }),
]);

// The site must work offline from its own origin: refuse any absolute URL in
// the output (source maps included).
const outputs = results.flatMap((r) => Object.keys(r.metafile.outputs)).map((file) => resolve(root, file));
let bad = false;
for (const file of outputs) {
  const match = /\b(?:https?|wss?):\/\/[^\s"'`)]*/.exec(readFileSync(file, "utf8"));
  if (match) {
    console.error(`${relative(root, file)} references an external URL: ${match[0]}`);
    bad = true;
  }
}
for (const file of outputs) {
  console.log(`${relative(root, file).padEnd(28)} ${String(statSync(file).size).padStart(7)} bytes`);
}
process.exit(bad ? 1 : 0);
