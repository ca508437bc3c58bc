// Types of the engine protocol, version 1 (wasm/PROTOCOL.md is the contract;
// keep this file in step with it). Nothing here touches DOM or worker
// globals, so both the page and the worker bootstrap can import it.

/** The protocol version this client speaks; every message carries it as `v`. */
export const PROTOCOL_VERSION = 1;

/** Literal type of {@link PROTOCOL_VERSION}. */
export type ProtocolVersion = typeof PROTOCOL_VERSION;

/** Files sent with `load` and `checkpoints.import`, keyed by file name. */
export type FileMap = Record<string, Uint8Array>;

// ---------------------------------------------------------------------------
// Value types

/** What the engine reports about itself (`ready` message and `info`). */
export interface EngineInfo {
  protocol: ProtocolVersion;
  version: string;
  /** `available` is false where IndexedDB is missing or refused; checkpoints then live only as long as the worker. */
  storage: { available: boolean; message?: string };
}

/** One hyperparameter as listed by `defaults`. */
export interface Hyperparameter {
  name: string;
  /** The default, as a string in the CLI's syntax. */
  value: string;
  help: string;
}

/** Degree and connectivity statistics of a graph. */
export interface GraphStats {
  density: number;
  minDegree: number;
  maxDegree: number;
  meanDegree: number;
  medianDegree: number;
  isolated: number;
  components: number;
  largestComponent: number;
}

/** Summary of the loaded (or generated) graph. */
export interface GraphInfo {
  name: string;
  /** Hex SHA-256 of the graph. */
  fingerprint: string;
  nodes: number;
  edges: number;
  featureDim: number;
  stats: GraphStats;
  hasLabels: boolean;
  hasGroundtruth: boolean;
  synthetic: { preset: string; seed: number } | null;
  /** Nodes the input named without a feature row (their features are zero). */
  missingFeatures: number;
  /** The first five of them, by id. */
  missingFeatureIds: string[];
}

/** Result of `describe`: the graph summary plus per-node data and the edge list. */
export interface GraphDescription extends GraphInfo {
  /** Node id (as in the input files) of each 0-based node index. */
  ids: string[];
  degrees: number[];
  labels: number[] | null;
  classNames: string[] | null;
  /** Flat `i0, j0, i1, j1, …`, each undirected edge once with `i < j`. */
  edgeList: number[];
}

/** Synthetic graph presets of `generate`. */
export type Preset = "sparse" | "medium" | "dense";

/** Per-epoch progress of a `train` request. */
export interface TrainProgress {
  /** 1-based. */
  epoch: number;
  maxEpochs: number;
  loss: number;
  cls: number;
  pos: number;
  neg: number;
  valAUC: number;
  bestValAUC: number;
  bestEpoch: number;
  /** The model selection criterion. */
  score: number;
  bestScore: number;
  elapsedMs: number;
  /**
   * The engine's estimate from the mean epoch time, counting the epochs
   * until early stopping if no better epoch comes (the page shows its own,
   * an upper bound: see app/estimate.ts).
   */
  remainingMs: number;
  /** Early stopping's patience in epochs (absent from engines before it was reported). */
  patience?: number;
  /** Memory the engine's Go runtime holds from the system (its WebAssembly memory, in the browser), bytes. */
  memoryBytes?: number;
  /**
   * Models that step once per mini-batch of pairs (seal, wp, conpi) report
   * within an epoch too: `batch` of `batches` done; `valAUC` and `score`
   * are then meaningful only when `batch === batches` (the epoch's end).
   */
  batch?: number;
  batches?: number;
  /**
   * Set on ILP-GNN's reports of its preparation, before epoch 1 (`epoch`
   * is then 0 and only `maxEpochs`, `elapsedMs` and `memoryBytes` mean
   * anything): the structure similarity counts columns, then the features
   * and the adjacency; each phase's last report has `done === total`.
   */
  prepare?: PrepareProgress;
}

/** How far ILP-GNN's preparation of the graph has got. */
export interface PrepareProgress {
  phase: string;
  done: number;
  total: number;
}

/** Whether (and under which key) a checkpoint was stored; `message` says why not. */
export interface SaveStatus {
  saved: boolean;
  key?: string;
  message?: string;
}

/** The current model. */
export interface ModelInfo {
  key: string;
  dataset: string;
  seed: number;
  /** Unix seconds. */
  created: number;
  testAUC: number;
  valAUC: number;
  bestEpoch: number;
  p1?: number;
  p2?: number;
  /** Every hyperparameter, as in `defaults`. */
  config: Record<string, string>;
  /** Set when these are the best weights of a run cancelled after that many epochs. */
  cancelledAtEpoch?: number;
}

/**
 * Hits@20, @50 and @100 of the test links against the test non-links, as
 * OGB's evaluator computes them: the share of links scoring above the k-th
 * best non-link (1 when there are fewer than k non-links).
 */
