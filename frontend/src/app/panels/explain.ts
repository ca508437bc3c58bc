// The explanation view, the heart of the app. One node: its neighbours and
// the links the model would suggest for it. A pair: p_ij, the reading, the
// two counterfactuals, and each side's neighbours with their structure and
// feature scores as bars, weights, common-neighbour and groundtruth marks.
// "Compare explainers" sets GAT attention and GNNExplainer beside it.

import type { EngineClient } from "../../client";
import type { BaselineExplanation, Comparison, Explanation, Neighbor, Side, Suggestion } from "../../protocol";
import { byId, download, h, replace } from "../dom";
import { graphExportBlock } from "../graphexport";
import { errorText } from "../errors";
import { fixed, probability, signed } from "../format";
import { rove } from "../roving";
import type { AppStore, Selection } from "../store";
import { hasAttributions } from "../summary";
import { rankGroups, tiedCount } from "../ties";
import { featuresMeaning, idInProse, readingWords, removalWords, type Words } from "../wording";
import type { Highlight } from "../graph/types";
import { pairHighlight } from "../summary";
import { clampStep, STEP_KEYS } from "../walk";
import { Walkthrough } from "./walkthrough";

/** The engine requests the explanation view makes. */
export type ExplainEngine = Pick<EngineClient, "suggest" | "explain" | "compare" | "exportCard" | "exportGraph">;

/** The embeddable card's files, which the built site holds under card/ (wasm/card/README.md). */
const CARD_FILES = ["ilpgnn-card.js", "ilpgnn-card.css", "ilpgnn-card.wasm", "wasm_exec.js"];

/** What the explanation view asks of the rest of the app. */
export interface ExplainActions {
  /** Changes the selection (canvas, this view and the URL follow). */
  select(sel: Selection): Promise<void>;
  /** Shows the selection again (newer weights came). */
  refresh(): void;
  /** Lights the canvas (the walk-through's steps). */
  highlight(h: Highlight): void;
  /** The walk-through's step changed or it closed: the URL follows. */
  stepChanged(): void;
}

/** How node buttons name a node and select it. */
export interface NodeLinks {
  id(v: number): string;
  selectNode(v: number): void;
}

export class ExplainPanel {
  private readonly store: AppStore;
  private readonly engine: ExplainEngine;
  private readonly actions: ExplainActions;
  private readonly links: NodeLinks;
  private readonly body = byId("explain-body", HTMLElement);
  private readonly pairI = byId("pair-i", HTMLInputElement);
  private readonly pairJ = byId("pair-j", HTMLInputElement);
  private readonly compareToggle = byId("compare-toggle", HTMLInputElement);
  private current: Explanation | null = null;
  private compareBox: HTMLElement | null = null;
  /** The open walk-through of the current explanation, if any. */
  private walk: Walkthrough | null = null;
  /** A step a deep link asked for, shown once its pair is explained. */
  private pendingStep: { i: number; j: number; step: number } | null = null;
  /**
   * Counts the views the panel has been asked for: an answer that arrives
   * after a newer view was asked for (a slow suggestion list overtaken by a
   * search) is dropped instead of replacing it.
   */
  private views = 0;
  /** While a run trains: the epoch whose weights answered what the panel shows (null: the current model, or nothing). */
  private answeredBy: number | null = null;

  constructor(store: AppStore, engine: ExplainEngine, actions: ExplainActions) {
    this.store = store;
    this.engine = engine;
    this.actions = actions;
    store.subscribe("kept", (epoch) => this.offerRefresh(epoch));
    this.links = {
      id: (v) => store.get("graph")!.id(v),
      selectNode: (v) => this.choose({ kind: "node", node: v }),
    };
    byId("pair-form", HTMLFormElement).addEventListener("submit", (ev) => {
      ev.preventDefault();
      const g = store.get("graph");
      if (g === null) return;
      const i = g.resolve(this.pairI.value);
      const j = g.resolve(this.pairJ.value);
      const bad = [i === null ? `"${this.pairI.value}"` : null, j === null ? `"${this.pairJ.value}"` : null].filter(Boolean);
      if (bad.length > 0) {
        replace(this.body, h("p", { class: "error" }, `No node with id ${bad.join(" or ")} in ${g.desc.name}.`));
        return;
      }
      if (i === j) {
        replace(this.body, h("p", { class: "error" }, "Pick two different nodes."));
        return;
      }
      void actions.select({ kind: "pair", i: i!, j: j! });
    });
    this.compareToggle.addEventListener("change", () => void this.updateCompare());
  }

