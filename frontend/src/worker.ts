/// <reference lib="webworker" />
// Bootstrap of the engine's dedicated (classic) Worker, bundled as
// build/site/worker.js. It loads Go's wasm_exec.js and the engine module,
// queues the page's messages until the Go program says it is ready, then
// hands every message to the Go handler. The Go program posts its replies
// itself.
//
// The wasm URL comes from this script's query (`worker.js?wasm=x.wasm`),
// resolved against this script's URL; default `ilpgnn.wasm`.
//
// `?role=shard` makes the worker a helper of the engine (wasm/README.md):
// the engine's worker starts helpers itself, from this script, to compute
// shards of large training epochs. A helper talks to the engine's worker
// only, in bytes; when it cannot start or its program stops, it posts
// `{ type: "failed", message }` (HelperFailure) instead of the page
// protocol's fatal message.

import { KEPT_LINES, exitMessage, isReason } from "./engine-exit";
import { PROTOCOL_VERSION, type FatalMessage } from "./protocol";

/** The part of wasm_exec.js's `Go` class used here. */
interface GoRuntime {
  importObject: WebAssembly.Imports;
  /** Resolves when the Go program exits. */
  run(instance: WebAssembly.Instance): Promise<void>;
  exit: (code: number) => void;
}

declare global {
  /** Defined by wasm_exec.js. */
  var Go: (new () => GoRuntime) | undefined;
  /** Defined by the Go program: handles one request. */
  var ilpgnnHandle: ((message: unknown) => void) | undefined;
  /** Called by the Go program once `ilpgnnHandle` is defined. */
  var ilpgnnReady: (() => void) | undefined;
  /** Read by the Go program: which program it runs. */
  var ilpgnnRole: Role | undefined;
  /** Read by the engine's Go program: the script URL of its helpers. */
  var ilpgnnHelperURL: string | undefined;
}

/** The worker's role: the page's engine, or a helper computing shards for it. */
export type Role = "engine" | "shard";

/** What a helper posts to the engine's worker when it cannot go on. */
export interface HelperFailure {
  type: "failed";
  message: string;
}

// The lib types `self` as any worker scope; this one is dedicated (postMessage).
const scope = self as DedicatedWorkerGlobalScope;

let handler: ((message: unknown) => void) | undefined;
let dead = false;
/** Messages that arrived before the handler was installed, in order. */
const queue: unknown[] = [];

/**
 * What the Go program printed: wasm_exec.js writes Go's stdout and stderr
 * with console.log, a crash's reason among them (and there it stays). Its
 * reason lines are kept apart, since the goroutine dump after them is
 * longer than the last lines kept.
 */
const reasons: string[] = [];
const output: string[] = [];
const log = console.log.bind(console);
console.log = (...args: unknown[]) => {
  for (const line of args.map(String).join(" ").split("\n")) {
    if (isReason(line) && reasons.length < KEPT_LINES) reasons.push(line);
    output.push(line);
  }
  if (output.length > KEPT_LINES) output.splice(0, output.length - KEPT_LINES);
  log(...args);
};

/** The role `?role=` names; an unknown one is an error (thrown, reported as the engine's). */
function roleOf(href: string): Role {
  const role = new URL(href).searchParams.get("role");
  if (role === null || role === "engine") return "engine";
  if (role === "shard") return role;
  throw new Error(`unknown worker role ${JSON.stringify(role)}`);
}

let role: Role = "engine";

function fatal(message: string): void {
  if (dead) return; // one fatal is enough: the page rejects everything on it
  dead = true;
  queue.length = 0;
  if (role === "shard") {
    const failure: HelperFailure = { type: "failed", message };
    scope.postMessage(failure);
    return;
  }
  const reply: FatalMessage = { v: PROTOCOL_VERSION, type: "fatal", message };
  scope.postMessage(reply);
}

/** An error's message; duck-typed, since DOMExceptions and errors from other realms are not always `instanceof Error`. */
function describe(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") return error.message;
  return String(error);
}

function deliver(message: unknown): void {
  if (dead || handler === undefined) return;
  try {
    handler(message);
  } catch (error) {
    // The handler throws only when the Go program is gone (wasm_exec.js:
    // "Go program has already exited") or a panic escaped it.
    fatal(`the engine failed: ${describe(error)}`);
  }
}

// Listen first, so nothing the page sends during start-up is lost.
scope.addEventListener("message", (event: MessageEvent) => {
  if (dead) return;
  if (handler === undefined || queue.length > 0) queue.push(event.data);
  else deliver(event.data);
});

globalThis.ilpgnnReady = () => {
  const handle = globalThis.ilpgnnHandle;
  if (typeof handle !== "function") {
    fatal("the engine called ilpgnnReady without defining ilpgnnHandle");
    return;
  }
  // Drain after Go's call into JavaScript returns rather than re-entering Go
  // from inside it; messages that arrive meanwhile queue behind the others.
  queueMicrotask(() => {
    handler = handle;
    while (queue.length > 0 && !dead) deliver(queue.shift());
  });
};

/** The wasm module's URL from `?wasm=`, which must stay on this origin. */
function wasmUrl(): URL {
  const here = new URL(scope.location.href);
  const url = new URL(here.searchParams.get("wasm") ?? "ilpgnn.wasm", here);
  if (url.origin !== here.origin) throw new Error(`refusing to load the engine from another origin (${url.origin})`);
  return url;
}

async function instantiate(url: URL, imports: WebAssembly.Imports): Promise<WebAssembly.Instance> {
  if (typeof WebAssembly.instantiateStreaming === "function") {
    try {
      return (await WebAssembly.instantiateStreaming(fetch(url), imports)).instance;
    } catch (error) {
      // An invalid module fails the same way without streaming; anything else
      // (typically a server sending the wrong MIME type) gets a second try.
      if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) throw error;
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status} ${response.statusText}`.trim());
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

/** The script URL of this engine's helpers: this script, in the helper role, with the same module. */
function helperUrl(wasm: URL): string {
  const url = new URL(scope.location.href);
  url.search = "";
  url.searchParams.set("role", "shard");
  url.searchParams.set("wasm", wasm.href);
  return url.href;
}

async function start(): Promise<void> {
  try {
    role = roleOf(scope.location.href);
    globalThis.ilpgnnRole = role;
    const wasm = wasmUrl();
    if (role === "engine") globalThis.ilpgnnHelperURL = helperUrl(wasm);
    scope.importScripts("wasm_exec.js");
    const GoClass = globalThis.Go;
    if (typeof GoClass !== "function") throw new Error("wasm_exec.js did not define Go");
    const go = new GoClass();
    const instance = await instantiate(wasm, go.importObject);
    let code: number | undefined;
    const exit = go.exit;
    go.exit = (c: number) => {
      code = c;
      exit(c);
    };
    // Go's linear memory is exported as "mem"; duck-typed, as in describe.
    const memory = instance.exports["mem"] as { buffer?: { byteLength?: unknown } } | undefined;
    const memoryBytes = () => {
      const n = memory?.buffer?.byteLength;
      return typeof n === "number" ? n : undefined;
    };
    // The Go program blocks forever while serving; its end is always fatal.
    go.run(instance).then(
      () => fatal(exitMessage(code, [...reasons, ...output], memoryBytes())),
      (error: unknown) => fatal(`the engine crashed: ${describe(error)}`),
    );
  } catch (error) {
    fatal(`the engine could not start: ${describe(error)}`);
  }
}

void start();
