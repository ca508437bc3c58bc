//go:build js && wasm

// These tests need IndexedDB, which node lacks: run them with the exec
// script that preloads npm's fake-indexeddb,
//
//	GOOS=js GOARCH=wasm go test -exec="$PWD/wasm/testdata/node_exec" ./wasm/store/idb
package idb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"ilpgnn/core/checkpoint"
	"ilpgnn/wasm/store"
)

func TestMain(m *testing.M) {
	if !js.Global().Get("indexedDB").Truthy() {
		fmt.Println("skipping: no IndexedDB; run with -exec=$PWD/wasm/testdata/node_exec")
		return
	}
	m.Run()
}

// ctxT is a context that ends before go test's own timeout, so a hung
// IndexedDB request fails the test instead of deadlocking it.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// dbSeq numbers databases: fake-indexeddb keeps every database for the life
// of the process, which with -count=N runs each test N times.
var dbSeq atomic.Int64

// dbName is a database name of the test's own.
func dbName(t *testing.T) string {
	return fmt.Sprintf("test-%s-%d", t.Name(), dbSeq.Add(1))
}

func openT(t *testing.T, name string) *Store {
	t.Helper()
	s, err := Open(ctxT(t), name)
	if err != nil {
		t.Fatalf("Open(%q): %v", name, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// makeCheckpoint returns an encoded checkpoint and its listing record;
// seed and created make it distinct.
func makeCheckpoint(t *testing.T, seed uint64, created int64) (store.Meta, []byte) {
	t.Helper()
	c := &checkpoint.Checkpoint{
		Model: "ilpgnn", Dataset: "synthetic-small",
		Fingerprint: sha256.Sum256([]byte("graph")),
		Seed:        seed, Created: created,
		Config: fmt.Appendf(nil, `{"hidden":"16","seed":"%d"}`, seed),
		Tensors: []checkpoint.Tensor{
			{Name: "w0", Rows: 3, Cols: 4, Data: []float32{1, -2, 3.5, 0, float32(math.Inf(1)), -0, 7, 8, 9, 10, 11, 1e-30}},
			{Name: "b0", Rows: 1, Cols: 4, Data: []float32{0.25, 0.5, float32(seed), -1}},
		},
		Metrics: []checkpoint.Metric{{Name: "test_auc", Value: 0.9}, {Name: "loss", Value: math.NaN()}},
	}
	data, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.MetaOf(data)
	if err != nil {
		t.Fatal(err)
	}
	return m, data
}

// sameMeta compares metas, NaN metrics included.
func sameMeta(a, b store.Meta) bool {
	return a.Key == b.Key && a.Schema == b.Schema && a.Model == b.Model &&
		a.Dataset == b.Dataset && a.Fingerprint == b.Fingerprint && a.Seed == b.Seed &&
		a.Created == b.Created && a.Config == b.Config && a.Size == b.Size &&
		maps.EqualFunc(a.Metrics, b.Metrics, func(x, y float64) bool {
			return x == y || math.IsNaN(x) && math.IsNaN(y)
		})
}

func keys(ms []store.Meta) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Key
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	m, data := makeCheckpoint(t, 1, 1700000000)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, m.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("Get returned %d bytes, differing from the %d put", len(got), len(data))
	}
	if _, err := checkpoint.Unmarshal(got); err != nil {
		t.Fatalf("stored checkpoint does not decode: %v", err)
	}
	ms, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || !sameMeta(ms[0], m) {
		t.Fatalf("List = %+v, want [%+v]", ms, m)
	}
}

func TestLargeSeedAndOddMeta(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	m, data := makeCheckpoint(t, math.MaxUint64-1, 0)
	m.Metrics["inf"] = math.Inf(-1)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	ms, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || !sameMeta(ms[0], m) {
		t.Fatalf("List = %+v, want [%+v]", ms, m)
	}
}

func TestListNewestFirstWithoutWeights(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	var want []store.Meta
	for i, created := range []int64{200, 300, 100, 300} {
		m, data := makeCheckpoint(t, uint64(i+10), created)
		if err := s.Put(ctx, m, data); err != nil {
			t.Fatal(err)
		}
		want = append(want, m)
	}
	store.SortNewestFirst(want)

	// Record which object stores each transaction asks for.
	proto := js.Global().Get("IDBDatabase").Get("prototype")
	orig := proto.Get("transaction")
	var scopes []string
	rec := js.FuncOf(func(this js.Value, args []js.Value) any {
		scopes = append(scopes, js.Global().Get("JSON").Call("stringify", args[0]).String())
		return orig.Call("apply", this, js.ValueOf(jsArgs(args)))
	})
	proto.Set("transaction", rec)
	ms, err := s.List(ctx)
	proto.Set("transaction", orig)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys(ms), keys(want)) {
		t.Fatalf("List order = %v, want %v", keys(ms), keys(want))
	}
	for i := range ms {
		if !sameMeta(ms[i], want[i]) {
			t.Errorf("List[%d] = %+v, want %+v", i, ms[i], want[i])
		}
	}
	if len(scopes) != 1 || strings.Contains(scopes[0], weightsStore) {
		t.Fatalf("List opened transactions on %v; want only %q", scopes, metaStore)
	}
}