export interface Hits {
  "20": number;
  "50": number;
  "100": number;
}

/** Result of `train`; `cancelled` runs keep the best weights seen so far. */
export interface TrainResult extends ModelInfo {
  model: ModelName;
  cancelled: boolean;
  saved: SaveStatus;
  epochs: number;
  trainSeconds: number;
  /** Absent when a cancelled run of a pair model had not finished an epoch. */
  testHits?: Hits;
  /** Why the AUCs may mean little (a split with fewer than 10 test links). */
  warning?: string;
}

/** Result of `evaluate`; `p1`/`p2` (explanation Precision@1/@2) on synthetic graphs only. */
export interface Evaluation {
  testAUC: number;
  testHits: Hits;
  valAUC: number;
  p1?: number;
  p2?: number;
}

/** A stored checkpoint as listed (its weights are not read). */
export interface CheckpointMeta {
  key: string;
  schema: number;
  model: string;
  dataset: string;
  fingerprint: string;
  seed: number;
  created: number;
  /** By name; `cancelled_at_epoch` marks a cancelled run's weights (absent: a completed run). */
  metrics: Record<string, number>;
  /** The checkpoint's configuration, as JSON text. */
  config: string;
  /** Bytes of the encoded checkpoint. */
  size: number;
  /** Trained on the loaded graph. */
  matches: boolean;
}

/** Result of `checkpoints.list`, newest first. */
export interface CheckpointList {
  available: boolean;
  message?: string;
  checkpoints: CheckpointMeta[];
}

/** A neighbour's contribution to an explanation. */
export interface Neighbor {
  node: number;
  id: string;
  structure: number;
  features: number;
  score: number;
  common: boolean;
  selected: boolean;
  weight: number;
  rank: number;
}

/** One endpoint of an explained link. */
export interface Side {
  node: number;
  id: string;
  neighbors: Neighbor[];
}

/** Explanation of the link `(i, j)`, as `ilpgnn explain --json` prints it. */
export interface Explanation {
  i: Side;
  j: Side;
  prob: number;
  linked: boolean;
  masked: boolean;
  prob_random: number;
  prob_removed: number;
  reading: string;
  /** `explain` on a synthetic graph with groundtruth, when `(i, j)` is one of its explained links. */
  groundtruth?: Groundtruth;
}

/** The generator's reasons for a link of a synthetic graph (SPEC §8). */
export interface Groundtruth {
  /** GT(i|j): the neighbours of `i` that explain the link. */
  i: number[];
  /** GT(j|i): the neighbours of `j` that explain the link. */
  j: number[];
  /** The labelled set of the link. */
  role: "train" | "validation" | "test";
}

/**
 * Selected neighbours (N^r) of both ends of a set of pairs: one entry per
 * neighbour in `weight`, `score`, `structure` and `features` (pair by pair,
 * end `i` then end `j`, each end by descending score), and `prob` per pair.
 */
export interface Dist {
  /** b (eq 6). */
  weight: number[];
  /** s = α s_ST + (1-α) s_NO. */
  score: number[];
  structure: number[];
  features: number[];
  /** p_ij, one per pair. */
  prob: number[];
}

/** Result of `insight`: what the model aggregates for the linked and unlinked test pairs (the paper's figure 6). */
export interface Insight {
  /** The model's K: at most K selected neighbours per end. */
  k: number;
  /** Test positives. */
  linked: Dist;
  /** Test negatives. */
  unlinked: Dist;
  pairs: { linked: number; unlinked: number };
}

/** One M of `fidelity`. */
export interface FidelityPoint {
  m: number;
  /** Test AUC with nothing removed minus {@link FidelityPoint.auc}. */
  deltaAUC: number;
  /** Test AUC with the top-M neighbours of both ends of every test pair removed. */
  auc: number;
}

/** Result of `fidelity` (the paper's figure 3 for the current model). */
export interface FidelityResult {
  /** Test AUC, nothing removed. */
  auc: number;
  /** M = 1..maxM. */
  points: FidelityPoint[];
  /** Time taken, in milliseconds. */
  ms: number;
}

/** Progress of a `fidelity` request: one event per M. */
export interface FidelityProgress {
  /** Steps done (the last M measured), 1-based. */
  step: number;
  /** maxM. */
  steps: number;
  elapsedMs: number;
}

/** A probable new link of a node, with its explanation. */
export interface Suggestion {
  node: number;
  id: string;
  prob: number;
  explanation: Explanation;
}

/** Result of `checkpoints.import`. */
export interface ImportResult {
  meta: CheckpointMeta;
  status: SaveStatus;
}

/** Result payload of `checkpoints.export` (the file travels as the reply's `bytes`). */
export interface ExportResult {
  filename: string;
}

