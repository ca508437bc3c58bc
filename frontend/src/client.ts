// Page side of the engine protocol (wasm/PROTOCOL.md): allocates request ids,
// routes replies, turns error replies into EngineError and maps AbortSignal
// onto the protocol's `cancel`.

import {
  PROTOCOL_VERSION,
  type CheckpointList,
  type EngineInfo,
  type ErrorCode,
  type ErrorInfo,
  type Evaluation,
  type Explanation,
  type StepProgress,
  type FidelityResult,
  type FileMap,
  type GraphDescription,
  type GraphExportResult,
  type GraphInfo,
  type Hyperparameter,
  type ImportResult,
  type Insight,
  type ModelInfo,
  type NoArgs,
  type OpArgs,
  type OpName,
  type OpNeedsFiles,
  type OpProgress,
  type OpValue,
  type Preset,
  type RankingResult,
  type RequestMessage,
  type StorageInfo,
  type SaveStatus,
  type Suggestion,
  type TrainArgs,
  type TrainSelect,
  type Comparison,
  type ModelName,
  type TrainConfig,
  type TrainProgress,
  type TrainResult,
  type TuneArgs,
  type TuneProgress,
  type TuneResult,
} from "./protocol";

/** The part of the `Worker` interface the client uses (tests pass a fake). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "messageerror" | "error", listener: (event: Event) => void): void;
  terminate(): void;
}

/**
 * Errors raised on the page's side rather than by the engine: `fatal` (the
 * engine could not start or stopped) and `terminated` ({@link EngineClient.terminate}).
 */
export type ClientErrorCode = "fatal" | "terminated";

/** Options of {@link EngineClient}. */
export interface ClientOptions {
  /** Told about messages the client ignores (unknown id, wrong `v`, malformed) and other oddities; never throws. */
  onWarning?: (message: string, data?: unknown) => void;
  /** Told once when the engine becomes unusable (fatal message, worker error before ready, or terminate). */
  onFatal?: (error: EngineError) => void;
  /** Told when the engine says, unasked, that its checkpoint store changed (`storage` message): another tab upgraded the database. */
  onStorage?: (storage: StorageInfo) => void;
}

/** Options of {@link EngineClient.request}. */
export interface RequestOptions<O extends OpName = OpName> {
  /** Files sent with the request, keyed by file name. */
  files?: FileMap;
  /** Called for each progress event, in arrival order (`train`, `tune`, `fidelity`, `ranking`). */
  onProgress?: [OpProgress<O>] extends [never] ? never : (progress: OpProgress<O>) => void;
  /**
   * Aborting a `train` or `tune` sends `cancel`; the promise then resolves with the
   * engine's result (`cancelled: true`). Aborting anything else rejects at
   * once with an `AbortError` DOMException and the late reply is dropped. An
   * already aborted signal rejects with `AbortError` and sends nothing.
   */
  signal?: AbortSignal;
  /**
   * Transfer the files' buffers to the worker instead of copying them
   * (default true). The caller's arrays are then detached (length 0). A view
   * on part of a buffer, a shared buffer or a buffer used twice is copied
   * first, so only the viewed bytes cross and nothing else is detached.
   */
  transfer?: boolean;
}

/**
 * Parameters of `request(op, ...)`: args may be left out where every arg is
 * optional; ops that carry files (`load`, `checkpoints.import`) need
 * `options.files`.
 */
export type RequestParams<O extends OpName> =
  OpNeedsFiles<O> extends true
    ? [args: OpArgs<O> | undefined, options: RequestOptions<O> & { files: FileMap }]
    : NoArgs extends OpArgs<O>
      ? [args?: OpArgs<O>, options?: RequestOptions<O>]
      : [args: OpArgs<O>, options?: RequestOptions<O>];

