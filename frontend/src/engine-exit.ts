// Why the engine's Go program stopped, in words for the page. Go prints a
// crash's reason (a panic, "fatal error: out of memory") on its standard
// error, which wasm_exec.js writes with console.log; the worker keeps the
// last lines and reads them here when the program exits.

/** How many of the Go program's last output lines (and of its reason lines) the worker keeps. */
export const KEPT_LINES = 40;

/**
 * Whether a line of Go's output may say why the program ends: the runtime's
 * own notes ("runtime: out of memory: …"), a fatal error or a panic. They
 * come before the goroutine dump, which can run to thousands of lines.
 */
export function isReason(line: string): boolean {
  return line.startsWith("runtime: ") || line.startsWith("fatal error: ") || line.startsWith("panic: ");
}

/**
 * The fatal message for an engine that exited with `code` (undefined when
 * unknown), given its last output lines and the size its WebAssembly memory
 * had grown to (bytes, undefined when unknown).
 */
export function exitMessage(code: number | undefined, lines: readonly string[], memoryBytes?: number): string {
  const grown = memoryBytes !== undefined ? ` (its WebAssembly memory had grown to ${mib(memoryBytes)})` : "";
  const oom = lines.find((l) => /\bout of memory\b/.test(l));
  if (oom !== undefined) {
    // Go reports the allocation that failed first ("runtime: out of memory:
    // cannot allocate …"), then "fatal error: out of memory".
    const detail = lines.find((l) => l.startsWith("runtime: out of memory")) ?? oom;
    return `the engine ran out of memory${grown}: ${detail.trim()}. A browser tab's WebAssembly memory is limited (4 GiB at most, often less); this graph with these settings needs more`;
  }
  const crash = lines.find((l) => l.startsWith("panic: ") || l.startsWith("fatal error: "));
  if (crash !== undefined) return `the engine crashed (exit code ${code ?? "unknown"})${grown}: ${crash.trim()}`;
  return `the engine stopped (exit code ${code ?? "unknown"})`;
}

/** Bytes as MiB or GiB, "512 MiB", "3.9 GiB". */
function mib(n: number): string {
  const m = n / 2 ** 20;
  return m < 1024 ? `${Math.round(m)} MiB` : `${(m / 1024).toFixed(1)} GiB`;
}
