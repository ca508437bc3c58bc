//go:build js && wasm

// Command worker is the ILP-GNN engine as a WebAssembly program for a
// dedicated Web Worker. The worker's bootstrap script (frontend/src/worker.ts)
// starts it; it then defines globalThis.ilpgnnHandle, which the bootstrap
// feeds every message from the page, calls globalThis.ilpgnnReady, and posts
// its replies with postMessage (wasm/PROTOCOL.md). It never touches the DOM:
// a worker has none.
//
// The same program also runs in the engine's helpers: nested Workers that
// compute shards of a training epoch (core/shard) for the engine. The
// bootstrap says which role a worker has in globalThis.ilpgnnRole ("shard"
// for a helper); a helper serves the engine's worker, not the page (see
// helper.go).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"syscall/js"

	"ilpgnn/wasm/engine"
	"ilpgnn/wasm/store"
	"ilpgnn/wasm/store/idb"
)

func main() {
	// WebAssembly memory only grows, so the heap's peak is what the tab
	// keeps. Training's large buffers hold no pointers and are reused from
	// epoch to epoch, so collecting at 25% growth instead of Go's 100%
	// costs little and keeps the peak near the live data (the command line
	// does the same).
	debug.SetGCPercent(25)
	if js.Global().Get("ilpgnnRole").String() == roleShard {
		serveShards()
		return
	}
	serveEngine()
}

// serveEngine is the engine's program: it serves the page's requests
// until the worker ends.
func serveEngine() {
	ctx := context.Background()
	q := newQueue[pending]()
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			req, err := decode(args[0])
			q.push(pending{req, err})
		}
		return nil
	})
	js.Global().Set("ilpgnnHandle", handle)

	yield := newYielder()
	helperURL := js.Global().Get("ilpgnnHelperURL")
	opt := engine.Options{Post: post, Yield: yield, Version: version(),
		Helpers: startHelpers(helperURL), Push: sharePush(helperURL, yield), Cores: cores()}
	// Opening IndexedDB waits on JavaScript callbacks, so it runs here and
	// not inside a js.Func, where it would deadlock.
	if st, err := idb.Open(ctx, "ilpgnn"); err != nil {
		opt.StorageMessage = fmt.Sprintf("checkpoints are kept only until the page closes (%v)", err)
	} else {
		opt.Store = st
	}
	e := engine.New(opt)
	ready()
	if st, ok := opt.Store.(*idb.Store); ok {
		// Another tab running a newer release upgrades the database: the
		// store lets go of it, and the page must hear that its
		// checkpoints are no longer saved.
		go func() {
			<-st.Lost()
			e.StorageLost(idb.ErrVersionChange.Error())
		}()
	}
	// Requests are served one at a time, in arrival order; train returns
	// at once and runs in its own goroutine.
	for {
		p := q.pop()
		if p.err != nil {
			fail(p.req.ID, p.err)
			continue
		}
		serve(ctx, e, p.req)
	}
}

// pending is a request as decoded, or why it could not be.
type pending struct {
	req engine.Request
	err error
}

// fail posts an error reply to request id.
func fail(id int64, err error) {
	pe, ok := err.(*engine.Error)
	if !ok {
		pe = &engine.Error{Code: engine.CodeInternal, Message: err.Error()}
	}
	post(engine.Reply{V: engine.Protocol, Type: "error", ID: &id, Error: pe})
}

// serve handles one request, turning a panic into an internal error reply
// so that one bad request never takes the engine down.
func serve(ctx context.Context, e *engine.Engine, req engine.Request) {
	defer func() {
		if r := recover(); r != nil {
			id := req.ID
			post(engine.Reply{V: engine.Protocol, Type: "error", ID: &id,
				Error: &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("%s: internal error: %v", req.Op, r)}})
		}
	}()
	e.Handle(ctx, req)
}

// decode reads a request from a structured-cloned JavaScript object: its
// v, id, op and args as JSON, which engine.DecodeRequest checks, and its
// files as bytes. A message that is not one gets an error reply, with id -1
// unless its id could be read.
func decode(v js.Value) (req engine.Request, err error) {
	req.ID = -1
	defer func() {
		// JSON.stringify throws on a BigInt or a cycle, both of which
		// survive structured cloning; syscall/js turns that into a panic.
		if r := recover(); r != nil {
			err = &engine.Error{Code: engine.CodeBadRequest, Message: fmt.Sprintf("request: %v", r)}
		}
	}()
	if v.Type() != js.TypeObject {
		return req, &engine.Error{Code: engine.CodeBadRequest, Message: fmt.Sprintf("request: want an object {v, id, op, args?}, got a %s", v.Type())}
	}
	head := js.Global().Get("Object").New()
	for _, k := range []string{"v", "id", "op", "args"} {
		head.Set(k, v.Get(k))
	}
	req, err = engine.DecodeRequest([]byte(js.Global().Get("JSON").Call("stringify", head).String()))
	if err != nil {
		return req, err
	}
	if files := v.Get("files"); files.Type() == js.TypeObject {
		req.Files = map[string][]byte{}
		names := js.Global().Get("Object").Call("keys", files)
		for k := range names.Length() {
			name := names.Index(k).String()
			req.Files[name] = bytesOf(files.Get(name))
		}
	}
	return req, nil
}

