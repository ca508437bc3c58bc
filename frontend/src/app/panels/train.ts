// The training panel: model choice, the hyperparameters with their
// defaults and one-line help (from the engine, so the page never disagrees
// with the command line), Train / Cancel, a progress bar with time left,
// live charts of the loss parts and validation AUC, and the final metrics.
// Tune searches the model's hyperparameters within a time budget (a line
// per trial, a table at the end), applies the chosen ones to the fields
// and trains with them.

import type { CheckpointMeta, Hyperparameter, ModelInfo, ModelName, ModelSpec, PrepareProgress, TrainConfig, TrainProgress, TrainResult, TuneProgress, TuneResult } from "../../protocol";
import { EngineError, type EngineClient } from "../../client";
import { LineChart } from "../charts/index";
import { byId, h, replace } from "../dom";
import { errorText } from "../errors";
import { AUTO, coreOptions, coresText, parseChoice, workersOf, workersOption } from "../cores";
import { EpochClock, describeEstimate, epochBeforeTraining, roughly } from "../estimate";
import { bytes, createdTime, duration, percent } from "../format";
import { SERIES } from "../palette";
import { cancelledAt, changedSettings, describeMeta, describeModel, runState } from "../restore";
import { CANCELLING, RunControl, preparingWhat, progressLine, progressShare, runBlocked, stoppedText, withinEpoch } from "../run";
import type { AppStore } from "../store";
import { epochLine, parseBudget, seedsNote, settingsText, trialLine, trialRows, tuneShare, tuneSummary, TRIAL_COLUMNS } from "../tune";

/** The engine requests the training panel makes, and whether the engine is gone. */
export type TrainEngine = Pick<EngineClient, "defaults" | "train" | "tune" | "evaluate" | "error">;

/** What the training panel asks of the rest of the app. */
export interface TrainActions {
  /** Makes a trained ILP-GNN the current model. */
  setModel(info: ModelInfo): void;
  /** The current model was measured on the test pairs since it became current: its info, updated in place. */
  modelMeasured(info: ModelInfo): void;
  /** Reloads the checkpoint list (a run just saved one). */
  refreshCheckpoints(): Promise<void>;
  /** A run's model was just saved in this browser. */
  modelKept(): void;
  /** Restores a stored checkpoint (the "restore it?" offer). */
  restoreCheckpoint(key: string): Promise<boolean>;
  setStatus(text: string): void;
  /** Says in the status line that the engine is gone. */
  engineStopped(): void;
  /** Records the page's state in the URL hash (a chosen number of cores goes into the link, so a reload keeps it). */
  writeHash(): void;
}

/** The selector's names of the models the engine lists, where a short name reads better than "name (about)". */
const MODEL_LABEL: Partial<Record<string, string>> = {
  ilpgnn: "ILP-GNN (self-explaining)",
  gae: "GAE (GCN autoencoder)",
  vgae: "VGAE (variational)",
  gat: "GAT (attention)",
  conpi: "CONPI (context interaction)",
  cn: "Common neighbours",
  aa: "Adamic-Adar",
};

/**
 * Models the tab does not offer: every pair costs a subgraph forward pass
 * of its own, about 40 s and 90 s an epoch on the demo graph (the note
 * under the selector says to use the command line).
 */
const COMMAND_LINE_ONLY: ReadonlySet<string> = new Set(["seal", "wp"]);

/** A model's one-line help; models the page has no text for get the engine's own description. */
const MODEL_HELP: Partial<Record<string, string>> = {
  ilpgnn: "Predicts links and names the neighbours of each end that make it so (the paper's method).",
  gae: "Graph autoencoder with two GCN layers: a strong predictor without explanations; GNNExplainer explains it post hoc.",
  vgae: "Variational GAE; explained post hoc by GNNExplainer.",
  gat: "Graph attention autoencoder; its attention weights serve as an explanation to compare.",
  cn: "Counts common neighbours: no training, a baseline.",
  aa: "Adamic-Adar: common neighbours weighted by 1/log(degree); no training.",
  seal: "SEAL: a graph neural network reads each pair's enclosing subgraph, nodes labelled by distance to the two ends. Strong, but every pair costs a forward pass of its own.",
  wp: "WalkPooling: random-walk profiles of each pair's enclosing subgraph, with and without the link, through learned attention. Strong and costly per pair.",
  conpi: "CONPI: scores how the two ends' neighbours interact; the interaction weights explain it (shown under “compare explainers”). About 4 s an epoch on the demo graph.",
};

