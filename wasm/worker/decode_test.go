//go:build js && wasm

package main

import (
	"errors"
	"strings"
	"syscall/js"
	"testing"

	"ilpgnn/wasm/engine"
)

// TestDecode feeds decode the objects a page (or a hostile one) could post,
// including what JSON.stringify refuses.
func TestDecode(t *testing.T) {
	parse := func(s string) js.Value { return js.Global().Get("JSON").Call("parse", s) }

	req, err := decode(parse(`{"v":1,"id":3,"op":"explain","args":{"i":1,"j":2},"extra":true}`))
	if err != nil || req.V != 1 || req.ID != 3 || req.Op != "explain" || string(req.Args) != `{"i":1,"j":2}` || req.Files != nil {
		t.Errorf("explain: %+v, %v", req, err)
	}

	msg := parse(`{"v":1,"id":4,"op":"load"}`)
	files := js.Global().Get("Object").New()
	u8 := js.Global().Get("Uint8Array").New(3)
	js.CopyBytesToJS(u8, []byte("a,b"))
	files.Set("edges.csv", u8)
	msg.Set("files", files)
	req, err = decode(msg)
	if err != nil || req.ID != 4 || string(req.Files["edges.csv"]) != "a,b" || req.Args != nil {
		t.Errorf("load: %+v, %v", req, err)
	}

	bigID := parse(`{"v":1,"op":"info"}`)
	bigID.Set("id", js.Global().Call("BigInt", 5))
	cyclic := parse(`{"v":1,"id":6,"op":"explain"}`)
	cyclic.Set("args", cyclic)
	nan := parse(`{"v":1,"op":"info"}`)
	nan.Set("id", js.Global().Get("NaN"))
	for n, tc := range []struct {
		msg    js.Value
		id     int64
		code   string
		inText string
	}{
		0: {bigID, -1, engine.CodeBadRequest, "BigInt"},
		1: {cyclic, -1, engine.CodeBadRequest, "circular"},
		2: {nan, -1, engine.CodeBadRequest, "id must be an integer"},
		3: {parse(`{"v":1,"id":2.5,"op":"info"}`), -1, engine.CodeBadRequest, "id must be an integer"},
		4: {parse(`{"v":"1","id":7,"op":"info"}`), 7, engine.CodeVersion, "v must be the protocol version"},
		5: {parse(`"info"`), -1, engine.CodeBadRequest, "want an object"},
		6: {js.Null(), -1, engine.CodeBadRequest, "want an object"},
	} {
		req, err := decode(tc.msg)
		var pe *engine.Error
		if !errors.As(err, &pe) || pe.Code != tc.code || req.ID != tc.id || !strings.Contains(pe.Message, tc.inText) {
			t.Errorf("%d: %+v, %v; want id %d, code %s, %q", n, req, err, tc.id, tc.code, tc.inText)
		}
	}
}