// bytesOf copies a Uint8Array, ArrayBuffer or other typed array into Go.
func bytesOf(v js.Value) []byte {
	u8 := js.Global().Get("Uint8Array")
	switch {
	case v.InstanceOf(u8):
	case v.InstanceOf(js.Global().Get("ArrayBuffer")):
		v = u8.New(v)
	case v.Type() == js.TypeObject && v.Get("buffer").Type() == js.TypeObject:
		v = u8.New(v.Get("buffer"), v.Get("byteOffset"), v.Get("byteLength"))
	default:
		return nil
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// post sends a reply to the page: the JSON part as an object, bytes as a
// transferred Uint8Array.
func post(r engine.Reply) {
	b, err := json.Marshal(r)
	if err != nil {
		id := int64(-1)
		if r.ID != nil {
			id = *r.ID
		}
		b, _ = json.Marshal(engine.Reply{V: engine.Protocol, Type: "error", ID: &id,
			Error: &engine.Error{Code: engine.CodeInternal, Message: "encoding the reply: " + err.Error()}})
	}
	msg := js.Global().Get("JSON").Call("parse", string(b))
	if r.Bytes == nil {
		js.Global().Call("postMessage", msg)
		return
	}
	arr := js.Global().Get("Uint8Array").New(len(r.Bytes))
	js.CopyBytesToJS(arr, r.Bytes)
	msg.Set("bytes", arr)
	js.Global().Call("postMessage", msg, []any{arr.Get("buffer")})
}

// newYielder returns a function that lets the JavaScript event loop run
// (delivering queued messages, such as a cancel) and then resumes. A
// MessageChannel round trip takes well under a millisecond; setTimeout
// would be clamped to 4 ms after a few nested calls.
//
// Goroutines may yield at once (a shared push's and its progress): one
// round trip at a time, so that each wake has its one waiter and the
// message handler never blocks.
func newYielder() func() {
	ch := js.Global().Get("MessageChannel").New()
	wake := make(chan struct{}, 1)
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		wake <- struct{}{}
		return nil
	}))
	port := ch.Get("port2")
	var mu sync.Mutex
	return func() {
		mu.Lock()
		defer mu.Unlock()
		port.Call("postMessage", nil)
		<-wake
	}
}

func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return info.Main.Version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// ready tells the bootstrap that ilpgnnHandle is defined.
func ready() {
	if f := js.Global().Get("ilpgnnReady"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}

// cores is navigator.hardwareConcurrency (a WorkerNavigator has it), or 0
// where the browser does not say.
func cores() int {
	nav := js.Global().Get("navigator")
	if nav.Type() != js.TypeObject {
		return 0
	}
	n := nav.Get("hardwareConcurrency")
	if n.Type() != js.TypeNumber {
		return 0
	}
	return max(n.Int(), 0)
}

// queue is an unbounded FIFO: a JavaScript callback feeding it must never
// block, so it cannot wait on a full channel.
type queue[T any] struct {
	mu    sync.Mutex
	items []T
	more  chan struct{}
}

func newQueue[T any]() *queue[T] { return &queue[T]{more: make(chan struct{}, 1)} }

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.more <- struct{}{}:
	default:
	}
}

// pop waits for the next item.
func (q *queue[T]) pop() T {
	v, _ := q.next(context.Background())
	return v
}

// next waits for the next item, or returns ctx's error when ctx is done
// first. Waiting on a channel is what lets the JavaScript callbacks that
// push run: Go's WebAssembly returns to the event loop only while every
// goroutine is blocked.
func (q *queue[T]) next(ctx context.Context) (T, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			v := q.items[0]
			var zero T
			q.items[0] = zero // let a large message go before the queue's array does
			q.items = q.items[1:]
			q.mu.Unlock()
			return v, nil
		}
		q.mu.Unlock()
		select {
		case <-q.more:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
}

var _ store.Store = (*idb.Store)(nil)
