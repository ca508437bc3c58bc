//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"syscall/js"

	"ilpgnn/core/shard"
)

// roleShard is globalThis.ilpgnnRole in a helper: a Worker the engine's
// worker started to compute shards of its epochs.
const roleShard = "shard"

// helperFailed is the type of the message a helper posts when it stops,
// { type: "failed", message }: the bootstrap when the program cannot start
// or exits, serveShards when shard.Serve fails. The engine then drops the
// helper and computes its shards itself.
const helperFailed = "failed"

// serveShards is a helper's program. It opens no IndexedDB and defines no
// engine: the engine's worker sends it a kit, then tasks, as Uint8Arrays,
// and it posts its answers back the same way (shard.Serve). It returns
// only when the program cannot go on, after saying why.
func serveShards() {
	in := newQueue[received]()
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			in.push(fromEngine(args[0]))
		}
		return nil
	})
	js.Global().Set("ilpgnnHandle", handle)
	ready()
	receive := func() ([]byte, error) {
		r := in.pop()
		return r.data, r.err
	}
	err := shard.Serve(context.Background(), receive, postBytes)
	fail := js.Global().Get("Object").New()
	fail.Set("type", helperFailed)
	fail.Set("message", fmt.Sprintf("shards: %v", err))
	js.Global().Call("postMessage", fail)
	// The engine terminates this worker when it reads the failure;
	// returning would make the bootstrap report the program's exit too.
	select {}
}

// fromEngine reads a message from the engine's worker: a kit or a task as
// a Uint8Array.
func fromEngine(v js.Value) received {
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return received{err: fmt.Errorf("want a Uint8Array from the engine, got a %s", v.Type())}
	}
	return received{data: bytesOf(v)}
}

// postBytes posts b to the engine's worker as a Uint8Array whose buffer
// is transferred, not cloned.
func postBytes(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("posting an answer: %v", r)
		}
	}()
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	js.Global().Call("postMessage", arr, []any{arr.Get("buffer")})
	return nil
}
