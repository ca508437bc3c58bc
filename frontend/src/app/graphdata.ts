// The loaded graph as the page keeps it: the engine's description plus an
// adjacency index and an id lookup, built once per graph.

import type { GraphDescription } from "../protocol";

/** A described graph with the lookups the panels need. */
export class LoadedGraph {
  readonly desc: GraphDescription;
  /** CSR adjacency: neighbours of v are adj[start[v] .. start[v+1]). */
  private readonly start: Uint32Array;
  private readonly adj: Uint32Array;
  private readonly byId = new Map<string, number>();
  readonly edges: Uint32Array;
  readonly labels: Int32Array | null;

  constructor(desc: GraphDescription) {
    this.desc = desc;
    const n = desc.nodes;
    this.edges = Uint32Array.from(desc.edgeList);
    this.labels = desc.labels === null ? null : Int32Array.from(desc.labels);
    const deg = new Uint32Array(n + 1);
    for (const v of this.edges) deg[v + 1]!++;
    for (let v = 0; v < n; v++) deg[v + 1]! += deg[v]!;
    this.start = deg;
    this.adj = new Uint32Array(this.edges.length);
    const fill = this.start.slice(0, n);
    for (let k = 0; k < this.edges.length; k += 2) {
      const a = this.edges[k]!;
      const b = this.edges[k + 1]!;
      this.adj[fill[a]!++] = b;
      this.adj[fill[b]!++] = a;
    }
    desc.ids.forEach((id, v) => this.byId.set(id, v));
  }

  get n(): number {
    return this.desc.nodes;
  }

  /** The neighbours of v. */
  neighbors(v: number): number[] {
    return Array.from(this.adj.subarray(this.start[v]!, this.start[v + 1]!));
  }

  /** Whether u and v are linked. */
  linked(u: number, v: number): boolean {
    for (let k = this.start[u]!; k < this.start[u + 1]!; k++) if (this.adj[k] === v) return true;
    return false;
  }

  /** The display id of node v. */
  id(v: number): string {
    return this.desc.ids[v] ?? String(v);
  }

  /** The node with this id, or (when no id matches) a valid 0-based index written as a number; null otherwise. */
  resolve(ref: string): number | null {
    // The id exactly first (a link carries " padded " as it is), then as typed, trimmed.
    const exact = this.byId.get(ref);
    if (exact !== undefined) return exact;
    const t = ref.trim();
    const v = this.byId.get(t);
    if (v !== undefined) return v;
    if (/^\d+$/.test(t) && Number(t) < this.n) return Number(t);
    return null;
  }

  /** The class name of node v, or null without labels. */
  className(v: number): string | null {
    const c = this.labels?.[v];
    if (c === undefined || c < 0) return null;
    return this.desc.classNames?.[c] ?? `class ${c}`;
  }
}
