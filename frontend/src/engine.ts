// Page entry point (bundled as build/site/engine.js).

import { EngineClient, type ClientOptions } from "./client";

export { EngineClient, EngineError } from "./client";
export type { ClientErrorCode, ClientOptions, RequestOptions, RequestParams, TrainOptions, WorkerLike } from "./client";
export * from "./protocol";

/**
 * Starts the engine in a dedicated classic Worker (the bootstrap uses
 * `importScripts`) and returns its client. A relative `workerUrl` is
 * resolved against this module's URL, not the page's, so the page can live
 * anywhere while engine.js, worker.js, wasm_exec.js and ilpgnn.wasm sit
 * together. Pass `worker.js?wasm=other.wasm` to load another module.
 */
export function startEngine(workerUrl: string | URL = "worker.js", options?: ClientOptions): EngineClient {
  const worker = new Worker(new URL(workerUrl, import.meta.url), { type: "classic" });
  return new EngineClient(worker, options);
}
