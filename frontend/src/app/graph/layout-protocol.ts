// Messages between the graph view (page) and the layout worker. DOM-free:
// imported by both sides.

/** What the worker's static-layer renderer needs to draw a graph. */
export interface StaticStyle {
  /** Colour per colour index (class colours, NEUTRAL). */
  palette: string[];
  /** Colour index per node. */
  colorIndex: Uint8Array;
  /** World radius per node. */
  radius: Float32Array;
  edgeColor: string;
  dimColor: string;
}

/** A view to render: viewport (CSS px), device pixel ratio, transform. */
export interface ViewSpec {
  req: number;
  width: number;
  height: number;
  dpr: number;
  k: number;
  x: number;
  y: number;
  dimmed: boolean;
  /** Ignore k, x, y and fit the current positions into the viewport. */
  fit: boolean;
}

/**
 * Whether a static layer rendered for `have` can be shown for the view
 * `want`: same canvas and dimming, and a fitted render while the view fits
 * itself to the layout, else one at exactly want's transform.
 */
export function frameServes(have: Omit<ViewSpec, "req">, want: Omit<ViewSpec, "req">): boolean {
  if (have.width !== want.width || have.height !== want.height || have.dpr !== want.dpr || have.dimmed !== want.dimmed) return false;
  return want.fit ? have.fit : have.k === want.k && have.x === want.x && have.y === want.y;
}

export type ToWorker =
  | {
      type: "start";
      run: number;
      n: number;
      edges: Uint32Array;
      seed: number;
      /** Known positions: show them as they are, run no simulation. */
      positions?: Float32Array;
      /** Present when the worker should render the static layer (large graphs). */
      style?: StaticStyle;
    }
  | { type: "view"; run: number; view: ViewSpec }
  | { type: "stop"; run: number }
  /**
   * Holds the layout (no iterations) until paused is false again, for every
   * run from now on; the static layer still renders for new views. The
   * worker answers with its positions, paused set.
   */
  | { type: "pause"; paused: boolean };

export type FromWorker =
  | {
      type: "positions";
      run: number;
      tick: number;
      alpha: number;
      done: boolean;
      /** Whether the layout is held by a "pause" message (not done, no iterations until resumed). */
      paused: boolean;
      positions: Float32Array;
      /** The static layer at these positions, when the page asked for rendering. */
      frame?: { bitmap: ImageBitmap; view: ViewSpec };
      /** Milliseconds the worker spent rendering frame. */
      renderMs?: number;
    }
  | { type: "error"; run: number; message: string };