/** Options of {@link EngineClient.train}. */
export interface TrainOptions {
  onProgress?: (progress: TrainProgress) => void;
  /** Aborting sends `cancel`; the promise resolves with the cancelled result. */
  signal?: AbortSignal;
  /** Default `ilpgnn`; a baseline of table 1 reports metrics only. */
  model?: ModelName;
  seed?: number;
  select?: TrainSelect;
  save?: boolean;
  saveOnCancel?: boolean;
  /** Web Workers computing an ILP-GNN epoch's shards (default: the engine's, cores − 1). */
  workers?: number;
}

/** Options of {@link EngineClient.tune}. */
export interface TuneOptions {
  /** Called after every trial, in order. */
  onProgress?: (progress: TuneProgress) => void;
  /** Aborting sends `cancel`; the promise resolves with the trials done (`cancelled: true`). */
  signal?: AbortSignal;
  /** Default `ilpgnn`. */
  model?: ModelName;
  seed?: number;
}

/** Options of {@link EngineClient.fidelity}. */
export interface FidelityOptions {
  /** Called after each M, in order. */
  onProgress?: (progress: StepProgress) => void;
  /**
   * Aborting rejects at once with an `AbortError`; the engine cannot stop a
   * fidelity run, so it finishes it and the reply is dropped.
   */
  signal?: AbortSignal;
}

/** Options of {@link EngineClient.ranking}. */
export interface RankingOptions {
  /** Called after the drawing of the negatives and after each chunk of pairs scored, in order. */
  onProgress?: (progress: StepProgress) => void;
  /**
   * Aborting rejects at once with an `AbortError`; the engine cannot stop a
   * ranking, so it finishes it (keeping the negatives it drew) and the reply is dropped.
   */
  signal?: AbortSignal;
}

/** An error reply from the engine, or a client-side failure ({@link ClientErrorCode}). */
export class EngineError extends Error {
  override readonly name = "EngineError";
  /** The protocol's error code, or `fatal` / `terminated`. */
  readonly code: ErrorCode | ClientErrorCode;
  /** The engine's message, without the file/line prefix of {@link message}. */
  readonly detail: string;
  /** For `bad_input`: the file that could not be read. */
  readonly file: string | undefined;
  /** For `bad_input`: 1-based line, 0 or undefined when there is none. */
  readonly line: number | undefined;
  /** The operation of the failed request (undefined for fatal/terminated outside a request). */
  readonly op: OpName | undefined;

  constructor(error: { code: ErrorCode | ClientErrorCode; message: string; file?: string | undefined; line?: number | undefined }, op?: OpName) {
    super(locate(error.message, error.file, error.line));
    this.code = error.code;
    this.detail = error.message;
    this.file = error.file;
    this.line = error.line;
    this.op = op;
  }
}

/** "cora.cites line 12: message", "edges.csv: message" or just "message". */
function locate(message: string, file: string | undefined, line: number | undefined): string {
  if (file === undefined || file === "") return message;
  return line !== undefined && line > 0 ? `${file} line ${line}: ${message}` : `${file}: ${message}`;
}

function abortError(op: OpName): DOMException {
  return new DOMException(`${op} was aborted`, "AbortError");
}

/** Ops whose result reply must carry `bytes` (the client merges them into the value). */
const OPS_WITH_BYTES: ReadonlySet<OpName> = new Set<OpName>(["checkpoints.export", "card.export", "graph.export"]);

interface Pending {
  op: OpName;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  onProgress: ((progress: unknown) => void) | undefined;
  /** Detaches the abort listener. */
  cleanup: () => void;
  cancelSent: boolean;
}

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === "object" && value !== null;
}

/**
 * Talks to the engine worker. Requests may be sent before `ready` settles:
 * the worker queues them until the WebAssembly module runs.
 */
export class EngineClient {
  /** Resolves with the engine's `ready` info; rejects on `fatal` (or terminate before ready). */
  readonly ready: Promise<EngineInfo>;

  private readonly worker: WorkerLike;
  private readonly options: ClientOptions;
  private readonly pending = new Map<number, Pending>();
  /** Ids aborted on the page whose late reply is dropped without a warning. */
  private readonly abandoned = new Set<number>();
  private nextId = 1;
  private isReady = false;
  private failure: EngineError | undefined;
  private resolveReady!: (info: EngineInfo) => void;
  private rejectReady!: (error: EngineError) => void;

