package engine

import (
	"flag"
	"ilpgnn/core/models"
	"io"
	"sort"
	"strconv"
)

// applyFlags sets the flags that register binds, by name, from overrides
// (strings, numbers or booleans, as JSON gives them), reporting which were
// given.
func applyFlags(register func(*flag.FlagSet), overrides map[string]any) (map[string]bool, error) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	register(fs)
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names) // deterministic error messages
	given := map[string]bool{}
	for _, name := range names {
		var s string
		switch v := overrides[name].(type) {
		case string:
			s = v
		case bool:
			s = strconv.FormatBool(v)
		case float64:
			s = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			return nil, errorf(CodeBadRequest, "train: config.%s: want a string, number or boolean", name)
		}
		if fs.Lookup(name) == nil {
			return nil, errorf(CodeBadRequest, "train: unknown hyperparameter %q (the defaults operation lists them)", name)
		}
		if err := fs.Set(name, s); err != nil {
			return nil, errorf(CodeBadRequest, "train: config.%s: %v", name, err)
		}
		given[name] = true
	}
	return given, nil
}

// hyperparameters lists c's settings for the page.
func hyperparameters(c models.Config) []Hyperparameter {
	var out []Hyperparameter
	for _, h := range models.Hyperparameters(c) {
		out = append(out, Hyperparameter{Name: h.Name, Value: h.Value, Help: h.Help})
	}
	return out
}
