// Code generated from the Go types of wasm/engine by TestProtocolTS
// (wasm/engine/tsgen_test.go); DO NOT EDIT. Regenerate it with
//
//	go test ./wasm/engine -run TestProtocolTS -update
//
// protocol.ts re-exports these types and adds what Go does not describe.

/** The protocol version this client speaks; every message carries it as `v`. */
export const PROTOCOL_VERSION = 1;

/** Literal type of {@link PROTOCOL_VERSION}. */
export type ProtocolVersion = typeof PROTOCOL_VERSION;

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

/** Link predictors `train` knows: ILP-GNN and the paper's table 1 baselines. */
export type ModelName =
  | "ilpgnn"
  | "cn"
  | "aa"
  | "gae"
  | "vgae"
  | "gat"
  | "seal"
  | "wp"
  | "conpi";

/** Synthetic graph presets of `generate`. */
export type Preset =
  | "sparse"
  | "medium"
  | "dense";

/** Model selection of `train`, as `ilpgnn train --select`. */
export type TrainSelect =
  | "auto"
  | "auc"
  | "precision"
  | "unsupervised";

/** Args of operations that take none. */
export type NoArgs = Record<string, never>;

/**
 * ErrorInfo is an error reply: a code the page can act on and a message for
 * the user, with the file and line of bad input.
 */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  /** bad_input: the file that could not be read */
  file?: string;
  /** bad_input: 1-based, 0 = no line */
  line?: number;
}

/** StorageInfo says whether checkpoints persist across page loads. */
export interface StorageInfo {
  available: boolean;
  message?: string;
}

/** ModelSpec describes a model the engine can train. */
export interface ModelSpec {
  name: string;
  about: string;
  /**
   * Learns is false for a heuristic, which has no epochs; Saves says the
   * model becomes the current model, kept as a checkpoint; Explanation
   * names its own explanation ("" when it has none).
   */
  learns: boolean;
  saves: boolean;
  explanation: string;
}

/** EngineInfo describes the engine (the ready message and the info operation). */
export interface EngineInfo {
  protocol: ProtocolVersion;
  version: string;
  storage: StorageInfo;
  /**
   * Models are the models train accepts, in the order the page offers
   * them (the first is the default).
   */
  models: ModelSpec[];
  /** Cores is how many logical processors the machine reports. */
  cores: number;
  /** MaxWorkers is the most workers train accepts (shard.Count). */
  maxWorkers: number;
  /**
   * DefaultWorkers is how many workers train uses when the request names
   * none (DefaultWorkers of Cores, at most MaxWorkers), before a large
   * graph's memory cuts it.
   */
  defaultWorkers: number;
}

/** DefaultsArgs are the args of defaults. */
export interface DefaultsArgs {
  /** whose hyperparameters (default ilpgnn) */
  model?: ModelName;
}

/** Hyperparameter is one training setting, by its command-line name. */
export interface Hyperparameter {
  name: string;
  value: string;
  help: string;
}

/** DefaultsResult is the result of defaults. */
export interface DefaultsResult {
  hyperparameters: Hyperparameter[];
}

/** LoadArgs are the args of load; the graph's files travel beside them. */
export interface LoadArgs {
  name?: string;
}

/** GraphStats are the degree and connectivity statistics of a graph. */
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

/** Synthetic names the preset and seed of a generated graph. */
export interface Synthetic {
  preset: string;
  seed: number;
}

