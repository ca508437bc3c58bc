// Suggestions that cannot be told apart. The engine marks a list whose
// leading probabilities lie closer together than the model's calibration
// error (core/explain.TiedAtTop) with a note on its first suggestion; the
// panel then shows those suggestions as one group with one rank instead
// of numbering them as if the order meant something.

/**
 * How many leading suggestions the engine's tie note says are tied, of a
 * list of `length`: the note names them as "both suggestions'", "the N
 * suggestions'" (all of them) or "the first N suggestions'"
 * (core/explain.TieNote). 0 without a note or when it names none it can
 * read; never more than `length`.
 */
export function tiedCount(note: string | undefined, length: number): number {
  if (!note) return 0;
  if (/^both suggestions'/.test(note)) return Math.min(2, length);
  const m = /^the (?:first )?(\d+) suggestions'/.exec(note);
  if (m === null) return 0;
  const n = Number(m[1]);
  return n >= 2 ? Math.min(n, length) : 0;
}

/** One place of a ranking: one item, or several tied ones that share it. */
export interface RankGroup<T> {
  /** 1-based place: the group counts as one place (dense ranking). */
  rank: number;
  items: T[];
}

/**
 * The ranking of `items` (best first) whose first `tied` items cannot be
 * told apart: those form one group at rank 1 and each later item has a
 * place of its own. With `tied` below 2 every item has its own place.
 */
export function rankGroups<T>(items: readonly T[], tied: number): Array<RankGroup<T>> {
  const out: Array<RankGroup<T>> = [];
  const head = tied >= 2 ? Math.min(tied, items.length) : 0;
  if (head > 0) out.push({ rank: 1, items: items.slice(0, head) });
  for (const item of items.slice(head)) out.push({ rank: out.length + 1, items: [item] });
  return out;
}
