// The graphs opened from the user's files, kept in this browser's
// IndexedDB (a database of the page's own, beside the engine's checkpoint
// store) so that a reload or a link reopens them: nothing is uploaded, and
// nothing is lost. One record per graph, keyed by its data key, within
// KEPT_BUDGET_BYTES in all: keeping one more drops the oldest beyond it,
// and the page says which. "Remove" deletes one.

import { idInProse } from "./wording";

const DB = "ilpgnn-files";
const STORE = "graphs";
/**
 * What this page keeps of opened graphs' files, in all. A graph larger
 * than this is not kept (it reopens from the files); stated in the picker's
 * list of kept graphs and in frontend/APP.md.
 */
export const KEPT_BUDGET_BYTES = 128_000_000;

/** What a kept graph is, without its files: enough to list it and to match checkpoints to it. */
export interface KeptMeta {
  /** The hash's data value, `file:NAME`. */
  dataKey: string;
  /** The graph's name and fingerprint as the engine loaded it (absent in records kept before they were recorded). */
  name?: string;
  fingerprint?: string;
  saved: number;
  /** The files' size in bytes. */
  bytes: number;
}

/** A kept graph: the files as opened, by name. */
export interface KeptGraph extends KeptMeta {
  files: Record<string, Uint8Array>;
}

/**
 * The stored record. The files go in as Blobs: IndexedDB clones a
 * Uint8Array synchronously on the page's thread (a long task for a graph
 * of megabytes), while a Blob is stored by reference to data the browser
 * already holds. Records from before several graphs were kept sit under
 * the key "last" and have no `bytes`; they are read all the same.
 */
interface StoredGraph {
  dataKey: string;
  name?: string;
  fingerprint?: string;
  saved: number;
  bytes?: number;
  files: Record<string, Blob>;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined") {
      reject(new Error("this browser has no IndexedDB"));
      return;
    }
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("opening IndexedDB failed"));
    req.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
  });
}

async function run<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = body(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error ?? new Error("IndexedDB transaction failed"));
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    });
  } finally {
    db.close();
  }
}

/** What keeping a graph did: kept or not (with a reason), and the graphs dropped to make room, oldest first. */
export interface KeepResult {
  kept: boolean;
  reason?: string;
  /** Data keys of the graphs no longer kept, to stay within KEPT_BUDGET_BYTES. */
  evicted?: string[];
}

/** The records a kept graph's place may be taken from: all but `dataKey`'s, with their size. */
interface Held {
  key: IDBValidKey;
  dataKey: string;
  saved: number;
  bytes: number;
}

/**
 * The data keys to drop, oldest first, so that `incoming` bytes more fit
 * within `budget` beside `held`.
 */
export function toEvict(held: ReadonlyArray<Pick<Held, "dataKey" | "saved" | "bytes">>, incoming: number, budget: number = KEPT_BUDGET_BYTES): string[] {
  const oldest = [...held].sort((a, b) => a.saved - b.saved);
  let total = held.reduce((n, r) => n + r.bytes, 0) + incoming;
  const out: string[] = [];
  for (const r of oldest) {
    if (total <= budget) break;
    out.push(r.dataKey);
    total -= r.bytes;
  }
  return out;
}

/**
 * Keeps the files of the graph just opened, with the engine's name and
 * fingerprint of it (`about`), in place of an older copy of the same
 * graph; the oldest other graphs go when the budget needs their room.
 * False (with a reason) when the files alone are over the budget or
 * storage refuses.
 */
export async function keep(dataKey: string, files: Record<string, Uint8Array>, about: { name?: string; fingerprint?: string } = {}): Promise<KeepResult> {
  const size = Object.values(files).reduce((n, b) => n + b.byteLength, 0);
  if (size > KEPT_BUDGET_BYTES) return { kept: false, reason: `the files are ${Math.round(size / 1e6)} MB, more than the ${budgetText()} this page keeps` };
  try {
    const blobs: Record<string, Blob> = {};
    for (const [name, bytes] of Object.entries(files)) blobs[name] = new Blob([bytes as BlobPart]);
    const record: StoredGraph = { ...about, dataKey, files: blobs, saved: Date.now(), bytes: size };
    const db = await open();
    try {
      const evicted = await new Promise<string[]>((resolve, reject) => {
        const tx = db.transaction(STORE, "readwrite");
        const store = tx.objectStore(STORE);
        const held: Held[] = [];
        let out: string[] = [];
        const cursor = store.openCursor();
        cursor.onsuccess = () => {
          const c = cursor.result;
          if (c !== null) {
            const v = shaped(c.value);
            if (v === null) {
              // Not ours to read or count.
            } else if (v.dataKey === dataKey) c.delete();
            else held.push({ key: c.key, dataKey: v.dataKey, saved: v.saved, bytes: sizeOf(v) });
            c.continue();
            return;
          }
          out = toEvict(held, size);
          for (const r of held) if (out.includes(r.dataKey)) store.delete(r.key);
          store.put(record, dataKey);
        };
        tx.oncomplete = () => resolve(out);
        tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
        tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
      });
      return evicted.length > 0 ? { kept: true, evicted } : { kept: true };
    } finally {
      db.close();
    }
  } catch (e) {
    return { kept: false, reason: storageReason(e) };
  }
}

