// Runs the bundled worker bootstrap (build/frontend-test/worker.js, built by
// run.mjs from src/worker.ts) in a vm context with fake worker globals: a
// fake Go runtime, fetch and WebAssembly.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import vm from "node:vm";

const bundle = readFileSync(new URL("./worker.js", import.meta.url), "utf8");

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await tick();
}

interface Options {
  /** The worker script's URL. */
  href?: string;
  /** instantiateStreaming fails like a server sending the wrong MIME type. */
  streamingFails?: boolean;
  /** HTTP status of the wasm fetch. */
  status?: number;
  /** importScripts throws (wasm_exec.js missing). */
  noWasmExec?: boolean;
  /** The fake Go program defines its handler and calls ilpgnnReady only when the test says so. */
  manualReady?: boolean;
  /** The size of the Go program's exported memory ("mem"), bytes. */
  memoryBytes?: number;
}

/** A sandboxed worker scope plus what it did. */
function startWorker(options: Options = {}) {
  const posted: unknown[] = [];
  const handled: unknown[] = [];
  const fetched: string[] = [];
  const imported: string[] = [];
  const instantiated: string[] = [];
  let listener: ((event: { data: unknown }) => void) | undefined;
  let exitProgram: ((code: number) => void) | undefined;
  let becomeReady: (() => void) | undefined;

  const instance = { exports: options.memoryBytes === undefined ? {} : { mem: { buffer: { byteLength: options.memoryBytes } } } };
  /** What reached the console (wasm_exec.js prints the Go program's output there). */
  const logged: string[] = [];
  const sandbox: Record<string, unknown> = {};

  class FakeGo {
    importObject = { go: {} };
    exit = (_code: number): void => undefined;
    run(inst: unknown): Promise<void> {
      assert.equal(inst, instance);
      becomeReady = () => {
        sandbox["ilpgnnHandle"] = (message: unknown) => handled.push(message);
        (sandbox["ilpgnnReady"] as () => void)();
      };
      if (!options.manualReady) becomeReady();
      return new Promise((resolve) => {
        exitProgram = (code) => {
          this.exit(code);
          resolve();
        };
      });
    }
  }

  const response = (url: string) => ({
    ok: (options.status ?? 200) === 200,
    status: options.status ?? 200,
    statusText: options.status === 404 ? "Not Found" : "OK",
    url,
    arrayBuffer: async () => new ArrayBuffer(8),
  });

  Object.assign(sandbox, {
    location: { href: options.href ?? "http://localhost:8080/site/worker.js" },
    URL,
    queueMicrotask,
    console: { log: (...args: unknown[]) => logged.push(args.join(" ")) },
    importScripts: (name: string) => {
      imported.push(name);
      if (options.noWasmExec) throw new Error(`failed to load ${name}`);
      sandbox["Go"] = FakeGo;
    },
    fetch: async (url: URL | string) => {
      fetched.push(String(url));
      return response(String(url));
    },
    WebAssembly: {
      CompileError: WebAssembly.CompileError,
      LinkError: WebAssembly.LinkError,
      instantiateStreaming: async (source: Promise<ReturnType<typeof response>>) => {
        const res = await source;
        if (!res.ok) throw new TypeError("bad response");
        if (options.streamingFails) throw new TypeError("Incorrect response MIME type. Expected 'application/wasm'.");
        instantiated.push("streaming");
        return { module: {}, instance };
      },
      instantiate: async (bytes: ArrayBuffer) => {
        assert.ok(bytes instanceof ArrayBuffer);
        instantiated.push("buffer");
        return { module: {}, instance };
      },
    },
    // Copied out of the sandbox's realm so deepEqual compares plain objects.
    postMessage: (message: unknown) => posted.push(JSON.parse(JSON.stringify(message))),
    addEventListener: (type: string, fn: (event: { data: unknown }) => void) => {
      if (type === "message") listener = fn;
    },
  });
  sandbox["self"] = sandbox;
  vm.createContext(sandbox);
  vm.runInContext(bundle, sandbox);

  return {
    posted,
    handled,
    fetched,
    imported,
    instantiated,
    logged,
    /** The Go program writes text, as wasm_exec.js's writeSync passes it to console.log. */
    print: (text: string) => (sandbox["console"] as { log: (s: string) => void }).log(text),
    send: (data: unknown) => listener?.({ data }),
    exit: (code: number) => exitProgram?.(code),
    ready: () => becomeReady?.(),
    /** A global the bootstrap set for the Go program. */
    global: (name: string) => sandbox[name],
  };
}

