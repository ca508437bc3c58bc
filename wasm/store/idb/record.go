//go:build js && wasm

package idb

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"

	"ilpgnn/wasm/store"
)

// maxSafeInt is the largest integer a JS number holds exactly (2^53).
const maxSafeInt = 1 << 53

// encodeMeta returns m as the JS object kept in the meta object store: the
// protocol's CheckpointMeta without matches. A JS object rather than JSON,
// because structured clone keeps NaN and ±Inf metrics, which JSON cannot.
func encodeMeta(m store.Meta) js.Value {
	metrics := make(map[string]any, len(m.Metrics))
	for k, v := range m.Metrics {
		metrics[k] = v
	}
	// A seed beyond 2^53 would be rounded as a JS number; keep it exact
	// as a decimal string (decodeMeta accepts both).
	var seed any = float64(m.Seed)
	if m.Seed > maxSafeInt {
		seed = strconv.FormatUint(m.Seed, 10)
	}
	return js.ValueOf(map[string]any{
		"key":         m.Key,
		"schema":      m.Schema,
		"model":       m.Model,
		"dataset":     m.Dataset,
		"fingerprint": m.Fingerprint,
		"seed":        seed,
		"created":     float64(m.Created),
		"metrics":     metrics,
		"config":      m.Config,
		"size":        m.Size,
	})
}

// decodeMeta reads a meta record back, checking each field's type so that
// a damaged record is an error and not a syscall/js panic (Value.Type
// itself panics on a BigInt, hence the recover).
func decodeMeta(v js.Value) (_ store.Meta, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("meta record: %w", panicError(r))
		}
	}()
	if v.Type() != js.TypeObject {
		return store.Meta{}, fmt.Errorf("meta record is a %s, not an object", v.Type())
	}
	var m store.Meta
	var errs []error
	str := func(name string) string {
		f := v.Get(name)
		if f.Type() != js.TypeString {
			errs = append(errs, fmt.Errorf("meta field %q is a %s, not a string", name, f.Type()))
			return ""
		}
		return f.String()
	}
	num := func(name string) float64 {
		f := v.Get(name)
		if f.Type() != js.TypeNumber {
			errs = append(errs, fmt.Errorf("meta field %q is a %s, not a number", name, f.Type()))
			return 0
		}
		return f.Float()
	}
	m.Key = str("key")
	m.Schema = int(num("schema"))
	m.Model = str("model")
	m.Dataset = str("dataset")
	m.Fingerprint = str("fingerprint")
	m.Created = int64(num("created"))
	m.Config = str("config")
	m.Size = int(num("size"))
	switch f := v.Get("seed"); f.Type() {
	case js.TypeNumber:
		if x := f.Float(); x >= 0 && x <= maxSafeInt && x == math.Trunc(x) {
			m.Seed = uint64(x)
		} else {
			errs = append(errs, fmt.Errorf("meta field \"seed\" = %v is not a valid seed", x))
		}
	case js.TypeString:
		seed, err := strconv.ParseUint(f.String(), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("meta field \"seed\": %w", err))
		}
		m.Seed = seed
	default:
		errs = append(errs, fmt.Errorf("meta field \"seed\" is a %s", f.Type()))
	}
	metrics := v.Get("metrics")
	switch metrics.Type() {
	case js.TypeObject:
		keys := js.Global().Get("Object").Call("keys", metrics)
		m.Metrics = make(map[string]float64, keys.Length())
		for i := range keys.Length() {
			k := keys.Index(i).String()
			x := metrics.Get(k)
			if x.Type() != js.TypeNumber {
				errs = append(errs, fmt.Errorf("metric %q is a %s, not a number", k, x.Type()))
				continue
			}
			m.Metrics[k] = x.Float()
		}
	case js.TypeUndefined, js.TypeNull:
		m.Metrics = map[string]float64{}
	default:
		errs = append(errs, fmt.Errorf("meta field \"metrics\" is a %s, not an object", metrics.Type()))
	}
	if err := errors.Join(errs...); err != nil {
		return store.Meta{}, err
	}
	return m, nil
}

// encodeWeights returns the weights record { key, data: Uint8Array }. A typed
// array is stored as bytes by structured clone; a Go []byte passed through
// js.ValueOf would not be accepted, and an array of numbers would take
// several times the space.
func encodeWeights(key string, data []byte) js.Value {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	rec := js.Global().Get("Object").New()
	rec.Set("key", key)
	rec.Set("data", arr)
	return rec
}

// decodeWeights copies the bytes of a weights record into Go. It accepts an
// ArrayBuffer as well, in case other code stored one.
func decodeWeights(v js.Value) ([]byte, error) {
	if v.Type() != js.TypeObject {
		return nil, fmt.Errorf("weights record is a %s, not an object", v.Type())
	}
	data := v.Get("data")
	switch {
	case data.InstanceOf(js.Global().Get("Uint8Array")):
	case data.InstanceOf(js.Global().Get("ArrayBuffer")):
		data = js.Global().Get("Uint8Array").New(data)
	default:
		return nil, fmt.Errorf("weights record holds a %s, not a Uint8Array", data.Type())
	}
	out := make([]byte, data.Length())
	js.CopyBytesToGo(out, data)
	return out, nil
}

// jsArgs converts callback arguments for passing on to Call.
func jsArgs(args []js.Value) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
	}
	return out
}

// try runs f, returning a panic (typically a thrown JS exception) as an
// error.
func try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	f()
	return nil
}

// catch, deferred, turns a panic in a Store method into its error: a thrown
// JS exception must not bring down the engine.
func catch(err *error, op string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("idb: %s: %w", op, jsError(panicError(r)))
	}
}

// panicError returns a recovered value as an error.
func panicError(r any) error {
	if err, ok := r.(error); ok { // js.Error and *js.ValueError included
		return err
	}
	return fmt.Errorf("%v", r)
}

// jsError normalises an error from go-indexeddb. Exceptions thrown
// synchronously (by put, say) reach us as a js.Error wrapped by safejs, which
// go-indexeddb fails to turn into an idb.DOMException; their message then
// lacks the exception's name. jsError gives them one, and makes them match
// idb.NewDOMException(name) under errors.Is like the asynchronous ones.
func jsError(err error) error {
	var je js.Error
	if err == nil || !errors.As(err, &je) {
		return err
	}
	e := &jsException{err: err}
	_ = try(func() {
		if je.Value.Type() == js.TypeObject {
			e.name = je.Value.Get("name").String()
			e.message = je.Value.Get("message").String()
		}
	})
	if e.name == "" {
		return err
	}
	return e
}

// jsException is a thrown JS exception with its name.
type jsException struct {
	name, message string
	err           error
}

func (e *jsException) Error() string { return e.name + ": " + e.message }
func (e *jsException) Unwrap() error { return e.err }

// Is matches the idb.DOMException of the same name.
func (e *jsException) Is(target error) bool {
	d, ok := target.(idb.DOMException)
	return ok && d == idb.NewDOMException(e.name)
}
