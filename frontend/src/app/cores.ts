// How many cores (Web Workers) an ILP-GNN run computes its epochs' shards
// on: the training panel's choice, the `workers=N` link parameter, and the
// words for it. DOM-free. "Auto" sends no `workers`, so the engine takes
// its default (one fewer than the machine's cores but both of two, cut to fit its memory).

import type { EngineInfo } from "../protocol";

/** The engine's facts the choice depends on. */
export type CoreInfo = Pick<EngineInfo, "cores" | "maxWorkers" | "defaultWorkers">;

/** "1 core", "4 cores". */
export function coresText(n: number): string {
  return `${n} core${n === 1 ? "" : "s"}`;
}

/** How many workers a progress event or result names: absent means one (the epoch fit one batch, computed by the engine alone). */
export function workersOf(p: { workers?: number }): number {
  return p.workers ?? 1;
}

/** The engine's default number of workers, as the engine says it (wasm/PROTOCOL.md: one fewer than the cores, but both of two). */
export function defaultWorkers(info: CoreInfo): number {
  return info.defaultWorkers;
}

/** The numbers of cores offered: 1 to the machine's cores (at least 1), at most maxWorkers. */
export function coreChoices(info: CoreInfo): number[] {
  const top = Math.max(1, Math.min(info.cores, info.maxWorkers));
  return Array.from({ length: top }, (_, k) => k + 1);
}

/** The value of the selector's "auto" option. */
export const AUTO = "";

/**
 * The cores selector's options: "auto (N)" first, then each choice; a
 * chosen number beyond the machine's cores (from a link) is offered too,
 * so the selector can show it.
 */
export function coreOptions(info: CoreInfo, chosen: number | null): Array<{ value: string; label: string }> {
  const numbers = coreChoices(info);
  if (chosen !== null && !numbers.includes(chosen)) numbers.push(chosen);
  return [
    { value: AUTO, label: `auto (${defaultWorkers(info)})` },
    ...numbers.map((n) => ({ value: String(n), label: String(n) })),
  ];
}

/** The selector's value as a choice: null for auto. */
export function parseChoice(value: string): number | null {
  return value === AUTO ? null : Number(value);
}

/** The part of a train request a choice makes: `workers` when a number was chosen, nothing for auto. */
export function workersOption(choice: number | null): { workers?: number } {
  return choice === null ? {} : { workers: choice };
}

/** What a link's `workers` value asks for: a number of workers, or auto (null), with a note when the value was ignored. */
export interface LinkedWorkers {
  workers: number | null;
  note?: string;
}

/**
 * Reads a link's `workers` value (raw: null when the link has none): a
 * whole number from 1 to maxWorkers is taken; anything else is ignored
 * (auto) and said in the note.
 */
export function linkWorkers(raw: string | null, maxWorkers: number): LinkedWorkers {
  if (raw === null) return { workers: null };
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isInteger(n) && n >= 1 && n <= maxWorkers) return { workers: n };
  const shown = raw.length > 20 ? `${raw.slice(0, 20)}…` : raw;
  return { workers: null, note: `Ignored workers=“${shown}” in the link: it must be a whole number of cores from 1 to ${maxWorkers}. Training uses the automatic choice.` };
}
