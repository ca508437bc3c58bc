// The legend under the graph: the class colours of the loaded graph and the
// marks an explanation draws.

import { h, replace } from "./dom";
import type { LoadedGraph } from "./graphdata";
import { classColor, COMMON, GROUNDTRUTH, SIDE_I, SIDE_J } from "./palette";

/** Fills `el` with g's class swatches (the first 12) and the explanation marks. */
export function renderLegend(el: HTMLElement, g: LoadedGraph): void {
  const swatch = (color: string, text: string) => {
    const dot = h("span", { class: "swatch" });
    dot.style.background = color;
    return h("span", {}, dot, text);
  };
  const classes: HTMLElement[] = [];
  const names = g.desc.classNames;
  if (g.labels !== null) {
    const count = names?.length ?? Math.max(0, ...g.labels) + 1;
    for (let c = 0; c < Math.min(count, 12); c++) classes.push(swatch(classColor(c), names?.[c] ?? `class ${c}`));
  }
  // Class colours are light tints, the explanation's dark strong colours
  // (palette.ts), and the rest of the graph turns grey while a pair is
  // shown: the two never meet.
  const marks = [swatch(SIDE_I, "i's side"), swatch(SIDE_J, "j's side"), swatch(COMMON, "common neighbour")];
  if (g.desc.hasGroundtruth) marks.push(swatch(GROUNDTRUTH, "groundtruth"));
  replace(
    el,
    classes.length > 0 ? h("span", { class: "group" }, h("span", { class: "group-label" }, classesLabel(g.desc.synthetic !== null)), ...classes) : null,
    h("span", { class: "group" }, h("span", { class: "group-label" }, "Explanations:"), ...marks),
  );
}

/**
 * What the legend's class colours are. A synthetic graph's classes are the
 * generator's feature components (docs/model.md §8: nodes of a component have
 * similar features), not parts of the graph that hang together, which the
 * line under the legend counts.
 */
export function classesLabel(synthetic: boolean): string {
  return synthetic ? "Classes (the generator's feature components):" : "Classes:";
}