/** Models whose epochs are passes over mini-batches of pairs. */
const PAIR_MODELS: ReadonlySet<string> = new Set(["seal", "wp", "conpi"]);

/** The model selector's options for the engine's models, in the engine's order. */
export function modelOptions(models: readonly ModelSpec[]): Array<{ value: string; label: string }> {
  return models.filter((m) => !COMMAND_LINE_ONLY.has(m.name)).map((m) => ({ value: m.name, label: MODEL_LABEL[m.name] ?? `${m.name} (${m.about})` }));
}

export class TrainPanel {
  private readonly store: AppStore;
  private readonly engine: TrainEngine;
  private readonly actions: TrainActions;
  private readonly form = byId("train-form", HTMLFormElement);
  private readonly model = byId("model", HTMLSelectElement);
  private readonly seed = byId("train-seed", HTMLInputElement);
  private readonly cores = byId("train-workers", HTMLSelectElement);
  private readonly coresNote = byId("workers-note", HTMLElement);
  private readonly modelHelp = byId("model-help", HTMLElement);
  private readonly fields = byId("hyper-fields", HTMLElement);
  private readonly trainButton = byId("train", HTMLButtonElement);
  private readonly cancelButton = byId("cancel", HTMLButtonElement);
  private readonly tuneButton = byId("tune", HTMLButtonElement);
  private readonly budget = byId("tune-budget", HTMLInputElement);
  private readonly tuneResult = byId("tune-result", HTMLElement);
  private readonly progress = byId("progress", HTMLProgressElement);
  private readonly progressText = byId("progress-text", HTMLElement);
  private readonly progressEta = byId("progress-eta", HTMLElement);
  private readonly result = byId("train-result", HTMLElement);
  private readonly offer = byId("restore-offer", HTMLElement);
  private readonly lossCanvas = byId("loss-chart", HTMLCanvasElement);
  private readonly aucCanvas = byId("auc-chart", HTMLCanvasElement);
  private readonly lossChart: LineChart;
  private readonly aucChart: LineChart;
  private defaults = new Map<string, Hyperparameter>();
  /** The engine's models, by name. */
  private specs = new Map<string, ModelSpec>();
  /** The run under way (train or tune) and its Cancel. */
  private readonly run = new RunControl();
  /** Progress events received during the last run (the browser tests read it). */
  progressEvents = 0;
  /** Trials reported during the last search, and its result (the browser tests read them). */
  tuneEvents = 0;
  lastTune: TuneResult | null = null;
  /** The last run's epoch times, for the time-left estimate. */
  private clock = new EpochClock();
  /** Page time when Train was pressed, and when the first epoch report came (setup = the gap less its elapsed time). */
  private startedAt = 0;
  /** Timings of the last run (bench-app reads them): setup before the first epoch, every epoch-end report's elapsed ms, the engine's peak memory. */
  runStats: { setupMs?: number; epochEndsMs: number[]; peakMemoryBytes: number } = { epochEndsMs: [], peakMemoryBytes: 0 };

