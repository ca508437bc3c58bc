//go:build js && wasm

// Package idb is the browser engine's checkpoint store: a store.Store kept in
// IndexedDB (database "ilpgnn", see wasm/PROTOCOL.md, "Checkpoint store"),
// built on github.com/hack-pad/go-indexeddb.
//
// The database has two object stores keyed by the checkpoint key: "meta"
// holds each checkpoint's store.Meta as a plain JS object, which List reads,
// and "weights" holds { key, data: Uint8Array } with the encoded checkpoint,
// which only Get reads.
//
// Every method blocks until IndexedDB answers, which needs the JS event loop
// to run: call them from an ordinary goroutine, never directly from a
// js.Func callback. JS exceptions, including the ones go-indexeddb turns into
// panics, come back as errors.
package idb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"

	"ilpgnn/wasm/store"
)

// Object store names, fixed by the protocol.
const (
	metaStore    = "meta"
	weightsStore = "weights"
)

// ErrQuota is wrapped by the error of a Put the browser refused for lack of
// space (a QuotaExceededError). It is store.ErrQuota, so callers can treat
// this store and store.Memory alike.
var ErrQuota = store.ErrQuota

// ErrClosed is returned by the methods of a Store after Close.
var ErrClosed = errors.New("checkpoint store is closed")

// ErrVersionChange is wrapped, with store.ErrUnavailable, by the errors of
// a Store whose database another tab upgraded or deleted: the Store closed
// its connection so as not to block that tab (see Lost).
var ErrVersionChange = errors.New("this app was updated in another tab: reload to keep working")

// quotaExceeded matches the DOMException browsers raise when out of space.
var quotaExceeded = idb.NewDOMException("QuotaExceededError")

// Store is a store.Store in an IndexedDB database. It is safe for concurrent
// use; operations run one at a time.
type Store struct {
	name string

	// mu serialises operations: go-indexeddb keeps unsynchronised caches
	// in its objects, and a transaction must get all its requests before
	// its goroutine blocks, or IndexedDB commits it early.
	mu sync.Mutex
	db *idb.Database // nil once closed

	// lost is closed once another tab's versionchange made the Store close
	// its connection; lostOnce guards that, and onChange is the listener
	// on raw, the IDBDatabase behind db.
	lost     chan struct{}
	lostOnce sync.Once
	raw      js.Value
	onChange js.Func
}

var _ store.Store = (*Store)(nil)

// Open opens database name (the engine uses "ilpgnn") at version
// store.Schema, creating or upgrading its object stores as needed. When
// IndexedDB is missing, refuses to open (a newer release's database, a
// private window, storage disabled) or is blocked by another tab holding an
// older version open, the error wraps store.ErrUnavailable and says why. A
// cancelled ctx gives up waiting and returns ctx's error.
func Open(ctx context.Context, name string) (*Store, error) {
	return open(ctx, name, store.Schema)
}