/** GraphInfo describes the loaded graph. */
export interface GraphInfo {
  name: string;
  fingerprint: string;
  nodes: number;
  edges: number;
  featureDim: number;
  stats: GraphStats;
  hasLabels: boolean;
  hasGroundtruth: boolean;
  synthetic: Synthetic | null;
  /**
   * MadeUpFeatures is graph.Graph.MadeUpFeatures: for a graph whose
   * input gave no features, what the engine made up instead and why
   * ("one-hot node ids (...)"), so the page can say the features are
   * not the user's; "" for the input's own.
   */
  madeUpFeatures: string;
  /**
   * MissingFeatures counts the nodes the input named without a feature
   * row (graph.Graph.MissingFeatures); MissingFeatureIDs names the first
   * graph.MaxNamedMissing of them (never null).
   */
  missingFeatures: number;
  missingFeatureIds: string[];
  /**
   * InputNotes are sentences about what the loader did not take from
   * the files as they stand: a header or comment lines skipped, ignored
   * columns, duplicate edges and self-loops removed, nodes without a
   * feature row (graph.Graph.InputNotes: at most graph.MaxNotes; never
   * null).
   */
  inputNotes: string[];
  /**
   * TrainMemoryBytes is the memory training ILP-GNN with the default
   * settings is estimated to need on the graph (train.EstimateMemory,
   * the estimate behind train's refusal above TabMemory), so the page
   * can say it before the user trains.
   */
  trainMemoryBytes: number;
  /**
   * TrainEpochSeconds are the seconds an epoch of ILP-GNN with the
   * default settings is estimated to take in the tab, [k] on k+1
   * workers up to MaxWorkers (tune.EpochSeconds times
   * tune.WasmSlowdown, shared by tune.OnThreads), so the page can say
   * it before the user trains.
   */
  trainEpochSeconds: number[];
}

/** GenerateArgs are the args of generate. */
export interface GenerateArgs {
  preset: Preset;
  seed: number;
}

/** GraphDescription is GraphInfo with everything needed to draw the graph. */
export interface GraphDescription extends GraphInfo {
  ids: string[];
  degrees: number[];
  labels: number[] | null;
  classNames: string[] | null;
  /** i0, j0, i1, j1, ... with i < j */
  edgeList: number[];
}

/** TrainArgs are the args of train. */
export interface TrainArgs {
  /**
   * Model is ilpgnn (the default) or a baseline, which reports metrics
   * only and is not saved.
   */
  model?: ModelName;
  /** Config overrides hyperparameters by their defaults names. */
  config?: Record<string, string | number | boolean>;
  seed?: number;
  /**
   * Select is which weights are kept: auto (the default) the best
   * validation explanation precision where the graph has groundtruth,
   * else the best validation AUC.
   */
  select?: TrainSelect;
  /** Save stores the checkpoint when training ends (default true). */
  save?: boolean;
  /** SaveOnCancel stores it also when cancelled (default false). */
  saveOnCancel?: boolean;
  /**
   * Workers is how many Web Workers compute an ILP-GNN epoch's shards
   * (1 to Info.MaxWorkers; default Info.Cores - 1, at least 1).
   */
  workers?: number;
}

/** ModelInfo describes the current model. */
export interface ModelInfo {
  key: string;
  dataset: string;
  seed: number;
  created: number;
  testAUC: number;
  valAUC: number;
  bestEpoch: number;
  p1?: number;
  p2?: number;
  config: Record<string, string>;
  /**
   * CancelledAtEpoch is set when the model is the best weights of a run
   * cancelled after that many epochs.
   */
  cancelledAtEpoch?: number;
  /**
   * Calibrated is whether the model's probabilities were calibrated on
   * validation pairs; the insight's calibration says why not when they
   * were not (too few pairs, or no lower error).
   */
  calibrated: boolean;
  /**
   * TestPending says the test pairs are still to be evaluated (a run
   * stopped by the user answers at once): TestAUC is 0 until evaluate
   * measures it, and keeps it in the model's checkpoint.
   */
  testPending?: boolean;
}

/** SaveStatus says whether a checkpoint was stored, and why not. */
export interface SaveStatus {
  saved: boolean;
  key?: string;
  message?: string;
}

/**
 * Hits holds Hits@20, @50 and @100, the cut-offs of OGB's link-prediction
 * leaderboards (ogbl-ddi, ogbl-collab, ogbl-ppa), reported beside AUC. It
 * encodes as {"20": …, "50": …, "100": …}.
 */
export interface Hits {
  "20": number;
  "50": number;
  "100": number;
}

