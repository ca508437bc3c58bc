// Roving tabindex: a list of buttons is one Tab stop, and the arrow keys
// (Home, End) move inside it, so a keyboard user passes a list of thirty
// neighbours with one Tab instead of thirty (WAI-ARIA Authoring Practices,
// "Managing focus within components").

/** The index the key moves to from `index` in a list of `count` items, or null for keys the list does not take. Stops at the ends. */
export function rovingIndex(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case "ArrowDown":
    case "ArrowRight":
      return Math.min(count - 1, index + 1);
    case "ArrowUp":
    case "ArrowLeft":
      return Math.max(0, index - 1);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/**
 * Makes `items` one Tab stop: the first item (or the one last focused)
 * takes tabindex 0, the others -1, and arrow keys on an item move focus
 * along the list. Returns `items` for chaining.
 */
export function rove<T extends HTMLElement>(items: readonly T[]): readonly T[] {
  items.forEach((el, k) => {
    el.tabIndex = k === 0 ? 0 : -1;
    el.addEventListener("focus", () => {
      for (const other of items) other.tabIndex = other === el ? 0 : -1;
    });
    el.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      const to = rovingIndex(ev.key, k, items.length);
      if (to === null) return;
      ev.preventDefault();
      items[to]!.focus();
    });
  });
  return items;
}