  /**
   * Selects what a button in this panel names and keeps the keyboard here:
   * the button goes when the panel is redrawn, so focus waits on the
   * panel's body and then moves to the new view's heading, instead of
   * falling back to the top of the page.
   */
  private choose(sel: Selection): void {
    const hadFocus = this.body.contains(document.activeElement);
    if (hadFocus) this.body.focus({ preventScroll: true });
    void this.actions.select(sel).then(() => {
      if (this.store.get("selection") !== sel) return;
      const active = document.activeElement;
      if (hadFocus && (active === null || active === document.body || active === this.body)) this.focusHeading();
    });
  }

  /** Moves focus to the current view's heading (the explanation's or the node's), or to the panel's body. */
  focusHeading(): void {
    const head = this.body.querySelector<HTMLElement>("h3[tabindex]");
    (head ?? this.body).focus();
  }

  /** Opens the panel and scrolls it into view (inside the side column). */
  reveal(): void {
    const panel = byId("explain-panel", HTMLDetailsElement);
    panel.open = true;
    panel.scrollIntoView({ block: "nearest" });
  }

  /** Back to the hint (no selection, or with `newGraph` a new graph: the typed ids go too). */
  reset(newGraph = false): void {
    this.views++;
    this.current = null;
    this.pendingStep = null;
    this.walk = null;
    if (newGraph) {
      this.pairI.value = "";
      this.pairJ.value = "";
      byId("search", HTMLInputElement).value = "";
    }
    this.compareBox = null;
    replace(
      this.body,
      h(
        "p",
        { class: "muted" },
        "Click a node in the graph to see its neighbours and the links the model would suggest; click a second node (or a suggestion) to see why the model scores that pair as it does.",
      ),
    );
  }

  /** The nodes a search found, as buttons that select them. */
  showMatches(query: string, nodes: number[]): void {
    this.views++;
    this.current = null;
    this.pendingStep = null;
    this.walk = null;
    if (nodes.length === 0) {
      replace(this.body, h("p", { class: "note", id: "search-result" }, `No node matches “${query}” (ids and class names are searched).`));
      return;
    }
    replace(
      this.body,
      h("p", { class: "small", id: "search-result" }, `${nodes.length === 200 ? "The first 200" : nodes.length} nodes match “${query}”, ringed in the graph: `, ...joinNodes(this.links, nodes.slice(0, 60)), nodes.length > 60 ? ` and ${nodes.length - 60} more` : ""),
    );
  }

  private noModelNote(): HTMLElement {
    return h(
      "p",
      { class: "note" },
      this.store.get("training")
        ? "Training is running; the best weights so far answer once its first epoch ends."
        : "Train a model (or restore a checkpoint) to see suggestions and explanations.",
    );
  }

  /**
   * A linked step waits for a model: the note says which step of which
   * pair the link opens, and that it opens here once a model answers, so
   * that the link's step=N is not dropped without a word.
   */
  private waitingNote(i: string, j: string, step: number): HTMLElement {
    const what = `step ${step} of ${STEP_KEYS.length} of how the model decided ${idInProse(i)} – ${idInProse(j)}`;
    return h(
      "p",
      { class: "note", id: "walk-waiting" },
      this.store.get("training")
        ? `Training is running: this link's ${what} opens here once its first epoch ends.`
        : `Train a model (or restore a checkpoint) to see ${what}: this link opens it here once a model exists.`,
    );
  }

  /** Whether explanations can be asked for now: of the current model, or, while a run trains, of its best weights so far. */
  private canAnswer(): boolean {
    return this.store.get("training") ? this.store.get("kept") !== null : this.store.get("model") !== null;
  }

  /**
   * Says that epoch's weights, the best of a run still training, answered
   * what follows; a refresh is offered when better ones come.
   */
  private answeredNote(epoch: number): HTMLElement {
    this.answeredBy = epoch;
    return h("p", { class: "note", id: "answered-by" }, `Answered by epoch ${epoch}'s weights, the best so far; training goes on.`);
  }

