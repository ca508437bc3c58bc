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
	settings, err := flagStrings("train", overrides)
	if err != nil {
		return nil, err
	}
	given := make(map[string]bool, len(settings))
	for name := range settings {
		given[name] = true
	}
	if err := settingError("train", models.Set(cfg, settings)); err != nil {
		return nil, err
	}
	return given, nil
}

// flagStrings turns op's hyperparameter overrides (strings, numbers or
// booleans, as JSON gives them) into the strings their flags parse.
func flagStrings(op string, overrides map[string]any) (map[string]string, error) {
	settings := make(map[string]string, len(overrides))
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
			return nil, errorf(CodeBadRequest, "%s: config.%s: want a string, number or boolean", op, name)
		}
	}
	return settings, nil
}

// settingError is op's bad_request for an error of models.Set (nil for
// nil), naming the setting; other errors are returned as they are.
func settingError(op string, err error) error {
	var se *models.SettingError
	if !errors.As(err, &se) {
		return err
	}
	if se.Err == nil {
		return errorf(CodeBadRequest, "%s: unknown hyperparameter %q (the defaults operation lists them)", op, se.Name)
	}
	return errorf(CodeBadRequest, "%s: config.%s: %v", op, se.Name, se.Err)
}

// hyperparameters lists c's settings for the page.
func hyperparameters(c models.Config) []Hyperparameter {
	var out []Hyperparameter
	for _, h := range models.Hyperparameters(c) {
		out = append(out, Hyperparameter{Name: h.Name, Value: h.Value, Help: h.Help})
	}
	return out
}
