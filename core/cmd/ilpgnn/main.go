// Command ilpgnn trains and explains ILP-GNN link predictors from the
// command line.
//
//	ilpgnn train   --data PATH [--seeds 0,1,2,3,4] [--json] [--save FILE] [hyperparameters]
//	ilpgnn explain --checkpoint FILE --data PATH --pair A,B [--json]
//	ilpgnn suggest --checkpoint FILE --data PATH --node A [--top 10] [--json]
//	ilpgnn inspect --data PATH [--json]
//	ilpgnn export-graph [--format dgl] --data PATH --out DIR [--seed S] [--split TRAIN/VAL/TEST]
//	ilpgnn synth   [--preset NAME] [--nodes N --edges E --dim D] [--method exact|sampled] [--seed S] --out DIR
//	ilpgnn tune    --data PATH [--model NAME] [--seeds 0] [--trials 9] [--eta 3] [--min-epochs 20] [--settings FILE]
//	ilpgnn experiment precision|fidelity|ablation|sensitivity [--data PATH,...] [--seeds ...] [--json] [--out DIR]
//	ilpgnn serve   [--addr 127.0.0.1:8080] [--dir DIR] [--open]
//	ilpgnn --version
//
// PATH is a LINQS folder (*.content + *.cites), a gnn-benchmark .npz, an
// edge list, a folder written by synth, or synth:PRESET[:seed=S] (or
// synth:nodes=N:edges=E:dim=D[:seed=S], see dataset.Parse) to generate one
// in memory; node ids are the dataset's own.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"ilpgnn/core/models"
	"ilpgnn/core/printable"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if os.Getenv("GOGC") == "" {
		// Training's large buffers hold no pointers and are reused from
		// epoch to epoch (autograd's tape), so the heap is mostly live data
		// the collector scans for free; Go's default GOGC 100 still lets
		// the heap reach twice that live data before collecting. On an
		// arxiv-sized graph that doubled the peak: 2.45 GB live, 4.99 GB
		// resident. A user's GOGC still wins.
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent is the command's GOGC unless the environment sets one.
const gcPercent = 25

const usage = `usage: ilpgnn <command> [flags]

commands:
  train         train one model per seed and report test AUC
  explain       explain the predicted link between two nodes
  suggest       suggest new links for a node, with explanations
  export        write an explanation card for web pages, with its bundle
  export-graph  write a graph and its split for DGL, GraphStorm (gconstruct) or PyG
  inspect       describe a graph
  synth         generate a synthetic graph with groundtruth explanations
  tune          choose a model's hyperparameters on validation AUC
  experiment    reproduce the paper's explanation experiments
  serve         serve the web app (ILP-GNN Explorer) on a local address

Run "ilpgnn <command> -h" for a command's flags, "ilpgnn --version" for
the version.
`

// errUsage marks errors that should be followed by the usage text.
var errUsage = errors.New("usage")

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, models.Default(), args, stdout, stderr)
}

// runWith is run with the models of reg.
func runWith(ctx context.Context, reg models.Registry, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "train":
		err = cmdTrain(ctx, reg, args[1:], stdout, stderr)
	case "explain":
		err = cmdExplain(args[1:], stdout, stderr)
	case "suggest":
		err = cmdSuggest(args[1:], stdout, stderr)
	case "export":
		err = cmdExport(args[1:], stdout, stderr)
	case "export-graph":
		err = cmdExportGraph(args[1:], stdout, stderr)
	case "inspect":
		err = cmdInspect(args[1:], stdout, stderr)
	case "experiment":
		err = cmdExperiment(ctx, reg, args[1:], stdout, stderr)
	case "tune":
		err = cmdTune(ctx, reg, args[1:], stdout, stderr)
	case "synth":
		err = cmdSynth(args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	default:
		fmt.Fprintf(stderr, "ilpgnn: error: unknown command %q%s\n\n%s", args[0], closestCommand(args[0]), usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		// parse or required has said what is wrong.
		return 2
	default:
		fmt.Fprintf(stderr, "ilpgnn: error: %s\n", printable.Name(errorText(err)))
		return 1
	}
}

// errorText is err's message for the error line (printable.Name then
// escapes whatever of a user's file it quotes raw). Errors of package
// core/ilpgnn begin with its name, which is also the command's, and the
// line already says "ilpgnn: error:".
func errorText(err error) string {
	return strings.TrimPrefix(err.Error(), "ilpgnn: ")
}

// newFlags returns a flag set that reports problems on stderr and returns
// errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: ilpgnn %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and rejects positional leftovers. -h prints the
// command's flags; a mistake prints one error line, with the flag meant
// where a mistyped one is close to a real one, and where to find the
// flags, not all of them.
func parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package would print the problem and every flag
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return err
	case err != nil:
		return usageError(fs, "%v%s", err, didYouMean(fs, err))
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// usageError writes an error in using fs's command, with the way to its
// flags, and returns errUsage.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "ilpgnn: error: %s: %s\nRun \"ilpgnn %s -h\" for its flags.\n", fs.Name(), fmt.Sprintf(format, args...), fs.Name())
	return errUsage
}

// commands are the command names, as usage lists them.
var commands = []string{"train", "explain", "suggest", "export", "export-graph", "inspect", "synth", "tune", "experiment", "serve", "help", "version"}

// closestCommand names the command closest to typed, when one is close,
// as didYouMean does for flags: " (did you mean train?)".
func closestCommand(typed string) string {
	best, bestDist := "", 3
	for _, c := range commands {
		d := editDistance(strings.ToLower(strings.TrimLeft(typed, "-")), c)
		if d < bestDist && (d <= 1 || len(c) > 4) {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// didYouMean names the flag of fs closest to the undefined one err
// complains of, when one is close: " (did you mean --lr?)".
func didYouMean(fs *flag.FlagSet, err error) string {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return ""
	}
	typed := strings.TrimLeft(strings.TrimPrefix(msg, undefined), "-")
	best, bestDist := "", 3 // at most two edits away, or one for short names
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(strings.ToLower(typed), f.Name)
		if d < bestDist && (d <= 1 || len(f.Name) > 4) {
			best, bestDist = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return " (did you mean --" + best + "?)"
}

// editDistance is the Levenshtein distance of a and b in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// required reports a missing required flag the way flag reports bad ones.
// given returns the names of the flags set on the command line, so that a
// default can depend on whether the user chose a value.
func given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func required(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if fs.Lookup(n).Value.String() == "" {
			return usageError(fs, "--%s is required", n)
		}
	}
	return nil
}