  constructor(store: AppStore, engine: TrainEngine, actions: TrainActions) {
    this.store = store;
    this.engine = engine;
    this.actions = actions;
    this.lossChart = new LineChart(this.lossCanvas, { title: "Training loss", xLabel: "epoch", yLabel: "loss", legend: true });
    this.aucChart = new LineChart(this.aucCanvas, { title: "Validation AUC", xLabel: "epoch", yLabel: "AUC", legend: true });
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.start();
    });
    this.cancelButton.addEventListener("click", () => this.cancel());
    this.cores.addEventListener("change", () => {
      store.set("workers", parseChoice(this.cores.value));
      actions.writeHash();
    });
    this.tuneButton.addEventListener("click", () => void this.tune());
    this.model.addEventListener("change", () => void this.loadDefaults());
    byId("hyper-reset", HTMLButtonElement).addEventListener("click", () => this.renderFields());
    store.subscribe("engineInfo", (info) => {
      if (info) this.setModels(info.models);
      this.showCores();
      this.showRunButtons();
    });
    store.subscribe("graph", () => this.showRunButtons());
    this.showRunButtons();
    store.subscribe("workers", () => {
      this.showCores();
      this.showNoModel();
    });
  }

  /**
   * Enables Train and Tune when a run can start (runBlocked); otherwise
   * they are disabled and their title says why. Tune also needs a model
   * that learns.
   */
  showRunButtons(): void {
    const store = this.store;
    const why = runBlocked({
      engineReady: store.get("engineInfo") !== null,
      engineStopped: this.engine.error !== undefined,
      graph: store.get("graph") !== null,
      training: store.get("training"),
    });
    this.trainButton.disabled = why !== null;
    this.trainButton.title = why ?? "Train the chosen model with these settings";
    const tuneWhy = why ?? (this.learns(this.modelName) ? null : "This model has nothing to tune: it does not train.");
    this.tuneButton.disabled = tuneWhy !== null;
    this.tuneButton.title = tuneWhy ?? "Choose the hyperparameters within the budget, then train with them";
  }

  /** Offers the numbers of cores the engine allows, showing the store's choice. */
  private showCores(): void {
    const info = this.store.get("engineInfo");
    if (info === null) return;
    const chosen = this.store.get("workers");
    replace(this.cores, ...coreOptions(info, chosen).map((o) => h("option", { value: o.value }, o.label)));
    this.cores.value = chosen === null ? AUTO : String(chosen);
  }

  /** Says why a link's cores were ignored (null: nothing to say). */
  showCoresNote(note: string | null): void {
    this.coresNote.textContent = note ?? "";
    this.coresNote.hidden = note === null;
  }

  /**
   * Cancel pressed: the run is asked to stop and the page says so at once;
   * the button takes no second press, and the run's end says how it ended.
   */
  private cancel(): void {
    if (!this.run.cancel()) return;
    this.cancelButton.disabled = true;
    this.progressEta.hidden = true;
    this.progressText.textContent = CANCELLING;
    this.actions.setStatus(CANCELLING);
  }

  /** Offers the engine's models in the selector, keeping the choice when it is still offered. */
  private setModels(models: readonly ModelSpec[]): void {
    const chosen = this.model.value;
    this.specs = new Map(models.map((m) => [m.name, m]));
    replace(this.model, ...modelOptions(models).map((o) => h("option", { value: o.value }, o.label)));
    if (this.specs.has(chosen) && !COMMAND_LINE_ONLY.has(chosen)) this.model.value = chosen;
  }

  private get modelName(): ModelName {
    return this.model.value as ModelName;
  }

  /** Fetches the chosen model's hyperparameters and renders their fields. */
  async loadDefaults(): Promise<void> {
    const name = this.modelName;
    this.modelHelp.textContent = MODEL_HELP[name] ?? this.specs.get(name)?.about ?? "";
    this.showRunButtons();
    try {
      const list = await this.engine.defaults(name);
      if (name !== this.modelName) return;
      this.defaults = new Map(list.map((p) => [p.name, p]));
      this.renderFields();
    } catch (e) {
      replace(this.fields, h("p", { class: "error" }, errorText(e)));
    }
  }

  private renderFields(): void {
    const rows: Node[] = [];
    for (const p of this.defaults.values()) {
      const id = `hp-${p.name}`;
      const boolean = p.value === "true" || p.value === "false";
      const input = boolean
        ? h("input", { id, type: "checkbox", "data-name": p.name, "aria-describedby": `${id}-help` })
        : h("input", { id, value: p.value, "data-name": p.name, autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-help` });
      if (boolean) input.checked = p.value === "true";
      const mark = () => input.classList.toggle("changed", valueOf(input) !== p.value);
      input.addEventListener("input", mark);
      input.addEventListener("change", mark);
      rows.push(h("label", { for: id }, p.name), input, h("p", { class: "help", id: `${id}-help` }, p.help, ` (default ${p.value})`));
    }
    replace(this.fields, ...rows);
  }

  /** The hyperparameters the user changed, by name. */
  private config(): TrainConfig {
    const out: TrainConfig = {};
    for (const input of this.fields.querySelectorAll<HTMLInputElement>("input[data-name]")) {
      const name = input.dataset["name"]!;
      const value = valueOf(input);
      if (value !== this.defaults.get(name)?.value) out[name] = value;
    }
    return out;
  }

  /** Whether a model trains (a heuristic has nothing to tune); unknown models are given the benefit. */
  private learns(name: string): boolean {
    return this.specs.get(name)?.learns ?? true;
  }

  /** The seed field's value, or null after showing in `where` what is wrong with it. */
  private seedValue(where: HTMLElement): number | null {
    const seed = Number(this.seed.value);
    if (!Number.isInteger(seed) || seed < 0) {
      replace(where, h("p", { class: "error" }, `seed must be a whole number ≥ 0 (got "${this.seed.value}")`));
      return null;
    }
    return seed;
  }

  /** Trains the chosen model with progress; resolves when it ends (or fails). */
  async start(): Promise<void> {
    const store = this.store;
    if (store.get("training") || store.get("graph") === null) return;
    const seed = this.seedValue(this.result);
    if (seed === null) return;
    const model = this.modelName;
    this.offer.hidden = true;
    this.setTraining(true);
    this.progressEvents = 0;
    const parts = model === "ilpgnn";
    this.lossChart.setSeries([
      { name: "loss", color: SERIES.loss, points: [] },
      ...(parts
        ? [
            { name: "L_cls", color: SERIES.cls, points: [] },
            { name: "L_dis positive", color: SERIES.pos, dash: [4, 3], points: [] },
            { name: "L_dis negative", color: SERIES.neg, dash: [2, 2], points: [] },
          ]
        : []),
    ]);
    this.aucChart.setSeries([{ name: "validation AUC", color: SERIES.valAUC, points: [] }]);
    this.aucChart.setMarker(null);
    this.showCharts(false);
    this.progress.value = 0;
    this.progressText.textContent = "Preparing the graph (diffusion, split)…";
    this.progressEta.hidden = true;
    replace(this.result);
    store.set("kept", null);
    this.showStopLabel(null);
    const t0 = performance.now();
    this.startedAt = t0;
    this.clock = new EpochClock();
    this.runStats = { epochEndsMs: [], peakMemoryBytes: 0 };
    store.metrics.trainRuns++;
    try {
      const res = await this.engine.train(this.config(), {
        model,
        seed,
        // A cancelled run keeps its best weights so far: nothing is lost.
        saveOnCancel: true,
        ...workersOption(store.get("workers")),
        signal: this.run.begin(),
        onProgress: (p) => this.onProgress(p),
      });
      store.metrics.lastTrainMs = performance.now() - t0;
      this.showResult(res);
      if (res.saved.saved) this.actions.modelKept();
      // A run cancelled while preparing trained nothing (no key).
      if (model === "ilpgnn" && res.key !== "") this.actions.setModel(res);
      if (res.testPending) void this.finishTest(res);
      else await this.actions.refreshCheckpoints();
    } catch (e) {
      this.progressEta.hidden = true;
      if (e instanceof EngineError && e.code === "fatal") {
        // The engine is gone (out of memory, say): nothing more runs on
        // this page, but the checkpoints stored in the browser stay.
        this.progressText.textContent = "Training stopped: the engine stopped.";
        replace(
          this.result,
          h("p", { class: "error", id: "train-error" }, `Training failed: ${errorText(e)}`),
          h("p", { class: "note" }, "Reload the page to start the engine again; the models stored in this browser are kept."),
        );
        return;
      }
      // A failed run (one that diverged, say) changes nothing: the graph
      // and the model trained before stay.
      this.progressText.textContent = "Training stopped; the graph and any earlier model are unchanged.";
      replace(this.result, h("p", { class: "error", id: "train-error" }, `Training failed: ${errorText(e)}`));
    } finally {
      this.run.end();
      this.store.set("kept", null);
      this.showStopLabel(null);
      this.setTraining(false);
    }
  }

  /**
   * Cancel's words: once a run has kept weights, pressing it ends the run
   * with them, which is what the button then says.
   */
  private showStopLabel(kept: number | null): void {
    this.cancelButton.textContent = kept === null ? "Cancel" : `Stop and keep this model (epoch ${kept})`;
  }

  private setTraining(on: boolean, doing = "Training…"): void {
    this.budget.disabled = on;
    this.cancelButton.disabled = !on;
    this.model.disabled = on;
    this.cores.disabled = on;
    // The graph picker follows (it subscribes to "training").
    this.store.set("training", on);
    this.showRunButtons();
    const g = this.store.get("graph");
    if (this.engine.error !== undefined) this.actions.engineStopped();
    else this.actions.setStatus(on ? doing : g ? `Showing ${g.desc.name}` : "");
  }

  /**
   * Searches the chosen model's hyperparameters within the budget (the
   * ones the user changed stay fixed), a line per trial; then applies the
   * chosen settings to the fields and trains with them. Resolves when the
   * training ends, or when the search is cancelled or fails.
   */
  async tune(): Promise<void> {
    const store = this.store;
    if (store.get("training") || store.get("graph") === null) return;
    const seed = this.seedValue(this.tuneResult);
    if (seed === null) return;
    const budget = parseBudget(this.budget.value);
    if ("error" in budget) {
      replace(this.tuneResult, h("p", { class: "error", id: "tune-error" }, `Cannot tune: ${budget.error}.`));
      return;
    }
    const model = this.modelName;
    this.offer.hidden = true;
    this.setTraining(true, "Tuning…");
    this.tuneEvents = 0;
    this.lastTune = null;
    this.showCharts(false);
    this.progress.value = 0;
    this.progressText.textContent = `Tuning ${model}: training the first candidate…`;
    this.progressEta.hidden = true;
    replace(this.result);
    const lines = h("ol", { class: "small", id: "tune-lines" });
    replace(this.tuneResult, h("h3", {}, `Tuning ${model}`), lines);
    let res: TuneResult;
    try {
      res = await this.engine.tune(budget.seconds, this.config(), {
        model,
        seed,
        signal: this.run.begin(),
        onProgress: (p) => this.onTrial(p, lines),
      });
    } catch (e) {
      const gone = e instanceof EngineError && e.code === "fatal";
      this.progressText.textContent = gone ? "Tuning stopped: the engine stopped." : "Tuning stopped; the hyperparameters, the graph and any earlier model are unchanged.";
      replace(
        this.tuneResult,
        h("p", { class: "error", id: "tune-error" }, `Tuning failed: ${errorText(e)}`),
        gone ? h("p", { class: "note" }, "Reload the page to start the engine again; the models stored in this browser are kept.") : null,
      );
      return;
    } finally {
      this.run.end();
      this.setTraining(false);
    }
    this.lastTune = res;
    this.showTune(res, seed);
    if (res.cancelled) {
      this.progressText.textContent = `Tuning cancelled after ${res.trials.length} of ${res.plan.trials} trials; the hyperparameters are unchanged.`;
      return;
    }
    this.applySettings(res.best);
    await this.start();
  }

  private onTrial(p: TuneProgress, lines: HTMLElement): void {
    this.progress.value = tuneShare(p);
    if (p.epoch) {
      this.progressText.textContent = this.run.say(epochLine(p));
      return;
    }
    this.tuneEvents++;
    const line = trialLine(p);
    this.progressText.textContent = this.run.say(line);
    lines.append(h("li", {}, line));
  }

  /** Shows a finished or cancelled search: what it did, its trials, and which seeds chose. */
  private showTune(r: TuneResult, seed: number): void {
    const head = h("tr", {}, ...TRIAL_COLUMNS.map((c) => h("th", { scope: "col" }, c)));
    const rows = trialRows(r).map((row) => h("tr", { class: row.chosen ? "chosen" : null }, ...row.cells.map((c) => h("td", {}, c))));
    replace(
      this.tuneResult,
      h("h3", {}, r.cancelled ? "Tuning cancelled" : "Tuned hyperparameters"),
      h("p", { class: "small", id: "tune-summary" }, tuneSummary(r)),
      h("table", { class: "trials", id: "tune-table" }, h("caption", { class: "muted small" }, "Trials in the order they ran (the chosen one in bold)"), h("thead", {}, head), h("tbody", {}, ...rows)),
      r.cancelled ? null : h("p", { class: "note", id: "tune-seeds" }, `${seedsNote(r.plan, seed)} The model below is trained with them.`),
    );
  }

  /** Puts settings into their fields, marked as changed where they differ from the defaults. */
  private applySettings(settings: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(settings)) {
      const input = this.fields.querySelector<HTMLInputElement>(`input[data-name="${CSS.escape(name)}"]`);
      if (input === null) continue;
      if (input.type === "checkbox") input.checked = value === "true";
      else input.value = value;
      input.dispatchEvent(new Event("change"));
    }
  }

  private onProgress(p: TrainProgress): void {
    if (p.prepare !== undefined) {
      this.showPreparing(p.prepare, p.elapsedMs);
      return;
    }
    this.progressEvents++;
    if (p.keptEpoch !== undefined && p.keptEpoch !== this.store.get("kept")) {
      this.store.set("kept", p.keptEpoch);
      this.showStopLabel(p.keptEpoch);
    }
    const stats = this.runStats;
    stats.setupMs ??= performance.now() - this.startedAt - p.elapsedMs;
    if (p.memoryBytes !== undefined) stats.peakMemoryBytes = Math.max(stats.peakMemoryBytes, p.memoryBytes);
    const inEpoch = withinEpoch(p);
    if (!inEpoch) stats.epochEndsMs.push(p.elapsedMs);
    // The bar counts epochs done of the most the run may take, moving
    // within an epoch by its batches (or shards) done.
    this.progress.value = progressShare(p);
    const est = this.clock.report(p);
    this.progressText.textContent = this.run.say(progressLine(p, { ilpgnn: this.modelName === "ilpgnn", estimate: est }));
    // Once Cancel is pressed the time left is moot; the charts still take the epoch.
    if (est && this.run.state !== "cancelling") {
      const memory = p.memoryBytes !== undefined ? ` Engine memory ${bytes(p.memoryBytes)}.` : "";
      this.progressEta.textContent = `Time left: ${describeEstimate(est, this.clock.window, this.clock.recent().length)}.${memory}`;
      this.progressEta.hidden = false;
    }
    if (inEpoch) return; // the charts take one point per epoch
    this.showCharts(true);
    this.lossChart.append("loss", p.epoch, p.loss);
    if (this.modelName === "ilpgnn") {
      this.lossChart.append("L_cls", p.epoch, p.cls);
      this.lossChart.append("L_dis positive", p.epoch, p.pos);
      this.lossChart.append("L_dis negative", p.epoch, p.neg);
    }
    this.aucChart.append("validation AUC", p.epoch, p.valAUC);
    this.aucChart.setMarker(p.bestEpoch, "kept");
  }

  /** Says how far the preparation before the first epoch has got. */
  private showPreparing(p: PrepareProgress, elapsedMs: number): void {
    const share = p.total > 0 ? p.done / p.total : 1;
    const counted = p.total > 1 ? ` ${Math.floor(100 * share)}% (${p.done.toLocaleString("en")} of ${p.total.toLocaleString("en")} columns)` : "";
    // The columns so far set the pace of the rest (each costs about the same on average).
    const left = p.total > 1 && p.done > 0 && p.done < p.total ? ` · about ${roughly((elapsedMs * (p.total - p.done)) / p.done)} left` : "";
    const then = p.graph === "whole" ? ", then the training graph" : "";
    this.progressText.textContent = this.run.say(`${preparingWhat(p)}: ${p.phase}${counted} · ${duration(elapsedMs)} elapsed${left}${then}`);
  }

  /**
   * A stopped run answered before its test evaluation, so that Train
   * came back at once: the engine measures it now, and the result (and
   * the stored checkpoint) show it when it is ready.
   */
  private async finishTest(r: TrainResult): Promise<void> {
    let ev;
    try {
      ev = await this.engine.evaluate();
    } catch (e) {
      this.result.querySelector("#test-pending")?.replaceChildren(`not measured: ${errorText(e)}`);
      return;
    }
    // A newer run or model since: its own result stands.
    if (this.store.get("training") || this.store.get("model")?.info.key !== r.key) return;
    const done: TrainResult = { ...r, testAUC: ev.testAUC, testHits: ev.testHits, testPending: false };
    const text = this.progressText.textContent;
    this.showResult(done);
    this.progressText.textContent = text;
    this.actions.modelMeasured(done);
    await this.actions.refreshCheckpoints();
  }

  private showResult(r: TrainResult): void {
    this.progress.value = 1;
    this.progressEta.hidden = true;
    this.progressText.textContent = r.cancelled ? stoppedText(r) : `Done: ${r.epochs} epochs in ${duration(r.trainSeconds * 1000)}.`;
    if (r.cancelled && r.key === "" && r.model === "ilpgnn") {
      replace(this.result, h("p", { class: "note", id: "train-nothing" }, "Nothing was trained: the run stopped while preparing the graph. The graph and any earlier model are unchanged."));
      return;
    }
    const rows: Array<[string, string | HTMLElement]> = [["test AUC", r.testPending ? h("span", { id: "test-pending" }, "measuring on the test pairs…") : percent(r.testAUC, 2)]];
    if (r.testHits && !r.testPending) rows.push(["test Hits@20 / @50 / @100", `${percent(r.testHits["20"])} / ${percent(r.testHits["50"])} / ${percent(r.testHits["100"])}`]);
    rows.push(["validation AUC", percent(r.valAUC, 2)]);
    if (r.p1 !== undefined && r.p2 !== undefined) rows.push(["explanation Precision@1 / @2", `${percent(r.p1)} / ${percent(r.p2)}`]);
    rows.push(["kept epoch", String(r.bestEpoch)], ["model · seed", `${r.model} · ${r.seed}`]);
    if (r.model === "ilpgnn") rows.push(["trained on", coresText(workersOf(r))]);
    if (r.selectedOn) rows.push(["weights kept on", r.selectedOn === "precision" ? "validation explanation precision" : "validation AUC"]);
    const saves = this.specs.get(r.model)?.saves ?? r.model === "ilpgnn";
    const saved = saves ? (r.saved.saved ? "saved in this browser" : (r.saved.message ?? "not saved")) : null;
    replace(
      this.result,
      h("h3", {}, saves ? "Trained ILP-GNN" : `Trained baseline: ${r.model.toUpperCase()}`),
      metricsList(rows),
      r.warning ? h("p", { class: "warning", id: "train-warning" }, `Warning: ${r.warning}.`) : null,
      r.selectedOn === "auc" && r.p1 === undefined ? aucSelectionNote() : null,
      saved ? h("p", { class: "note" }, `Checkpoint: ${saved}.`) : null,
      !saves
        ? h("p", { class: "note" }, PAIR_MODELS.has(r.model) && r.model !== "conpi"
          ? "Baselines do not replace the ILP-GNN model; SEAL and WalkPooling give no explanations to compare."
          : "Baselines do not replace the ILP-GNN model; GAT, GAE, VGAE and CONPI now appear under “compare explainers”.")
        : h("p", { class: "note" }, "Click a node, or two, to see the model's reasons."),
    );
  }

  /** Shows the current model (after a restore) in the result area. */
  showModel(info: ModelInfo): void {
    if (this.store.get("training")) return;
    const rows: Array<[string, string]> = [
      ["test AUC", percent(info.testAUC, 2)],
      ["validation AUC", percent(info.valAUC, 2)],
    ];
    if (info.p1 !== undefined && info.p2 !== undefined) rows.push(["explanation Precision@1 / @2", `${percent(info.p1)} / ${percent(info.p2)}`]);
    rows.push(["kept epoch", String(info.bestEpoch)], ["seed", String(info.seed)]);
    const when = createdTime(info.created);
    if (when !== undefined) rows.push(["trained", when]);
    rows.push(["run", runState(info.cancelledAtEpoch)]);
    const changed = this.changedSettings(info);
    if (changed !== null) rows.push(["settings changed from the defaults", changed === "" ? "none" : changed]);
    replace(
      this.result,
      h("h3", {}, "Current model: ILP-GNN"),
      metricsList(rows),
      h("p", { class: "note", id: "model-origin" }, `This is ${describeModel(info)}.`),
      // Without groundtruth, ILP-GNN can only have kept its weights on AUC.
      info.p1 === undefined ? aucSelectionNote() : null,
    );
  }

  /**
   * The settings of an ILP-GNN model that differ from the defaults it
   * started from (restore.ts changedSettings), or null while ILP-GNN's
   * defaults are not loaded. A model with Precision@1 kept its weights on
   * precision: the page trains that way wherever there is groundtruth.
   */
  private changedSettings(info: ModelInfo): string | null {
    if (this.modelName !== "ilpgnn" || this.defaults.size === 0) return null;
    const defaults = new Map([...this.defaults].map(([name, p]) => [name, p.value]));
    return settingsText(changedSettings(info.config, defaults, info.p1 !== undefined));
  }

  /** Offers a stored checkpoint of the loaded graph (see chooseRestore), so a reload needs no retraining. */
  offerRestore(meta: CheckpointMeta): void {
    const restore = h("button", { type: "button", class: "primary", id: "restore-last" }, "Restore it");
    const dismiss = h("button", { type: "button" }, "Not now");
    restore.addEventListener("click", () => void this.actions.restoreCheckpoint(meta.key));
    dismiss.addEventListener("click", () => {
      this.offer.hidden = true;
      this.showNoModel();
    });
    // The offer is the news: "No model yet" would contradict it.
    if (this.store.get("model") === null) replace(this.result);
    const stopped = cancelledAt(meta) === undefined ? "" : " Its training was cancelled part way; no completed run of this graph is stored.";
    replace(
      this.offer,
      h("p", {}, `A model trained on this graph is stored in this browser: ${describeMeta(meta)}, seed ${meta.seed}.${stopped}`),
      h("div", { class: "row" }, restore, dismiss),
    );
    this.offer.hidden = false;
  }

  hideOffer(): void {
    this.offer.hidden = true;
  }

  /** Shows the loss and AUC charts, or hides them while they have no data (an empty chart says nothing). */
  private showCharts(shown: boolean): void {
    this.lossCanvas.hidden = !shown;
    this.aucCanvas.hidden = !shown;
  }

  /** A new graph: clear the last run's display. */
  graphChanged(): void {
    this.offer.hidden = true;
    this.progress.value = 0;
    this.progressText.textContent = "No training run on this graph yet.";
    this.progressEta.hidden = true;
    this.lossChart.setSeries([]);
    this.aucChart.setSeries([]);
    this.aucChart.setMarker(null);
    this.showCharts(false);
    replace(this.tuneResult);
    replace(this.result);
    this.showNoModel();
  }

  /** Says in the result area that the graph has no model yet (nothing when it has one, or while a run's result is shown). */
  private showNoModel(): void {
    if (this.store.get("model") !== null || this.store.get("training")) return;
    const g = this.store.get("graph");
    let memory = "";
    if (g !== null) {
      const workers = this.store.get("workers") ?? this.store.get("engineInfo")?.defaultWorkers ?? 1;
      const epoch = epochBeforeTraining(g.desc.trainEpochSeconds, workers);
      memory = ` With the default settings, training this graph needs about ${bytes(g.desc.trainMemoryBytes)} of memory` +
        (epoch === "" ? "." : `, and once the graph is prepared ${epoch} (estimated from its size).`);
    }
    replace(
      this.result,
      h("p", { class: "muted", id: "no-model" }, `No model yet: press Train. From the end of the first epoch on, the best weights so far answer your questions while training goes on.${memory}`),
    );
  }
}

function valueOf(input: HTMLInputElement): string {
  return input.type === "checkbox" ? String(input.checked) : input.value.trim();
}

/** A definition list of metric rows. */
export function metricsList(rows: Array<[string, string | HTMLElement]>): HTMLElement {
  return h("dl", { class: "metrics" }, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

/**
 * What keeping the weights on validation AUC costs the explanations, on a
 * graph without groundtruth to select on (the command line's words).
 */
function aucSelectionNote(): HTMLElement {
  return h("p", { class: "note", id: "selection-note" },
    "Weights kept on validation AUC: this graph has no groundtruth explanations to choose by. " +
    "On the synthetic graphs that have them, weights kept this way explain within 1.7 points (Precision@1 and @2, averaged over three graphs of each kind; 3.4 on the worst graph) of weights kept on explanation precision.");
}
