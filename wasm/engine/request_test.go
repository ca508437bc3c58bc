package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"testing"
)

func TestDecodeRequest(t *testing.T) {
	for n, tc := range []struct {
		head string
		want Request
		code string // "" when it decodes
	}{
		0:  {`{"v":1,"id":7,"op":"explain","args":{"i":1,"j":2}}`, Request{V: 1, ID: 7, Op: "explain", Args: json.RawMessage(`{"i":1,"j":2}`)}, ""},
		1:  {`{"v":1,"id":-3,"op":"info","args":null}`, Request{V: 1, ID: -3, Op: "info"}, ""},
		2:  {`{"v":2,"id":1e3,"op":"info"}`, Request{V: 2, ID: 1000, Op: "info"}, ""}, // Handle refuses v 2
		3:  {`{"v":1,"id":9007199254740991}`, Request{V: 1, ID: 9007199254740991}, ""},
		4:  {`{"v":1,"id":9007199254740992,"op":"info"}`, Request{ID: -1}, CodeBadRequest},
		5:  {`{"v":1,"id":1.5,"op":"info"}`, Request{ID: -1}, CodeBadRequest},
		6:  {`{"v":1,"id":"4","op":"info"}`, Request{ID: -1}, CodeBadRequest},
		7:  {`{"v":1,"ID":4,"op":"info"}`, Request{ID: -1}, CodeBadRequest},
		8:  {`{"v":1,"op":"info"}`, Request{ID: -1}, CodeBadRequest},
		9:  {`{"v":"1","id":4,"op":"info"}`, Request{ID: 4}, CodeVersion},
		10: {`{"v":1.5,"id":4,"op":"info"}`, Request{ID: 4}, CodeVersion},
		11: {`{"id":4,"op":"info"}`, Request{ID: 4}, CodeVersion},
		12: {`{"v":1,"id":4,"op":5}`, Request{V: 1, ID: 4}, CodeBadRequest},
		13: {`{"v":1,"id":4,"op":null}`, Request{V: 1, ID: 4}, CodeBadRequest},
		14: {`[1,2]`, Request{ID: -1}, CodeBadRequest},
		15: {`null`, Request{ID: -1}, CodeBadRequest},
		16: {`{"v":1,"id":4`, Request{ID: -1}, CodeBadRequest},
		17: {``, Request{ID: -1}, CodeBadRequest},
	} {
		got, err := DecodeRequest([]byte(tc.head))
		var pe *Error
		if tc.code == "" && err != nil || tc.code != "" && (!errors.As(err, &pe) || pe.Code != tc.code) {
			t.Errorf("%d: DecodeRequest(%s): error %v, want code %q", n, tc.head, err, tc.code)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d: DecodeRequest(%s) = %+v, want %+v", n, tc.head, got, tc.want)
		}
	}
}

