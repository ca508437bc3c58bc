// Checkpoints: every trained ILP-GNN is saved in this browser (IndexedDB,
// through the engine); the list restores, exports, deletes and imports them.

import type { EngineClient } from "../../client";
import type { CheckpointMeta, ModelInfo, StorageInfo } from "../../protocol";
import { byId, download, h, replace } from "../dom";
import { errorText } from "../errors";
import { trainedOnKept, type KeptMeta } from "../filestore";
import { bytes, createdTime, percent } from "../format";
import { filesTooLarge } from "../limits";
import { askPersistence, persistence, persistenceSentence, type Persistence } from "../persist";
import { cancelledAt, chooseRestore, describeModel, runState, type RestoreChoice } from "../restore";
import type { AppStore } from "../store";

/** The engine requests the checkpoint list makes. */
export type CheckpointEngine = Pick<EngineClient, "listCheckpoints" | "loadCheckpoint" | "exportCheckpoint" | "deleteCheckpoint" | "importCheckpoint">;

/** What the checkpoint list asks of the rest of the app. */
export interface CheckpointActions {
  /** Makes a restored model the current one. */
  setModel(info: ModelInfo): void;
  /** Withdraws the training panel's "restore it?" offer. */
  hideRestoreOffer(): void;
  /** Opens the graph this browser keeps, then restores the checkpoint `key` (trained on it). */
  openKeptAndRestore(dataKey: string, key: string): Promise<boolean>;
  setStatus(text: string): void;
}

/**
 * What the page says once the engine's store went away after ready: the
 * engine's reason ("this app was updated in another tab: reload to keep
 * working") and what that means for this tab.
 */
