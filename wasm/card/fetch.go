//go:build js

package main

import (
	"errors"
	"fmt"
	"strconv"
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

// maxBundle is the largest bundle a card reads: 1 GiB, as the app's own
// limit on a file (frontend/src/app/limits.ts). A page's tab holds the
// bundle twice while it is read (the response's bytes and Go's copy),
// within WebAssembly's 4 GiB; exported bundles are megabytes.
const maxBundle = 1 << 30

// tooLarge is the refusal of a bundle of n bytes.
func tooLarge(url string, n int64) error {
	return fmt.Errorf("the bundle at %s is %.1f GiB, more than the 1 GiB a card reads", url, float64(n)/(1<<30))
}

// fetchBytes reads url, taking the response the loader (ilpgnn-card.js)
// already asked for when there is one, else asking through the loader's
// ilpgnnCardFetch (the Fetch API, or a file's .gz twin from a host that
// does not compress).
func fetchBytes(url string) ([]byte, error) {
	req := js.Undefined()
	if pre := js.Global().Get("ilpgnnCardPrefetch"); pre.Type() == js.TypeObject {
		req = pre.Get(url)
		pre.Delete(url) // a later scan fetches afresh
	}
	if req.Type() != js.TypeObject {
		req = js.Global().Call("ilpgnnCardFetch", url)
	}
	resp, err := await(req)
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", url, err)
	}
	if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("no bundle at %s (HTTP %d)", url, resp.Get("status").Int())
	}
	// A size the server states is checked before the body is read; the
	// body's own size before it is copied into Go's memory.
	if n, err := strconv.ParseInt(resp.Get("headers").Call("get", "content-length").String(), 10, 64); err == nil && n > maxBundle {
		return nil, tooLarge(url, n)
	}
	buf, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", url, err)
	}
	if n := int64(buf.Get("byteLength").Int()); n > maxBundle {
		return nil, tooLarge(url, n)
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	out := make([]byte, u8.Length())
	js.CopyBytesToGo(out, u8)
	return out, nil
}