  /** Newer kept weights: offers to show their answer instead, where the panel shows an older epoch's. */
  private offerRefresh(epoch: number | null): void {
    const note = this.body.querySelector<HTMLElement>("#answered-by");
    if (epoch === null || this.answeredBy === null || note === null || epoch <= this.answeredBy) return;
    const button = h("button", { type: "button", id: "refresh-weights" }, `Show epoch ${epoch}'s answer`);
    button.addEventListener("click", () => this.actions.refresh());
    replace(note, `Answered by epoch ${this.answeredBy}'s weights; epoch ${epoch}'s are better now. `, button);
  }

  /** One node selected: its neighbours and, with a model, its suggested links. Returns the suggestions. */
  async showNode(node: number): Promise<Suggestion[] | null> {
    const g = this.store.get("graph")!;
    const view = ++this.views;
    this.current = null;
    this.walk = null;
    this.pendingStep = null;
    this.pairI.value = g.id(node);
    this.pairJ.value = "";
    const nbrs = g.neighbors(node);
    const cls = g.className(node);
    const head = h(
      "div",
      {},
      h("h3", { id: "node-heading", tabindex: -1 }, `Node ${g.id(node)}`),
      h("p", { class: "small" }, `${nbrs.length} neighbour${nbrs.length === 1 ? "" : "s"}${cls ? ` · ${cls}` : ""}: `, ...joinNodes(this.links, nbrs.slice(0, 30)), nbrs.length > 30 ? ` and ${nbrs.length - 30} more` : ""),
    );
    this.answeredBy = null;
    if (!this.canAnswer()) {
      replace(this.body, head, this.noModelNote());
      return null;
    }
    const kept = this.store.get("training") ? this.store.get("kept") : null;
    replace(this.body, head, h("p", { class: "muted" }, "Finding the most probable new links…"));
    let list: Suggestion[];
    try {
      list = await this.engine.suggest(node, 10);
    } catch (e) {
      if (view === this.views) replace(this.body, head, h("p", { class: "error" }, errorText(e)));
      return null;
    }
    if (view !== this.views) return null;
    const buttons = new Map<Suggestion, HTMLButtonElement>();
    for (const s of list) {
      const b = h("button", { type: "button", "data-node": s.node }, `${s.id} · ${probability(s.prob)}`);
      b.addEventListener("click", () => this.choose({ kind: "pair", i: node, j: s.node }));
      buttons.set(s, b);
    }
    rove([...buttons.values()]);
    // Suggestions the model cannot tell apart share one place (ties.ts).
    const items = rankGroups(list, tiedCount(list[0]?.tie_note, list.length)).map((g) =>
      g.items.length === 1
        ? h("li", { value: g.rank }, buttons.get(g.items[0]!)!)
        : h("li", { value: g.rank, class: "tied" }, h("span", { class: "small" }, "tied: "), ...g.items.flatMap((s, k) => [k > 0 ? " " : null, buttons.get(s)!])),
    );
    replace(
      this.body,
      head,
      kept !== null ? this.answeredNote(kept) : null,
      h("h4", {}, "Suggested new links"),
      list.length > 0 ? h("ol", { class: "suggestions", id: "suggestions" }, ...items) : h("p", { class: "muted" }, "No candidates."),
      list[0]?.tie_note ? h("p", { class: "note", id: "suggestions-tied" }, `Note: ${list[0].tie_note}; they share one place.`) : null,
      h("p", { class: "note" }, "Click a suggestion (or choose one with ↑ ↓ and Enter), or a second node in the graph, to see why."),
    );
    return list;
  }

