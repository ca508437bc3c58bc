// Times one Cora training epoch through the engine four ways, interleaved
// round by round so that they share the machine's conditions: native Go on
// one thread and on all cores, WebAssembly under node, and WebAssembly in
// the real worker in headless Chromium. Every way runs the same request
// (wasm/engine BenchmarkCoraEpoch; frontend/e2e's harness in the browser):
// 12 epochs, the median of epochs 3-12. Prints medians over rounds and the
// ratios. Usage (after `make site`): node frontend/scripts/bench-epoch.mjs [rounds]
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve, root } from "../e2e/server.mjs";
import { launch, openHarness } from "../e2e/browser.mjs";

const rounds = Number(process.argv[2] ?? 5);
const epochs = 12;
const skip = 2;

function goBench(env, extra) {
  const out = execFileSync("go", ["test", "-run=^$", "-bench=CoraEpoch", "-benchtime=1x", "-count=1", ...extra, "./wasm/engine"], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  const m = out.match(/([\d.]+) ms\/epoch/);
  if (!m) throw new Error(`no ms/epoch in:\n${out}`);
  return Number(m[1]);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await serve();
const browser = await launch();
const { page, ready } = await openHarness(browser.context, server.origin);
if (ready.error) throw new Error(JSON.stringify(ready.error));

async function chromiumEpoch() {
  const g = await page.evaluate(() =>
    window.harness.loadUrls({ "cora.content": "/data/cora/cora.content", "cora.cites": "/data/cora/cora.cites" }),
  );
  if (g.error) throw new Error(JSON.stringify(g.error));
  const run = await page.evaluate((n) => window.harness.train({ epochs: n, patience: n }, { save: false }), epochs);
  if (run.error) throw new Error(JSON.stringify(run.error));
  const p = run.ok.progress;
  const d = [];
  for (let k = skip; k < p.length; k++) d.push(p[k].elapsedMs - p[k - 1].elapsedMs);
  return median(d);
}

const times = { native1: [], nativeAll: [], node: [], chromium: [] };
const exec = join(root, "wasm", "testdata", "node_exec");
for (let r = 1; r <= rounds; r++) {
  times.native1.push(goBench({}, ["-cpu=1"]));
  times.nativeAll.push(goBench({}, []));
  times.node.push(goBench({ GOOS: "js", GOARCH: "wasm" }, [`-exec=${exec}`]));
  times.chromium.push(await chromiumEpoch());
  console.error(`round ${r}: ` + Object.entries(times).map(([k, v]) => `${k} ${v.at(-1).toFixed(1)}`).join(", "));
}
await browser.close();
await server.close();

const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const cores = execFileSync("nproc", { encoding: "utf8" }).trim();
console.log(`Cora epoch, median of ${rounds} rounds (each the median of epochs ${skip + 1}-${epochs}), ms:`);
console.log(`  native, 1 thread      ${med.native1.toFixed(1)}`);
console.log(`  native, ${cores} threads     ${med.nativeAll.toFixed(1)}`);
console.log(`  wasm, node            ${med.node.toFixed(1)}   ${(med.node / med.native1).toFixed(2)}x native 1 thread, ${(med.node / med.nativeAll).toFixed(2)}x native ${cores} threads`);
console.log(`  wasm, Chromium worker ${med.chromium.toFixed(1)}   ${(med.chromium / med.native1).toFixed(2)}x native 1 thread, ${(med.chromium / med.nativeAll).toFixed(2)}x native ${cores} threads`);
writeFileSync(join(root, "build", "bench-epoch.json"), JSON.stringify({ rounds, times, medians: med }, null, 2) + "\n");
