// The hovered node's tooltip: its id, class and degree in a fixed-position
// element beside the pointer, kept inside the window.
import type { GraphData } from "./types";
import { describeNode } from "./search";

export class Tooltip {
  private readonly el: HTMLElement;

  constructor(el: HTMLElement) {
    this.el = el;
    el.hidden = true;
    el.style.position = "fixed";
    el.style.pointerEvents = "none";
  }

  /** Shows node i of `data` near the pointer at client point (cx, cy). */
  show(i: number, data: GraphData, cx: number, cy: number): void {
    const tip = this.el;
    // Rebuilt only when the node changes: a pointer move over one node just moves it.
    if (tip.dataset["node"] !== String(i)) {
      const { id, lines } = describeNode(i, data);
      const head = document.createElement("strong");
      head.textContent = id;
      const rows = lines.map((line) => {
        const div = document.createElement("div");
        div.textContent = line;
        return div;
      });
      tip.replaceChildren(head, ...rows);
      tip.dataset["node"] = String(i);
    }
    tip.hidden = false;
    const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    let x = cx + 14, y = cy + 14;
    if (x + w > vw - 4) x = Math.max(4, cx - 14 - w);
    if (y + h > vh - 4) y = Math.max(4, cy - 14 - h);
    tip.style.left = `${x}px`;
    tip.style.top = `${y}px`;
  }

  hide(): void {
    this.el.hidden = true;
    delete this.el.dataset["node"];
  }
}