  /** A pair selected: the full explanation. */
  async showPair(i: number, j: number): Promise<Explanation | null> {
    const g = this.store.get("graph")!;
    this.pairI.value = g.id(i);
    this.pairJ.value = g.id(j);
    const view = ++this.views;
    // A redraw of the same pair (a model came) keeps the walk-through's step.
    const was = this.current;
    const keepStep = this.walk !== null && was !== null && was.i.node === i && was.j.node === j ? this.walk.step : 0;
    this.current = null;
    this.walk = null;
    this.answeredBy = null;
    // A step asked for another pair is not this one's.
    if (this.pendingStep !== null && (this.pendingStep.i !== i || this.pendingStep.j !== j)) this.pendingStep = null;
    if (!this.canAnswer()) {
      const linked = g.linked(i, j);
      const pending = this.pendingStep;
      replace(
        this.body,
        h("h3", {}, `${g.id(i)} and ${g.id(j)}`),
        h("p", {}, linked ? "They are linked." : "They are not linked."),
        pending !== null ? this.waitingNote(g.id(i), g.id(j), pending.step) : this.noModelNote(),
      );
      return null;
    }
    replace(this.body, h("p", { class: "muted" }, `Explaining ${g.id(i)} – ${g.id(j)}…`));
    let ex: Explanation;
    try {
      ex = await this.engine.explain(i, j);
    } catch (e) {
      if (view === this.views) replace(this.body, h("p", { class: "error" }, errorText(e)));
      return null;
    }
    if (view !== this.views) return null;
    this.current = ex;
    this.compareBox = h("div", { class: "compare-block", id: "compare" });
    const parts = renderExplanation(this.links, ex);
    parts.splice(parts.length - 1, 0, this.walkBlock(ex));
    if (ex.weights !== undefined) parts.unshift(this.answeredNote(ex.weights.epoch));
    replace(this.body, ...parts, this.exportBlock(ex), renderDefinitions(ex, this.store.get("model")?.info.calibrated ?? true), this.compareBox);
    const pending = this.pendingStep;
    if (pending !== null && pending.i === i && pending.j === j) {
      this.pendingStep = null;
      this.openWalk(pending.step);
    } else if (keepStep > 0) {
      this.openWalk(keepStep);
    }
    void this.updateCompare();
    return ex;
  }

  /** The walk-through's place: its button, then the steps once opened. */
  private walkBlock(ex: Explanation): HTMLElement {
    const open = h("button", { type: "button", id: "walk-open", "aria-expanded": "false" }, "How the model decided");
    open.title = "The prediction step by step: structure, features, scores, selection, aggregation, p, and what if";
    open.addEventListener("click", () => {
      if (this.walk !== null) this.walk.leave();
      else this.openWalk(1);
    });
    return h("div", { class: "walk-block", id: "walk-block", "data-pair": `${ex.i.node},${ex.j.node}` }, open);
  }

  /** Opens the walk-through of the current explanation at 1-based step n. */
  openWalk(n: number): void {
    const ex = this.current;
    const block = this.body.querySelector<HTMLElement>("#walk-block");
    const open = this.body.querySelector<HTMLButtonElement>("#walk-open");
    if (ex === null || block === null || open === null) return;
    if (this.walk === null) {
      const walk = new Walkthrough(ex, {
        highlight: (hl) => this.actions.highlight(hl ?? pairHighlight(ex)),
        stepChanged: () => this.actions.stepChanged(),
        selectNode: (v) => this.choose({ kind: "node", node: v }),
      });
      walk.whenClosed(() => {
        if (this.walk === walk) this.walk = null;
        open.setAttribute("aria-expanded", "false");
        open.focus();
      });
      this.walk = walk;
      block.append(walk.element);
      open.setAttribute("aria-expanded", "true");
    }
    this.walk.go(n);
    this.walk.element.scrollIntoView({ block: "nearest" });
  }

  /** The walk-through's step (1-based), or null when it is closed. */
  walkStep(): number | null {
    const sel = this.store.get("selection");
    const ex = this.current;
    // A step that waits for a model stays in the URL: the link still asks for it.
    const pending = this.pendingStep;
    if (this.walk === null && pending !== null && sel.kind === "pair" && sel.i === pending.i && sel.j === pending.j) return pending.step;
    if (this.walk === null || this.walk.step === 0 || ex === null || sel.kind !== "pair" || sel.i !== ex.i.node || sel.j !== ex.j.node) return null;
    return this.walk.step;
  }

  /** Asks for step n of the pair (i, j)'s walk-through, now if it is explained, else when it is. */
  requestStep(i: number, j: number, n: number | null): void {
    const step = clampStep(n);
    if (step === null) return;
    const ex = this.current;
    if (ex !== null && ex.i.node === i && ex.j.node === j) this.openWalk(step);
    else this.pendingStep = { i, j, step };
  }

