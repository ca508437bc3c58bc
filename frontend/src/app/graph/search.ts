// Node search and the tooltip's description of a node. Pure, DOM-free.
import type { GraphData } from "./types";

/** The display name of class c: its name when known, else "class c". */
export function className(c: number, classNames: readonly string[] | null): string {
  return classNames?.[c] ?? `class ${c}`;
}

/**
 * Nodes matching query, best first: exact id match, then ids starting with
 * the query (case-insensitive), then ids containing it, then nodes whose
 * class name contains it. Within each group nodes come in index order; no
 * node appears twice; at most limit results. An empty query matches nothing.
 */
export function findNodes(query: string, data: Pick<GraphData, "ids" | "labels" | "classNames">, limit = 20): number[] {
  const q = query.trim();
  if (q === "" || limit <= 0) return [];
  const lower = q.toLowerCase();
  const { ids, labels, classNames } = data;
  const out: number[] = [];
  const taken = new Set<number>();
  const add = (i: number): boolean => {
    if (!taken.has(i)) {
      taken.add(i);
      out.push(i);
    }
    return out.length >= limit;
  };
  // Exact matches (ids are normally unique, but do not assume it).
  for (let i = 0; i < ids.length; i++) if (ids[i] === q && add(i)) return out;
  const lowered = ids.map((s) => s.toLowerCase());
  for (let i = 0; i < lowered.length; i++) if (lowered[i]!.startsWith(lower) && add(i)) return out;
  for (let i = 0; i < lowered.length; i++) if (lowered[i]!.includes(lower) && add(i)) return out;
  if (labels) {
    // Classes whose name matches, then their members in index order.
    const matching = new Map<number, boolean>();
    for (let i = 0; i < labels.length && i < ids.length; i++) {
      const c = labels[i]!;
      if (c < 0) continue;
      let m = matching.get(c);
      if (m === undefined) {
        m = className(c, classNames).toLowerCase().includes(lower);
        matching.set(c, m);
      }
      if (m && add(i)) return out;
    }
  }
  return out;
}

/** The tooltip's lines for node i: id, class (when labelled), degree. */
export function describeNode(i: number, data: Pick<GraphData, "ids" | "labels" | "classNames" | "degrees">): { id: string; lines: string[] } {
  const id = data.ids[i] ?? String(i);
  const lines: string[] = [];
  const c = data.labels?.[i];
  if (c !== undefined && c >= 0) lines.push(`class: ${className(c, data.classNames)}`);
  lines.push(`degree: ${data.degrees[i] ?? 0}`);
  return { id, lines };
}
