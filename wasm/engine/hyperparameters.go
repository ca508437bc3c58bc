package engine

import (
	"errors"
	"slices"
	"strconv"

	"ilpgnn/core/models"
)

// applyFlags sets cfg's hyperparameters, by name, from overrides
// (strings, numbers or booleans, as JSON gives them), reporting which were
// given.
func applyFlags(cfg models.Config, overrides map[string]any) (map[string]bool, error) {
	settings := make(map[string]string, len(overrides))
	given := make(map[string]bool, len(overrides))
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	slices.Sort(names) // the same error first every time
	for _, name := range names {
		switch v := overrides[name].(type) {
		case string:
			settings[name] = v
		case bool:
			settings[name] = strconv.FormatBool(v)
		case float64:
			settings[name] = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			return nil, errorf(CodeBadRequest, "train: config.%s: want a string, number or boolean", name)
		}
		given[name] = true
	}
	var se *models.SettingError
	if err := models.Set(cfg, settings); errors.As(err, &se) {
		if se.Err == nil {
			return nil, errorf(CodeBadRequest, "train: unknown hyperparameter %q (the defaults operation lists them)", se.Name)
		}
		return nil, errorf(CodeBadRequest, "train: config.%s: %v", se.Name, se.Err)
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