/** TrainResult is the result of a train request. */
export interface TrainResult extends ModelInfo {
  /** ilpgnn, cn, aa, gae, vgae or gat */
  model: ModelName;
  cancelled: boolean;
  saved: SaveStatus;
  epochs: number;
  trainSeconds: number;
  /**
   * TestHits is Hits@20, @50 and @100 of the test links against the
   * test non-links (OGB's protocol, eval.HitsAtK); {"20":…,"50":…,"100":…}.
   */
  testHits?: Hits;
  /**
   * Warning says why the AUCs may mean little (a split with too few
   * test links).
   */
  warning?: string;
  /**
   * SelectedOn is the rule that kept the weights ("precision" or
   * "auc") for models that can select on their explanations.
   */
  selectedOn?: string;
  /**
   * Workers is how many workers (cores) computed the run's shards;
   * absent when its epochs fit one batch and used one.
   */
  workers?: number;
  /**
   * StoppedDuring is the epoch a cancelled run was in when it stopped
   * (it does not count in Epochs); absent when it stopped between
   * epochs.
   */
  stoppedDuring?: number;
}

/**
 * PrepareProgress is how far ILP-GNN's preparation of a graph has got:
 * Phase ("structure similarity", "features", "adjacency") has done Done of
 * Total units (columns of S̃ for the first, 1 for the others).
 */
export interface PrepareProgress {
  phase: string;
  done: number;
  total: number;
  /**
   * Graph is which graph is being prepared: PrepareWhole, the graph
   * the model explains on (once per graph and settings), or
   * PrepareTraining, the split's training graph the run trains on.
   */
  graph: string;
}

/** TrainProgress is the progress event of one training epoch. */
export interface TrainProgress {
  epoch: number;
  maxEpochs: number;
  loss: number;
  cls: number;
  pos: number;
  neg: number;
  valAUC: number;
  bestValAUC: number;
  bestEpoch: number;
  score: number;
  bestScore: number;
  elapsedMs: number;
  remainingMs: number;
  /**
   * Patience is early stopping's, so that the page can say when the run
   * ends if no better epoch comes.
   */
  patience?: number;
  /**
   * StopEpoch, where set, is the last epoch the run takes unless
   * validation makes progress; it supersedes bestEpoch + patience (the
   * learning rate's decays each wait patience epochs more).
   */
  stopEpoch?: number;
  /**
   * MemoryBytes is the memory the Go runtime holds from the system: in
   * the browser, the WebAssembly memory it has grown (which never shrinks).
   */
  memoryBytes?: number;
  /**
   * Batch of Batches is the place within the epoch of models that step
   * once per mini-batch of pairs (seal, wp, conpi); ValAUC and Score are
   * set only on the report that ends an epoch (Batch == Batches).
   */
  batch?: number;
  batches?: number;
  /**
   * Prepare, when set, makes this a report of the preparation before the
   * first epoch (Epoch 0; ElapsedMs counts from the preparation's start):
   * on a large graph the structure similarity alone takes minutes.
   */
  prepare?: PrepareProgress;
  /**
   * Phase, in a report within an ILP-GNN epoch (Batch < Batches), is
   * what the epoch is doing: "encoder", "validation", "selection and
   * losses" (Batch of Batches = 16 shards done) or "backward".
   */
  phase?: string;
  /**
   * Workers is how many workers (cores) compute an ILP-GNN run's
   * shards; absent when its epochs fit one batch and use one.
   */
  workers?: number;
  /**
   * KeptEpoch is the epoch whose weights, the best so far, answer
   * explain and suggest while an ILP-GNN run trains; absent before the
   * first epoch ends.
   */
  keptEpoch?: number;
}

/** TuneArgs are the args of tune. */
export interface TuneArgs {
  /** Model is whose hyperparameters are searched (default ilpgnn). */
  model?: ModelName;
  /**
   * BudgetSeconds is the time the search may take: it sets the plan
   * (how many candidates, how many epochs), and on a machine slower
   * than planned the candidates whose trial no longer fits are left
   * out (TuneResult.Cut).
   */
  budgetSeconds: number;
  /**
   * Config are hyperparameters every candidate keeps, by their defaults
   * names (the user's own), left out of the search.
   */
  config?: Record<string, string | number | boolean>;
  /**
   * Seed is the tuning seed: its split's validation links score the
   * candidates (default as train's).
   */
  seed?: number;
  /**
   * Select is the weight selection the training with the chosen
   * settings will use (as TrainArgs.Select; default auto): every trial
   * keeps its weights so, and candidates are compared on what it keeps
   * them by.
   */
  select?: string;
}

