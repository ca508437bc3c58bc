package engine

import (
	"encoding/json"
	"fmt"

	"ilpgnn/core/eval"
	"ilpgnn/wasm/store"
)

// Protocol is the version of the message protocol (wasm/PROTOCOL.md).
const Protocol = 1

// Request is one message from the page.
type Request struct {
	V    int             `json:"v"`
	ID   int64           `json:"id"`
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args,omitempty"`
	// Files are the request's file contents by name (load, import).
	Files map[string][]byte `json:"-"`
}

// Reply is one message to the page. Bytes travel beside the JSON part, as a
// Uint8Array in the browser.
type Reply struct {
	V      int    `json:"v"`
	Type   string `json:"type"` // ready, progress, result, error or storage
	ID     *int64 `json:"id,omitempty"`
	Engine *Info  `json:"engine,omitempty"`
	// Storage is a storage message's news: the checkpoint store stopped
	// being usable after ready (another tab upgraded its database).
	Storage  *StorageInfo `json:"storage,omitempty"`
	Progress any          `json:"progress,omitempty"` // *Progress (train), *TuneProgress (tune) or *StepProgress (fidelity, ranking)
	Result   any          `json:"result,omitempty"`
	Error    *Error       `json:"error,omitempty"`
	Bytes    []byte       `json:"-"`
}

// Error codes (PROTOCOL.md).
const (
	CodeVersion    = "unsupported_version"
	CodeBadRequest = "bad_request"
	CodeBadInput   = "bad_input"
	CodeNoGraph    = "no_graph"
	CodeNoModel    = "no_model"
	CodeBusy       = "busy"
	CodeMismatch   = "mismatch"
	CodeNotFound   = "not_found"
	CodeStorage    = "storage"
	CodeInternal   = "internal"
)

// Error is an error reply: a code the page can act on and a message for
// the user, with the file and line of bad input.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"` // bad_input: the file that could not be read
	Line    int    `json:"line,omitempty"` // bad_input: 1-based, 0 = no line
}