  constructor(worker: WorkerLike, options: ClientOptions = {}) {
    this.worker = worker;
    this.options = options;
    this.ready = new Promise<EngineInfo>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // A page that only sends requests should not see an unhandled rejection
    // of `ready`; awaiting `ready` still sees it.
    this.ready.catch(() => undefined);
    worker.addEventListener("message", (event) => this.receive(event.data));
    worker.addEventListener("messageerror", () => this.warn("a message from the engine could not be deserialized"));
    worker.addEventListener("error", (event) => this.workerError(event));
  }

  /** The error that ended the engine (fatal or terminate), if any. */
  get error(): EngineError | undefined {
    return this.failure;
  }

  /** Number of requests awaiting a reply. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Sends `op` and resolves with its typed result (with `bytes` merged in
   * for `checkpoints.export`); rejects with {@link EngineError} on an error
   * reply, fatal or terminate, or with an `AbortError` (see {@link RequestOptions.signal}).
   */
  request<O extends OpName>(op: O, ...params: RequestParams<O>): Promise<OpValue<O>> {
    const [args, options] = params as [OpArgs<O> | undefined, RequestOptions<O> | undefined];
    return this.send(op, args, options ?? {}) as Promise<OpValue<O>>;
  }

  /** Stops the worker; every pending request (and `ready`, if unsettled) rejects with code `terminated`. */
  terminate(): void {
    if (this.failure === undefined) {
      this.fail(new EngineError({ code: "terminated", message: "the engine was terminated" }));
    }
    this.worker.terminate();
  }

  // --- convenience methods ---------------------------------------------------

  /** `info`: the engine's version and storage availability. */
  info(): Promise<EngineInfo> {
    return this.request("info");
  }

  /** `defaults`: every hyperparameter of a model (default ILP-GNN) with its default and help. */
  async defaults(model?: ModelName): Promise<Hyperparameter[]> {
    return (await this.request("defaults", model === undefined ? undefined : { model })).hyperparameters;
  }

  /** `load`: loads a graph from files keyed by name (buffers are transferred unless `transfer: false`). */
  loadFiles(files: FileMap, options: { name?: string; signal?: AbortSignal; transfer?: boolean } = {}): Promise<GraphInfo> {
    const { name, ...rest } = options;
    return this.request("load", name === undefined ? {} : { name }, { ...rest, files });
  }

  /** Reads browser `File`s (an `<input type=file multiple>`'s FileList, or a drop) and loads them. */
  async loadFileList(
    files: FileList | Iterable<File> | ArrayLike<File>,
    options: { name?: string; signal?: AbortSignal } = {},
  ): Promise<GraphInfo> {
    const list = Array.from(files as Iterable<File> | ArrayLike<File>);
    const contents = await Promise.all(list.map(async (file) => [file.name, new Uint8Array(await file.arrayBuffer())] as const));
    const map: FileMap = {};
    for (const [name, bytes] of contents) {
      if (name in map) this.warn(`two files named ${name}: the last one is loaded`);
      map[name] = bytes;
    }
    // The buffers were just read and belong to nobody else: always transfer.
    return this.loadFiles(map, { ...options, transfer: true });
  }

  /** `generate`: a synthetic graph with groundtruth explanations. */
  generate(preset: Preset, seed: number): Promise<GraphInfo> {
    return this.request("generate", { preset, seed });
  }

  /** `describe`: node ids, degrees, labels and the edge list of the loaded graph. */
  describe(): Promise<GraphDescription> {
    return this.request("describe");
  }

  /** `train`, with per-epoch progress; aborting `signal` cancels the run (the promise resolves with `cancelled: true`). */
  train(config?: TrainConfig, options: TrainOptions = {}): Promise<TrainResult> {
    const { onProgress, signal, model, seed, select, save, saveOnCancel, workers } = options;
    const args: TrainArgs = compact({ model, config, seed, select, save, saveOnCancel, workers });
    return this.request("train", args, compact({ onProgress, signal }));
  }

