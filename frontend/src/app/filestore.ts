// The last graph opened from the user's files, kept in this browser's
// IndexedDB (a database of the page's own, beside the engine's checkpoint
// store) so that a reload reopens it: nothing is uploaded, and nothing is
// lost. One record; "Forget" deletes it.

const DB = "ilpgnn-files";
const STORE = "graphs";
const KEY = "last";
/** Larger graphs are not kept (they reopen from the files). */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;

/** What a kept graph is, without its files: enough to list it and to match checkpoints to it. */
export interface KeptMeta {
  /** The hash's data value, `file:NAME`. */
  dataKey: string;
  /** The graph's name and fingerprint as the engine loaded it (absent in records kept before they were recorded). */
  name?: string;
  fingerprint?: string;
  saved: number;
}

/** A kept graph: the files as opened, by name. */
export interface KeptGraph extends KeptMeta {
  files: Record<string, Uint8Array>;
}

/**
 * The stored record. The files go in as Blobs: IndexedDB clones a
 * Uint8Array synchronously on the page's thread (55 ms for Amazon Photo's
 * 6 MB, a long task), while a Blob is stored by reference to data the
 * browser already holds.
 */
interface StoredGraph extends KeptMeta {
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

/**
 * Keeps the files of the graph just opened, with the engine's name and
 * fingerprint of it (`about`); false (with a reason) when they are too
 * large or storage refuses.
 */
export async function keep(dataKey: string, files: Record<string, Uint8Array>, about: { name?: string; fingerprint?: string } = {}): Promise<{ kept: boolean; reason?: string }> {
  const size = Object.values(files).reduce((n, b) => n + b.byteLength, 0);
  if (size > MAX_KEPT_BYTES) return { kept: false, reason: `the files are ${Math.round(size / 1e6)} MB, more than this page keeps` };
  try {
    const blobs: Record<string, Blob> = {};
    for (const [name, bytes] of Object.entries(files)) blobs[name] = new Blob([bytes as BlobPart]);
    const record: StoredGraph = { ...about, dataKey, files: blobs, saved: Date.now() };
    await run("readwrite", (s) => s.put(record, KEY));
    return { kept: true };
  } catch (e) {
    return { kept: false, reason: storageReason(e) };
  }
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

/** The sentence that says whether the graph `file:NAME` is kept for the next visit. */
export function keptSentence(dataKey: string, r: { kept: boolean; reason?: string | undefined }): string {
  const name = dataKey.replace(/^file:/, "");
  return r.kept
    ? `The graph ${name} is kept in this browser (never uploaded), so a reload reopens it.`
    : `The graph ${name} is not kept for the next visit: ${r.reason || "storage is unavailable"}.`;
}

/** The stored record when it has the shape this module writes, else null (none, another shape, or storage unavailable). */
async function record(): Promise<StoredGraph | null> {
  try {
    const v = (await run("readonly", (s) => s.get(KEY))) as StoredGraph | undefined;
    if (!v || typeof v.dataKey !== "string" || typeof v.files !== "object" || v.files === null) return null;
    if (!Object.values(v.files).every((b) => b instanceof Blob)) return null; // not ours to read
    return v;
  } catch {
    return null;
  }
}

/** The kept graph's description without reading its files, or null (none, or storage unavailable). */
export async function keptMeta(): Promise<KeptMeta | null> {
  const v = await record();
  return v === null ? null : metaOf(v);
}

function metaOf(v: StoredGraph): KeptMeta {
  const m: KeptMeta = { dataKey: v.dataKey, saved: v.saved };
  if (typeof v.name === "string") m.name = v.name;
  if (typeof v.fingerprint === "string") m.fingerprint = v.fingerprint;
  return m;
}

/** The kept graph, or null (none, or storage unavailable). */
export async function kept(): Promise<KeptGraph | null> {
  const v = await record();
  if (v === null) return null;
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

/** Deletes the kept graph. */
export async function forget(): Promise<void> {
  try {
    await run("readwrite", (s) => s.delete(KEY));
  } catch {
    // Nothing kept, or no storage: nothing to forget.
  }
}