/** TuneTrial is one candidate trained in one round of the search. */
export interface TuneTrial {
  /** 1-based */
  round: number;
  /** index among the drawn candidates (the current settings come after them) */
  candidate: number;
  /**
   * Current marks the current settings, which train first, as a
   * training run trains them: the bar a choice must clear.
   */
  current?: boolean;
  /** Settings are the searched hyperparameters, by their defaults names. */
  settings: Record<string, string>;
  /** at most this many */
  epochs: number;
  /**
   * Trained is the epochs the trial's run trained; Capped says it ran
   * all Epochs without stopping early.
   */
  trained: number;
  capped?: boolean;
  /**
   * SelectedOn is what kept the trial's weights ("precision" or "auc"),
   * and what candidates are compared on; ValScore is that score.
   */
  selectedOn?: string;
  valScore: number;
  /** on the tuning seed's validation links */
  valAUC: number;
  /**
   * ValP1 and ValP2 are the validation links' explanation Precision@1
   * and @2, on a graph with groundtruth.
   */
  valP1?: number;
  valP2?: number;
  seconds: number;
}

/** TunePlan is the search a tune request's budget buys. */
export interface TunePlan {
  budgetSeconds: number;
  /**
   * Candidates drawn from the model's search space, Eta the factor of
   * each round (1/Eta of the candidates go on for Eta times the epochs),
   * MinEpochs the epochs of the first round.
   */
  candidates: number;
  eta: number;
  minEpochs: number;
  /** Trials is how many candidate runs the plan takes in all. */
  trials: number;
  /**
   * Seeds are the tuning seeds, whose validation links chose the
   * settings.
   */
  seeds: number[];
  /**
   * EstimatedSeconds is the cost model's time for the plan in a browser
   * (tune.Plan with tune.WasmSlowdown), at most the budget; Summary says
   * its rounds in words ("9 candidates and the current settings, rounds of
   * 100 and 300 epochs").
   */
  estimatedSeconds: number;
  summary: string;
}

/** TuneResult is the result of a tune request. */
export interface TuneResult {
  model: ModelName;
  /**
   * Best are the chosen settings (the searched ones and the fixed ones),
   * by their defaults names, for train's config; empty when cancelled.
   */
  best: Record<string, string>;
  /** ValAUC is Best's validation AUC, Chosen its trial. */
  valAUC: number;
  chosen?: TuneTrial;
  /**
   * KeptCurrent says no candidate beat the current settings on what the
   * training keeps its weights by without a lower validation AUC, so
   * Best are they; CurrentValAUC is their validation AUC, Current their
   * trial.
   */
  keptCurrent?: boolean;
  currentValAUC?: number;
  current?: TuneTrial;
  /**
   * Cut says what the budget left out on a machine slower than
   * planned; absent when the search ran as planned.
   */
  cut?: string;
  cancelled: boolean;
  plan: TunePlan;
  trials: TuneTrial[];
  /** the search's wall time */
  seconds: number;
}

/**
 * TuneProgress is the progress event of a tune request: of one finished
 * trial (a candidate's settings trained for Epochs in Round), or, with
 * Epoch set, of an epoch inside the running trial.
 */
export interface TuneProgress extends TuneTrial {
  /** Done trials of the Planned ones. */
  done: number;
  planned: number;
  /**
   * Epoch, inside a trial, is its epochs done so far of TrialEpochs (its
   * epochs times the tuning seeds; early stopping ends it sooner); ValAUC
   * and Seconds are then 0. Both are absent from a trial's last report.
   */
  epoch?: number;
  trialEpochs?: number;
}

/** CancelArgs are the args of cancel. */
export interface CancelArgs {
  /** the id of a train or tune request */
  target: number;
}

/** CancelResult is the result of cancel: whether a run was cancelled. */
export interface CancelResult {
  cancelled: boolean;
}

/** Evaluation is the result of an evaluate request. */
export interface Evaluation {
  testAUC: number;
  /** as TrainResult's */
  testHits: Hits;
  valAUC: number;
  p1?: number;
  p2?: number;
}

/** PairArgs are the args of explain: the pair's node indices. */
export interface PairArgs {
  i: number;
  j: number;
}

