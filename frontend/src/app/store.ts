// The app's mutable state in one place. Panels read it and write it here
// instead of reaching into the App, and subscribe to the keys they draw, so
// no module needs the App itself (app.ts only composes). DOM-free.

import type { EngineInfo, ModelInfo } from "../protocol";
import type { LoadedGraph } from "./graphdata";
import { DEFAULT_DATA } from "./hash";

/** What the explanation view shows. */
export type Selection = { kind: "none" } | { kind: "node"; node: number } | { kind: "pair"; i: number; j: number };

/** The current ILP-GNN model: its info and the graph it belongs to. */
export interface CurrentModel {
  info: ModelInfo;
  fingerprint: string;
}

/** Timings the browser tests and the closing report read. */
export interface AppMetrics {
  /** performance.now() when the first graph was drawn (ms since navigation). */
  firstGraphMs?: number;
  /** Engine ready (ms since navigation). */
  engineReadyMs?: number;
  /** Last graph load: request to first drawn frame. */
  lastLoadMs?: number;
  /** Last training run: Train pressed to result. */
  lastTrainMs?: number;
  /** Number of `train` requests sent (to show a reload did not retrain). */
  trainRuns: number;
}

/** The app's state: what the panels, the canvas and the URL hash show. */
export interface AppState {
  /** The engine's description, once it is ready. */
  engineInfo: EngineInfo | null;
  /** The loaded graph. */
  graph: LoadedGraph | null;
  /** Where the loaded graph came from, as a hash `data` value. */
  dataKey: string;
  /** The synthetic graph's seed; null for a graph opened from files. */
  dataSeed: number | null;
  /** The current ILP-GNN model (trained or restored) of the loaded graph. */
  model: CurrentModel | null;
  /** What the explanation view and the canvas highlight show. */
  selection: Selection;
  /** Whether a training run is under way. */
  training: boolean;
  /** While an ILP-GNN run trains: the epoch whose weights, the best so far, answer explanations and suggestions (null: none yet, or no run). */
  kept: number | null;
  /** The cores an ILP-GNN run trains on, as chosen (panel or link); null: the engine's default. */
  workers: number | null;
}

/** Called with a key's new and previous value after it changed. */
export type Listener<V> = (value: V, previous: V) => void;

/**
 * A typed key-value store with change subscriptions. `set` and `update`
 * notify a key's subscribers only when its value changes (Object.is), after
 * every key of the write is in place, so a subscriber sees a consistent state.
 */
export class Store<S extends object> {
  private readonly state: S;
  private readonly listeners = new Map<keyof S, Set<Listener<never>>>();

  constructor(initial: S) {
    this.state = { ...initial };
  }

  /** The current value of `key`. */
  get<K extends keyof S>(key: K): S[K] {
    return this.state[key];
  }

  /** Sets `key` to `value`, then notifies its subscribers if it changed. */
  set<K extends keyof S>(key: K, value: S[K]): void {
    this.update({ [key]: value } as unknown as Partial<S>);
  }

  /** Sets several keys at once; subscribers run after all are set, in the patch's key order. */
  update(patch: Partial<S>): void {
    const changed: Array<[keyof S, unknown]> = [];
    for (const key of Object.keys(patch) as Array<keyof S>) {
      const previous = this.state[key];
      const value = patch[key] as S[keyof S];
      if (Object.is(previous, value)) continue;
      this.state[key] = value;
      changed.push([key, previous]);
    }
    for (const [key, previous] of changed) {
      // A copy: a subscriber may unsubscribe (itself or another) while we call them.
      for (const fn of [...(this.listeners.get(key) ?? [])]) (fn as Listener<unknown>)(this.state[key], previous);
    }
  }

  /** Calls `fn` after every change of `key`; returns the function that stops it. */
  subscribe<K extends keyof S>(key: K, fn: Listener<S[K]>): () => void {
    let set = this.listeners.get(key);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(key, set);
    }
    const entry = fn as Listener<never>;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** A copy of the whole state (for tests and the console). */
  snapshot(): Readonly<S> {
    return { ...this.state };
  }
}

/** The app's store, with its metrics beside the state (they are counters, not something to draw). */
export class AppStore extends Store<AppState> {
  /** Timings and counters for the browser tests; written in place, never subscribed to. */
  readonly metrics: AppMetrics = { trainRuns: 0 };

  constructor(initial: Partial<AppState> = {}) {
    super({ engineInfo: null, graph: null, dataKey: DEFAULT_DATA, dataSeed: 0, model: null, selection: { kind: "none" }, training: false, kept: null, workers: null, ...initial });
  }
}