/** The budget as the page states it ("128 MB"). */
export function budgetText(): string {
  return `${Math.round(KEPT_BUDGET_BYTES / 1e6)} MB`;
}

/**
 * Why storage refused to keep something, for a sentence after a colon.
 * IndexedDB's errors are DOMExceptions whose message may be empty (a full
 * disk can be a bare QuotaExceededError), so the name is kept beside it.
 */
export function storageReason(e: unknown): string {
  const named = typeof e === "object" && e !== null && "name" in e && "message" in e;
  const name = named && typeof e.name === "string" && e.name !== "Error" ? e.name : "";
  const message = (named ? String(e.message) : String(e ?? "")).trim().replace(/\.$/, "");
  const detail = [name, message].filter((s) => s !== "").join(": ");
  // Firefox before 2020 named it NS_ERROR_DOM_QUOTA_REACHED.
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") return `the browser's storage is full (${detail})`;
  return detail === "" ? "the browser's storage refused it without saying why" : detail;
}

/** The sentence that says whether the graph `file:NAME` is kept for the next visit, and which graphs made room for it. */
export function keptSentence(dataKey: string, r: KeepResult): string {
  const name = idInProse(dataKey.replace(/^file:/, ""));
  if (!r.kept) return `The graph ${name} is not kept for the next visit: ${r.reason || "storage is unavailable"}.`;
  const evicted = r.evicted ?? [];
  const gone =
    evicted.length === 0
      ? ""
      : ` To stay within the ${budgetText()} this page keeps, this browser no longer keeps ${evicted.map((k) => idInProse(k.replace(/^file:/, ""))).join(evicted.length === 2 ? " and " : ", ")} (the oldest${evicted.length === 1 ? "" : " ones"}): open ${evicted.length === 1 ? "its" : "their"} files again to reopen ${evicted.length === 1 ? "it" : "them"}.`;
  return `The graph ${name} is kept in this browser (never uploaded), so a reload reopens it.${gone}`;
}

/** v when it has the shape this module writes, else null (another shape is not ours to read). */
function shaped(v: unknown): StoredGraph | null {
  const r = v as StoredGraph | undefined;
  if (!r || typeof r.dataKey !== "string" || typeof r.files !== "object" || r.files === null) return null;
  if (!Object.values(r.files).every((b) => b instanceof Blob)) return null;
  return r;
}

/** A record's size: as recorded, else its files'. */
function sizeOf(v: StoredGraph): number {
  return typeof v.bytes === "number" ? v.bytes : Object.values(v.files).reduce((n, b) => n + b.size, 0);
}

/** Every stored record of our shape (none when storage is unavailable). */
async function records(): Promise<StoredGraph[]> {
  try {
    const all = (await run("readonly", (s) => s.getAll())) as unknown[];
    return all.map(shaped).filter((v): v is StoredGraph => v !== null);
  } catch {
    return [];
  }
}

/** The kept graphs' descriptions without reading their files, newest first (none, or storage unavailable: empty). */
export async function keptList(): Promise<KeptMeta[]> {
  return (await records()).map(metaOf).sort((a, b) => b.saved - a.saved);
}

function metaOf(v: StoredGraph): KeptMeta {
  const m: KeptMeta = { dataKey: v.dataKey, saved: v.saved, bytes: sizeOf(v) };
  if (typeof v.name === "string") m.name = v.name;
  if (typeof v.fingerprint === "string") m.fingerprint = v.fingerprint;
  return m;
}

/** The kept graph `dataKey`, or null (not kept, or storage unavailable). */
export async function kept(dataKey: string): Promise<KeptGraph | null> {
  const v = (await records()).find((r) => r.dataKey === dataKey);
  if (v === undefined) return null;
  try {
    const files: Record<string, Uint8Array> = {};
    for (const [name, blob] of Object.entries(v.files)) files[name] = new Uint8Array(await blob.arrayBuffer());
    return { ...metaOf(v), files };
  } catch {
    return null;
  }
}

/**
 * Whether a checkpoint was trained on the kept graph: by the graph's
 * fingerprint where the record has it, else (a record from before) by the
 * graph's name.
 */
export function trainedOnKept(c: { fingerprint: string; dataset: string }, k: KeptMeta | null): boolean {
  if (k === null) return false;
  if (k.fingerprint !== undefined) return c.fingerprint === k.fingerprint;
  return c.dataset === (k.name ?? k.dataKey.replace(/^file:/, ""));
}

/** Deletes the kept graph `dataKey` (whichever key its record sits under). */
export async function forget(dataKey: string): Promise<void> {
  try {
    const db = await open();
    try {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(STORE, "readwrite");
        const cursor = tx.objectStore(STORE).openCursor();
        cursor.onsuccess = () => {
          const c = cursor.result;
          if (c === null) return;
          if (shaped(c.value)?.dataKey === dataKey) c.delete();
          c.continue();
        };
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
        tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
      });
    } finally {
      db.close();
    }
  } catch {
    // Nothing kept, or no storage: nothing to forget.
  }
}