/**
 * Neighbor is one candidate neighbour c of a node i in an explanation of the
 * pair (i, j).
 */
export interface Neighbor {
  node: number;
  id: string;
  /** s_ST(i, c, j) */
  structure: number;
  /** s_NO(i, c, j) */
  features: number;
  /**
   * Learnt is sigmoid(h^r_c · h^r_j), the trained encoder's part of
   * Features; Untrained is sigmoid(h^0_c · h^0_j), the untrained
   * start's (0 when the model has no anchor, Terms.Anchor = 0).
   * Features = (1-ρ) Learnt + ρ Untrained.
   */
  learnt: number;
  untrained: number;
  /** s(i, c, j) = α s_ST + (1-α) s_NO */
  score: number;
  /** c is a neighbour of j too */
  common: boolean;
  /** c ∈ N^r(i|j) */
  selected: boolean;
  /** b_ic (eq 6); 0 when not selected */
  weight: number;
  /**
   * Shift is how far the neighbour moves its node's representation
   * (eq 7): the length of β b_ic h^r_c, to set beside Side.Norm; 0 when
   * not selected.
   */
  shift: number;
  /** 1-based rank by descending score */
  rank: number;
  /**
   * Attribution is the number shown for a selected neighbour (0 for the
   * others): its term in the pair's logit h_i · h_j (which calibration maps to p), β b_c h^r_c · h
   * with h the other end's representation (eq 7-8), in logit units and
   * signed: positive pushes p up, negative down. A side's terms plus
   * h^r_i · h add up to the logit. Chosen by measurement
   * (docs/attribution.md): it orders like the drop in p when the neighbour
   * alone is removed (Spearman 0.75 on Cora, 0.72 on synth:medium).
   */
  attribution: number;
  /**
   * ProbWithout is p_ij after this selected neighbour alone is removed
   * and the model selects again (0 for neighbours not selected).
   */
  prob_without: number;
  /**
   * Outside says the bound on candidates (ILP-GNN's Config.Candidates)
   * left c out: the model neither scored nor could select it. Such
   * neighbours rank after every candidate, in the bound's order (common
   * neighbours first, then by s_ST, ties by node id); their scores are
   * shown for information only.
   */
  outside?: boolean;
}

/**
 * Side is the explanation of one end of a pair: the node's neighbours
 * scored against the other end, best score first (those outside the bound
 * on candidates last).
 */
export interface Side {
  node: number;
  id: string;
  /** Norm is the length of the node's own representation h^r_i. */
  norm: number;
  /**
   * Own is the node's own term in the logit, h^r_i · h with h the other
   * end's aggregated representation: Own and the selected neighbours'
   * attributions (as terms, the default) add up to the logit.
   */
  own: number;
  neighbors: Neighbor[];
}

/**
 * Terms are the settings of the model that explained a pair, as its
 * walk-through names them.
 */
export interface Terms {
  /** α: structure's share of the score (eq 5) */
  alpha: number;
  /** ρ: the untrained encoder's share of features */
  anchor: number;
  /** neighbours selected per side, at most */
  k: number;
  /**
   * StructureScaled says each side's structure scores are divided by
   * their largest, so that the closest neighbour has 1.
   */
  structure_scaled: boolean;
  /** τ of the softmax weights (eq 6) */
  tau: number;
  /** β: how much the neighbours add (eq 7) */
  beta: number;
  /**
   * Temperature and Bias map the logit to p = sigmoid(logit/T + c);
   * 1 and 0 when the model is not calibrated.
   */
  temperature: number;
  bias: number;
}

/**
 * Step is one step of how the model reached a pair's probability: what the
 * model computes there, in one to three sentences with this pair's numbers.
 */
export interface Step {
  /** one of StepKeys */
  key: string;
  title: string;
  text: string;
}

/**
 * ModelExplanation is why a model gives the pair (i, j) its probability
 * (docs/model.md §6). Build one with Finish, which checks it and writes its
 * Reading.
 */