// open is Open at any version, so tests can provoke upgrades and blocking.
func open(ctx context.Context, name string, version uint) (s *Store, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("idb: open %q: %w: %w", name, store.ErrUnavailable, panicError(r))
		}
	}()
	// unavailable wraps both the sentinel and the reason, so callers can
	// test for either and show the message.
	unavailable := func(reason error) error {
		return fmt.Errorf("idb: open %q: %w: %w", name, store.ErrUnavailable, jsError(reason))
	}

	factory, err := indexedDB()
	if err != nil {
		return nil, unavailable(err)
	}
	rec, f, err := newOpenRecorder(factory)
	if err != nil {
		return nil, unavailable(err)
	}

	var upgradeErr error
	upgrader := func(db *idb.Database, oldVersion, _ uint) error {
		// go-indexeddb panics inside the JS callback, killing the
		// program, if this returns an error; so record it and abort the
		// versionchange transaction, which fails the open request.
		defer func() {
			if r := recover(); r != nil {
				upgradeErr = fmt.Errorf("upgrade: %w", panicError(r))
			}
			if upgradeErr != nil && rec.raw.Truthy() {
				_ = try(func() { rec.raw.Get("transaction").Call("abort") })
			}
		}()
		upgradeErr = upgrade(db, oldVersion)
		return nil
	}
	// Not ctx: if we give up while blocked, the upgrade must still run
	// when the request goes through, or it would leave an empty
	// database at the new version. So this context ends when the request
	// does (go-indexeddb ends it on success, we on failure), and
	// closeWhenOpen ends it for an abandoned request.
	upgradeCtx, endUpgrade := context.WithCancel(context.Background())
	abandoned := false
	defer func() {
		if !abandoned {
			endUpgrade()
		}
	}()
	req, err := f.Open(upgradeCtx, name, version, upgrader)
	rec.hook.Release()
	raw := rec.raw
	if err != nil {
		return nil, unavailable(err)
	}

	waitCtx, stop := context.WithCancel(ctx)
	defer stop()
	blocked := false
	onBlocked := js.FuncOf(func(js.Value, []js.Value) any {
		blocked = true
		stop()
		return nil
	})
	raw.Call("addEventListener", "blocked", onBlocked)
	db, err := req.Await(waitCtx)
	raw.Call("removeEventListener", "blocked", onBlocked)
	onBlocked.Release()

	abandoned = blocked || ctx.Err() != nil
	switch {
	case blocked:
		closeWhenOpen(raw, endUpgrade)
		return nil, unavailable(errors.New("blocked: another tab has an older version of the database open; close it and retry"))
	case ctx.Err() != nil:
		// go-indexeddb returns a nil error when its context ends first.
		closeWhenOpen(raw, endUpgrade)
		return nil, fmt.Errorf("idb: open %q: %w", name, ctx.Err())
	case upgradeErr != nil:
		return nil, unavailable(upgradeErr)
	case err != nil:
		if errors.Is(err, idb.NewDOMException("VersionError")) {
			return nil, unavailable(fmt.Errorf("the database was written by a newer release: %w", err))
		}
		return nil, unavailable(err)
	}

	if err := checkStores(db); err != nil {
		_ = db.Close()
		return nil, unavailable(err)
	}
	s = &Store{name: name, db: db, lost: make(chan struct{})}
	s.watchVersionChange(raw.Get("result"))
	return s, nil
}

// watchVersionChange closes the connection conn (the IDBDatabase behind
// s.db) when another tab asks to upgrade or delete the database: an open
// connection would keep that tab's request blocked, and this tab's release
// can neither read nor write the newer records anyway. The listener runs on
// the event loop, so it closes the raw connection without taking s.mu (a
// method holding it may be waiting on that loop); the methods then see
// lost and fail.
func (s *Store) watchVersionChange(conn js.Value) {
	s.raw = conn
	s.onChange = js.FuncOf(func(js.Value, []js.Value) any {
		_ = try(func() { conn.Call("close") })
		s.lostOnce.Do(func() { close(s.lost) })
		return nil
	})
	conn.Call("addEventListener", "versionchange", s.onChange)
}

// Lost is closed once another tab has upgraded (or is deleting) the
// database and the Store has closed its connection; from then on every
// method fails with an error wrapping ErrVersionChange and
// store.ErrUnavailable. It stays open for a Store closed by Close.
func (s *Store) Lost() <-chan struct{} { return s.lost }

// indexedDB is the page's or worker's IndexedDB factory, or why there is
// none. Reading globalThis.indexedDB itself throws in some browsers when
// storage is disabled; open's deferred recover turns that into an error.
func indexedDB() (js.Value, error) {
	factory := js.Global().Get("indexedDB")
	if !factory.Truthy() {
		return js.Value{}, errors.New("IndexedDB is not defined in this context")
	}
	if !js.Global().Get("IDBRequest").Truthy() {
		// go-indexeddb checks every request against this constructor
		// and panics without it.
		return js.Value{}, errors.New("IDBRequest is not defined in this context")
	}
	return factory, nil
}

// openRecorder keeps the IDBOpenDBRequest that go-indexeddb hides, which
// open needs to hear "blocked" and to abort a failed upgrade: it hands
// go-indexeddb a factory whose open() records the request on its way
// back. hook must be released once the request is made.
type openRecorder struct {
	hook js.Func
	raw  js.Value // the request, once made
}

// newOpenRecorder wraps factory so that its open requests are recorded.
func newOpenRecorder(factory js.Value) (*openRecorder, *idb.Factory, error) {
	rec := &openRecorder{}
	rec.hook = js.FuncOf(func(_ js.Value, args []js.Value) any {
		rec.raw = factory.Call("open", jsArgs(args)...)
		return rec.raw
	})
	proxy := js.Global().Get("Object").New()
	proxy.Set("open", rec.hook)
	f, err := idb.WrapFactory(proxy)
	if err != nil {
		rec.hook.Release()
		return nil, nil, err
	}
	return rec, f, nil
}

