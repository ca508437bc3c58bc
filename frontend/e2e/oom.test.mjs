// An engine that runs out of memory, in headless Chromium: the site's real
// worker bootstrap and client, with ilpgnn.wasm replaced by a stand-in Go
// program (testdata/oom) that holds ever more memory on its first request
// until Go's runtime cannot grow the WebAssembly memory. The request must
// fail with a message that says so (not "exit code 2"), the page must stay
// alive, and the app must say in its status line what happened and how to
// go on. Run with `node --test frontend/e2e/oom.test.mjs` after
// `make site`; the test builds the stand-in with `go build`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, root } from "./server.mjs";
import { launch, openHarness, appPage, WAIT } from "./browser.mjs";

let server, browser, dir;

before(() => {
  // The built site with the stand-in as its engine (and no compressed
  // twins of the real one, which the server would prefer).
  dir = mkdtempSync(join(tmpdir(), "ilpgnn-oom-site-"));
  const site = join(root, "build", "site");
  for (const name of readdirSync(site)) if (!name.startsWith("ilpgnn.wasm")) symlinkSync(join(site, name), join(dir, name));
  execFileSync(process.env.GO ?? "go", ["build", "-o", join(dir, "ilpgnn.wasm"), "./frontend/e2e/testdata/oom"], {
    cwd: root,
    env: { ...process.env, GOOS: "js", GOARCH: "wasm" },
    stdio: ["ignore", "inherit", "inherit"],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("an engine out of memory fails its request saying so", async () => {
  server = await serve({ site: dir });
  browser = await launch();
  const { page, errors, ready } = await openHarness(browser.context, server.origin);
  assert.equal(ready.ok?.version, "oom-test");
  const r = await page.evaluate(() => window.harness.generate("sparse", 1));
  assert.equal(r.error?.code, "fatal", JSON.stringify(r));
  assert.match(r.error.message, /^the engine ran out of memory \(its WebAssembly memory had grown to [\d.]+ (MiB|GiB)\): .*out of memory.*\. A browser tab's WebAssembly memory is limited/);
  // The page is alive and later requests fail at once, with the same error.
  const again = await page.evaluate(() => window.harness.describe());
  assert.equal(again.error?.message, r.error.message);
  assert.deepEqual(errors, []);
}, { timeout: WAIT });

test("the app says the engine ran out of memory and how to go on", async () => {
  const errors = [];
  const page = await appPage(browser.context, errors);
  // The app asks for the demo graph as it starts: the stand-in's first request.
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => /^The engine stopped: /.test(document.getElementById("status").textContent), null, { timeout: WAIT });
  assert.match(
    await page.textContent("#status"),
    /^The engine stopped: the engine ran out of memory \(its WebAssembly memory had grown to [\d.]+ (MiB|GiB)\): .*\. Reload the page to start it again; the models stored in this browser are kept\.$/,
  );
  assert.deepEqual(errors, []);
}, { timeout: WAIT });