export interface ModelExplanation {
  /** neighbours of i scored against j */
  i: Side;
  /** neighbours of j scored against i */
  j: Side;
  /** Model holds the settings the walk-through names. */
  model: Terms;
  /** Logit is h_i · h_j (eq 8), which calibration maps to Prob. */
  logit: number;
  /** Prob is p_ij (eq 8). */
  prob: number;
  /**
   * Linked says (i, j) is an edge of the graph; Masked that target-edge
   * masking removed it from both neighbourhoods for this pair.
   */
  linked: boolean;
  masked: boolean;
  /**
   * ProbRandom is p_ij with K random spare neighbours of each side in
   * place of the selected ones (eq 9-10); ProbRemoved is p_ij after the
   * selected neighbours are removed and the model selects again from what
   * remains (the fidelity deletion of sec. 5.3).
   */
  prob_random: number;
  prob_removed: number;
  /**
   * ProbRandomRemoved is p_ij after as many random neighbours of each
   * side as were selected are removed instead, the model selecting again;
   * the mean over RandomDraws draws. It is what ProbRemoved is compared
   * with: removing the reasons should lower p more than removing any.
   */
  prob_random_removed: number;
  random_draws: number;
  /** Reading is the explanation in one sentence, in the user's node ids. */
  reading: string;
  /**
   * Removal is Counterfactual's sentence: what removing the selected
   * neighbours does to p, beside removing as many random ones.
   */
  removal: string;
  /** Steps walk through how the model reached Prob (Walkthrough). */
  steps: Step[];
}

/**
 * Groundtruth is the groundtruth explanation of a link (docs/model.md §8): the
 * neighbours of the pair's i end that explain it, those of its j end, and
 * which labelled set the link belongs to.
 */
export interface Groundtruth {
  i: number[];
  j: number[];
  /** train, validation or test */
  role: "train" | "validation" | "test";
}

/**
 * Weights says which weights answered a request: those of epoch Epoch of
 * the run in progress (Training), absent when the current model answered.
 */
export interface Weights {
  epoch: number;
  training: boolean;
}

/**
 * Explanation is the result of explain: ILP-GNN's explanation (its fields
 * flattened into the same JSON object) and, for a link of a synthetic graph
 * with groundtruth, the neighbours the generator drew it from.
 */
export interface Explanation extends ModelExplanation {
  groundtruth?: Groundtruth;
  /**
   * Weights, set while a run trains, names the epoch whose weights
   * answered.
   */
  weights?: Weights;
}

/**
 * Dist holds, for every selected neighbour of both ends of a set of pairs,
 * its weight b, attribution (its term in the logit, as explain shows it),
 * score s, structure score s_ST and feature score s_NO
 * (parallel arrays: pair by pair, side i then side j, each side by
 * descending score, ties by node index), and p_ij per pair.
 */
export interface Dist {
  weight: number[];
  attribution: number[];
  score: number[];
  structure: number[];
  features: number[];
  prob: number[];
}

/** InsightPairs counts the pairs behind each distribution. */
export interface InsightPairs {
  linked: number;
  unlinked: number;
}

export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  mean_predicted: number;
  observed: number;
}

export interface Calibration {
  temperature: number;
  bias: number;
  calibrated: boolean;
  not_calibrated_because?: string;
  ece: number;
  ece_uncalibrated: number;
  reliability: ReliabilityBin[];
}

/**
 * Insight is the result of insight: what the model aggregates for the
 * linked (test positive) and unlinked (test negative) pairs of its split,
 * the data of the paper's figure 6.
 */
export interface Insight {
  /** the model's K: at most K neighbours are selected per side */
  k: number;
  linked: Dist;
  unlinked: Dist;
  pairs: InsightPairs;
  /**
   * Calibration is how far the model's probabilities are from the rates
   * of links observed on the test pairs, with its temperature and
   * without: the reliability diagram and its ECE.
   */
  calibration: Calibration;
}

/** FidelityArgs are the args of fidelity. */
export interface FidelityArgs {
  /** default 4, 1..10 */
  maxM?: number;
}

/**
 * FidelityPoint is the test AUC after the top-M neighbours of both ends
 * of every test pair are removed, and its drop; and the same with M random
 * neighbours of each end removed instead (the mean AUC over
 * ilpgnn.RandomDraws draws), what the top M are compared with.
 */
export interface FidelityPoint {
  m: number;
  deltaAUC: number;
  auc: number;
  randomDeltaAUC: number;
  randomAUC: number;
}