func TestPutReplaces(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	m1, d1 := makeCheckpoint(t, 5, 100)
	m2, d2 := makeCheckpoint(t, 5, 200) // same key: same graph, config and seed
	if m1.Key != m2.Key || bytes.Equal(d1, d2) {
		t.Fatal("test checkpoints should share a key and differ")
	}
	if err := s.Put(ctx, m1, d1); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, m2, d2); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, m1.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, d2) {
		t.Fatal("Get after a second Put does not return the second checkpoint")
	}
	ms, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Created != 200 {
		t.Fatalf("List = %+v, want the second meta only", ms)
	}
}

func TestDeleteAndNotFound(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	if _, err := s.Get(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get(missing) error = %v, want ErrNotFound", err)
	}
	m, data := makeCheckpoint(t, 1, 1)
	other, odata := makeCheckpoint(t, 2, 2)
	for _, p := range []struct {
		m store.Meta
		d []byte
	}{{m, data}, {other, odata}} {
		if err := s.Put(ctx, p.m, p.d); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctx, m.Key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, m.Key); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get after Delete error = %v, want ErrNotFound", err)
	}
	ms, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys(ms), []string{other.Key}) {
		t.Fatalf("List after Delete = %v, want [%s]", keys(ms), other.Key)
	}
	if err := s.Delete(ctx, m.Key); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
}

func TestSurvivesReopen(t *testing.T) {
	ctx := ctxT(t)
	name := dbName(t)
	s, err := Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	m, data := makeCheckpoint(t, 3, 3)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, m.Key); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close error = %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	s = openT(t, name)
	got, err := s.Get(ctx, m.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("checkpoint changed across close and reopen")
	}
	ms, err := s.List(ctx)
	if err != nil || len(ms) != 1 || !sameMeta(ms[0], m) {
		t.Fatalf("List after reopen = %+v, %v", ms, err)
	}
}

func TestConcurrentPuts(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	const n = 8
	metas := make([]store.Meta, n)
	datas := make([][]byte, n)
	for i := range n {
		metas[i], datas[i] = makeCheckpoint(t, uint64(100+i), int64(i))
	}
	var wg sync.WaitGroup
	errs := make([]error, 3*n)
	for i := range n {
		// Two writers of each key and a reader, all at once.
		wg.Add(3)
		go func() { defer wg.Done(); errs[3*i] = s.Put(ctx, metas[i], datas[i]) }()
		go func() { defer wg.Done(); errs[3*i+1] = s.Put(ctx, metas[i], datas[i]) }()
		go func() { defer wg.Done(); _, errs[3*i+2] = s.List(ctx) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	ms, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != n {
		t.Fatalf("List has %d checkpoints, want %d", len(ms), n)
	}
	for i := range n {
		got, err := s.Get(ctx, metas[i].Key)
		if err != nil || !bytes.Equal(got, datas[i]) {
			t.Fatalf("Get(%d): %v (equal %v)", i, err, bytes.Equal(got, datas[i]))
		}
	}
}

func TestNoIndexedDB(t *testing.T) {
	g := js.Global()
	saved := g.Get("indexedDB")
	g.Delete("indexedDB")
	defer g.Set("indexedDB", saved)
	s, err := Open(ctxT(t), dbName(t))
	if !errors.Is(err, store.ErrUnavailable) || s != nil {
		t.Fatalf("Open without indexedDB = %v, %v; want ErrUnavailable", s, err)
	}
	t.Log(err)
}

func TestOpenNewerVersion(t *testing.T) {
	name := dbName(t)
	db := rawOpen(t, name, store.Schema+1, nil)
	db.Call("close")
	_, err := Open(ctxT(t), name)
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "newer release") {
		t.Fatalf("Open of a newer database = %v; want ErrUnavailable saying so", err)
	}
	t.Log(err)
}

func TestOpenWithoutObjectStores(t *testing.T) {
	name := dbName(t)
	db := rawOpen(t, name, store.Schema, nil) // at our version, but empty
	db.Call("close")
	_, err := Open(ctxT(t), name)
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("Open of a database without object stores = %v; want ErrUnavailable", err)
	}
	t.Log(err)
}

