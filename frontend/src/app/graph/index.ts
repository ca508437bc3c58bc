// The graph canvas: force layout in a worker, 2D canvas rendering
// (GraphView), pan/zoom/hover/click input (GraphInput), node search and
// highlight overlays.
export type { FrameStats, GraphData, Highlight, SideHighlight } from "./types";
export { GraphView, WORKER_RENDER_COST, type GraphViewOptions } from "./view";
export { GraphInput, type GraphInputOptions, type InputSurface, type InputView } from "./input";
export { litNodes } from "./overlay";
export { findNodes, describeNode, className } from "./search";
export type { Transform } from "./transform";