func (e *Error) Error() string { return e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Info describes the engine (the ready message and the info operation).
type Info struct {
	Protocol int         `json:"protocol"`
	Version  string      `json:"version"`
	Storage  StorageInfo `json:"storage"`
	// Models are the models train accepts, in the order the page offers
	// them (the first is the default).
	Models []ModelSpec `json:"models"`
	// Cores is how many logical processors the machine reports.
	Cores int `json:"cores"`
	// MaxWorkers is the most workers train accepts (shard.Count).
	MaxWorkers int `json:"maxWorkers"`
	// DefaultWorkers is how many workers train uses when the request names
	// none (DefaultWorkers of Cores, at most MaxWorkers), before a large
	// graph's memory cuts it.
	DefaultWorkers int `json:"defaultWorkers"`
}

// ModelSpec describes a model the engine can train.
type ModelSpec struct {
	Name  string `json:"name"`
	About string `json:"about"`
	// Learns is false for a heuristic, which has no epochs; Saves says the
	// model becomes the current model, kept as a checkpoint; Explanation
	// names its own explanation ("" when it has none).
	Learns      bool   `json:"learns"`
	Saves       bool   `json:"saves"`
	Explanation string `json:"explanation"`
}

// StorageInfo says whether checkpoints persist across page loads.
type StorageInfo struct {
	Available bool   `json:"available"`
	Message   string `json:"message,omitempty"`
}

// Progress is the progress event of one training epoch.
type Progress struct {
	Epoch       int     `json:"epoch"`
	MaxEpochs   int     `json:"maxEpochs"`
	Loss        float64 `json:"loss"`
	Cls         float64 `json:"cls"`
	Pos         float64 `json:"pos"`
	Neg         float64 `json:"neg"`
	ValAUC      float64 `json:"valAUC"`
	BestValAUC  float64 `json:"bestValAUC"`
	BestEpoch   int     `json:"bestEpoch"`
	Score       float64 `json:"score"`
	BestScore   float64 `json:"bestScore"`
	ElapsedMs   float64 `json:"elapsedMs"`
	RemainingMs float64 `json:"remainingMs"`
	// Patience is early stopping's, so that the page can say when the run
	// ends if no better epoch comes.
	Patience int `json:"patience,omitempty"`
	// StopEpoch, where set, is the last epoch the run takes unless
	// validation makes progress; it supersedes bestEpoch + patience (the
	// learning rate's decays each wait patience epochs more).
	StopEpoch int `json:"stopEpoch,omitempty"`
	// MemoryBytes is the memory the Go runtime holds from the system: in
	// the browser, the WebAssembly memory it has grown (which never shrinks).
	MemoryBytes uint64 `json:"memoryBytes,omitempty"`
	// Batch of Batches is the place within the epoch of models that step
	// once per mini-batch of pairs (seal, wp, conpi); ValAUC and Score are
	// set only on the report that ends an epoch (Batch == Batches).
	Batch   int `json:"batch,omitempty"`
	Batches int `json:"batches,omitempty"`
	// Prepare, when set, makes this a report of the preparation before the
	// first epoch (Epoch 0; ElapsedMs counts from the preparation's start):
	// on a large graph the structure similarity alone takes minutes.
	Prepare *PrepareProgress `json:"prepare,omitempty"`
	// Phase, in a report within an ILP-GNN epoch (Batch < Batches), is
	// what the epoch is doing: "encoder", "validation", "selection and
	// losses" (Batch of Batches = 16 shards done) or "backward".
	Phase string `json:"phase,omitempty"`
	// Workers is how many workers (cores) compute an ILP-GNN run's
	// shards; absent when its epochs fit one batch and use one.
	Workers int `json:"workers,omitempty"`
	// KeptEpoch is the epoch whose weights, the best so far, answer
	// explain and suggest while an ILP-GNN run trains; absent before the
	// first epoch ends.
	KeptEpoch int `json:"keptEpoch,omitempty"`
}

// PrepareProgress is how far ILP-GNN's preparation of a graph has got:
// Phase ("structure similarity", "features", "adjacency") has done Done of
// Total units (columns of S̃ for the first, 1 for the others).
type PrepareProgress struct {
	Phase string `json:"phase"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	// Graph is which graph is being prepared: PrepareWhole, the graph
	// the model explains on (once per graph and settings), or
	// PrepareTraining, the split's training graph the run trains on.
	Graph string `json:"graph"`
}

// The graphs a run prepares, as PrepareProgress names them.
const (
	PrepareWhole    = "whole"
	PrepareTraining = "training"
)

// GraphInfo describes the loaded graph.
type GraphInfo struct {
	Name           string     `json:"name"`
	Fingerprint    string     `json:"fingerprint"`
	Nodes          int        `json:"nodes"`
	Edges          int        `json:"edges"`
	FeatureDim     int        `json:"featureDim"`
	Stats          GraphStats `json:"stats"`
	HasLabels      bool       `json:"hasLabels"`
	HasGroundtruth bool       `json:"hasGroundtruth"`
	Synthetic      *Synthetic `json:"synthetic"`
	// MadeUpFeatures is graph.Graph.MadeUpFeatures: for a graph whose
	// input gave no features, what the engine made up instead and why
	// ("one-hot node ids (...)"), so the page can say the features are
	// not the user's; "" for the input's own.
	MadeUpFeatures string `json:"madeUpFeatures"`
	// MissingFeatures counts the nodes the input named without a feature
	// row (graph.Graph.MissingFeatures); MissingFeatureIDs names the first
	// graph.MaxNamedMissing of them (never null).
	MissingFeatures   int      `json:"missingFeatures"`
	MissingFeatureIDs []string `json:"missingFeatureIds"`
	// InputNotes are sentences about what the loader did not take from
	// the files as they stand: a header or comment lines skipped, ignored
	// columns, duplicate edges and self-loops removed, nodes without a
	// feature row (graph.Graph.InputNotes: at most graph.MaxNotes; never
	// null).
	InputNotes []string `json:"inputNotes"`
	// TrainMemoryBytes is the memory training ILP-GNN with the default
	// settings is estimated to need on the graph (train.EstimateMemory,
	// the estimate behind train's refusal above TabMemory), so the page
	// can say it before the user trains.
	TrainMemoryBytes int64 `json:"trainMemoryBytes"`
	// TrainEpochSeconds are the seconds an epoch of ILP-GNN with the
	// default settings is estimated to take in the tab, [k] on k+1
	// workers up to MaxWorkers (tune.EpochSeconds times
	// tune.WasmSlowdown, shared by tune.OnThreads), so the page can say
	// it before the user trains.
	TrainEpochSeconds []float64 `json:"trainEpochSeconds"`
}

// GraphStats are the degree and connectivity statistics of a graph.
type GraphStats struct {
	Density          float64 `json:"density"`
	MinDegree        int     `json:"minDegree"`
	MaxDegree        int     `json:"maxDegree"`
	MeanDegree       float64 `json:"meanDegree"`
	MedianDegree     float64 `json:"medianDegree"`
	Isolated         int     `json:"isolated"`
	Components       int     `json:"components"`
	LargestComponent int     `json:"largestComponent"`
}

// Synthetic names the preset and seed of a generated graph.
type Synthetic struct {
	Preset string `json:"preset"`
	Seed   uint64 `json:"seed"`
}

// Description is GraphInfo with everything needed to draw the graph.
type Description struct {
	GraphInfo
	IDs        []string `json:"ids"`
	Degrees    []int    `json:"degrees"`
	Labels     []int32  `json:"labels"`
	ClassNames []string `json:"classNames"`
	EdgeList   []int32  `json:"edgeList"` // i0, j0, i1, j1, ... with i < j
}

// Hyperparameter is one training setting, by its command-line name.
type Hyperparameter struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Help  string `json:"help"`
}

// ModelInfo describes the current model.
type ModelInfo struct {
	Key       string            `json:"key"`
	Dataset   string            `json:"dataset"`
	Seed      uint64            `json:"seed"`
	Created   int64             `json:"created"`
	TestAUC   float64           `json:"testAUC"`
	ValAUC    float64           `json:"valAUC"`
	BestEpoch int               `json:"bestEpoch"`
	P1        *float64          `json:"p1,omitempty"`
	P2        *float64          `json:"p2,omitempty"`
	Config    map[string]string `json:"config"`
	// CancelledAtEpoch is set when the model is the best weights of a run
	// cancelled after that many epochs.
	CancelledAtEpoch *int `json:"cancelledAtEpoch,omitempty"`
	// Calibrated is whether the model's probabilities were calibrated on
	// validation pairs; the insight's calibration says why not when they
	// were not (too few pairs, or no lower error).
	Calibrated bool `json:"calibrated"`
	// TestPending says the test pairs are still to be evaluated (a run
	// stopped by the user answers at once): TestAUC is 0 until evaluate
	// measures it, and keeps it in the model's checkpoint.
	TestPending bool `json:"testPending,omitempty"`
}

// SaveStatus says whether a checkpoint was stored, and why not.
type SaveStatus struct {
	Saved   bool   `json:"saved"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message,omitempty"`
}

// TrainResult is the result of a train request.
type TrainResult struct {
	ModelInfo
	Model        string     `json:"model"` // ilpgnn, cn, aa, gae, vgae or gat
	Cancelled    bool       `json:"cancelled"`
	Saved        SaveStatus `json:"saved"`
	Epochs       int        `json:"epochs"`
	TrainSeconds float64    `json:"trainSeconds"`
	// TestHits is Hits@20, @50 and @100 of the test links against the
	// test non-links (OGB's protocol, eval.HitsAtK); {"20":…,"50":…,"100":…}.
	TestHits *eval.Hits `json:"testHits,omitempty"`
	// Warning says why the AUCs may mean little (a split with too few
	// test links).
	Warning string `json:"warning,omitempty"`
	// SelectedOn is the rule that kept the weights ("precision" or
	// "auc") for models that can select on their explanations.
	SelectedOn string `json:"selectedOn,omitempty"`
	// Workers is how many workers (cores) computed the run's shards;
	// absent when its epochs fit one batch and used one.
	Workers int `json:"workers,omitempty"`
	// StoppedDuring is the epoch a cancelled run was in when it stopped
	// (it does not count in Epochs); absent when it stopped between
	// epochs.
	StoppedDuring int `json:"stoppedDuring,omitempty"`
}

// Evaluation is the result of an evaluate request.
type Evaluation struct {
	TestAUC  float64   `json:"testAUC"`
	TestHits eval.Hits `json:"testHits"` // as TrainResult's
	ValAUC   float64   `json:"valAUC"`
	P1       *float64  `json:"p1,omitempty"`
	P2       *float64  `json:"p2,omitempty"`
}

// CheckpointEntry is a stored checkpoint in a listing.
type CheckpointEntry struct {
	store.Meta
	Matches bool `json:"matches"`
}

// CheckpointList is the result of checkpoints.list.
type CheckpointList struct {
	Available   bool              `json:"available"`
	Message     string            `json:"message,omitempty"`
	Checkpoints []CheckpointEntry `json:"checkpoints"`
}

// TuneProgress is the progress event of a tune request: of one finished
// trial (a candidate's settings trained for Epochs in Round), or, with
// Epoch set, of an epoch inside the running trial.
type TuneProgress struct {
	TuneTrial
	// Done trials of the Planned ones.
	Done    int `json:"done"`
	Planned int `json:"planned"`
	// Epoch, inside a trial, is its epochs done so far of TrialEpochs (its
	// epochs times the tuning seeds; early stopping ends it sooner); ValAUC
	// and Seconds are then 0. Both are absent from a trial's last report.
	Epoch       int `json:"epoch,omitempty"`
	TrialEpochs int `json:"trialEpochs,omitempty"`
}

// TuneTrial is one candidate trained in one round of the search.
type TuneTrial struct {
	Round     int `json:"round"`     // 1-based
	Candidate int `json:"candidate"` // index among the drawn candidates (the current settings come after them)
	// Current marks the current settings, which train first, as a
	// training run trains them: the bar a choice must clear.
	Current bool `json:"current,omitempty"`
	// Settings are the searched hyperparameters, by their defaults names.
	Settings map[string]string `json:"settings"`
	Epochs   int               `json:"epochs"` // at most this many
	// Trained is the epochs the trial's run trained; Capped says it ran
	// all Epochs without stopping early.
	Trained int  `json:"trained"`
	Capped  bool `json:"capped,omitempty"`
	// SelectedOn is what kept the trial's weights ("precision" or "auc"),
	// and what candidates are compared on; ValScore is that score.
	SelectedOn string  `json:"selectedOn,omitempty"`
	ValScore   float64 `json:"valScore"`
	ValAUC     float64 `json:"valAUC"` // on the tuning seed's validation links
	// ValP1 and ValP2 are the validation links' explanation Precision@1
	// and @2, on a graph with groundtruth.
	ValP1   *float64 `json:"valP1,omitempty"`
	ValP2   *float64 `json:"valP2,omitempty"`
	Seconds float64  `json:"seconds"`
}

// TunePlan is the search a tune request's budget buys.
type TunePlan struct {
	BudgetSeconds float64 `json:"budgetSeconds"`
	// Candidates drawn from the model's search space, Eta the factor of
	// each round (1/Eta of the candidates go on for Eta times the epochs),
	// MinEpochs the epochs of the first round.
	Candidates int `json:"candidates"`
	Eta        int `json:"eta"`
	MinEpochs  int `json:"minEpochs"`
	// Trials is how many candidate runs the plan takes in all.
	Trials int `json:"trials"`
	// Seeds are the tuning seeds, whose validation links chose the
	// settings.
	Seeds []uint64 `json:"seeds"`
	// EstimatedSeconds is the cost model's time for the plan in a browser
	// (tune.Plan with tune.WasmSlowdown), at most the budget; Summary says
	// its rounds in words ("9 candidates and the current settings, rounds of
	// 100 and 300 epochs").
	EstimatedSeconds float64 `json:"estimatedSeconds"`
	Summary          string  `json:"summary"`
}

// TuneResult is the result of a tune request.
type TuneResult struct {
	Model string `json:"model"`
	// Best are the chosen settings (the searched ones and the fixed ones),
	// by their defaults names, for train's config; empty when cancelled.
	Best map[string]string `json:"best"`
	// ValAUC is Best's validation AUC, Chosen its trial.
	ValAUC float64    `json:"valAUC"`
	Chosen *TuneTrial `json:"chosen,omitempty"`
	// KeptCurrent says no candidate beat the current settings on what the
	// training keeps its weights by without a lower validation AUC, so
	// Best are they; CurrentValAUC is their validation AUC, Current their
	// trial.
	KeptCurrent   bool       `json:"keptCurrent,omitempty"`
	CurrentValAUC float64    `json:"currentValAUC,omitempty"`
	Current       *TuneTrial `json:"current,omitempty"`
	// Cut says what the budget left out on a machine slower than
	// planned; absent when the search ran as planned.
	Cut       string      `json:"cut,omitempty"`
	Cancelled bool        `json:"cancelled"`
	Plan      TunePlan    `json:"plan"`
	Trials    []TuneTrial `json:"trials"`
	Seconds   float64     `json:"seconds"` // the search's wall time
}
