// Insight plots over all test pairs: the distribution of the selected
// neighbours' attributions for linked and unlinked pairs (the paper's
// figure 6 plots the weights b, which are all near 1/K here),
// the reliability diagram of its probabilities, and on request the
// fidelity curve, ΔAUC when the top-M neighbours are removed (figure 3)
// beside M random neighbours removed, or how each test link ranks among
// hard negatives of its own (HeaRT), beside two heuristics.

import type { EngineClient } from "../../client";
import { Histogram, LineChart, ReliabilityChart, calibrationText } from "../charts/index";
import { byId, h, replace } from "../dom";
import { errorText } from "../errors";
import { duration, fixed, percent } from "../format";
import { SERIES } from "../palette";
import { RANKING_COLUMNS, rankingRows, rankingText } from "../ranking";
import type { AppStore } from "../store";

/** The engine requests the insight plots make. */
export type InsightEngine = Pick<EngineClient, "insight" | "fidelity" | "ranking">;

export class InsightPanel {
  private readonly store: AppStore;
  private readonly engine: InsightEngine;
  private readonly body = byId("insight-body", HTMLElement);
  private readonly progress = byId("insight-progress", HTMLProgressElement);
  private readonly weightsCanvas = byId("weights-chart", HTMLCanvasElement);
  private readonly scoresCanvas = byId("scores-chart", HTMLCanvasElement);
  private readonly fidelityCanvas = byId("fidelity-chart", HTMLCanvasElement);
  private readonly reliabilityCanvas = byId("reliability-chart", HTMLCanvasElement);
  private readonly weights: Histogram;
  private readonly scores: Histogram;
  private readonly fidelity: LineChart;
  private readonly reliability: ReliabilityChart;
  private readonly weightsButton = byId("insight-weights", HTMLButtonElement);
  private readonly fidelityButton = byId("insight-fidelity", HTMLButtonElement);
  private readonly rankingButton = byId("insight-ranking", HTMLButtonElement);

  constructor(store: AppStore, engine: InsightEngine) {
    this.store = store;
    this.engine = engine;
    this.weights = new Histogram(this.weightsCanvas, { title: "Attributions of the selected neighbours (test pairs)", xLabel: "attribution (term in the logit)", bins: 24, density: true });
    this.scores = new Histogram(this.scoresCanvas, { title: "Scores s of the selected neighbours (test pairs)", xLabel: "score s", bins: 24, density: true });
    this.reliability = new ReliabilityChart(this.reliabilityCanvas, { title: "Reliability of p (test pairs)", color: SERIES.linked, diagonalColor: SERIES.unlinked });
    this.fidelity = new LineChart(this.fidelityCanvas, { title: "Fidelity: ΔAUC, top-M neighbours removed", xLabel: "M", yLabel: "ΔAUC", markers: true, legend: true });
    this.weightsButton.addEventListener("click", () => void this.showWeights());
    this.fidelityButton.addEventListener("click", () => void this.showFidelity());
    this.rankingButton.addEventListener("click", () => void this.showRanking());
  }

  reset(): void {
    replace(this.body, this.store.get("model") ? null : h("p", { class: "muted small" }, "Needs a trained model."));
    for (const c of [this.weightsCanvas, this.scoresCanvas, this.reliabilityCanvas, this.fidelityCanvas]) c.hidden = true;
    this.progress.hidden = true;
  }

  private ready(): boolean {
    if (this.store.get("model") === null || this.store.get("training")) {
      replace(this.body, h("p", { class: "note" }, this.store.get("training") ? "Training is running; try again when it ends." : "Train a model (or restore a checkpoint) first."));
      return false;
    }
    return true;
  }

