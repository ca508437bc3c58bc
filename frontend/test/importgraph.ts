// The import graph of the front end's sources, and its cycles: the check
// that the app, its panels and the rest import in one direction only.
// Relative imports only (packages cannot import us back); type-only imports
// count too, since a type cycle is the same tangle to read.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Module specifiers of every static import and re-export in `source` (`import x from "..."`, `import "..."`, `export ... from "..."`). */
export function importSpecifiers(source: string): string[] {
  // Comments could hold example imports; drop them (strings with "//" inside are not a concern for specifiers).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const out: string[] = [];
  const re = /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) out.push(m[1]!);
  return out;
}

/** The file a relative specifier names from `fromFile`: x.ts, x/index.ts; null for packages or missing files. */
export function resolveImport(fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every .ts file under dir. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The import graph of the .ts files under root: file (relative to root) to the files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(root)) {
    const deps = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
      const target = resolveImport(file, spec);
      if (target !== null && target.startsWith(root)) deps.add(relative(root, target));
    }
    graph.set(relative(root, file), [...deps].sort());
  }
  return graph;
}

/**
 * One cycle of the graph as its path (first node repeated at the end), or
 * null if it is acyclic. A depth-first search in sorted order, so the
 * answer is the same on every run.
 */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (v: string): string[] | null => {
    state.set(v, "open");
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      const s = state.get(w);
      if (s === "open") return [...stack.slice(stack.indexOf(w)), w];
      if (s === undefined) {
        const found = visit(w);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(v, "done");
    return null;
  };
  for (const v of [...graph.keys()].sort()) {
    if (state.has(v)) continue;
    const found = visit(v);
    if (found) return found;
  }
  return null;
}