/**
 * FidelityResult is the result of fidelity (the paper's figure 3 for the
 * current model).
 */
export interface FidelityResult {
  /** test AUC, nothing removed */
  auc: number;
  points: FidelityPoint[];
  /** time taken */
  ms: number;
}

/**
 * StepProgress is the progress event of a foreground operation that runs in
 * steps (fidelity: one per M; ranking: the drawing of the negatives, then
 * one per chunk of pairs scored).
 */
export interface StepProgress {
  /** 1-based: steps done */
  step: number;
  steps: number;
  elapsedMs: number;
}

/**
 * RankingScores are the mean reciprocal rank and the Hits@K of the test
 * links, each among its own hard negatives (eval.Ranking; a tie counts
 * half), as shares in [0, 1].
 */
export interface RankingScores {
  mrr: number;
  hits1: number;
  hits3: number;
  hits10: number;
  hits20: number;
  hits50: number;
  hits100: number;
}

/** RankingResult is the result of ranking. */
export interface RankingResult {
  /**
   * Model is how the current model ranks each test link among its hard
   * negatives.
   */
  model: RankingScores;
  /**
   * CN is how the common-neighbours heuristic on the training graph
   * ranks them, to compare.
   */
  cn: RankingScores;
  /**
   * AA is how the Adamic-Adar heuristic on the training graph ranks
   * them, to compare.
   */
  aa: RankingScores;
  /** the test links */
  links: number;
  /** the hard negatives of each */
  perLink: number;
  /**
   * Features says whether the input's features were among the heuristics
   * that drew the negatives (made-up features are left out).
   */
  features: boolean;
  /**
   * Reused says the negatives were drawn by an earlier ranking of the
   * same model; DrawMs is the time their drawing took, whenever it was.
   */
  reused: boolean;
  drawMs: number;
  /** this request's time, drawing included */
  ms: number;
}

/** SuggestArgs are the args of suggest. */
export interface SuggestArgs {
  node: number;
  /** default 10 */
  top?: number;
}

/** Suggestion is a candidate new link for a node, with its explanation. */
export interface Suggestion {
  node: number;
  id: string;
  prob: number;
  explanation: ModelExplanation;
  /**
   * TieNote, on the first suggestion of a list only, says that the
   * leading suggestions' probabilities cannot be told apart (TieNote);
   * "" when they can.
   */
  tie_note?: string;
}

/** CompareArgs are the args of compare. */
export interface CompareArgs {
  i: number;
  j: number;
  /** default 5 */
  top?: number;
}

/**
 * RankedNode is one neighbour in an explainer's ranking; Weight is its
 * GNNExplainer mask or its CONPI interaction mass (absent for attention,
 * whose ranking is all it gives per pair).
 */
export interface RankedNode {
  node: number;
  id: string;
  weight?: number;
}

/**
 * BaselineExplanation is one explainer's answer for a pair: each end's
 * neighbours, best first.
 */
export interface BaselineExplanation {
  /** the trained baseline: gat, gae, vgae or conpi */
  model: "gat" | "gae" | "vgae" | "conpi";
  /** attention, gnnexplainer or context */
  method: "attention" | "gnnexplainer" | "context";
  i: RankedNode[];
  j: RankedNode[];
  /** time taken to explain */
  ms: number;
}

/**
 * Comparison is the result of compare: which neighbours other explainers
 * name for the same pair.
 */
export interface Comparison {
  explainers: BaselineExplanation[];
  message?: string;
}

/** CheckpointRecord is what a listing shows of a stored checkpoint, without its weights. */
export interface CheckpointRecord {
  key: string;
  schema: number;
  model: string;
  dataset: string;
  /** hex SHA-256 of the graph */
  fingerprint: string;
  seed: number;
  /** unix seconds, 0 if unknown */
  created: number;
  metrics: Record<string, number>;
  /** the checkpoint's configuration (JSON) */
  config: string;
  /** bytes of the encoded checkpoint */
  size: number;
}

/** CheckpointMeta is a stored checkpoint in a listing. */
export interface CheckpointMeta extends CheckpointRecord {
  matches: boolean;
}

