// The words and figures of the insight panel's hard-negatives view: the
// engine's `ranking` (HeaRT, docs/heart.md) as table rows and one sentence.

import type { RankingResult, RankingScores } from "../protocol";
import { duration, percent } from "./format";

/** The table's columns after the row names, each a field of {@link RankingScores}. */
export const RANKING_COLUMNS: readonly { title: string; key: keyof RankingScores }[] = [
  { title: "MRR", key: "mrr" },
  { title: "Hits@1", key: "hits1" },
  { title: "Hits@10", key: "hits10" },
  { title: "Hits@100", key: "hits100" },
];

/** One row of the table: who ranked, and its figures as percentages in {@link RANKING_COLUMNS}' order. */
export interface RankingRow {
  key: "model" | "cn" | "aa";
  name: string;
  cells: string[];
}

/** The rows of the table: this model, then the two heuristics it should beat. */
export function rankingRows(r: RankingResult): RankingRow[] {
  const rows: [RankingRow["key"], string][] = [
    ["model", "this model"],
    ["cn", "common neighbours"],
    ["aa", "Adamic-Adar"],
  ];
  return rows.map(([key, name]) => ({ key, name, cells: RANKING_COLUMNS.map((c) => percent(r[key][c.key])) }));
}

/** The sentence under the table: what was ranked against what, and what MRR means. */
export function rankingText(r: RankingResult): string {
  const links = r.links === 1 ? "the 1 test link is" : `each of the ${r.links} test links is`;
  const like = r.features ? "share neighbours, are close by PageRank or have similar features" : "share neighbours or are close by PageRank";
  const drawn = r.reused ? "drawn once for this model, earlier" : `drawn in ${duration(r.drawMs)}`;
  return (
    `${links[0]!.toUpperCase()}${links.slice(1)} ranked among ${r.perLink} hard negatives of its own (pairs that ${like}); ` +
    `MRR is the mean of 1 / rank over the links, 100% when every link is ranked first, and Hits@K the share ranked within the top K ` +
    `(negatives ${drawn}; ${duration(r.ms)} in all).`
  );
}
