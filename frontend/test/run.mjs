// The frontend's single check command: `node frontend/test/run.mjs`.
// Type-checks the page code, the worker bootstrap and the tests (three
// programs, because the DOM and webworker libs cannot share one), bundles
// the tests and the worker into build/frontend-test/, and runs them with
// node's test runner. Exits non-zero if anything fails.

import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const frontend = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(frontend, "..");
const out = join(root, "build", "frontend-test");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

let failed = false;
function run(label, args) {
  console.log(`\n# ${label}`);
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (status !== 0) {
    console.log(`# ${label}: FAILED`);
    failed = true;
  }
}

run("tsc --noEmit -p frontend (page)", [tsc, "--noEmit", "-p", "frontend"]);
run("tsc --noEmit -p frontend/tsconfig.worker.json (worker)", [tsc, "--noEmit", "-p", "frontend/tsconfig.worker.json"]);
run("tsc --noEmit -p frontend/tsconfig.test.json (tests)", [tsc, "--noEmit", "-p", "frontend/tsconfig.test.json"]);

rmSync(out, { recursive: true, force: true });
const tests = readdirSync(join(frontend, "test"))
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => join(frontend, "test", name));
await build({
  entryPoints: tests,
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "inline",
  logLevel: "warning",
});
await build({
  entryPoints: [join(frontend, "src", "worker.ts")],
  outfile: join(out, "worker.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  logLevel: "warning",
});

const compiled = tests.map((file) => join(out, file.slice(join(frontend, "test").length + 1).replace(/\.ts$/, ".mjs")));
run("node --test", ["--enable-source-maps", "--test", ...compiled]);

console.log(failed ? "\nFAILED" : "\nall frontend checks passed");
process.exit(failed ? 1 : 0);
