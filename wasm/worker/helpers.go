//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"ilpgnn/core/diffusion"
	"ilpgnn/core/graph"
	"ilpgnn/core/shard"
)

// startHelpers returns the engine's Options.Helpers: it starts helpers
// nested dedicated Workers running script (this worker's bootstrap, in the
// helper role; the bootstrap sets globalThis.ilpgnnHelperURL), wraps each
// as a shard.Peer and hands them to shard.Coordinate. It returns nil,
// training on one worker, when script is not a string.
func startHelpers(script js.Value) func(context.Context, *shard.Kit, int) (shard.Runner, error) {
	if script.Type() != js.TypeString {
		return nil
	}
	url := script.String()
	return func(_ context.Context, kit *shard.Kit, helpers int) (shard.Runner, error) {
		peers := make([]shard.Peer, 0, helpers)
		var errs []error
		for range helpers {
			p, err := newWorkerPeer(url)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			peers = append(peers, p)
		}
		// A run with fewer helpers than asked still has the same bits.
		if len(peers) == 0 {
			return nil, fmt.Errorf("starting %d helpers: %w", helpers, errors.Join(errs...))
		}
		r, err := shard.Coordinate(kit, peers)
		if err != nil {
			for _, p := range peers {
				p.Close()
			}
			return nil, err
		}
		return r, nil
	}
}

// sharePush returns the engine's Options.Push: it starts helpers nested
// Workers running script (as startHelpers does), shares the push with
// them (shard.PushShared, yielding between the ranges it pushes itself so
// that their answers and a cancel are read) and lets them go when it is
// done. Without a script, or with no helper started, this worker pushes
// alone, still reading a cancel between ranges.
func sharePush(script js.Value, yield func()) func(context.Context, *graph.Graph, diffusion.Options, int, func(int, int)) (*diffusion.Similarity, error) {
	url := ""
	if script.Type() == js.TypeString {
		url = script.String()
	}
	return func(ctx context.Context, g *graph.Graph, opt diffusion.Options, helpers int, progress func(done, total int)) (*diffusion.Similarity, error) {
		var peers []shard.Peer
		for range helpers {
			if url == "" {
				break
			}
			p, err := newWorkerPeer(url)
			if err != nil {
				continue // the push is the same with fewer helpers
			}
			defer p.Close()
			peers = append(peers, p)
		}
		return shard.PushShared(ctx, g, opt, peers, yield, progress)
	}
}

// received is a message from a helper: an answer's bytes, or why the helper
// is gone.
type received struct {
	data []byte
	err  error
}

// workerPeer is the engine's end of a helper Worker. Its methods are
// called from the training goroutine only; the Worker's event handlers
// feed inbox.
type workerPeer struct {
	worker js.Value
	inbox  *queue[received]
	funcs  []js.Func
	err    error // why the helper is gone; every later call returns it
	closed bool
}

// newWorkerPeer starts a helper Worker running script.
func newWorkerPeer(script string) (p *workerPeer, err error) {
	ctor := js.Global().Get("Worker")
	if ctor.Type() != js.TypeFunction {
		return nil, errors.New("this worker cannot start workers of its own")
	}
	defer func() {
		// The constructor throws on a URL the worker may not load.
		if r := recover(); r != nil {
			err = fmt.Errorf("starting a helper worker: %v", r)
		}
	}()
	w := ctor.New(script, map[string]any{"name": "ilpgnn shards"})
	p = &workerPeer{worker: w, inbox: newQueue[received]()}
	p.on("onmessage", func(ev js.Value) received { return fromHelper(ev.Get("data")) })
	p.on("onmessageerror", func(js.Value) received {
		return received{err: errors.New("helper: a message could not be deserialized")}
	})
	p.on("onerror", func(ev js.Value) received {
		// Handled here: unhandled, the error would also reach this
		// worker's own error handlers and the page's.
		ev.Call("preventDefault")
		msg := "it failed to start"
		if m := ev.Get("message"); m.Type() == js.TypeString && m.String() != "" {
			msg = m.String()
		}
		return received{err: fmt.Errorf("helper: %s", msg)}
	})
	return p, nil
}

// on sets the Worker's handler property name to a function that pushes
// what read makes of the event onto the inbox.
func (p *workerPeer) on(name string, read func(event js.Value) received) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			p.inbox.push(read(args[0]))
		}
		return nil
	})
	p.funcs = append(p.funcs, f)
	p.worker.Set(name, f)
}

// fromHelper reads a message a helper posted: an answer as a Uint8Array, or
// its failure (helperFailure).
func fromHelper(data js.Value) received {
	if data.InstanceOf(js.Global().Get("Uint8Array")) {
		return received{data: bytesOf(data)}
	}
	if data.Type() == js.TypeObject && data.Get("type").String() == helperFailed {
		return received{err: fmt.Errorf("helper stopped: %s", data.Get("message").String())}
	}
	return received{err: fmt.Errorf("helper: unexpected message (%s)", data.Type())}
}

// Send posts msg to the helper, copied into a Uint8Array whose buffer is
// transferred, not cloned.
func (p *workerPeer) Send(msg []byte) (err error) {
	if p.err != nil {
		return p.err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("helper: posting a message: %v", r)
		}
	}()
	arr := js.Global().Get("Uint8Array").New(len(msg))
	js.CopyBytesToJS(arr, msg)
	p.worker.Call("postMessage", arr, []any{arr.Get("buffer")})
	return nil
}

// Receive waits for the helper's next answer, or returns ctx's error, or
// the error that ended the helper (which it then terminates).
func (p *workerPeer) Receive(ctx context.Context) ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	r, err := p.inbox.next(ctx)
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		p.Close()
		p.err = r.err
		return nil, r.err
	}
	return r.data, nil
}

// Close terminates the helper and releases its handlers; it may be called
// more than once.
func (p *workerPeer) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	p.err = errors.New("helper: closed")
	p.worker.Call("terminate")
	// A terminated worker fires no more events, and with the handlers
	// unset nothing can call the released functions.
	for _, name := range []string{"onmessage", "onmessageerror", "onerror"} {
		p.worker.Set(name, js.Null())
	}
	for _, f := range p.funcs {
		f.Release()
	}
	p.funcs = nil
	return nil
}
