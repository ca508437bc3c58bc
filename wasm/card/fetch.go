//go:build js

package main

import (
	"errors"
	"fmt"
	"syscall/js"
)

// await waits for promise p from a goroutine (never from a callback) and
// returns its value, or its rejection as an error.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}

// fetchBytes reads url with the Fetch API, taking the response the loader
// (ilpgnn-card.js) already asked for when there is one.
func fetchBytes(url string) ([]byte, error) {
	req := js.Undefined()
	if pre := js.Global().Get("ilpgnnCardPrefetch"); pre.Type() == js.TypeObject {
		req = pre.Get(url)
		pre.Delete(url) // a later scan fetches afresh
	}
	if req.Type() != js.TypeObject {
		req = js.Global().Call("fetch", url, map[string]any{"credentials": "same-origin"})
	}
	resp, err := await(req)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", url, err)
	}
	if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("no bundle at %s (HTTP %d)", url, resp.Get("status").Int())
	}
	buf, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", url, err)
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	out := make([]byte, u8.Length())
	js.CopyBytesToGo(out, u8)
	return out, nil
}