  /** What the canvas shows for ex: the walk-through's step when it is open, else the explanation. */
  highlightFor(ex: Explanation): Highlight {
    return this.walk !== null && this.current === ex ? this.walk.highlight() : pairHighlight(ex);
  }

  /**
   * "Export for a web page": the folder `ilpgnn export` writes, as a zip,
   * with a card for this pair. The card's files come from this site's own
   * card/ folder; the zip is made in the engine and saved from a local
   * blob URL.
   */
  private exportBlock(ex: Explanation): HTMLElement {
    const status = h("span", { class: "muted", role: "status" });
    const button = h("button", { type: "button", id: "export-card" }, "Export for a web page");
    button.title = "A zip of a folder for any static host: this pair's explanation as a card you can put in your own pages";
    button.addEventListener("click", async () => {
      button.disabled = true;
      status.textContent = " Exporting…";
      try {
        const files: Record<string, Uint8Array> = {};
        await Promise.all(CARD_FILES.map(async (name) => {
          const r = await fetch(`card/${name}`);
          if (!r.ok) throw new Error(`this site has no card/${name} (HTTP ${r.status})`);
          files[name] = new Uint8Array(await r.arrayBuffer());
        }));
        const out = await this.engine.exportCard([{ i: ex.i.node, j: ex.j.node }], files);
        download(out.filename, out.bytes, "application/zip");
        status.textContent = ` Saved ${out.filename}: unzip it on any static host; its index.html shows the embed.`;
      } catch (e) {
        status.textContent = ` Export failed: ${errorText(e)}`;
      } finally {
        button.disabled = false;
      }
    });
    return h("div", { class: "exports" }, h("p", { class: "export-card" }, button, status), graphExportBlock(this.engine));
  }

  private async updateCompare(): Promise<void> {
    const ex = this.current;
    const box = this.compareBox;
    if (ex === null || box === null) return;
    if (!this.compareToggle.checked) {
      replace(box);
      return;
    }
    replace(box, h("p", { class: "muted" }, "Asking the baselines…"));
    let c: Comparison;
    try {
      c = await this.engine.compare(ex.i.node, ex.j.node, 5);
    } catch (e) {
      replace(box, h("p", { class: "error" }, errorText(e)));
      return;
    }
    if (this.current !== ex) return;
    replace(box, ...renderComparison(ex, c));
  }
}

/** Node ids as small buttons that select the node: one Tab stop, arrows inside (roving.ts). */
function joinNodes(links: NodeLinks, nodes: number[]): Node[] {
  const out: Node[] = [];
  // A listed id with a comma is quoted, so that the list's commas stay the separators.
  const buttons = rove(nodes.map((v) => nodeButton(links, v, idInProse(links.id(v)))));
  buttons.forEach((b, k) => {
    if (k > 0) out.push(document.createTextNode(", "));
    out.push(b);
  });
  return out;
}

function nodeButton(links: NodeLinks, v: number, label?: string): HTMLButtonElement {
  const b = h("button", { type: "button", class: "node link", "data-node": v }, label ?? links.id(v));
  b.addEventListener("click", () => links.selectNode(v));
  return b;
}

/** A structure score in [0, 1] as a bar filled from the left. */
function bar(kind: string, v: number, label: string): HTMLElement {
  const fill = h("span");
  fill.style.width = `${Math.max(0, Math.min(1, v)) * 100}%`;
  return h("span", { class: `bar ${kind}`, role: "img", "aria-label": `${label} ${fixed(v, 2)}`, title: `${label} ${fixed(v, 3)}` }, fill);
}

/**
 * A feature score s_NO = σ(h_j · h_c) as a bar that grows from its middle:
 * 0.5 is no signal (an empty bar), right of it alike, left of it unlike;
 * its label says which.
 */
function featuresBar(v: number): HTMLElement {
  const x = Math.max(0, Math.min(1, Number.isFinite(v) ? v : 0.5));
  const fill = h("span");
  fill.style.left = `${Math.min(x, 0.5) * 100}%`;
  fill.style.width = `${Math.abs(x - 0.5) * 100}%`;
  const meaning = featuresMeaning(v);
  return h("span", { class: meaning === "unlike" ? "bar features against" : "bar features", role: "img", "aria-label": `features ${fixed(v, 2)}, ${meaning}`, title: `features ${fixed(v, 3)}: ${meaning}` }, h("span", { class: "mid" }), fill);
}