func TestOpenBlocked(t *testing.T) {
	ctx := ctxT(t)
	name := dbName(t)
	s := openT(t, name)
	m, data := makeCheckpoint(t, 4, 4)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// A connection that, like an old tab, ignores versionchange.
	old := rawOpen(t, name, store.Schema, nil)
	_, err := open(ctx, name, store.Schema+1)
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "blocked") {
		t.Fatalf("blocked open = %v; want ErrUnavailable saying blocked", err)
	}
	t.Log(err)
	// Once the old tab lets go, the abandoned request completes; its
	// connection must be closed, or this reopen would wait for it.
	old.Call("close")
	s2, err := open(ctx, name, store.Schema+2)
	if err != nil {
		t.Fatalf("open after unblocking: %v", err)
	}
	defer s2.Close()
	if got, err := s2.Get(ctx, m.Key); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after upgrade: %v", err)
	}
}

// Another tab upgrading the database must not be blocked by this one: the
// Store closes its connection on versionchange, says so on Lost, and its
// methods fail saying why.
func TestVersionChangeCloses(t *testing.T) {
	// go-indexeddb logs the versionchange from inside the JS event handler;
	// under node that write waits for the event loop the handler holds, so
	// the log goes nowhere here (a browser's wasm_exec.js writes at once).
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)
	ctx := ctxT(t)
	name := dbName(t)
	s := openT(t, name)
	m, data := makeCheckpoint(t, 5, 5)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Lost():
		t.Fatal("Lost before any versionchange")
	default:
	}
	// Times out (and fails) if the Store kept its connection open.
	newer := rawOpen(t, name, store.Schema+1, nil)
	defer newer.Call("close")
	select {
	case <-s.Lost():
	case <-ctx.Done():
		t.Fatal("Lost not closed after another connection's upgrade")
	}
	_, err := s.Get(ctx, m.Key)
	if !errors.Is(err, ErrVersionChange) || !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("Get after versionchange = %v; want ErrVersionChange and ErrUnavailable", err)
	}
	if err := s.Put(ctx, m, data); !errors.Is(err, ErrVersionChange) {
		t.Fatalf("Put after versionchange = %v; want ErrVersionChange", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after versionchange: %v", err)
	}
	// The upgraded database kept the record.
	if got := rawGet(t, newer, weightsStore, m.Key); !got.Truthy() {
		t.Fatal("the record is gone after the upgrade")
	}
}

