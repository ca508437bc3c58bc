package engine

import (
	"reflect"

	"ilpgnn/core/explain"
	"ilpgnn/core/models"
	"ilpgnn/core/synth"
)

// Op describes one operation of the protocol (wasm/PROTOCOL.md): its name
// and the Go types of its args, its result and its progress events. The
// table Ops returns is the one list of operations: the TypeScript types of
// frontend/src/protocol.gen.ts are generated from it (TestProtocolTS), and
// tests hold the engine and PROTOCOL.md to it.
type Op struct {
	Name string
	// Args is the type args decode into; nil when the operation takes none.
	Args reflect.Type
	// Result is the type of the result reply's result.
	Result reflect.Type
	// Progress is the type of the progress events; nil when there are none.
	Progress reflect.Type
	// Files says the request must carry files; Bytes that the result reply
	// carries bytes.
	Files, Bytes bool
}

// Ops returns every operation of the protocol, in PROTOCOL.md's order.
func Ops() []Op {
	return []Op{
		{Name: "info", Result: reflect.TypeFor[Info]()},
		{Name: "defaults", Args: reflect.TypeFor[DefaultsArgs](), Result: reflect.TypeFor[DefaultsResult]()},
		{Name: "load", Args: reflect.TypeFor[LoadArgs](), Result: reflect.TypeFor[GraphInfo](), Files: true},
		{Name: "generate", Args: reflect.TypeFor[GenerateArgs](), Result: reflect.TypeFor[GraphInfo]()},
		{Name: "describe", Result: reflect.TypeFor[Description]()},
		{Name: "train", Args: reflect.TypeFor[TrainArgs](), Result: reflect.TypeFor[TrainResult](), Progress: reflect.TypeFor[Progress]()},
		{Name: "tune", Args: reflect.TypeFor[TuneArgs](), Result: reflect.TypeFor[TuneResult](), Progress: reflect.TypeFor[TuneProgress]()},
		{Name: "cancel", Args: reflect.TypeFor[CancelArgs](), Result: reflect.TypeFor[CancelResult]()},
		{Name: "evaluate", Result: reflect.TypeFor[Evaluation]()},
		{Name: "explain", Args: reflect.TypeFor[PairArgs](), Result: reflect.TypeFor[Explanation]()},
		{Name: "insight", Result: reflect.TypeFor[Insight]()},
		{Name: "fidelity", Args: reflect.TypeFor[FidelityArgs](), Result: reflect.TypeFor[FidelityResult](), Progress: reflect.TypeFor[StepProgress]()},
		{Name: "ranking", Result: reflect.TypeFor[RankingResult](), Progress: reflect.TypeFor[StepProgress]()},
		{Name: "suggest", Args: reflect.TypeFor[SuggestArgs](), Result: reflect.TypeFor[[]explain.Suggestion]()},
		{Name: "compare", Args: reflect.TypeFor[CompareArgs](), Result: reflect.TypeFor[Comparison]()},
		{Name: "checkpoints.list", Result: reflect.TypeFor[CheckpointList]()},
		{Name: "checkpoints.save", Result: reflect.TypeFor[SaveStatus]()},
		{Name: "checkpoints.load", Args: reflect.TypeFor[KeyArgs](), Result: reflect.TypeFor[ModelInfo]()},
		{Name: "checkpoints.delete", Args: reflect.TypeFor[KeyArgs](), Result: reflect.TypeFor[DeleteResult]()},
		{Name: "checkpoints.export", Args: reflect.TypeFor[ExportArgs](), Result: reflect.TypeFor[ExportResult](), Bytes: true},
		{Name: "checkpoints.import", Result: reflect.TypeFor[ImportResult](), Files: true},
		{Name: "card.export", Args: reflect.TypeFor[CardExportArgs](), Result: reflect.TypeFor[ExportResult](), Files: true, Bytes: true},
		{Name: "graph.export", Args: reflect.TypeFor[GraphExportArgs](), Result: reflect.TypeFor[GraphExportResult](), Bytes: true},
	}
}

// ErrorCodes returns every error code, in PROTOCOL.md's order.
func ErrorCodes() []string {
	return []string{CodeVersion, CodeBadRequest, CodeBadInput, CodeNoGraph, CodeNoModel,
		CodeBusy, CodeMismatch, CodeNotFound, CodeStorage, CodeInternal}
}

// Models returns the link predictors train knows by default
// (models.Default): ILP-GNN, then the baselines of the paper's table 1.
// An engine with other models lists its own in the ready message.
func Models() []string { return models.Default().Names() }