// checkStores says which of the store's object stores db lacks.
func checkStores(db *idb.Database) error {
	names, err := db.ObjectStoreNames()
	if err == nil && !(slices.Contains(names, metaStore) && slices.Contains(names, weightsStore)) {
		err = fmt.Errorf("object stores %q and %q missing (found %q)", metaStore, weightsStore, names)
	}
	return err
}

// upgrade brings the database from oldVersion to store.Schema inside the
// versionchange transaction.
func upgrade(db *idb.Database, oldVersion uint) error {
	if oldVersion < 1 {
		// Inline keys, so each record carries its key (as the protocol
		// describes the records) and a raw dump is self-describing.
		for _, name := range []string{metaStore, weightsStore} {
			if _, err := db.CreateObjectStore(name, idb.ObjectStoreOptions{KeyPath: js.ValueOf("key")}); err != nil {
				return fmt.Errorf("create object store %q: %w", name, jsError(err))
			}
		}
	}
	return nil
}

// closeWhenOpen closes the connection an abandoned open request may still
// produce, so it neither leaks nor keeps blocking other tabs, then calls
// after.
func closeWhenOpen(raw js.Value, after func()) {
	err := try(func() {
		if raw.Get("readyState").String() == "done" {
			defer after()
			if db := raw.Get("result"); db.Truthy() {
				db.Call("close")
			}
			return
		}
		var done js.Func
		done = js.FuncOf(func(_ js.Value, args []js.Value) any {
			_ = try(func() {
				if len(args) > 0 && args[0].Get("type").String() == "success" {
					raw.Get("result").Call("close")
				}
			})
			after()
			done.Release()
			return nil
		})
		once := map[string]any{"once": true}
		raw.Call("addEventListener", "success", done, once)
		raw.Call("addEventListener", "error", done, once)
	})
	if err != nil {
		after() // cancelling twice is harmless
	}
}

// Name returns the name of the database.
func (s *Store) Name() string { return s.name }

// Close closes the connection. Later calls of the Store's methods return
// ErrClosed; closing twice is not an error.
func (s *Store) Close() (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer catch(&err, "close")
	if s.db == nil {
		return nil
	}
	db := s.db
	s.db = nil
	_ = try(func() { s.raw.Call("removeEventListener", "versionchange", s.onChange) })
	s.onChange.Release()
	if err := db.Close(); err != nil {
		return fmt.Errorf("idb: close %q: %w", s.name, jsError(err))
	}
	return nil
}

// conn returns the open connection; the caller holds s.mu.
func (s *Store) conn(op string) (*idb.Database, error) {
	select {
	case <-s.lost:
		return nil, fmt.Errorf("idb: %s: %w: %w", op, store.ErrUnavailable, ErrVersionChange)
	default:
	}
	if s.db == nil {
		return nil, fmt.Errorf("idb: %s: %w", op, ErrClosed)
	}
	return s.db, nil
}