  /**
   * `tune`: chooses the model's hyperparameters on validation AUC within a
   * time budget, with a progress event per trial; `config` are settings
   * every candidate keeps. Aborting `signal` cancels the search (the
   * promise resolves with `cancelled: true`).
   */
  tune(budgetSeconds: number, config?: TrainConfig, options: TuneOptions = {}): Promise<TuneResult> {
    const { onProgress, signal, model, seed } = options;
    const args: TuneArgs = { ...compact({ model, config, seed }), budgetSeconds };
    return this.request("tune", args, compact({ onProgress, signal }));
  }

  /** `evaluate`: AUCs (and explanation precision on synthetic graphs) of the current model. */
  evaluate(): Promise<Evaluation> {
    return this.request("evaluate");
  }

  /** `explain`: why the model scores the link between nodes `i` and `j` (0-based indices). */
  explain(i: number, j: number): Promise<Explanation> {
    return this.request("explain", { i, j });
  }

  /** `insight`: weights and scores of the neighbours the model selects for its linked and unlinked test pairs (the paper's figure 6). */
  insight(): Promise<Insight> {
    return this.request("insight");
  }

  /**
   * `fidelity`: test AUC and its drop when the top-M neighbours of every
   * test pair are removed, M = 1..`maxM` (engine default 4, at most 10),
   * with a progress event per M (the paper's figure 3).
   */
  fidelity(maxM?: number, options: FidelityOptions = {}): Promise<FidelityResult> {
    const { onProgress, signal } = options;
    return this.request("fidelity", maxM === undefined ? {} : { maxM }, compact({ onProgress, signal }));
  }

  /**
   * `ranking`: each test link of the model's split ranked among hard
   * negatives of its own (HeaRT, docs/heart.md), by the model and, to
   * compare, by common neighbours and Adamic-Adar; the negatives are drawn
   * once per model, with a progress event after the drawing and each chunk.
   */
  ranking(options: RankingOptions = {}): Promise<RankingResult> {
    const { onProgress, signal } = options;
    return this.request("ranking", undefined, compact({ onProgress, signal }));
  }

  /** `suggest`: the most probable new links of `node` (engine default `top` = 10). */
  suggest(node: number, top?: number): Promise<Suggestion[]> {
    return this.request("suggest", top === undefined ? { node } : { node, top });
  }

  /** `compare`: the neighbours the trained GNN baselines name for (i, j), beside ILP-GNN's explanation. */
  compare(i: number, j: number, top?: number): Promise<Comparison> {
    return this.request("compare", top === undefined ? { i, j } : { i, j, top });
  }

  /** `checkpoints.list`: stored checkpoints, newest first. */
  listCheckpoints(): Promise<CheckpointList> {
    return this.request("checkpoints.list");
  }

  /** `checkpoints.save`: stores the current model. */
  saveCheckpoint(): Promise<SaveStatus> {
    return this.request("checkpoints.save");
  }

  /** `checkpoints.load`: makes a stored checkpoint the current model. */
  loadCheckpoint(key: string): Promise<ModelInfo> {
    return this.request("checkpoints.load", { key });
  }

  /** `checkpoints.delete`. */
  deleteCheckpoint(key: string): Promise<{ deleted: true }> {
    return this.request("checkpoints.delete", { key });
  }

  /** `checkpoints.export`: the checkpoint file of `key` (default: the current model). */
  async exportCheckpoint(key?: string): Promise<{ filename: string; bytes: Uint8Array }> {
    const { filename, bytes } = await this.request("checkpoints.export", key === undefined ? {} : { key });
    return { filename, bytes };
  }

  /**
   * `card.export`: a zip of the folder `ilpgnn export` writes for the
   * current model, with a card per pair (node indices); `files` are the
   * card's own files, by name.
   */
  async exportCard(pairs: { i: number; j: number }[], files: FileMap): Promise<{ filename: string; bytes: Uint8Array }> {
    const { filename, bytes } = await this.request("card.export", { pairs }, { files, transfer: false });
    return { filename, bytes };
  }