  async showWeights(): Promise<void> {
    if (!this.ready()) return;
    this.weightsButton.disabled = true;
    replace(this.body, h("p", { class: "muted" }, "Explaining every test pair…"));
    try {
      const r = await this.engine.insight();
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      this.weightsCanvas.hidden = false;
      this.scoresCanvas.hidden = false;
      this.reliabilityCanvas.hidden = false;
      this.weights.resize();
      this.scores.resize();
      this.reliability.resize();
      this.reliability.setData(r.calibration.reliability);
      this.weights.setData([
        { name: "linked", color: SERIES.linked, values: r.linked.attribution },
        { name: "unlinked", color: SERIES.unlinked, values: r.unlinked.attribution },
      ]);
      this.scores.setData([
        { name: "linked", color: SERIES.linked, values: r.linked.score },
        { name: "unlinked", color: SERIES.unlinked, values: r.unlinked.score },
      ]);
      replace(
        this.body,
        h(
          "p",
          { class: "small", id: "insight-summary" },
          `${r.pairs.linked} linked and ${r.pairs.unlinked} unlinked test pairs, K = ${r.k} neighbours per side. ` +
            `Mean attribution of the selected neighbours: linked ${fixed(mean(r.linked.attribution), 3)}, unlinked ${fixed(mean(r.unlinked.attribution), 3)}; ` +
            `mean score: linked ${fixed(mean(r.linked.score), 3)}, unlinked ${fixed(mean(r.unlinked.score), 3)}; ` +
            `mean p: linked ${percent(mean(r.linked.prob))}, unlinked ${percent(mean(r.unlinked.prob))}.`,
        ),
        h("p", { class: "small", id: "calibration-summary" }, calibrationText(
            r.calibration.ece,
            r.calibration.ece_uncalibrated,
            r.pairs.linked + r.pairs.unlinked,
            r.calibration.calibrated ? undefined : (r.calibration.not_calibrated_because ?? "no calibration was fitted"),
          )),
      );
    } catch (e) {
      replace(this.body, h("p", { class: "error" }, errorText(e)));
    } finally {
      this.weightsButton.disabled = false;
    }
  }

  /** Draws ΔAUC against M for the top-M neighbours and, to compare, for M random neighbours removed. */
  async showFidelity(): Promise<void> {
    if (!this.ready()) return;
    this.fidelityButton.disabled = true;
    this.progress.hidden = false;
    this.progress.value = 0;
    replace(this.body, h("p", { class: "muted" }, "Removing neighbours and predicting again, M = 1 to 4…"));
    try {
      const r = await this.engine.fidelity(4, { onProgress: (p) => (this.progress.value = p.step / p.steps) });
      this.fidelityCanvas.hidden = false;
      this.fidelity.resize();
      this.fidelity.setSeries([
        { name: "ILP-GNN", color: SERIES.valAUC, points: r.points.map((p) => [p.m, p.deltaAUC] as [number, number]) },
        { name: "random neighbours removed", color: SERIES.bestValAUC, points: r.points.map((p) => [p.m, p.randomDeltaAUC] as [number, number]) },
      ]);
      replace(
        this.body,
        h(
          "p",
          { class: "small", id: "fidelity-summary" },
          `Test AUC ${percent(r.auc, 2)} with every neighbour; removing each test pair's top-M neighbours lowers it by ` +
            r.points.map((p) => `${fixed(100 * p.deltaAUC, 2)} points at M = ${p.m}`).join(", ") +
            "; removing M random neighbours instead (mean of 10 draws) lowers it by " +
            r.points.map((p) => fixed(100 * p.randomDeltaAUC, 2)).join(", ") +
            ` points. Drops larger than random mean the explanations name what the prediction rests on (${duration(r.ms)}).`,
        ),
      );
    } catch (e) {
      replace(this.body, h("p", { class: "error" }, errorText(e)));
    } finally {
      this.progress.hidden = true;
      this.fidelityButton.disabled = false;
    }
  }

  /** Ranks each test link among hard negatives of its own: this model beside common neighbours and Adamic-Adar. */
  async showRanking(): Promise<void> {
    if (!this.ready()) return;
    this.rankingButton.disabled = true;
    this.progress.hidden = false;
    this.progress.value = 0;
    replace(this.body, h("p", { class: "muted" }, "Drawing hard negatives for every test link and ranking the links among them…"));
    try {
      const r = await this.engine.ranking({ onProgress: (p) => (this.progress.value = p.step / p.steps) });
      const head = h("tr", {}, h("th", { scope: "col" }, "ranked by"), ...RANKING_COLUMNS.map((c) => h("th", { scope: "col", class: "num" }, c.title)));
      const rows = rankingRows(r).map((row) =>
        h("tr", { "data-row": row.key }, h("th", { scope: "row" }, row.name), ...row.cells.map((c) => h("td", { class: "num" }, c))),
      );
      replace(
        this.body,
        h(
          "table",
          { class: "walk-table", id: "ranking-table" },
          h("caption", {}, "Test links ranked among hard negatives (HeaRT)"),
          h("thead", {}, head),
          h("tbody", {}, ...rows),
        ),
        h("p", { class: "small", id: "ranking-summary" }, rankingText(r)),
      );
    } catch (e) {
      replace(this.body, h("p", { class: "error" }, errorText(e)));
    } finally {
      this.progress.hidden = true;
      this.rankingButton.disabled = false;
    }
  }
}
