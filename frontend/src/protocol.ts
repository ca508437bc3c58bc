// Types of the engine protocol, version 1 (wasm/PROTOCOL.md is the
// contract). The value types, the args and results of every operation and
// the error codes are generated from the engine's Go types into
// protocol.gen.ts (go test ./wasm/engine -run TestProtocolTS -update); this
// file re-exports them and adds what Go does not describe: the typing of
// requests and replies by operation, and the message envelopes. Nothing here
// touches DOM or worker globals, so both the page and the worker bootstrap
// can import it.

import type { EngineInfo, ErrorInfo, Ops, ProtocolVersion, StorageInfo, TrainArgs } from "./protocol.gen";

export * from "./protocol.gen";

/** Files sent with `load` and `checkpoints.import`, keyed by file name. */
export type FileMap = Record<string, Uint8Array>;

/** Hyperparameter overrides of `train`, by their `defaults` names. */
export type TrainConfig = NonNullable<TrainArgs["config"]>;

// ---------------------------------------------------------------------------
// Operations

/** Name of an operation. */
export type OpName = keyof Ops;

/** The `args` of operation `O`. */
export type OpArgs<O extends OpName> = Ops[O]["args"];

/** The `result` field of a reply to operation `O`, as on the wire. */
export type OpResult<O extends OpName> = Ops[O]["result"];

/** What a client resolves a request with: the result, plus `bytes` where the reply carries them. */
export type OpValue<O extends OpName> = Ops[O] extends { bytes: true }
  ? OpResult<O> & { bytes: Uint8Array }
  : OpResult<O>;

/** Progress event payload of operation `O` (`never` for ops without progress). */
export type OpProgress<O extends OpName> = Ops[O] extends { progress: infer P } ? P : never;

/** Progress event payload of any operation that has them. */
export type AnyProgress = { [O in OpName]: OpProgress<O> }[OpName];

/** True for operations that must carry files. */
export type OpNeedsFiles<O extends OpName> = Ops[O] extends { files: true } ? true : false;

// ---------------------------------------------------------------------------
// Messages

/** A request, page → worker. */
export interface RequestMessage<O extends OpName = OpName> {
  v: ProtocolVersion;
  /** Chosen by the page, unique among its pending requests. */
  id: number;
  op: O;
  args?: OpArgs<O>;
  files?: FileMap;
}

/** Sent once, first, when the engine is running. */
export interface ReadyMessage {
  v: ProtocolVersion;
  type: "ready";
  engine: EngineInfo;
}

/** Progress of a running request (`train`, `tune`, `fidelity`, `ranking`). */
export interface ProgressMessage {
  v: ProtocolVersion;
  type: "progress";
  id: number;
  progress: AnyProgress;
}

/** Successful end of a request. */
export interface ResultMessage {
  v: ProtocolVersion;
  type: "result";
  id: number;
  result: unknown;
  bytes?: Uint8Array;
}

/** Failed end of a request; `id` is -1 when the request's id was not a number. */
export interface ErrorMessage {
  v: ProtocolVersion;
  type: "error";
  id: number;
  error: ErrorInfo;
}

/** The WebAssembly module could not start, or the Go program ended. */
export interface FatalMessage {
  v: ProtocolVersion;
  type: "fatal";
  message: string;
}

/** Unasked, after ready: the checkpoint store stopped being usable (another tab upgraded its database). */
export interface StorageMessage {
  v: ProtocolVersion;
  type: "storage";
  storage: StorageInfo;
}

/** Any message worker → page. */
export type WorkerMessage = ReadyMessage | ProgressMessage | ResultMessage | ErrorMessage | FatalMessage | StorageMessage;