  /**
   * `graph.export`: a zip of the loaded graph in DGL's chunked graph format
   * with a link-prediction split: that of `seed` and the shares where
   * given, else the current model's, else `train`'s defaults.
   */
  exportGraph(split: { seed?: number; valFrac?: number; testFrac?: number } = {}): Promise<GraphExportResult & { bytes: Uint8Array }> {
    return this.request("graph.export", { format: "dgl", ...compact(split) });
  }

  /** `checkpoints.import`: stores a checkpoint file (its buffer is transferred unless `transfer: false`). */
  importCheckpoint(name: string, bytes: Uint8Array, options: { transfer?: boolean } = {}): Promise<ImportResult> {
    return this.request("checkpoints.import", {}, { ...options, files: { [name]: bytes } });
  }

  // --- internals --------------------------------------------------------------

  private send(op: OpName, args: object | undefined, options: RequestOptions): Promise<unknown> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(op));

    const id = this.nextId++;
    const message: RequestMessage = { v: PROTOCOL_VERSION, id, op };
    if (args !== undefined) message.args = compact(args) as OpArgs<OpName>;
    let transfer: ArrayBuffer[] = [];
    if (options.files !== undefined) {
      const prepared = prepareFiles(options.files, options.transfer ?? true);
      message.files = prepared.files;
      transfer = prepared.transfer;
    }

    return new Promise<unknown>((resolve, reject) => {
      const onAbort = (): void => this.abort(id);
      const entry: Pending = {
        op,
        resolve,
        reject,
        onProgress: options.onProgress as ((progress: unknown) => void) | undefined,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
        cancelSent: false,
      };
      this.pending.set(id, entry);
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        this.worker.postMessage(message, transfer);
      } catch (error) {
        // DataCloneError (e.g. an already detached buffer) or a dead worker.
        this.settle(id);
        reject(error);
      }
    });
  }

  private abort(id: number): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    if (entry.op === "train" || entry.op === "tune") {
      // The protocol can stop a run or a search: it ends within an epoch
      // with a result whose `cancelled` is true, which resolves the promise.
      if (entry.cancelSent) return;
      entry.cancelSent = true;
      this.send("cancel", { target: id }, {}).catch((error: unknown) => {
        if (this.failure === undefined) this.warn(`cancel of ${entry.op} request ${id} failed`, error);
      });
      return;
    }
    // Other ops cannot be stopped in the engine: forget the request and drop
    // its reply when it comes.
    this.settle(id);
    this.abandoned.add(id);
    entry.reject(abortError(entry.op));
  }

  /** Removes a pending request and detaches its abort listener. */
  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (entry === undefined) return undefined;
    this.pending.delete(id);
    entry.cleanup();
    return entry;
  }

  private receive(data: unknown): void {
    if (this.failure !== undefined) return; // nothing is waiting any more
    if (!isDict(data)) {
      this.warn("ignored a message that is not an object", data);
      return;
    }
    if (data["v"] !== PROTOCOL_VERSION) {
      this.warn(`ignored a message with protocol version ${String(data["v"])}`, data);
      return;
    }
    switch (data["type"]) {
      case "ready":
        if (this.isReady) {
          this.warn("ignored a second ready message", data);
          return;
        }
        this.isReady = true;
        this.resolveReady(data["engine"] as EngineInfo);
        return;
      case "fatal":
        this.fail(new EngineError({ code: "fatal", message: String(data["message"] ?? "the engine stopped") }));
        return;
      case "progress":
      case "result":
      case "error":
        this.route(data);
        return;
      case "storage":
        this.storageNews(data);
        return;
      default:
        this.warn(`ignored a message of unknown type ${String(data["type"])}`, data);
    }
  }

  private storageNews(data: Dict): void {
    const s = data["storage"];
    if (!isDict(s) || typeof s["available"] !== "boolean") {
      this.warn("ignored a storage message without storage info", data);
      return;
    }
    const info: StorageInfo = { available: s["available"] };
    if (typeof s["message"] === "string") info.message = s["message"];
    try {
      this.options.onStorage?.(info);
    } catch (error) {
      this.warn("onStorage threw", error);
    }
  }

  private route(data: Dict): void {
    const id = data["id"];
    const type = data["type"];
    if (typeof id !== "number") {
      this.warn(`ignored a ${String(type)} message without a numeric id`, data);
      return;
    }
    const entry = this.pending.get(id);
    if (entry === undefined) {
      if (this.abandoned.has(id)) {
        if (type !== "progress") this.abandoned.delete(id);
        return;
      }
      this.warn(`ignored a ${String(type)} message for unknown request id ${id}`, data);
      return;
    }

    if (type === "progress") {
      if (entry.onProgress === undefined) return;
      try {
        entry.onProgress(data["progress"]);
      } catch (error) {
        // A bug in the page's callback must not break routing.
        this.warn(`onProgress of request ${id} threw`, error);
      }
      return;
    }

    this.settle(id);
    if (type === "error") {
      entry.reject(new EngineError(errorInfo(data["error"]), entry.op));
      return;
    }
    const result = data["result"];
    const bytes = data["bytes"];
    if (bytes instanceof Uint8Array && isDict(result)) {
      entry.resolve({ ...result, bytes });
    } else if (OPS_WITH_BYTES.has(entry.op)) {
      entry.reject(new EngineError({ code: "internal", message: `the ${entry.op} reply carries no bytes` }, entry.op));
    } else {
      entry.resolve(result);
    }
  }

  /** A Worker `error` event: before ready the bootstrap itself failed (e.g. worker.js not found). */
  private workerError(event: Event): void {
    const detail = (event as Partial<ErrorEvent>).message;
    if (this.isReady) {
      this.warn(`error in the engine worker${detail ? `: ${detail}` : ""}`, event);
      return;
    }
    this.fail(new EngineError({ code: "fatal", message: detail ? `the engine worker failed: ${detail}` : "the engine worker failed to start" }));
  }

  private fail(error: EngineError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    if (!this.isReady) this.rejectReady(error);
    const entries = [...this.pending.values()];
    this.pending.clear();
    this.abandoned.clear();
    for (const entry of entries) {
      entry.cleanup();
      entry.reject(new EngineError({ code: error.code, message: error.detail }, entry.op));
    }
    this.options.onFatal?.(error);
  }

  private warn(message: string, data?: unknown): void {
    try {
      this.options.onWarning?.(message, data);
    } catch {
      // Warnings are advisory; a throwing handler must not break routing.
    }
  }
}

