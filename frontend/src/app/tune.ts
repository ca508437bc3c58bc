// The words and numbers of the Tune button's search (the engine's `tune`):
// the budget the user gives, the line each trial adds, the table of trials
// at the end and what the result says about the seeds. Pure, so the unit
// tests read the same text the page shows.

import type { TuneProgress, TuneResult, TuneTrial } from "../protocol";
import { duration, percent } from "./format";

/** The budget control's bounds and default, in minutes; the engine takes 1 minute to a day. */
export const BUDGET_MINUTES = { min: 1, max: 60, default: 5 } as const;

/** The budget in seconds, or what is wrong with the text the user typed. */
export function parseBudget(text: string): { seconds: number } | { error: string } {
  const t = text.trim();
  const minutes = Number(t);
  if (t === "" || !Number.isFinite(minutes) || minutes < BUDGET_MINUTES.min || minutes > BUDGET_MINUTES.max) {
    return { error: `the tuning budget must be ${BUDGET_MINUTES.min} to ${BUDGET_MINUTES.max} minutes (got "${text}")` };
  }
  return { seconds: Math.round(minutes * 60) };
}

/** Settings in name order, "lr 0.001, dropout 0.2" style: name and value. */
export function settingsText(settings: Readonly<Record<string, string>>): string {
  return Object.keys(settings)
    .sort()
    .map((k) => `${k} ${settings[k]}`)
    .join(", ");
}

/** The progress line of a finished trial: "trial 4 of 13 · round 2 · 60 epochs · alpha 0.1, lr 0.001 · val AUC 95.3% · 12 s". */
export function trialLine(p: TuneProgress): string {
  return `trial ${p.done} of ${p.planned} · round ${p.round} · ${epochsText(p)} · ${settingsText(p.settings)} · val ${scoresText(p)} · ${duration(p.seconds * 1000)}`;
}

/** How long a trial trained: "60 epochs", "31 of 60 epochs" when it stopped early, "127 epochs, stopped early" for the current settings. */
export function epochsText(t: Pick<TuneTrial, "epochs" | "trained" | "capped" | "current">): string {
  const trained = t.trained ?? t.epochs;
  if (t.capped || trained >= t.epochs) return `${t.epochs} epochs`;
  return t.current ? `${trained} epochs, stopped early` : `${trained} of ${t.epochs} epochs`;
}

/** A trial's validation scores, the one its weights were kept on first: "P@1 95.2%, P@2 90.1%, AUC 91.65%" or "AUC 95.3%". */
export function scoresText(t: Pick<TuneTrial, "valAUC" | "valP1" | "valP2" | "selectedOn">, places = 1): string {
  if (t.valP1 === undefined || t.valP2 === undefined) return `AUC ${percent(t.valAUC, places)}`;
  const precision = `P@1 ${percent(t.valP1, 1)}, P@2 ${percent(t.valP2, 1)}`;
  return t.selectedOn === "precision" ? `${precision}, AUC ${percent(t.valAUC, places)}` : `AUC ${percent(t.valAUC, places)}, ${precision}`;
}

/** What the search compared candidates on, as the training keeps weights. */
function keptOn(t: Pick<TuneTrial, "selectedOn"> | undefined): string {
  return t?.selectedOn === "precision"
    ? "validation explanation precision (P@1 + P@2, as training keeps weights on this graph) without a lower validation AUC"
    : "validation AUC";
}

/** The progress line inside a running trial: "trial 5 of 13 · round 2 · epoch 17 of 60 · beta 0.25, lr 0.001". */
export function epochLine(p: TuneProgress): string {
  return `trial ${p.done + 1} of ${p.planned} · round ${p.round} · epoch ${p.epoch ?? 0} of ${p.trialEpochs ?? p.epochs} · ${settingsText(p.settings)}`;
}

