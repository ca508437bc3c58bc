// "How the model decided": one pair's prediction, step by step, inside the
// explanation panel. Each step shows the engine's sentences with this
// pair's numbers, a table of the numbers (each carrying its value and the
// JSON key of `ilpgnn explain --json` it is), and lights its part on the
// canvas. ← → step, Escape leaves; the URL's `step=N` names the step.

import type { Explanation } from "../../protocol";
import { h, replace } from "../dom";
import { fixed, probability, signed } from "../format";
import type { Highlight } from "../graph/types";
import { shadeOf, STEP_KEYS, stepAt, stepHighlight, stepTables, type StepKey, type StepNumber, type StepTable } from "../walk";

/** What the walk-through asks of the app. */
export interface WalkActions {
  /** Lights the canvas for a step (null: the explanation's own highlight). */
  highlight(h: Highlight | null): void;
  /** The step shown changed, or the walk-through closed: the URL follows. */
  stepChanged(): void;
  /** Selects a node the walk-through names. */
  selectNode(v: number): void;
}

/** The walk-through of one explanation. */
export class Walkthrough {
  readonly element: HTMLElement;
  private readonly ex: Explanation;
  private readonly actions: WalkActions;
  private readonly body = h("div", { class: "walk-body", "aria-live": "polite" });
  private readonly prev = h("button", { type: "button", id: "walk-prev" }, "← Previous");
  private readonly next = h("button", { type: "button", id: "walk-next" }, "Next →");
  private readonly close = h("button", { type: "button", id: "walk-close", title: "Leave the walk-through (Escape)" }, "Close");
  private current = 0;
  private onClose: () => void = () => {};

  constructor(ex: Explanation, actions: WalkActions) {
    this.ex = ex;
    this.actions = actions;
    this.element = h(
      "section",
      { class: "walk", id: "walk", tabindex: -1, "aria-label": `How the model decided ${ex.i.id} – ${ex.j.id}, step by step` },
      h("ol", { class: "walk-steps", "aria-label": "steps" }, ...STEP_KEYS.map((_, k) => this.stepButton(k + 1))),
      this.body,
      h("p", { class: "walk-nav" }, this.prev, " ", this.next, " ", this.close, h("span", { class: "small muted" }, " ← → step, Esc leaves")),
    );
    this.prev.addEventListener("click", () => this.go(this.current - 1));
    this.next.addEventListener("click", () => this.go(this.current + 1));
    this.close.addEventListener("click", () => this.leave());
    this.element.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
        ev.preventDefault();
        this.go(this.current + (ev.key === "ArrowRight" ? 1 : -1));
      } else if (ev.key === "Escape") {
        ev.preventDefault();
        this.leave();
      }
    });
  }

  /** The 1-based step shown (0 before the first show). */
  get step(): number {
    return this.current;
  }

  /** What the canvas shows at the current step. */
  highlight(): Highlight {
    return stepHighlight(this.ex, (STEP_KEYS[Math.max(1, this.current) - 1] ?? "structure") as StepKey);
  }

  /** Calls fn when the walk-through is left (Close or Escape). */
  whenClosed(fn: () => void): void {
    this.onClose = fn;
  }

  /** Shows step n (1-based, clamped), lights the canvas for it and keeps the keyboard on the walk-through. */
  go(n: number): void {
    const step = Math.min(STEP_KEYS.length, Math.max(1, n));
    const changed = step !== this.current;
    this.current = step;
    const key = STEP_KEYS[step - 1] as StepKey;
    const s = stepAt(this.ex, step);
    replace(
      this.body,
      h("h4", { id: "walk-title", "data-step": step, "data-key": key }, `Step ${step} of ${STEP_KEYS.length}: ${s.title}`),
      h("p", { class: "walk-text", id: "walk-text" }, s.text),
      shadeOf(key, 1) === null ? null : h("p", { class: "walk-scale-key small" }, `In the graph, the neighbours' colour: ${key === "scores" ? "score, scaled by the best" : key} from 0 `, h("span", { class: "walk-scale", role: "img", "aria-label": "light yellow through green to dark purple" }), " 1"),
      ...stepTables(this.ex, key).map((t) => this.table(t)),
    );
    for (const b of this.element.querySelectorAll<HTMLButtonElement>(".walk-steps button")) {
      const here = Number(b.dataset["step"]) === step;
      b.classList.toggle("current", here);
      if (here) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    }
    this.prev.disabled = step === 1;
    this.next.disabled = step === STEP_KEYS.length;
    this.actions.highlight(stepHighlight(this.ex, key));
    if (changed) this.actions.stepChanged();
    const active = document.activeElement;
    if (active === null || active === document.body || !this.element.contains(active) || (active instanceof HTMLButtonElement && active.disabled)) this.element.focus({ preventScroll: true });
  }

  /** Leaves the walk-through: the canvas and the URL go back to the explanation. */
  leave(): void {
    this.current = 0;
    this.element.remove();
    this.actions.highlight(null);
    this.actions.stepChanged();
    this.onClose();
  }

  private stepButton(n: number): HTMLElement {
    const b = h("button", { type: "button", class: "walk-step", "data-step": n, title: stepAt(this.ex, n).title }, `${n}. ${stepAt(this.ex, n).title}`);
    b.addEventListener("click", () => this.go(n));
    return h("li", {}, b);
  }

  private table(t: StepTable): HTMLElement {
    const cell = (x: StepNumber | null) => {
      if (x === null) return h("td", {});
      const text = x.style === "prob" ? probability(x.value) : x.style === "signed" ? signed(x.value, 3) : fixed(x.value, 3);
      return h("td", { class: "num", "data-key": x.key, "data-value": String(x.value), title: String(x.value) }, text);
    };
    const label = (r: StepTable["rows"][number]) => {
      const name = r.node !== undefined ? this.nodeButton(r.node, r.label) : r.label;
      return h("th", { scope: "row" }, name, r.note ? h("span", { class: "small muted" }, ` ${r.note}`) : null);
    };
    return h(
      "table",
      { class: "walk-table" },
      h("caption", {}, t.caption),
      h("thead", {}, h("tr", {}, ...t.columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, ...t.rows.map((r) => h("tr", {}, label(r), ...r.cells.map(cell)))),
    );
  }

  private nodeButton(v: number, label: string): HTMLButtonElement {
    const b = h("button", { type: "button", class: "node link", "data-node": v, tabindex: -1 }, label);
    b.addEventListener("click", () => this.actions.selectNode(v));
    return b;
  }
}
