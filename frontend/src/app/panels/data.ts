// The graph picker: synthetic presets and seeds, and the user's own files
// through the file dialog or drag and drop (folders included). Files are
// read in the page and parsed in the worker; a bad file's message (file,
// line, problem) appears next to the picker while the old graph stays.

import type { Preset } from "../../protocol";
import { byId, h, replace } from "../dom";
import { keptSentence, type KeptMeta } from "../filestore";
import { presetOf } from "../hash";
import type { AppStore } from "../store";

/** What the graph picker asks of the rest of the app. */
export interface DataActions {
  /** Generates a synthetic graph and shows it; false if it could not. */
  generate(preset: Preset, seed: number): Promise<boolean>;
  /** Opens the user's graph files; false if they could not be opened. */
  openFiles(files: File[]): Promise<boolean>;
  /** Reopens the graph this browser keeps; false if it could not. */
  openKept(): Promise<boolean>;
  /** Deletes the kept files. */
  forgetFiles(): Promise<void>;
  /** Imports a checkpoint file (dropped or picked with the graph files). */
  importCheckpoint(file: File): Promise<void>;
}

export class DataPanel {
  private readonly actions: DataActions;
  private readonly form = byId("data-form", HTMLFormElement);
  private readonly preset = byId("preset", HTMLSelectElement);
  private readonly seed = byId("data-seed", HTMLInputElement);
  private readonly fileInput = byId("file-input", HTMLInputElement);
  private readonly error = byId("data-error", HTMLElement);
  private readonly dropHint = byId("drop-hint", HTMLElement);
  /** The loaded graph when it came from files. */
  private readonly fileOption: HTMLOptionElement;
  /** The graph this browser keeps, when another graph is loaded: choosing it reopens it. */
  private readonly keptOption: HTMLOptionElement;
  private keptGraph: KeptMeta | null = null;
  /** The loaded graph's data key and seed, as last shown. */
  private shown: { dataKey: string; seed: number | null } | null = null;
  private readonly keptNote = byId("kept-note", HTMLElement);
  private readonly keptText = byId("kept-text", HTMLElement);