/** A sentence of words and node ids, each id isolated in a <bdi> so that its own text direction stays inside it. */
function sentence(words: Words): Array<string | HTMLElement> {
  return words.map((w) => (typeof w === "string" ? w : h("bdi", {}, idInProse(w.id))));
}

/** The explanation's elements: probability, reading, counterfactuals, both sides. */
export function renderExplanation(links: NodeLinks, ex: Explanation): Array<HTMLElement | null> {
  const truth = ex.groundtruth;
  const verdict = ex.prob >= 0.5 ? "predicts a link" : "predicts no link";
  const linkNote = ex.linked ? (ex.masked ? "They are linked; the link itself was hidden from the model, as in training." : "They are linked.") : "They are not linked in the graph.";
  return [
    h("h3", { id: "explain-heading", tabindex: -1 }, `Why ${ex.i.id} – ${ex.j.id}?`),
    h("p", { class: "prob", id: "pair-prob" }, probability(ex.prob), " ", h("small", {}, `p_ij: the model ${verdict}. ${linkNote}`)),
    h("p", { class: "reading", id: "reading" }, ...sentence(readingWords(ex))),
    h(
      "ul",
      { class: "counterfactuals" },
      h("li", { id: "explain-removal" }, ...sentence(removalWords(ex))),
      h("li", {}, `With random neighbours instead of the selected ones: ${probability(ex.prob_random)}`),
    ),
    truth ? h("p", { class: "note" }, `Groundtruth (${truth.role} link of the synthetic graph): ${truth.i.length + truth.j.length} neighbours explain it, marked “truth”.`) : null,
    h("div", { class: "sides" }, renderSide(links, ex, ex.i, "i", truth?.i ?? []), renderSide(links, ex, ex.j, "j", truth?.j ?? [])),
  ];
}

function renderSide(links: NodeLinks, ex: Explanation, s: Side, which: "i" | "j", truth: number[]): HTMLElement {
  const truthSet = new Set(truth);
  const attr = hasAttributions(ex);
  const selected = s.neighbors.filter((n) => n.selected).sort((a, b) => a.rank - b.rank);
  const others = s.neighbors.filter((n) => !n.selected).sort((a, b) => b.score - a.score).slice(0, 50);
  // Each list (selected, not selected) is one Tab stop; ↑ ↓ step through it.
  const buttons = new Map<number, HTMLButtonElement>();
  for (const list of [selected, others]) rove(list.map((n) => nodeButton(links, n.node, n.id))).forEach((b, k) => buttons.set(list[k]!.node, b));
  // b and the attribution are defined for selected neighbours only.
  const row = (n: Neighbor) =>
    h(
      "tr",
      { class: n.selected ? "selected" : "unselected" },
      h("td", {}, buttons.get(n.node)!, n.common ? h("span", { class: "tag common", title: "common neighbour of i and j" }, "common") : null, truthSet.has(n.node) ? h("span", { class: "tag truth", title: "groundtruth explanation" }, "truth") : null),
      h("td", {}, bar("structure", n.structure, "structure")),
      h("td", {}, featuresBar(n.features)),
      h("td", { class: "num" }, n.selected ? fixed(n.weight, 2) : "–"),
      attr ? h("td", { class: "num" }, n.selected ? signed(n.attribution, 2) : "–") : null,
    );
  const head = h(
    "tr",
    {},
    h("th", {}, "neighbour"),
    h("th", {}, "structure"),
    h("th", { title: "0.5: no signal; right of the middle alike, left of it unlike" }, "features"),
    h("th", { class: "num", title: "the weight the model gives the neighbour when it pools this side's selected neighbours; they add up to 1" }, "b"),
    attr ? h("th", { class: "num", title: "the neighbour's term in the pair's score (the logit that becomes p): + raises p, − lowers it" }, "attribution") : null,
  );
  const other = s.neighbors.length - selected.length;
  return h(
    "div",
    { class: `side-block ${which}` },
    h("h3", {}, `${which} = ${s.id}: ${selected.length} selected of ${s.neighbors.length} neighbour${s.neighbors.length === 1 ? "" : "s"}`),
    h("table", { class: "neighbours", "aria-label": `neighbours of ${s.id}` }, h("thead", {}, head), h("tbody", {}, ...selected.map(row))),
    other > 0
      ? h("details", {}, h("summary", { class: "small" }, `${other} not selected`), h("table", { class: "neighbours" }, h("tbody", {}, ...others.map(row))))
      : null,
  );
}

