// The model selector follows the engine's list of models.
import { test } from "node:test";
import assert from "node:assert/strict";
import { modelOptions } from "../src/app/panels/train";
import type { ModelSpec } from "../src/protocol";

const spec = (name: string, about: string): ModelSpec => ({ name, about, learns: true, saves: false, explanation: "" });

test("the selector offers the engine's models in its order, by their short names, the command-line-only ones left out", () => {
  const models = [spec("ilpgnn", "self-explaining, SPEC"), spec("cn", "common neighbours"), spec("seal", "enclosing subgraphs, DGCNN"),
    spec("wp", "WalkPooling"), spec("conpi", "context pair interaction"), spec("tiny", "common neighbours, weighted")];
  assert.deepEqual(modelOptions(models), [
    { value: "ilpgnn", label: "ILP-GNN (self-explaining)" },
    { value: "cn", label: "Common neighbours" },
    { value: "conpi", label: "CONPI (context interaction)" },
    // A model the page has never heard of still appears, named by the engine.
    { value: "tiny", label: "tiny (common neighbours, weighted)" },
  ]);
  assert.deepEqual(modelOptions([]), []);
});