/** Reads an error reply's `error`, tolerating a malformed one. */
function errorInfo(value: unknown): ErrorInfo {
  if (!isDict(value)) return { code: "internal", message: "malformed error reply" };
  const info: ErrorInfo = {
    code: typeof value["code"] === "string" ? (value["code"] as ErrorCode) : "internal",
    message: typeof value["message"] === "string" ? value["message"] : "unknown error",
  };
  if (typeof value["file"] === "string") info.file = value["file"];
  if (typeof value["line"] === "number") info.line = value["line"];
  return info;
}

/** Drops keys whose value is undefined, so they are absent on the wire rather than `undefined`. */
function compact<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Dict = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** Chooses the buffers to transfer; see {@link RequestOptions.transfer}. */
function prepareFiles(files: FileMap, transfer: boolean): { files: FileMap; transfer: ArrayBuffer[] } {
  if (!transfer) return { files, transfer: [] };
  const out: FileMap = {};
  const buffers = new Set<ArrayBuffer>();
  for (const [name, bytes] of Object.entries(files)) {
    const buffer = bytes.buffer;
    const whole = buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
    if (whole && !buffers.has(buffer)) {
      buffers.add(buffer);
      out[name] = bytes;
    } else {
      const copy = bytes.slice();
      buffers.add(copy.buffer);
      out[name] = copy;
    }
  }
  return { files: out, transfer: [...buffers] };
}