describe("worker bootstrap", () => {
  test("loads wasm_exec.js and streams ilpgnn.wasm next to the script", async () => {
    const w = startWorker();
    await settle();
    assert.deepEqual(w.imported, ["wasm_exec.js"]);
    assert.deepEqual(w.fetched, ["http://localhost:8080/site/ilpgnn.wasm"]);
    assert.deepEqual(w.instantiated, ["streaming"]);
    assert.deepEqual(w.posted, [], "the Go program, not the bootstrap, posts ready");
  });

  test("takes the wasm URL from ?wasm=", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?wasm=wasm/dev.wasm" });
    await settle();
    assert.deepEqual(w.fetched, ["http://localhost:8080/site/wasm/dev.wasm"]);
  });

  test("refuses a wasm URL on another origin", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?wasm=https://example.invalid/x.wasm" });
    await settle();
    assert.deepEqual(w.fetched, []);
    assert.equal(w.posted.length, 1);
    assert.match(String((w.posted[0] as { message: string }).message), /another origin/);
  });

  test("falls back to fetch + arrayBuffer when streaming fails", async () => {
    const w = startWorker({ streamingFails: true });
    await settle();
    assert.equal(w.fetched.length, 2);
    assert.deepEqual(w.instantiated, ["buffer"]);
    assert.deepEqual(w.posted, []);
  });

  test("queues messages until ready, then delivers them in order", async () => {
    const w = startWorker({ manualReady: true });
    w.send({ id: 1 });
    await settle();
    w.send({ id: 2 });
    w.ready();
    w.send({ id: 3 }); // after ready, before the queue drained
    assert.deepEqual(w.handled, []);
    await settle();
    assert.deepEqual(w.handled, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    w.send({ id: 4 });
    assert.deepEqual(w.handled.at(-1), { id: 4 }, "afterwards messages go straight to the handler");
  });

  test("posts fatal when the module cannot be fetched", async () => {
    const w = startWorker({ status: 404 });
    await settle();
    assert.deepEqual(w.posted, [{ v: 1, type: "fatal", message: "the engine could not start: /site/ilpgnn.wasm: HTTP 404 Not Found" }]);
  });

  test("posts fatal when wasm_exec.js cannot be loaded", async () => {
    const w = startWorker({ noWasmExec: true });
    await settle();
    assert.equal(w.posted.length, 1);
    assert.deepEqual(w.posted[0], { v: 1, type: "fatal", message: "the engine could not start: failed to load wasm_exec.js" });
  });

  test("posts fatal once when the Go program exits", async () => {
    const w = startWorker();
    await settle();
    w.exit(2);
    await settle();
    assert.deepEqual(w.posted, [{ v: 1, type: "fatal", message: "the engine stopped (exit code 2)" }]);
    w.send({ id: 9 });
    assert.deepEqual(w.handled, [], "nothing reaches a dead engine");
  });

  test("an engine that ran out of memory says so, with its memory's size and Go's reason", async () => {
    const w = startWorker({ memoryBytes: 4 * 2 ** 30 - 2 ** 26 });
    await settle();
    // What Go's runtime prints when the linear memory cannot grow (wasm_exec.js
    // passes everything up to the last newline in one call).
    w.print("progress line\nruntime: out of memory: cannot allocate 8388608-byte block (4160749568 in use)\nfatal error: out of memory");
    w.print("");
    // Go then dumps every goroutine: far more lines than the worker keeps.
    for (let k = 0; k < 500; k++) w.print(`goroutine ${k} [running]:\n\truntime.gopark(0x0)\n`);
    w.exit(2);
    await settle();
    assert.deepEqual(w.posted, [{
      v: 1,
      type: "fatal",
      message: "the engine ran out of memory (its WebAssembly memory had grown to 3.9 GiB): runtime: out of memory: cannot allocate 8388608-byte block (4160749568 in use). " +
        "A browser tab's WebAssembly memory is limited (4 GiB at most, often less); this graph with these settings needs more",
    }]);
    // The output still reaches the console.
    assert.equal(w.logged.length, 502);
    assert.match(w.logged[0]!, /^progress line\nruntime: out of memory/);
  });

  test("a panic names itself and the exit code", async () => {
    const w = startWorker({ memoryBytes: 50 * 2 ** 20 });
    await settle();
    w.print("panic: runtime error: index out of range [3] with length 2");
    w.exit(2);
    await settle();
    assert.deepEqual(w.posted, [{ v: 1, type: "fatal", message: "the engine crashed (exit code 2) (its WebAssembly memory had grown to 50 MiB): panic: runtime error: index out of range [3] with length 2" }]);
  });

  test("an engine tells its Go program its role and its helpers' script: this one, with the same module", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?wasm=wasm/dev.wasm" });
    await settle();
    assert.equal(w.global("ilpgnnRole"), "engine");
    const helper = new URL(String(w.global("ilpgnnHelperURL")));
    assert.equal(helper.origin + helper.pathname, "http://localhost:8080/site/worker.js");
    assert.equal(helper.searchParams.get("role"), "shard");
    assert.equal(helper.searchParams.get("wasm"), "http://localhost:8080/site/wasm/dev.wasm");
    // The helper, started from that URL, loads the engine's module.
    const h = startWorker({ href: helper.href });
    await settle();
    assert.equal(h.global("ilpgnnRole"), "shard");
    assert.equal(h.global("ilpgnnHelperURL"), undefined, "helpers start no helpers");
    assert.deepEqual(h.fetched, ["http://localhost:8080/site/wasm/dev.wasm"]);
    assert.deepEqual(h.posted, []);
  });

  test("a helper reports a failure to start to the engine's worker, not the page protocol's fatal", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?role=shard&wasm=ilpgnn.wasm", status: 404 });
    await settle();
    assert.deepEqual(w.posted, [{ type: "failed", message: "the engine could not start: /site/ilpgnn.wasm: HTTP 404 Not Found" }]);
  });

  test("a helper whose program exits says so once, as a failure", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?role=shard" });
    await settle();
    w.print("panic: boom");
    w.exit(2);
    await settle();
    assert.deepEqual(w.posted, [{ type: "failed", message: "the engine crashed (exit code 2): panic: boom" }]);
  });

  test("a helper's wasm must stay on the origin", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?role=shard&wasm=https://example.invalid/x.wasm" });
    await settle();
    assert.deepEqual(w.fetched, []);
    assert.equal(w.posted.length, 1);
    assert.equal((w.posted[0] as { type: string }).type, "failed");
    assert.match(String((w.posted[0] as { message: string }).message), /another origin/);
  });

  test("an unknown role is refused", async () => {
    const w = startWorker({ href: "http://localhost:8080/site/worker.js?role=boss" });
    await settle();
    assert.deepEqual(w.fetched, []);
    assert.deepEqual(w.posted, [{ v: 1, type: "fatal", message: 'the engine could not start: unknown worker role "boss"' }]);
  });
});
