// The insight panel's hard-negatives table and sentence (frontend/src/app/ranking.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { RANKING_COLUMNS, rankingRows, rankingText } from "../src/app/ranking";
import type { RankingResult } from "../src/protocol";

const scores = (mrr: number) => ({ mrr, hits1: mrr / 2, hits3: 0.4, hits10: 0.6, hits20: 0.7, hits50: 0.8, hits100: 1 });
const result = (over: Partial<RankingResult> = {}): RankingResult => ({
  model: scores(0.5),
  cn: scores(0.25),
  aa: scores(0.125),
  links: 12,
  perLink: 500,
  features: true,
  reused: false,
  drawMs: 1500,
  ms: 2500,
  ...over,
});

test("the rows: this model, common neighbours, Adamic-Adar, as percentages in the columns' order", () => {
  assert.deepEqual(
    RANKING_COLUMNS.map((c) => c.title),
    ["MRR", "Hits@1", "Hits@10", "Hits@100"],
  );
  assert.deepEqual(rankingRows(result()), [
    { key: "model", name: "this model", cells: ["50.0%", "25.0%", "60.0%", "100.0%"] },
    { key: "cn", name: "common neighbours", cells: ["25.0%", "12.5%", "60.0%", "100.0%"] },
    { key: "aa", name: "Adamic-Adar", cells: ["12.5%", "6.3%", "60.0%", "100.0%"] },
  ]);
});

test("the sentence says how many links, among how many negatives of what kind, and what MRR is", () => {
  const s = rankingText(result());
  assert.match(s, /^Each of the 12 test links is ranked among 500 hard negatives of its own \(pairs that share neighbours, are close by PageRank or have similar features\); MRR is the mean of 1 \/ rank/);
  assert.match(s, /\(negatives drawn in 2 s; 3 s in all\)\.$/);
  // Made-up features are not among the heuristics; one link; negatives from an earlier call.
  const t = rankingText(result({ features: false, links: 1, reused: true }));
  assert.match(t, /^The 1 test link is ranked among 500 hard negatives of its own \(pairs that share neighbours or are close by PageRank\);/);
  assert.match(t, /negatives drawn once for this model, earlier;/);
});
