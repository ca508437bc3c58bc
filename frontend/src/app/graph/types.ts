// The graph view's data types (DOM-free; shared with the layout worker).

export interface GraphData {
  n: number; // node count; nodes are indices 0..n-1
  edges: Uint32Array; // flat undirected pairs i0,j0,i1,j1,... each edge once
  ids: string[]; // display id of each node
  degrees: number[];
  labels: Int32Array | null; // class per node (>=0) or null
  classNames: string[] | null; // name per class, or null (then "class 3")
}

export interface SideHighlight {
  node: number; // the end (i or j)
  color: string; // SIDE_I or SIDE_J
  // Candidate neighbours. Selected ones are the explanation: lit, their edge
  // to the end as wide as strength (0..1, the shown number normalised
  // within the explanation); the others stay dimmed with the rest.
  neighbors: Array<{ node: number; strength: number; selected: boolean }>;
}

export interface Highlight {
  selected: number[]; // clicked nodes (0, 1 or 2): drawn with a ring
  neighbors?: number[]; // one-node mode: its neighbours light up
  sides?: SideHighlight[]; // pair mode: both ends' neighbour sets
  common?: number[]; // common neighbours in the explanation: COMMON diamond
  groundtruth?: number[]; // groundtruth explanation nodes: GROUNDTRUTH square
  candidates?: Array<{ node: number; prob: number }>; // suggested links from selected[0]: dashed, opacity by prob
  pairLink?: { i: number; j: number; prob: number; linked: boolean }; // dashed if not linked, solid if linked
  shades?: Array<{ node: number; value: number }>; // a walk-through step's value per neighbour, 0..1: filled on the scale of palette.ts shade()
  labels?: number[]; // when set, the only nodes labelled besides the selected ones (a step that lights every neighbour labels those its table lists)
}

export interface FrameStats {
  frames: number;
  meanMs: number;
  maxMs: number;
}
