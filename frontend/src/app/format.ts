// Number and time formatting shared by the panels.

/** A probability or AUC in [0, 1] as a percentage with `digits` decimals: 0.9123 → "91.2%". */
export function percent(v: number, digits = 1): string {
  return Number.isFinite(v) ? `${(100 * v).toFixed(digits)}%` : "–";
}

/**
 * A model's probability as a percentage, like {@link percent}, except that
 * one that would read 0% or 100% reads "< 0.1%" or "> 99.9%": a probability
 * from a finite score is neither, and the command line writes it the same
 * way.
 */
export function probability(p: number, digits = 1): string {
  const s = percent(p, digits);
  const step = 10 ** -digits; // the last place shown, in percent
  if (s === percent(0, digits)) return `< ${step.toFixed(digits)}%`;
  if (s === percent(1, digits)) return `> ${(100 - step).toFixed(digits)}%`;
  return s;
}

/**
 * "= " and {@link probability}, or the bound alone ("> 99.9%"): how a
 * sentence writes "p = …" so that every p of the app reads the same way.
 */
export function probabilityIs(p: number, digits = 1): string {
  const s = probability(p, digits);
  return s.startsWith("<") || s.startsWith(">") ? s : `= ${s}`;
}

/**
 * A signed number with `digits` decimals: "+0.12", "−0.05" (a minus sign,
 * not a hyphen), and "0.00" for any value that rounds to zero, so nothing
 * reads "-0.00"; "–" when not finite.
 */
export function signed(v: number, digits = 2): string {
  if (!Number.isFinite(v)) return "–";
  const s = Math.abs(v).toFixed(digits);
  if (Number(s) === 0) return s;
  return `${v < 0 ? "−" : "+"}${s}`;
}

/** A fixed-point number, "–" when not finite. */
export function fixed(v: number, digits = 3): string {
  return Number.isFinite(v) ? v.toFixed(digits) : "–";
}

/** A duration in milliseconds for people: "850 ms", "12 s", "3 min 05 s", "1 h 02 min". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** Unix seconds as a local date and time, "2026-11-22 14:05". */
export function dateTime(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * A checkpoint's creation time (unix seconds) as {@link dateTime} words it,
 * or undefined when the checkpoint records none: 0 means unset in the
 * format, and the command line writes 0 so that the same seed gives the
 * same bytes. A time past what a Date holds is none either.
 */
export function createdTime(created: number): string | undefined {
  if (created === 0 || !Number.isFinite(new Date(created * 1000).getTime())) return undefined;
  return dateTime(created);
}

/** Bytes as "512 B", "12.3 kB", "4.5 MB". */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
