// The graph canvas view: force layout in a worker, 2D canvas rendering,
// pan/zoom, hover tooltip, node search and highlight overlays.
export type { FrameStats, GraphData, Highlight, SideHighlight } from "./types";
export { GraphView, WORKER_RENDER_COST, litNodes, type GraphViewOptions } from "./view";
export { findNodes, describeNode, className } from "./search";
export type { Transform } from "./transform";
