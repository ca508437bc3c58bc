// Whether the browser keeps this origin's storage (the checkpoints, the
// kept graph) when space runs low. Browsers evict "best-effort" storage
// under pressure unless the page asks for persistence and is granted it
// (navigator.storage.persist(); Chromium decides by itself, Firefox asks
// the user), so the page asks once, when the user first keeps a model.

/** What the browser says of this origin's storage; "unknown" where it has no StorageManager. */
export type Persistence = "persistent" | "best-effort" | "unknown";

interface PersistAPI {
  persisted(): Promise<boolean>;
  persist(): Promise<boolean>;
}

function api(): PersistAPI | null {
  const s = typeof navigator === "undefined" ? undefined : (navigator as { storage?: Partial<PersistAPI> }).storage;
  return s !== undefined && typeof s.persisted === "function" && typeof s.persist === "function" ? (s as PersistAPI) : null;
}

async function answer(ask: (s: PersistAPI) => Promise<boolean>): Promise<Persistence> {
  const s = api();
  if (s === null) return "unknown";
  try {
    return (await ask(s)) ? "persistent" : "best-effort";
  } catch {
    return "unknown";
  }
}

/** The current state, without asking for anything. */
export function persistence(): Promise<Persistence> {
  return answer((s) => s.persisted());
}

/** Asks the browser to make this origin's storage persistent; its answer. */
export function askPersistence(): Promise<Persistence> {
  return answer((s) => s.persist());
}

/** The storage line's sentence on eviction ("" when the browser does not say). */
export function persistenceSentence(p: Persistence): string {
  switch (p) {
    case "persistent":
      return "Kept in this browser, persistent: it keeps them when space runs low.";
    case "best-effort":
      return "Kept in this browser; the browser may evict them when space runs low.";
    default:
      return "";
  }
}