// Selections returns train's model selections, as ilpgnn train --select.
func Selections() []string { return []string{"auto", "auc", "precision", "unsupervised"} }

// Presets returns generate's synthetic graph presets.
func Presets() []string { return synth.Presets() }

// The args of the operations that take some. Fields without omitempty
// are required. The engine reads the same fields (TestOpArgsAccepted).

// DefaultsArgs are the args of defaults.
type DefaultsArgs struct {
	Model string `json:"model,omitempty"` // whose hyperparameters (default ilpgnn)
}

// LoadArgs are the args of load; the graph's files travel beside them.
type LoadArgs struct {
	Name string `json:"name,omitempty"`
}

// GenerateArgs are the args of generate.
type GenerateArgs struct {
	Preset string `json:"preset"`
	Seed   uint64 `json:"seed"`
}

// TrainArgs are the args of train.
type TrainArgs struct {
	// Model is ilpgnn (the default) or a baseline, which reports metrics
	// only and is not saved.
	Model string `json:"model,omitempty"`
	// Config overrides hyperparameters by their defaults names.
	Config map[string]any `json:"config,omitempty"`
	Seed   uint64         `json:"seed,omitempty"`
	// Select is which weights are kept: auto (the default) the best
	// validation explanation precision where the graph has groundtruth,
	// else the best validation AUC.
	Select string `json:"select,omitempty"`
	// Save stores the checkpoint when training ends (default true).
	Save bool `json:"save,omitempty"`
	// SaveOnCancel stores it also when cancelled (default false).
	SaveOnCancel bool `json:"saveOnCancel,omitempty"`
	// Workers is how many Web Workers compute an ILP-GNN epoch's shards
	// (1 to Info.MaxWorkers; default Info.Cores - 1, at least 1).
	Workers int `json:"workers,omitempty"`
}

// TuneArgs are the args of tune.
type TuneArgs struct {
	// Model is whose hyperparameters are searched (default ilpgnn).
	Model string `json:"model,omitempty"`
	// BudgetSeconds is the time the search may take: it sets the plan
	// (how many candidates, how many epochs), and on a machine slower
	// than planned the candidates whose trial no longer fits are left
	// out (TuneResult.Cut).
	BudgetSeconds float64 `json:"budgetSeconds"`
	// Config are hyperparameters every candidate keeps, by their defaults
	// names (the user's own), left out of the search.
	Config map[string]any `json:"config,omitempty"`
	// Seed is the tuning seed: its split's validation links score the
	// candidates (default as train's).
	Seed uint64 `json:"seed,omitempty"`
	// Select is the weight selection the training with the chosen
	// settings will use (as TrainArgs.Select; default auto): every trial
	// keeps its weights so, and candidates are compared on what it keeps
	// them by.
	Select string `json:"select,omitempty"`
}

// CancelArgs are the args of cancel.
type CancelArgs struct {
	Target int64 `json:"target"` // the id of a train or tune request
}

// PairArgs are the args of explain: the pair's node indices.
type PairArgs struct {
	I int `json:"i"`
	J int `json:"j"`
}

// FidelityArgs are the args of fidelity.
type FidelityArgs struct {
	MaxM int `json:"maxM,omitempty"` // default 4, 1..10
}

// SuggestArgs are the args of suggest.
type SuggestArgs struct {
	Node int `json:"node"`
	Top  int `json:"top,omitempty"` // default 10
}

// CompareArgs are the args of compare.
type CompareArgs struct {
	I   int `json:"i"`
	J   int `json:"j"`
	Top int `json:"top,omitempty"` // default 5
}

// KeyArgs name a stored checkpoint (checkpoints.load, checkpoints.delete).
type KeyArgs struct {
	Key string `json:"key"`
}

// ExportArgs are the args of checkpoints.export.
type ExportArgs struct {
	Key string `json:"key,omitempty"` // default: the current model's
}

// The results that are not described elsewhere.

// DefaultsResult is the result of defaults.
type DefaultsResult struct {
	Hyperparameters []Hyperparameter `json:"hyperparameters"`
}

// CancelResult is the result of cancel: whether a run was cancelled.
type CancelResult struct {
	Cancelled bool `json:"cancelled"`
}

// DeleteResult is the result of checkpoints.delete (always true).
type DeleteResult struct {
	Deleted bool `json:"deleted"`
}

// ExportResult is the result of checkpoints.export; the checkpoint file
// travels as the reply's bytes.
type ExportResult struct {
	Filename string `json:"filename"`
}

// ImportResult is the result of checkpoints.import.
type ImportResult struct {
	Meta   CheckpointEntry `json:"meta"`
	Status SaveStatus      `json:"status"`
}
