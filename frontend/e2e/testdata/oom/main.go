//go:build js && wasm

// A stand-in for the engine in the browser test of running out of memory
// (frontend/e2e/oom.test.mjs): it says it is ready as the engine does, and
// on the first request holds ever more memory until the Go runtime cannot
// grow the WebAssembly memory and gives up, as the real engine would on a
// graph too big for the tab. The blocks are never written, so the pages
// the browser commits stay few.
package main

import "syscall/js"

func main() {
	start := make(chan struct{}, 1)
	js.Global().Set("ilpgnnHandle", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case start <- struct{}{}:
		default:
		}
		return nil
	}))
	js.Global().Call("postMessage", map[string]any{"v": 1, "type": "ready",
		"engine": map[string]any{"protocol": 1, "version": "oom-test", "storage": map[string]any{"available": false},
			"models": []any{map[string]any{"name": "ilpgnn", "about": "self-explaining, SPEC", "learns": true, "saves": true, "explanation": "neighbour selection"}}}})
	js.Global().Call("ilpgnnReady")
	<-start
	var held [][]byte
	for {
		held = append(held, make([]byte, 64<<20))
	}
}