// List implements store.Store. It reads the meta object store only.
// Records that do not decode, or that a newer schema wrote, are left out
// rather than hiding every other checkpoint behind an error.
func (s *Store) List(ctx context.Context) (out []store.Meta, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer catch(&err, "list")
	db, err := s.conn("list")
	if err != nil {
		return nil, err
	}
	txn, err := db.Transaction(idb.TransactionReadOnly, metaStore)
	if err != nil {
		return nil, fmt.Errorf("idb: list: %w", jsError(err))
	}
	objs, err := txn.ObjectStore(metaStore)
	if err != nil {
		return nil, fmt.Errorf("idb: list: %w", jsError(err))
	}
	cur, err := objs.OpenCursor(idb.CursorNext)
	if err != nil {
		return nil, fmt.Errorf("idb: list: %w", jsError(err))
	}
	out = []store.Meta{}
	err = cur.Iter(ctx, func(c *idb.CursorWithValue) error {
		v, err := c.Value()
		if err != nil {
			return err
		}
		if m, err := decodeMeta(v); err == nil && m.Schema <= store.Schema {
			out = append(out, m)
		}
		return nil
	})
	if ctx.Err() != nil {
		// The iteration returns nil when its context ends first.
		return nil, fmt.Errorf("idb: list: %w", ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("idb: list: %w", jsError(err))
	}
	store.SortNewestFirst(out)
	return out, nil
}

// Put implements store.Store: the meta and weights records are written in
// one transaction, so a failure leaves neither. A full disk gives an error
// wrapping ErrQuota.
func (s *Store) Put(ctx context.Context, m store.Meta, data []byte) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var txn *idb.Transaction
	defer abortOnError(&err, &txn) // runs after catch has set err
	defer catch(&err, "put "+m.Key)
	db, err := s.conn("put " + m.Key)
	if err != nil {
		return err
	}
	// Build the JS values first: once the transaction exists, nothing may
	// block before its requests are issued.
	meta := encodeMeta(m)
	weights := encodeWeights(m.Key, data)

	// Strict durability: a checkpoint costs minutes of training, worth a
	// flush to disk before reporting it saved.
	txn, err = db.TransactionWithOptions(idb.TransactionOptions{Mode: idb.TransactionReadWrite, Durability: idb.DurabilityStrict}, metaStore, weightsStore)
	if err != nil {
		return putError(m.Key, err)
	}
	for _, rec := range []struct {
		store string
		value js.Value
	}{{metaStore, meta}, {weightsStore, weights}} {
		objs, err := txn.ObjectStore(rec.store)
		if err != nil {
			return putError(m.Key, err)
		}
		if _, err := objs.Put(rec.value); err != nil {
			return putError(m.Key, err)
		}
	}
	if err := txn.Await(ctx); err != nil {
		return putError(m.Key, err)
	}
	return nil
}

// abortOnError, deferred, aborts a write transaction whose method failed
// (or was cancelled), so that no part of it commits.
func abortOnError(err *error, txn **idb.Transaction) {
	if *err != nil && *txn != nil {
		// Best effort: the transaction may have finished already.
		_ = try(func() { _ = (*txn).Abort() })
	}
}

// putError wraps a failed Put's error, flagging a full disk.
func putError(key string, err error) error {
	err = jsError(err)
	if errors.Is(err, quotaExceeded) {
		return fmt.Errorf("idb: put %s: %w: %w", key, ErrQuota, err)
	}
	return fmt.Errorf("idb: put %s: %w", key, err)
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, key string) (data []byte, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer catch(&err, "get "+key)
	db, err := s.conn("get " + key)
	if err != nil {
		return nil, err
	}
	txn, err := db.Transaction(idb.TransactionReadOnly, weightsStore)
	if err != nil {
		return nil, fmt.Errorf("idb: get %s: %w", key, jsError(err))
	}
	objs, err := txn.ObjectStore(weightsStore)
	if err != nil {
		return nil, fmt.Errorf("idb: get %s: %w", key, jsError(err))
	}
	req, err := objs.Get(js.ValueOf(key))
	if err != nil {
		return nil, fmt.Errorf("idb: get %s: %w", key, jsError(err))
	}
	v, err := req.Await(ctx)
	if ctx.Err() != nil {
		// Await returns a nil error when its context ends first.
		return nil, fmt.Errorf("idb: get %s: %w", key, ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("idb: get %s: %w", key, jsError(err))
	}
	if v.IsUndefined() {
		return nil, fmt.Errorf("idb: get %s: %w", key, store.ErrNotFound)
	}
	data, err = decodeWeights(v)
	if err != nil {
		return nil, fmt.Errorf("idb: get %s: %w", key, jsError(err))
	}
	return data, nil
}

// Delete implements store.Store: both records go in one transaction.
func (s *Store) Delete(ctx context.Context, key string) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var txn *idb.Transaction
	defer abortOnError(&err, &txn)
	defer catch(&err, "delete "+key)
	db, err := s.conn("delete " + key)
	if err != nil {
		return err
	}
	txn, err = db.Transaction(idb.TransactionReadWrite, metaStore, weightsStore)
	if err != nil {
		return fmt.Errorf("idb: delete %s: %w", key, jsError(err))
	}
	for _, name := range []string{metaStore, weightsStore} {
		objs, err := txn.ObjectStore(name)
		if err != nil {
			return fmt.Errorf("idb: delete %s: %w", key, jsError(err))
		}
		if _, err := objs.Delete(js.ValueOf(key)); err != nil {
			return fmt.Errorf("idb: delete %s: %w", key, jsError(err))
		}
	}
	if err := txn.Await(ctx); err != nil {
		return fmt.Errorf("idb: delete %s: %w", key, jsError(err))
	}
	return nil
}
