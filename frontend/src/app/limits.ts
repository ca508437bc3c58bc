// How much of a user's files the tab agrees to read.

/**
 * The most bytes of files the tab reads for one graph or one checkpoint:
 * 1 GiB. The engine's WebAssembly memory ends at 4 GiB, and it holds the
 * files' bytes and the graph built from them at once, before training
 * needs any; the command line (`ilpgnn`) takes larger graphs.
 */
export const TAB_FILE_LIMIT = 2 ** 30;

/** A size for people, in binary units as the command line writes them: "1.5 GiB". */
export function binarySize(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1).replace(/\.0$/, "")} ${units[u]}`;
}

/**
 * Why files of these sizes are not read, or null when they may be: their
 * total is over `limit` (checked from the sizes the browser reports,
 * before a byte is read).
 */
export function filesTooLarge(files: ReadonlyArray<{ name: string; size: number }>, limit = TAB_FILE_LIMIT): string | null {
  const total = files.reduce((s, f) => s + f.size, 0);
  if (total <= limit) return null;
  const what = files.length === 1 ? `${files[0]!.name} is` : `${files.map((f) => f.name).join(", ")} are`;
  return `${what} ${binarySize(total)}, over the ${binarySize(limit)} this tab reads: its memory ends at 4 GiB. Nothing was read; the command line (ilpgnn) takes larger graphs.`;
}
