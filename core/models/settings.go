package models

import (
	"flag"
	"fmt"
	"io"
	"slices"
)

// SettingError is a setting Set could not apply: Name is not a
// hyperparameter of the configuration (Err is nil), or Value is not one of
// its values (Err says why).
type SettingError struct {
	Name, Value string
	Err         error
}

func (e *SettingError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("no hyperparameter %q", e.Name)
	}
	return fmt.Sprintf("%s=%s: %v", e.Name, e.Value, e.Err)
}

func (e *SettingError) Unwrap() error { return e.Err }

// Set applies settings, by flag name, to c, in name order so that the
// first error is the same every time; the error is a *SettingError. It
// does not validate c.
func Set(c Config, settings map[string]string) error {
	fs := flag.NewFlagSet("settings", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.RegisterFlags(fs)
	names := make([]string, 0, len(settings))
	for name := range settings {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := settings[name]
		if fs.Lookup(name) == nil {
			return &SettingError{Name: name, Value: v}
		}
		if err := fs.Set(name, v); err != nil {
			return &SettingError{Name: name, Value: v, Err: err}
		}
	}
	return nil
}
