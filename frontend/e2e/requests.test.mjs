// Browser test of the worker under messages the page's client never sends:
// each gets an error reply naming the problem, and the engine keeps serving.
// Run with `node --test frontend/e2e/` after `make site`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "./server.mjs";
import { launch, openHarness, WAIT } from "./browser.mjs";

let server, browser;

before(async () => {
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("malformed requests get error replies and the worker keeps serving", async () => {
  const { page, errors } = await openHarness(browser.context, server.origin);
  const got = await page.evaluate(async (wait) => {
    const worker = window.harness.engine.worker; // private to TypeScript only
    const replies = [];
    const last = new Promise((resolve) => {
      worker.addEventListener("message", (event) => {
        const m = event.data;
        if (m.type !== "error" || !(m.id === -1 || m.id >= 9000)) return;
        replies.push({ id: m.id, code: m.error.code, message: m.error.message });
        if (m.id === 9003) resolve();
      });
      // A worker that died never answers: fail on the count below instead
      // of hanging (generous: this is not a timing assertion).
      setTimeout(resolve, wait);
    });
    const cyclic = { i: 1 };
    cyclic.self = cyclic;
    worker.postMessage({ v: 1, id: 9001, op: "explain", args: cyclic });
    worker.postMessage({ v: 1, id: 9002, op: "suggest", args: { node: 10n } });
    worker.postMessage({ v: 1, op: "info" });
    worker.postMessage({ v: 1, id: 1.5, op: "info" });
    worker.postMessage("info");
    worker.postMessage({ v: "1", id: 9003, op: "info" });
    await last;
    return replies;
  }, WAIT);
  // Requests are answered in arrival order; JSON.stringify's refusals come
  // before the id is read, so they carry id -1.
  const want = [
    [-1, "bad_request", /circular/i],
    [-1, "bad_request", /BigInt/],
    [-1, "bad_request", /id must be an integer/],
    [-1, "bad_request", /id must be an integer/],
    [-1, "bad_request", /want an object/],
    [9003, "unsupported_version", /v must be the protocol version/],
  ];
  assert.equal(got.length, want.length, JSON.stringify(got));
  want.forEach(([id, code, message], k) => {
    assert.equal(got[k].id, id, `reply ${k}: ${JSON.stringify(got[k])}`);
    assert.equal(got[k].code, code, `reply ${k}: ${JSON.stringify(got[k])}`);
    assert.match(got[k].message, message);
  });
  const list = await page.evaluate(() => window.harness.list());
  assert.ok(!list.error && Array.isArray(list.ok.checkpoints), `the engine still serves: ${JSON.stringify(list)}`);
  assert.deepEqual(errors, []);
});
