// A stand-in for the engine Worker: records what the client posts (after a
// real structured clone with the transfer list, so detaching and
// DataCloneError behave as in a browser) and lets a test post replies.

import type { WorkerLike } from "../src/client";
import type { ErrorInfo, RequestMessage, TrainProgress, TuneProgress } from "../src/protocol";

/** One postMessage call as the worker would receive it. */
export interface Posted {
  message: RequestMessage;
  transfer: Transferable[];
}

type Listener = (event: Event) => void;

/** Fake dedicated Worker; replies are delivered synchronously. */
export class FakeWorker implements WorkerLike {
  readonly posted: Posted[] = [];
  terminated = false;
  private readonly listeners = new Map<string, Listener[]>();

  postMessage(message: unknown, transfer: Transferable[]): void {
    if (this.terminated) throw new Error("postMessage after terminate");
    const clone = structuredClone(message, { transfer }) as RequestMessage;
    this.posted.push({ message: clone, transfer });
  }

  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "messageerror" | "error", listener: (event: Event) => void): void;
  addEventListener(type: string, listener: (event: never) => void): void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener as Listener);
    this.listeners.set(type, list);
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The last request posted. */
  get last(): RequestMessage {
    const posted = this.posted.at(-1);
    if (posted === undefined) throw new Error("nothing posted");
    return posted.message;
  }

  /** Delivers `data` as a message event from the worker. */
  emit(data: unknown): void {
    this.dispatch("message", { data } as MessageEvent);
  }

  /** Delivers a Worker `error` event (script failed to load, uncaught error). */
  emitError(message: string): void {
    this.dispatch("error", { message } as ErrorEvent);
  }

  ready(): void {
    this.emit({ v: 1, type: "ready", engine: { protocol: 1, version: "test", storage: { available: true }, models: [{ name: "ilpgnn", about: "self-explaining, SPEC", learns: true, saves: true, explanation: "neighbour selection" }] } });
  }

  result(id: number, result: unknown, bytes?: Uint8Array): void {
    this.emit(bytes === undefined ? { v: 1, type: "result", id, result } : { v: 1, type: "result", id, result, bytes });
  }

  error(id: number, error: ErrorInfo): void {
    this.emit({ v: 1, type: "error", id, error });
  }

  progress(id: number, progress: Partial<TrainProgress> | Partial<TuneProgress>): void {
    this.emit({ v: 1, type: "progress", id, progress });
  }

  private dispatch(type: string, event: Event): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