/** CheckpointList is the result of checkpoints.list. */
export interface CheckpointList {
  available: boolean;
  message?: string;
  checkpoints: CheckpointMeta[];
}

/** KeyArgs name a stored checkpoint (checkpoints.load, checkpoints.delete). */
export interface KeyArgs {
  key: string;
}

/** DeleteResult is the result of checkpoints.delete (always true). */
export interface DeleteResult {
  deleted: true;
}

/** ExportArgs are the args of checkpoints.export. */
export interface ExportArgs {
  /** default: the current model's */
  key?: string;
}

/**
 * ExportResult is the result of checkpoints.export; the checkpoint file
 * travels as the reply's bytes.
 */
export interface ExportResult {
  filename: string;
}

/** ImportResult is the result of checkpoints.import. */
export interface ImportResult {
  meta: CheckpointMeta;
  status: SaveStatus;
}

/**
 * CardExportArgs are the args of card.export: the pairs the example page
 * shows (node indices; default: the best-connected node and its most
 * likely new link). The card's files travel beside them, by name
 * (site.CardFiles), as the page fetched them from its own origin, with
 * their precompressed twins (site.TwinNames) where the page has them.
 */
export interface CardExportArgs {
  pairs?: PairArgs[];
}

/**
 * GraphExportArgs are the args of graph.export. By default the split is
 * the current model's (its seed and shares), else the one a train request
 * with the defaults makes.
 */
export interface GraphExportArgs {
  /** Format is the export's format: dgl, DGL's chunked graph format. */
  format: string;
  /** Seed is the split's seed, as train's. */
  seed?: number;
  /**
   * ValFrac and TestFrac are the shares of the edges held out for
   * validation and testing, as train's val-frac and test-frac; a
   * synthetic graph's split is its own, and refuses them.
   */
  valFrac?: number;
  testFrac?: number;
}

/**
 * GraphExportResult is the result of graph.export; the zip travels as
 * the reply's bytes.
 */
export interface GraphExportResult {
  filename: string;
  /**
   * Seed, ValFrac and TestFrac are the split's (the shares are absent
   * for a synthetic graph's own split).
   */
  seed: number;
  valFrac?: number;
  testFrac?: number;
  /** Nodes and Edges are the exported graph's; ZipBytes the zip's length. */
  nodes: number;
  edges: number;
  zipBytes: number;
}

/**
 * Every operation: its `args`, its `result`, and markers for the extras some
 * of them have — `files: true` (the request must carry files), `progress`
 * (the type of its progress events) and `bytes: true` (the result reply
 * carries `bytes`).
 */
export interface Ops {
  info: { args: NoArgs; result: EngineInfo };
  defaults: { args: DefaultsArgs; result: DefaultsResult };
  load: { args: LoadArgs; result: GraphInfo; files: true };
  generate: { args: GenerateArgs; result: GraphInfo };
  describe: { args: NoArgs; result: GraphDescription };
  train: { args: TrainArgs; result: TrainResult; progress: TrainProgress };
  tune: { args: TuneArgs; result: TuneResult; progress: TuneProgress };
  cancel: { args: CancelArgs; result: CancelResult };
  evaluate: { args: NoArgs; result: Evaluation };
  explain: { args: PairArgs; result: Explanation };
  insight: { args: NoArgs; result: Insight };
  fidelity: { args: FidelityArgs; result: FidelityResult; progress: StepProgress };
  ranking: { args: NoArgs; result: RankingResult; progress: StepProgress };
  suggest: { args: SuggestArgs; result: Suggestion[] };
  compare: { args: CompareArgs; result: Comparison };
  "checkpoints.list": { args: NoArgs; result: CheckpointList };
  "checkpoints.save": { args: NoArgs; result: SaveStatus };
  "checkpoints.load": { args: KeyArgs; result: ModelInfo };
  "checkpoints.delete": { args: KeyArgs; result: DeleteResult };
  "checkpoints.export": { args: ExportArgs; result: ExportResult; bytes: true };
  "checkpoints.import": { args: NoArgs; result: ImportResult; files: true };
  "card.export": { args: CardExportArgs; result: ExportResult; files: true; bytes: true };
  "graph.export": { args: GraphExportArgs; result: GraphExportResult; bytes: true };
}
