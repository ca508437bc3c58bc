// The graph picker: synthetic presets and seeds, and the user's own files
// through the file dialog or drag and drop (folders included). Files are
// read in the page and parsed in the worker; a bad file's message (file,
// line, problem) appears next to the picker while the old graph stays.

import type { Preset } from "../../protocol";
import { byId, h, replace } from "../dom";
import { budgetText, keptSentence, type KeepResult, type KeptMeta } from "../filestore";
import { bytes } from "../format";
import { presetOf } from "../hash";
import type { AppStore } from "../store";

/** What the graph picker asks of the rest of the app. */
export interface DataActions {
  /** Generates a synthetic graph and shows it; false if it could not. */
  generate(preset: Preset, seed: number): Promise<boolean>;
  /** Opens the user's graph files; false if they could not be opened. */
  openFiles(files: File[]): Promise<boolean>;
  /** Reopens a graph this browser keeps (by data key); false if it could not. */
  openKept(dataKey: string): Promise<boolean>;
  /** Deletes a kept graph's files (by data key). */
  forgetFiles(dataKey: string): Promise<void>;
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
  /** The graphs this browser keeps, newest first: each but the loaded one is a picker option ("kept:" and its data key) that reopens it. */
  private keptGraphs: KeptMeta[] = [];
  private keptOptions: HTMLOptionElement[] = [];
  private readonly keptList = byId("kept-graphs", HTMLDetailsElement);
  /** The loaded graph's data key and seed, as last shown. */
  private shown: { dataKey: string; seed: number | null } | null = null;
  private readonly keptNote = byId("kept-note", HTMLElement);
  private readonly keptText = byId("kept-text", HTMLElement);

  constructor(store: AppStore, actions: DataActions) {
    this.actions = actions;
    this.fileOption = this.preset.querySelector<HTMLOptionElement>('option[value="file"]')!;
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
      else if (this.preset.value.startsWith("kept:")) void actions.openKept(this.preset.value.slice("kept:".length));
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
      const key = this.shown?.dataKey;
      if (key === undefined) return;
      void actions.forgetFiles(key).then(() => {
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
  showKept(dataKey: string, r: KeepResult): void {
    this.keptText.textContent = keptSentence(dataKey, r);
    byId("forget-files", HTMLButtonElement).hidden = !r.kept;
    this.keptNote.hidden = false;
  }

  /** Offers the graphs this browser keeps (newest first) in the picker, all but the one loaded, and lists them with a Remove button each. */
  setKept(list: KeptMeta[]): void {
    this.keptGraphs = list;
    if (this.shown !== null) this.showGraph(this.shown.dataKey, this.shown.seed);
    else this.showKeptOptions();
    this.showKeptList();
  }

  private showKeptOptions(): void {
    for (const o of this.keptOptions) o.remove();
    this.keptOptions = this.keptGraphs
      .filter((k) => k.dataKey !== this.shown?.dataKey)
      .map((k) => h("option", { value: `kept:${k.dataKey}` }, `Your files: ${k.dataKey.replace(/^file:/, "")} (kept in this browser)`) as HTMLOptionElement);
    this.preset.append(...this.keptOptions);
  }

  /** The list of kept graphs under the picker: name, size, when kept, Remove; and the budget they share. */
  private showKeptList(): void {
    const list = this.keptGraphs;
    this.keptList.hidden = list.length === 0;
    const total = list.reduce((n, k) => n + k.bytes, 0);
    const items = list.map((k) => {
      const name = k.dataKey.replace(/^file:/, "");
      const remove = h("button", { type: "button", class: "link", "data-key": k.dataKey, "aria-label": `Remove ${name}` }, "Remove");
      remove.addEventListener("click", () => {
        void this.actions.forgetFiles(k.dataKey).then(() => {
          if (k.dataKey !== this.shown?.dataKey) return;
          this.keptText.textContent = "Forgotten: a reload will not reopen these files.";
          byId("forget-files", HTMLButtonElement).hidden = true;
        });
      });
      return h("li", { "data-key": k.dataKey }, h("bdi", {}, name), ` · ${bytes(k.bytes)} · kept ${new Date(k.saved).toLocaleString()} `, remove);
    });
    replace(
      this.keptList,
      h("summary", {}, `Graphs kept in this browser: ${list.length} (${bytes(total)} of ${budgetText()})`),
      h("p", {}, `This browser keeps the files of the graphs you open, up to ${budgetText()} in all, so that a reload or a link reopens them; opening more drops the oldest, and the page says which. Nothing is uploaded.`),
      h("ul", { id: "kept-list" }, ...items),
    );
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
    this.showKeptOptions();
  }

  /** Shows a loader's error next to the picker; `kept` names the graph still loaded. */
  showError(message: string, kept?: string): void {
    replace(this.error, h("strong", {}, "Could not open the graph. "), message, kept ? h("br") : null, kept ? `${kept} is still loaded.` : null);
    this.error.dataset["kind"] = "error";
    this.error.hidden = false;
  }

  /**
   * A link names a graph opened from files that this browser does not
   * keep: says which, offers to open its files, and with `demo` to show
   * the demo graph instead. Nothing else is opened in its place unasked.
   */
  showMissing(name: string, demo: (() => void) | null): void {
    const open = h("button", { type: "button", id: "link-open-files" }, "Open its files…");
    open.addEventListener("click", () => this.fileInput.click());
    const alt = demo === null ? null : h("button", { type: "button", id: "link-demo" }, "Show the demo graph instead");
    if (alt !== null && demo !== null) alt.addEventListener("click", demo);
    replace(
      this.error,
      h("strong", {}, "This link needs the graph ", h("bdi", {}, name), ", which this browser does not keep. "),
      "It was opened from files, and nothing was uploaded, so the page cannot fetch it: open the same files to continue. ",
      open,
      alt === null ? null : " ",
      alt,
    );
    this.error.dataset["kind"] = "note";
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