/**
 * What the explanation's words and numbers mean, one line each, for a
 * reader who has not read the paper; calibrated says whether p was
 * calibrated. Each selected neighbour shows its weight b and, when the
 * engine gives them, its attribution.
 */
export function renderDefinitions(ex: Explanation, calibrated = true): HTMLElement {
  const attr = hasAttributions(ex);
  const row = (term: string, text: string): HTMLElement[] => [h("dt", {}, term), h("dd", {}, text)];
  return h(
    "dl",
    { class: "defs", id: "explain-defs", "aria-label": "What the numbers mean" },
    ...row(
      "p",
      calibrated
        ? "the model's probability that the two nodes are linked, calibrated on held-out pairs: of the pairs it gives 80%, about 80% are linked."
        : "the model's own probability that the two nodes are linked, not calibrated (too few held-out pairs, or calibrating did not make it truer: the insight panel says which).",
    ),
    ...row("structure", "how close the neighbour sits to the other node in the graph (walks from one often reach the other), 0 to 1."),
    ...row("features", "whether the model finds the neighbour and the other node alike, from their data (features such as a paper's words): 0.5 is no signal either way, above it alike (up to 1), below it unlike (down to 0)."),
    ...row("b", "the weight the model gives a selected neighbour when it pools them, shown in the b column; a side's weights add up to 1."),
    ...row(
      "attribution",
      attr
        ? "the neighbour's term in the pair's score, the logit that becomes p: + raises p, − lowers it. A side's terms and its node's own term add up to the score, so they are not shares and need not add up to 1."
        : "a neighbour's term in the pair's score (the logit that becomes p); this model gives none, so the table shows b alone.",
    ),
  );
}

/** The baselines' picks beside ILP-GNN's, agreements in bold. */
export function renderComparison(ex: Explanation, c: Comparison): HTMLElement[] {
  if (c.explainers.length === 0) {
    return [h("p", { class: "note" }, c.message ?? "No baseline is trained on this graph.", " Train GAT, GAE, VGAE or CONPI (Train panel → Model) to compare their explanations with ILP-GNN's.")];
  }
  const ours = (s: Side) => s.neighbors.filter((n) => n.selected).sort((a, b) => a.rank - b.rank);
  const oursI = new Set(ours(ex.i).map((n) => n.node));
  const oursJ = new Set(ours(ex.j).map((n) => n.node));
  const cell = (nodes: Array<{ node: number; id: string; weight?: number }>, mine: Set<number>) =>
    h(
      "td",
      {},
      ...nodes.flatMap((n, k) => [
        k > 0 ? ", " : "",
        h("span", { class: mine.has(n.node) ? "agree" : "", title: n.weight !== undefined ? `weight ${fixed(n.weight, 3)}` : "" }, idInProse(n.id)),
      ]),
    );
  const rows = [
    h("tr", {}, h("th", {}, "explainer"), h("th", {}, `i = ${ex.i.id}`), h("th", {}, `j = ${ex.j.id}`)),
    h("tr", {}, h("td", {}, "ILP-GNN (selected)"), cell(ours(ex.i), oursI), cell(ours(ex.j), oursJ)),
    ...c.explainers.map((b) =>
      h(
        "tr",
        {},
        h("td", {}, explainerName(b), h("span", { class: "muted small" }, ` ${Math.round(b.ms)} ms`)),
        cell(b.i, oursI),
        cell(b.j, oursJ),
      ),
    ),
  ];
  return [h("h4", {}, "Compare explainers"), h("table", {}, ...rows), h("p", { class: "note" }, "Bold: the same neighbour ILP-GNN selected. Baselines rank by their own scores, best first.")];
}

/** How the compare table names an explainer. */
function explainerName(b: BaselineExplanation): string {
  switch (b.method) {
    case "attention":
      return `${b.model.toUpperCase()} attention`;
    case "context":
      return "CONPI context interaction";
    default:
      return `GNNExplainer on ${b.model.toUpperCase()}`;
  }
}
