// Issue 31's messages: a graph the browser's storage refuses to keep says
// why, and a checkpoint without a creation time (the command line's) shows
// none rather than 1970-01-01.

import { test } from "node:test";
import assert from "node:assert/strict";
import { keep, keptSentence, storageReason } from "../src/app/filestore";
import { createdTime } from "../src/app/format";
import { describeModel } from "../src/app/restore";

test("createdTime words a real time and has none for 0 or a time no Date holds", () => {
  // A local time, so the test holds in any time zone.
  const t = new Date(2026, 10, 22, 14, 5, 59).getTime() / 1000;
  assert.equal(createdTime(t), "2026-11-22 14:05");
  assert.equal(createdTime(0), undefined);
  assert.equal(createdTime(1e300), undefined);
  assert.equal(createdTime(NaN), undefined);
});

test("describeModel leaves out the time of a checkpoint that has none", () => {
  const m = { key: "0123456789abcdef-42", dataset: "synth-medium-0", testAUC: 0.9077 };
  assert.equal(describeModel({ ...m, created: 0 }), "checkpoint 01234567…-42 of synth-medium-0, test AUC 90.77%, completed run");
  const t = new Date(2026, 0, 2, 3, 4).getTime() / 1000;
  assert.equal(
    describeModel({ ...m, created: t, cancelledAtEpoch: 3 }),
    "checkpoint 01234567…-42 of synth-medium-0, trained 2026-01-02 03:04, test AUC 90.77%, cancelled after 3 epochs",
  );
});

test("storageReason says the storage is full, with the browser's name and message", () => {
  assert.equal(storageReason(new DOMException("", "QuotaExceededError")), "the browser's storage is full (QuotaExceededError)");
  assert.equal(
    storageReason(new DOMException("The current transaction exceeded its quota limitations.", "QuotaExceededError")),
    "the browser's storage is full (QuotaExceededError: The current transaction exceeded its quota limitations)",
  );
  assert.equal(storageReason(new DOMException("", "UnknownError")), "UnknownError");
  assert.equal(storageReason(new Error("this browser has no IndexedDB")), "this browser has no IndexedDB");
  assert.equal(storageReason(new Error("")), "the browser's storage refused it without saying why");
  assert.equal(storageReason(undefined), "the browser's storage refused it without saying why");
});

test("keptSentence is one sentence either way", () => {
  assert.equal(keptSentence("file:cora", { kept: true }), "The graph cora is kept in this browser (never uploaded), so a reload reopens it.");
  assert.equal(
    keptSentence("file:edges", { kept: false, reason: "the files are 70 MB, more than this page keeps" }),
    "The graph edges is not kept for the next visit: the files are 70 MB, more than this page keeps.",
  );
  assert.equal(keptSentence("file:edges", { kept: false, reason: "" }), "The graph edges is not kept for the next visit: storage is unavailable.");
});

/** An IndexedDB whose every write transaction aborts as a full disk does, with a bare QuotaExceededError. */
function fullIndexedDB(): IDBFactory {
  const db = {
    transaction() {
      const tx: { error: DOMException | null; onabort: (() => void) | null; onerror: (() => void) | null; oncomplete: (() => void) | null; objectStore: () => unknown } = {
        error: null,
        onabort: null,
        onerror: null,
        oncomplete: null,
        objectStore: () => ({
          // Nothing kept yet: the cursor ends at once.
          openCursor: () => {
            const req: { result: null; onsuccess: (() => void) | null } = { result: null, onsuccess: null };
            setTimeout(() => req.onsuccess?.());
            return req;
          },
          put: () => {
            setTimeout(() => {
              tx.error = new DOMException("", "QuotaExceededError");
              tx.onabort?.();
            });
            return {};
          },
        }),
      };
      return tx;
    },
    close() {},
  };
  return {
    open() {
      const req: { result: unknown; onsuccess: (() => void) | null } = { result: db, onsuccess: null };
      setTimeout(() => req.onsuccess?.());
      return req;
    },
  } as unknown as IDBFactory;
}

test("keep on a full disk: the graph is not kept, and the sentence says the storage is full", async (t) => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "indexedDB");
  Object.defineProperty(globalThis, "indexedDB", { value: fullIndexedDB(), configurable: true, writable: true });
  t.after(() => {
    if (saved) Object.defineProperty(globalThis, "indexedDB", saved);
    else Reflect.deleteProperty(globalThis, "indexedDB");
  });
  const r = await keep("file:edges", { "edges.csv": new TextEncoder().encode("a,b\n") });
  assert.deepEqual(r, { kept: false, reason: "the browser's storage is full (QuotaExceededError)" });
  assert.equal(keptSentence("file:edges", r), "The graph edges is not kept for the next visit: the browser's storage is full (QuotaExceededError).");
});