// FuzzDecodeRequest checks DecodeRequest against a decoding of the same
// text through encoding/json's generic values, that a decoded request
// round-trips through its JSON, and that the engine then answers it with
// exactly one reply carrying its id, whatever its args.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":1,"op":"explain","args":{"i":0,"j":1}}`,
		`{"v":1,"id":2,"op":"suggest","args":{"node":"x","top":-1}}`,
		`{"v":1,"id":3,"op":"defaults","args":{"model":"seal"}}`,
		`{"v":1,"id":4,"op":"cancel","args":{"target":4,"extra":0}}`,
		`{"v":1,"id":5,"op":"checkpoints.load","args":{"key":""}}`,
		`{"v":1,"id":1.5}`, `{"v":"1","id":6}`, `[]`, `{"op":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		req, err := DecodeRequest(head)
		var pe *Error
		if err != nil && (!errors.As(err, &pe) || pe.Message == "") {
			t.Fatalf("DecodeRequest(%q): error %#v is not a protocol error", head, err)
		}

		// The oracle: generic values, numbers read as float64 (JavaScript's)
		// where a number must be an integer.
		m, jsonErr := genericJSON(head)
		obj, isObject := m.(map[string]any)
		if jsonErr != nil || !isObject {
			if err == nil || pe.Code != CodeBadRequest || req.ID != -1 {
				t.Fatalf("DecodeRequest(%q) = %+v, %v; want bad_request with id -1", head, req, err)
			}
			return
		}
		id, ok := jsNumber(obj["id"])
		if !ok || id != math.Trunc(id) || math.Abs(id) > 1<<53-1 {
			if err == nil || pe.Code != CodeBadRequest || req.ID != -1 {
				t.Fatalf("DecodeRequest(%q) = %+v, %v; want bad_request with id -1", head, req, err)
			}
			return
		}
		if req.ID != int64(id) {
			t.Fatalf("DecodeRequest(%q): id %d, want %v", head, req.ID, id)
		}
		v, ok := jsNumber(obj["v"])
		if !ok || v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			if err == nil || pe.Code != CodeVersion {
				t.Fatalf("DecodeRequest(%q) = %+v, %v; want unsupported_version", head, req, err)
			}
			return
		}
		op, isString := obj["op"].(string)
		if _, has := obj["op"]; has && !isString {
			if err == nil || pe.Code != CodeBadRequest {
				t.Fatalf("DecodeRequest(%q) = %+v, %v; want bad_request", head, req, err)
			}
			return
		}
		if err != nil || req.V != int(v) || req.Op != op {
			t.Fatalf("DecodeRequest(%q) = %+v, %v; want v %v, op %q", head, req, err, v, op)
		}
		if args := obj["args"]; (args == nil) != (req.Args == nil) {
			t.Fatalf("DecodeRequest(%q): args %s, want %v", head, req.Args, args)
		} else if args != nil {
			if got, err := genericJSON(req.Args); err != nil || !reflect.DeepEqual(got, args) {
				t.Fatalf("DecodeRequest(%q): args %s (%v), want %v", head, req.Args, err, args)
			}
		}

		// Round trip through the JSON the page would send.
		msg := map[string]any{"v": req.V, "id": req.ID, "op": req.Op}
		if req.Args != nil {
			msg["args"] = req.Args
		}
		b, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeRequest(b)
		if err != nil || again.V != req.V || again.ID != req.ID || again.Op != req.Op || !sameJSON(again.Args, req.Args) {
			t.Fatalf("DecodeRequest(%s) = %+v, %v; the original %+v", b, again, err, req)
		}

		// Every operation that answers at once on an engine without a
		// graph decodes its args and replies exactly once, with the id.
		if !slices.Contains([]string{"info", "defaults", "cancel", "describe", "evaluate", "insight", "fidelity", "ranking",
			"explain", "suggest", "compare", "checkpoints.list", "checkpoints.save", "checkpoints.load",
			"checkpoints.delete", "checkpoints.export", "nonsense"}, req.Op) {
			return
		}
		var replies []Reply
		e := New(Options{Post: func(r Reply) { replies = append(replies, r) }})
		e.Handle(context.Background(), req)
		if len(replies) != 2 || replies[1].ID == nil || *replies[1].ID != req.ID {
			t.Fatalf("%s: replies %+v, want ready and one reply with id %d", head, replies, req.ID)
		}
		r := replies[1]
		switch {
		case r.Type == "result" && r.Error == nil:
		case r.Type == "error" && r.Error != nil && slices.Contains(protocolCodes, r.Error.Code) && r.Error.Code != CodeInternal:
		default:
			t.Fatalf("%s: reply %+v", head, r)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("%s: reply does not encode: %v", head, err)
		}
	})
}

var protocolCodes = []string{CodeVersion, CodeBadRequest, CodeBadInput, CodeNoGraph, CodeNoModel, CodeBusy,
	CodeMismatch, CodeNotFound, CodeStorage, CodeInternal}

// genericJSON decodes JSON into maps, slices and json.Numbers.
func genericJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return x, nil
}

// jsNumber is x as a JavaScript number, if it is a JSON number that is one.
func jsNumber(x any) (float64, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	var f float64
	return f, json.Unmarshal([]byte(n), &f) == nil
}

func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, errX := genericJSON(a)
	y, errY := genericJSON(b)
	return errX == nil && errY == nil && reflect.DeepEqual(x, y)
}