/** The search's share done, for the progress bar: finished trials, plus the running trial's share of its epochs. */
export function tuneShare(p: Pick<TuneProgress, "done" | "planned" | "epoch" | "trialEpochs">): number {
  const inside = p.epoch && p.trialEpochs ? Math.min(1, p.epoch / p.trialEpochs) : 0;
  return p.planned > 0 ? Math.min(1, (p.done + inside) / p.planned) : 0;
}

/** The columns of the trials table. */
export const TRIAL_COLUMNS = ["round", "candidate", "epochs", "validation", "settings"] as const;

/**
 * The rows of the trials table, in the order the trials ran; `chosen` marks
 * the chosen candidate's last trial, or the current settings' trial when
 * no candidate beat them.
 */
export function trialRows(r: Pick<TuneResult, "trials" | "best" | "cancelled" | "keptCurrent">): Array<{ cells: string[]; chosen: boolean }> {
  const last = r.cancelled ? -1 : r.keptCurrent ? r.trials.findIndex((t) => t.current) : lastOfChosen(r.trials, r.best);
  return r.trials.map((t, k) => ({
    cells: [String(t.round), t.current ? "current" : String(t.candidate), epochsText(t), scoresText(t, 2), settingsText(t.settings)],
    chosen: k === last,
  }));
}

/** The index of the last drawn candidate's trial whose settings are all among best's, -1 when none. */
function lastOfChosen(trials: readonly TuneTrial[], best: Readonly<Record<string, string>>): number {
  for (let k = trials.length - 1; k >= 0; k--) {
    const t = trials[k]!;
    if (!t.current && Object.keys(t.settings).every((name) => best[name] === t.settings[name])) return k;
  }
  return -1;
}

/** The search in one sentence: its plan, its trials and the time it took. */
export function tuneSummary(r: TuneResult): string {
  const p = r.plan;
  const halving = p.summary.includes("rounds of") ? `, ${p.eta === 3 ? "a third" : `1/${p.eta}`} kept each round` : "";
  const plan = `${p.summary}${halving}, estimated at most ${duration(p.estimatedSeconds * 1000)} in this browser`;
  const took = `${r.trials.length} of ${p.trials} trials in ${duration(r.seconds * 1000)} (budget ${duration(p.budgetSeconds * 1000)})`;
  if (r.cancelled) return `Tuning cancelled: ${took}; the hyperparameters are unchanged. Plan: ${plan}.`;
  const cut = r.cut ? ` This machine ran slower than planned: ${r.cut}.` : "";
  const current = r.current ? scoresText(r.current, 2) : `AUC ${percent(r.currentValAUC ?? r.valAUC, 2)}`;
  if (r.keptCurrent && r.current && r.current.trained === 0) return `Tuned ${r.model}: ${took}. Plan: ${plan}.${cut} The current settings stay.`;
  if (r.keptCurrent) {
    return `Tuned ${r.model}: ${took}. Plan: ${plan}.${cut} No candidate beat the current settings on ${keptOn(r.current)} (validation ${current}), so they stay.`;
  }
  const chosen = r.chosen ? scoresText(r.chosen, 2) : `AUC ${percent(r.valAUC, 2)}`;
  const against = r.current || r.currentValAUC !== undefined ? `; the current settings ${current}` : "";
  return `Tuned ${r.model}: ${took}. Plan: ${plan}.${cut} Chosen on ${keptOn(r.chosen)}: ${settingsText(r.best)} (validation ${chosen}${against}).`;
}

/**
 * Which seeds chose the settings and which measured the model trained with
 * them: the tuning seeds' validation links chose; the final run's test
 * links, which no trial saw, measure.
 */
export function seedsNote(plan: Pick<TuneResult["plan"], "seeds">, trainSeed: number): string {
  const chose = plan.seeds.join(", ");
  const same = plan.seeds.length === 1 && plan.seeds[0] === trainSeed;
  return `Settings chosen on the validation links of seed ${chose}; the test AUC is measured on the test links of seed ${trainSeed}${same ? " (the same split's, which no trial saw)" : ""}.`;
}