  constructor(store: AppStore, actions: DataActions) {
    this.actions = actions;
    this.fileOption = this.preset.querySelector<HTMLOptionElement>('option[value="file"]')!;
    this.keptOption = this.preset.querySelector<HTMLOptionElement>('option[value="kept"]')!;
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const p = presetOf(this.preset.value);
      const seed = Number(this.seed.value);
      if (p === null) return;
      if (!Number.isInteger(seed) || seed < 0) {
        this.showError(`seed must be a whole number ≥ 0 (got "${this.seed.value}")`);
        return;
      }
      void actions.generate(p, seed);
    });
    this.preset.addEventListener("change", () => {
      if (presetOf(this.preset.value)) this.form.requestSubmit();
      else if (this.preset.value === "kept") void actions.openKept();
    });
    byId("open-files", HTMLButtonElement).addEventListener("click", () => this.fileInput.click());
    this.fileInput.addEventListener("change", () => {
      const files = Array.from(this.fileInput.files ?? []);
      this.fileInput.value = "";
      if (files.length > 0) void this.openFiles(files);
    });
    this.installDrop();
    // No other graph while a model trains.
    store.subscribe("training", (on) => this.setBusy(on));
    byId("forget-files", HTMLButtonElement).addEventListener("click", () => {
      void actions.forgetFiles().then(() => {
        this.keptText.textContent = "Forgotten: a reload will not reopen these files.";
        byId("forget-files", HTMLButtonElement).hidden = true;
      });
    });
  }

  private async openFiles(files: File[]): Promise<void> {
    const checkpoints = files.filter((f) => f.name.endsWith(".ckpt"));
    if (checkpoints.length > 0 && checkpoints.length === files.length) {
      for (const f of checkpoints) await this.actions.importCheckpoint(f);
      return;
    }
    await this.actions.openFiles(files.filter((f) => !f.name.endsWith(".ckpt")));
  }

  /** Drag and drop anywhere on the page: files, or a folder (one level, e.g. a LINQS folder or an `ilpgnn synth` folder). */
  private installDrop(): void {
    let depth = 0;
    const hasFiles = (ev: DragEvent) => Array.from(ev.dataTransfer?.types ?? []).includes("Files");
    window.addEventListener("dragenter", (ev) => {
      if (!hasFiles(ev)) return;
      depth++;
      this.dropHint.hidden = false;
    });
    window.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) this.dropHint.hidden = true;
    });
    window.addEventListener("dragover", (ev) => {
      if (hasFiles(ev)) ev.preventDefault();
    });
    window.addEventListener("drop", (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      depth = 0;
      this.dropHint.hidden = true;
      void droppedFiles(ev.dataTransfer!).then((files) => {
        if (files.length === 0) this.showError("Nothing to open: the drop held no files.");
        else void this.openFiles(files);
      });
    });
  }

  /** Disables the picker while a graph loads or a model trains. */
  setBusy(busy: boolean): void {
    for (const el of this.form.querySelectorAll<HTMLButtonElement | HTMLSelectElement | HTMLInputElement>("button, select, input")) el.disabled = busy;
  }

  /** Says whether the files of a graph opened from files are kept for the next visit. */
  showKept(dataKey: string, r: { kept: boolean; reason?: string }): void {
    this.keptText.textContent = keptSentence(dataKey, r);
    byId("forget-files", HTMLButtonElement).hidden = !r.kept;
    this.keptNote.hidden = false;
  }

  /** Offers the graph this browser keeps (null: none) in the picker, unless it is the one loaded. */
  setKept(k: KeptMeta | null): void {
    this.keptGraph = k;
    if (this.shown !== null) this.showGraph(this.shown.dataKey, this.shown.seed);
    else this.showKeptOption();
  }

  private showKeptOption(): void {
    const k = this.keptGraph;
    const offered = k !== null && k.dataKey !== this.shown?.dataKey;
    this.keptOption.hidden = !offered;
    this.keptOption.disabled = !offered;
    if (k !== null) this.keptOption.textContent = `Your files: ${k.dataKey.replace(/^file:/, "")} (kept in this browser)`;
  }

  /** Reflects the loaded graph in the picker. */
  showGraph(dataKey: string, seed: number | null): void {
    this.shown = { dataKey, seed };
    if (presetOf(dataKey)) {
      this.keptNote.hidden = true;
      this.preset.value = dataKey;
      this.fileOption.hidden = true;
      if (seed !== null) this.seed.value = String(seed);
    } else {
      this.fileOption.textContent = `Your files: ${dataKey.replace(/^file:/, "")}`;
      this.fileOption.hidden = false;
      this.preset.value = "file";
    }
    this.showKeptOption();
  }

  /** Shows a loader's error next to the picker; `kept` names the graph still loaded. */
  showError(message: string, kept?: string): void {
    replace(this.error, h("strong", {}, "Could not open the graph. "), message, kept ? h("br") : null, kept ? `${kept} is still loaded.` : null);
    this.error.dataset["kind"] = "error";
    this.error.hidden = false;
  }

  /** Shows a neutral note in the same place. */
  showNote(message: string): void {
    replace(this.error, message);
    this.error.dataset["kind"] = "note";
    this.error.hidden = false;
  }

  clearError(): void {
    this.error.hidden = true;
    replace(this.error);
  }
}

/** The files of a drop; directories are read one level deep (their files only). */
async function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const entries = Array.from(dt.items ?? [])
    .map((item) => (typeof item.webkitGetAsEntry === "function" ? item.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0 || !entries.some((e) => e.isDirectory)) return Array.from(dt.files);
  const out: File[] = [];
  for (const entry of entries) {
    if (entry.isFile) out.push(await fileOf(entry as FileSystemFileEntry));
    else if (entry.isDirectory) {
      for (const child of await readDir(entry as FileSystemDirectoryEntry)) {
        if (child.isFile) out.push(await fileOf(child as FileSystemFileEntry));
      }
    }
  }
  return out;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function readDir(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries returns the listing in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}