export function storageLostText(message: string | undefined): string {
  const why = (message ?? "the browser's storage was closed by another tab: reload to keep working").trim().replace(/\.$/, "");
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}. Until then this page saves no checkpoints; the ones saved so far are kept.`;
}

export class CheckpointsPanel {
  private readonly store: AppStore;
  private readonly engine: CheckpointEngine;
  private readonly actions: CheckpointActions;
  private readonly list = byId("checkpoint-list", HTMLElement);
  private readonly storage = byId("storage-status", HTMLElement);
  private readonly input = byId("checkpoint-input", HTMLInputElement);
  private entries: CheckpointMeta[] = [];
  /** The graphs kept in this browser: a checkpoint of one can be restored from another graph by opening it first. */
  private kept: KeptMeta[] = [];
  /** What the engine said of its store: in ready, or since (another tab upgraded the database). */
  private storageInfo: StorageInfo = { available: false };
  /** Whether the browser keeps the storage when space runs low, as last heard. */
  private persisted: Persistence = "unknown";
  /** Set once this page has asked for persistent storage (it asks at most once). */
  private askedPersistence = false;
  /** Set when the store went away after ready. */
  private lost = false;

  constructor(store: AppStore, engine: CheckpointEngine, actions: CheckpointActions) {
    this.store = store;
    this.engine = engine;
    this.actions = actions;
    byId("import-checkpoint", HTMLButtonElement).addEventListener("click", () => this.input.click());
    this.input.addEventListener("change", () => {
      const f = this.input.files?.[0];
      this.input.value = "";
      if (f) void this.importFile(f);
    });
  }

  /** Says where checkpoints are kept: the engine's ready info, or (lost) its later storage message. */
  showStorage(info: StorageInfo, lost = false): void {
    this.storageInfo = info;
    this.lost = lost;
    this.renderStorage();
    if (info.available) {
      void persistence().then((p) => {
        // A request made meanwhile has the newer answer.
        if (!this.askedPersistence) this.setPersistence(p);
      });
    }
  }

  /**
   * A model was just kept in this browser: the first time, unless the
   * storage is persistent already, ask the browser to keep it when space
   * runs low, and say what it answered.
   */
  async modelKept(): Promise<void> {
    if (this.askedPersistence || !this.storageInfo.available) return;
    this.askedPersistence = true;
    const now = await persistence();
    this.setPersistence(now === "persistent" ? now : await askPersistence());
    // Marks the line as the answer to this request (the browser tests wait for it).
    this.storage.dataset["persistenceAsked"] = "true";
  }

  private setPersistence(p: Persistence): void {
    this.persisted = p;
    this.renderStorage();
  }

  private renderStorage(): void {
    const info = this.storageInfo;
    const line = this.lost
      ? storageLostText(info.message)
      : info.available
        ? `Saved in this browser's storage (IndexedDB); nothing is uploaded. ${persistenceSentence(this.persisted)}`.trim()
        : `Checkpoints are kept for this session only: ${info.message ?? "browser storage is unavailable"}. Export them to keep them.`;
    this.storage.textContent = line;
    this.storage.dataset["persistence"] = info.available ? this.persisted : "none";
    this.storage.classList.toggle("warning", this.lost);
  }

  /** Learns which graphs this browser keeps and shows which checkpoints it can open. */
  setKept(list: KeptMeta[]): void {
    this.kept = list;
    if (this.entries.length > 0) this.render();
  }

  /** The checkpoint of the loaded graph to restore: the newest completed run, else the newest cancelled one. */
  lastMatching(): RestoreChoice | undefined {
    return chooseRestore(this.entries);
  }

  async refresh(): Promise<void> {
    try {
      const r = await this.engine.listCheckpoints();
      this.entries = r.checkpoints;
      this.render();
    } catch (e) {
      replace(this.list, h("p", { class: "error" }, errorText(e)));
    }
  }

  private render(): void {
    if (this.entries.length === 0) {
      replace(this.list, h("p", { class: "muted small" }, "None yet: a checkpoint is saved each time training ends."));
      return;
    }
    const cur = this.store.get("model")?.info;
    const rows = this.entries.map((c) => {
      // A key can hold another run than the current model's (a cancelled
      // rerun is not stored over a completed run): the time tells them apart.
      const isCurrent = cur !== undefined && c.key === cur.key && c.created === cur.created;
      const stopped = cancelledAt(c);
      const restore = this.restoreButton(c, isCurrent);
      const exp = h("button", { type: "button" }, "Export");
      const when = createdTime(c.created);
      const del = h("button", { type: "button", "aria-label": `Delete checkpoint of ${c.dataset}${when === undefined ? "" : ` from ${when}`}` }, "Delete");
      exp.addEventListener("click", () => void this.export(c.key));
      del.addEventListener("click", () => void this.remove(c));
      const m = c.metrics;
      const p = m["p_at_1"] !== undefined && m["p_at_2"] !== undefined ? ` · P@1/2 ${percent(m["p_at_1"])}/${percent(m["p_at_2"])}` : "";
      return h(
        "tr",
        { class: `${c.matches ? "match" : "other"}${stopped === undefined ? "" : " cancelled"}`, "data-key": c.key, "data-run": stopped === undefined ? "completed" : "cancelled" },
        h("td", {}, h("strong", {}, c.dataset), h("br"), `${c.model} · seed ${c.seed} · ${bytes(c.size)}`),
        h("td", {}, when ?? null, when === undefined ? null : h("br"), `AUC ${percent(m["test_auc"] ?? NaN, 2)}${p}`, stopped === undefined ? null : h("br"), stopped === undefined ? null : h("em", {}, runState(stopped))),
        h("td", {}, restore, exp, del),
      );
    });
    replace(this.list, h("table", { class: "checkpoints" }, h("thead", {}, h("tr", {}, h("th", {}, "graph"), h("th", {}, "trained · test"), h("th", {}, ""))), h("tbody", {}, ...rows)));
  }

  /**
   * A checkpoint's restore button: Restore for the loaded graph; for the
   * graph this browser keeps, "Open graph and restore"; for any other
   * graph, disabled, saying which graph to open.
   */
  private restoreButton(c: CheckpointMeta, isCurrent: boolean): HTMLButtonElement {
    if (c.matches) {
      const b = h("button", { type: "button", disabled: isCurrent, title: "make this the current model" }, isCurrent ? "current" : "Restore");
      b.addEventListener("click", () => void this.restore(c.key));
      return b;
    }
    const k = this.kept.find((k) => trainedOnKept(c, k));
    if (k !== undefined && !this.store.get("training")) {
      const name = k.dataKey.replace(/^file:/, "");
      const b = h("button", { type: "button", class: "open-restore", title: `opens ${name} (kept in this browser) and makes this the current model` }, "Open graph and restore");
      b.addEventListener("click", () => void this.actions.openKeptAndRestore(k.dataKey, c.key));
      return b;
    }
    return h("button", { type: "button", disabled: true, title: `trained on ${c.dataset}: open that graph first (the Graph picker, or Open files…)` }, "Restore");
  }

  /** Makes a stored checkpoint the current model. */
  async restore(key: string): Promise<boolean> {
    try {
      const info = await this.engine.loadCheckpoint(key);
      this.actions.hideRestoreOffer();
      this.actions.setModel(info);
      this.actions.setStatus(`Restored ${describeModel(info)}`);
      this.render();
      return true;
    } catch (e) {
      replace(this.list, h("p", { class: "error" }, errorText(e)));
      await this.refreshLater();
      return false;
    }
  }

  private async export(key: string): Promise<void> {
    try {
      const r = await this.engine.exportCheckpoint(key);
      download(r.filename, r.bytes);
    } catch (e) {
      this.actions.setStatus(`Export failed: ${errorText(e)}`);
    }
  }

  private async remove(c: CheckpointMeta): Promise<void> {
    const when = createdTime(c.created);
    if (!confirm(`Delete the checkpoint of ${c.dataset}${when === undefined ? "" : ` trained ${when}`}? Export it first to keep a copy.`)) return;
    try {
      await this.engine.deleteCheckpoint(c.key);
    } catch (e) {
      this.actions.setStatus(`Delete failed: ${errorText(e)}`);
    }
    await this.refresh();
  }

  /** Imports a checkpoint file; restores it when it fits the loaded graph. */
  async importFile(file: File): Promise<void> {
    const refusal = filesTooLarge([file]);
    if (refusal !== null) {
      this.actions.setStatus(`Import failed: ${refusal}`);
      replace(this.list, h("p", { class: "error" }, refusal));
      return;
    }
    try {
      const r = await this.engine.importCheckpoint(file.name, new Uint8Array(await file.arrayBuffer()));
      this.actions.setStatus(r.status.saved ? `Imported ${file.name}` : `Imported ${file.name} (${r.status.message ?? "not saved"})`);
      if (r.status.saved) void this.modelKept();
      await this.refresh();
      if (r.meta.matches) await this.restore(r.meta.key);
      else this.actions.setStatus(`Imported ${file.name}: trained on ${r.meta.dataset}; open that graph to use it.`);
    } catch (e) {
      // The engine's messages name the file already; say it once.
      const msg = errorText(e);
      this.actions.setStatus(`Import failed: ${msg}`);
      replace(this.list, h("p", { class: "error" }, msg.startsWith(`${file.name}:`) ? msg : `${file.name}: ${msg}`));
      await this.refreshLater();
    }
  }

  private async refreshLater(): Promise<void> {
    await new Promise((r) => setTimeout(r, 4000));
    await this.refresh();
  }
}