// ---------------------------------------------------------------------------
// Operations

/** Args of operations that take none. */
export type NoArgs = Record<string, never>;

/** Hyperparameter overrides of `train`, by their `defaults` names. */
export type TrainConfig = Record<string, string | number | boolean>;

/** One neighbour in a baseline explainer's ranking. */
export interface RankedNode {
  node: number;
  id: string;
  /** GNNExplainer's mask in (0, 1), or CONPI's interaction mass; absent for attention. */
  weight?: number;
}

/** One baseline explainer's answer for a pair (`compare`). */
export interface BaselineExplanation {
  model: "gat" | "gae" | "vgae" | "conpi";
  method: "attention" | "gnnexplainer" | "context";
  /** Each end's neighbours, best first, the other end left out. */
  i: RankedNode[];
  j: RankedNode[];
  /** Time taken to explain, in milliseconds. */
  ms: number;
}

/** Result of `compare`: what the trained baselines name for a pair. */
export interface Comparison {
  explainers: BaselineExplanation[];
  /** Why the list is empty (no baseline trained on this graph). */
  message?: string;
}

/** Model selection of `train`, as `ilpgnn train --select`. */
export type TrainSelect = "auto" | "auc" | "precision";

/** Args of `train`. */
/** Link predictors `train` knows: ILP-GNN and the paper's table 1 baselines. */
export type ModelName = "ilpgnn" | "cn" | "aa" | "gae" | "vgae" | "gat" | "seal" | "wp" | "conpi";

/** Args of `defaults`. */
export interface DefaultsArgs {
  /** Whose hyperparameters (default `ilpgnn`). */
  model?: ModelName;
}

export interface TrainArgs {
  /** Default `ilpgnn`; a baseline reports metrics only and is not saved. */
  model?: ModelName;
  config?: TrainConfig;
  seed?: number;
  /**
   * Which weights are kept: `auto` (default) the best validation explanation
   * precision where the graph has groundtruth, else the best validation AUC.
   */
  select?: TrainSelect;
  /** Store the checkpoint when training ends (engine default true). */
  save?: boolean;
  /** Store it also when cancelled (engine default false). */
  saveOnCancel?: boolean;
}

/**
 * Every operation: its `args`, its `result`, and markers for the extras some
 * of them have — `files: true` (the request must carry files), `progress`
 * (the type of its progress events) and `bytes: true` (the result reply
 * carries `bytes`).
 */
export interface Ops {
  info: { args: NoArgs; result: EngineInfo };
  defaults: { args: DefaultsArgs; result: { hyperparameters: Hyperparameter[] } };
  load: { args: { name?: string }; result: GraphInfo; files: true };
  generate: { args: { preset: Preset; seed: number }; result: GraphInfo };
  describe: { args: NoArgs; result: GraphDescription };
  train: { args: TrainArgs; result: TrainResult; progress: TrainProgress };
  cancel: { args: { target: number }; result: { cancelled: boolean } };
  evaluate: { args: NoArgs; result: Evaluation };
  explain: { args: { i: number; j: number }; result: Explanation };
  insight: { args: NoArgs; result: Insight };
  fidelity: { args: { maxM?: number }; result: FidelityResult; progress: FidelityProgress };
  suggest: { args: { node: number; top?: number }; result: Suggestion[] };
  compare: { args: { i: number; j: number; top?: number }; result: Comparison };
  "checkpoints.list": { args: NoArgs; result: CheckpointList };
  "checkpoints.save": { args: NoArgs; result: SaveStatus };
  "checkpoints.load": { args: { key: string }; result: ModelInfo };
  "checkpoints.delete": { args: { key: string }; result: { deleted: true } };
  "checkpoints.export": { args: { key?: string }; result: ExportResult; bytes: true };
  "checkpoints.import": { args: NoArgs; result: ImportResult; files: true };
}

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

/** Error codes the engine sends. */
export type ErrorCode =
  | "unsupported_version"
  | "bad_request"
  | "bad_input"
  | "no_graph"
  | "no_model"
  | "busy"
  | "mismatch"
  | "not_found"
  | "storage"
  | "internal";

/** The `error` of an error reply. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** For `bad_input`: the file that could not be read. */
  file?: string;
  /** For `bad_input`: 1-based line, 0 = no line. */
  line?: number;
}

/** Sent once, first, when the engine is running. */
export interface ReadyMessage {
  v: ProtocolVersion;
  type: "ready";
  engine: EngineInfo;
}

/** Progress of a running request (`train`, `fidelity`). */
export interface ProgressMessage {
  v: ProtocolVersion;
  type: "progress";
  id: number;
  progress: TrainProgress | FidelityProgress;
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

/** Any message worker → page. */
export type WorkerMessage = ReadyMessage | ProgressMessage | ResultMessage | ErrorMessage | FatalMessage;