func TestContextCancelled(t *testing.T) {
	s := openT(t, dbName(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Get(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get with a cancelled context = %v", err)
	}
	if _, err := s.List(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("List with a cancelled context = %v", err)
	}
	if _, err := Open(ctx, dbName(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open with a cancelled context = %v", err)
	}
}

func TestWeightsStoredAsBytes(t *testing.T) {
	ctx := ctxT(t)
	name := dbName(t)
	s := openT(t, name)
	m, data := makeCheckpoint(t, 6, 6)
	if err := s.Put(ctx, m, data); err != nil {
		t.Fatal(err)
	}
	db := rawOpen(t, name, 0, nil)
	defer db.Call("close")

	w := rawGet(t, db, weightsStore, m.Key)
	d := w.Get("data")
	if w.Get("key").String() != m.Key {
		t.Errorf("weights record key = %v", w.Get("key"))
	}
	if js.Global().Get("Array").Call("isArray", d).Bool() || !d.InstanceOf(js.Global().Get("Uint8Array")) {
		t.Fatalf("weights data is %s, want a Uint8Array",
			js.Global().Get("Object").Get("prototype").Get("toString").Call("call", d).String())
	}
	raw := make([]byte, d.Length())
	js.CopyBytesToGo(raw, d)
	if !bytes.Equal(raw, data) {
		t.Fatal("raw weights differ from the checkpoint")
	}

	meta := rawGet(t, db, metaStore, m.Key)
	if !meta.Get("data").IsUndefined() || meta.Get("key").String() != m.Key || meta.Get("size").Int() != len(data) {
		t.Fatalf("meta record = %s", js.Global().Get("JSON").Call("stringify", meta).String())
	}
}

func TestQuotaExceeded(t *testing.T) {
	ctx := ctxT(t)
	s := openT(t, dbName(t))
	m, data := makeCheckpoint(t, 7, 7)
	proto := js.Global().Get("IDBObjectStore").Get("prototype")
	orig := proto.Get("put")
	defer proto.Set("put", orig)

	// Test-only JS: Go cannot throw a JS exception from a js.Func.
	patch := func(body string) {
		proto.Set("put", js.Global().Get("Function").New("orig", body).Invoke(orig))
	}
	check := func(how string) {
		t.Helper()
		err := s.Put(ctx, m, data)
		if !errors.Is(err, ErrQuota) || !errors.Is(err, store.ErrQuota) ||
			!strings.Contains(err.Error(), "storage quota exceeded: ") {
			t.Fatalf("%s: Put error = %v; want one wrapping ErrQuota", how, err)
		}
		t.Logf("%s: %v", how, err)
		// The meta record, put first, must have been rolled back.
		proto.Set("put", orig)
		if ms, err := s.List(ctx); err != nil || len(ms) != 0 {
			t.Fatalf("%s: List after a failed Put = %v, %v; want nothing", how, ms, err)
		}
	}

	// put throws synchronously, after the meta record was put.
	patch(`return function(...a) {
		if (this.name === "weights") throw new DOMException("simulated", "QuotaExceededError");
		return orig.apply(this, a);
	}`)
	check("throwing put")

	// As browsers do: the requests succeed, then the commit fails and the
	// transaction aborts with the quota error.
	patch(`return function(...a) {
		const req = orig.apply(this, a);
		if (this.name === "weights") {
			const tx = this.transaction;
			const quota = new DOMException("simulated", "QuotaExceededError");
			req.addEventListener("success", () => {
				Object.defineProperty(tx, "error", { get: () => quota, set: () => {}, configurable: true });
				tx.abort();
			});
		}
		return req;
	}`)
	check("aborted commit")

	if err := s.Put(ctx, m, data); err != nil {
		t.Fatalf("Put once space is back: %v", err)
	}
}

// rawOpen opens database name at version (0: the current one) with plain
// JS, bypassing the package; upgrade, if set, runs on upgradeneeded.
func rawOpen(t *testing.T, name string, version int, upgrade func(db js.Value)) js.Value {
	t.Helper()
	factory := js.Global().Get("indexedDB")
	var req js.Value
	if version > 0 {
		req = factory.Call("open", name, version)
	} else {
		req = factory.Call("open", name)
	}
	return await(t, req, func() {
		if upgrade != nil {
			upgrade(req.Get("result"))
		}
	})
}

// rawGet reads one record with plain JS.
func rawGet(t *testing.T, db js.Value, storeName, key string) js.Value {
	t.Helper()
	req := db.Call("transaction", storeName, "readonly").Call("objectStore", storeName).Call("get", key)
	return await(t, req, nil)
}

// await waits for an IDBRequest's result.
func await(t *testing.T, req js.Value, onUpgrade func()) js.Value {
	t.Helper()
	done := make(chan error, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any { done <- nil; return nil })
	fail := js.FuncOf(func(js.Value, []js.Value) any {
		done <- fmt.Errorf("%s", req.Get("error").Call("toString").String())
		return nil
	})
	upg := js.FuncOf(func(js.Value, []js.Value) any {
		if onUpgrade != nil {
			onUpgrade()
		}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	defer upg.Release()
	req.Set("onsuccess", ok)
	req.Set("onerror", fail)
	req.Set("onupgradeneeded", upg)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("IndexedDB request timed out")
	}
	return req.Get("result")
}
