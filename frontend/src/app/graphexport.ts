// "Download for a distributed engine": the loaded graph, its features and
// the current model's train/validation/test split in DGL's chunked graph
// format — the files `ilpgnn export-graph --format dgl` writes — zipped by
// the engine and saved from a local blob URL, for graphs that outgrow one
// machine. Nothing is fetched: the help names DGL and GraphStorm as text.

import type { EngineClient } from "../client";
import { download, h } from "./dom";
import { errorText } from "./errors";
import { bytes } from "./format";

/** The engine request the download makes. */
export type GraphExportEngine = Pick<EngineClient, "exportGraph">;

/** What the zip holds and where it goes, shown under the button. */
export const GRAPH_EXPORT_HELP =
  "A zip in DGL's chunked graph format: metadata.json, the edges, the node features (and labels) as NumPy arrays, " +
  "this model's train/validation/test split as edge masks and pair files, and a README on partitioning it for " +
  "DistDGL or GraphStorm. The command line writes the same files: ilpgnn export-graph --format dgl.";

/** The button, its status line and the help. */
export function graphExportBlock(engine: GraphExportEngine): HTMLElement {
  const status = h("span", { class: "muted", role: "status" });
  const button = h("button", { type: "button", id: "export-graph" }, "Download for a distributed engine");
  button.title = "The graph and this model's split in DGL's chunked graph format, for DistDGL or GraphStorm";
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = " Zipping…";
    try {
      const out = await engine.exportGraph();
      download(out.filename, out.bytes, "application/zip");
      status.textContent = ` Saved ${out.filename} (${bytes(out.zipBytes)}): ${out.nodes} nodes, ${out.edges} edges, the split of seed ${out.seed}.`;
    } catch (e) {
      status.textContent = ` Export failed: ${errorText(e)}`;
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "export-graph" }, h("p", {}, button, status), h("p", { class: "muted" }, GRAPH_EXPORT_HELP));
}
