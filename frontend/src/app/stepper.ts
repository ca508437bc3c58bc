// The canvas's keyboard way through a node's neighbours: with a node (or a
// pair, from its i end) selected, ] and [ step to the next and previous
// neighbour and Enter explains the pair (anchor, neighbour). DOM-free.

/** Where the keyboard stands: the node whose neighbours it steps through and the index of the current one (-1: none yet). */
export class NeighborCursor {
  private anchor = -1;
  private index = -1;

  /**
   * Steps by dir (+1 next, -1 previous, wrapping around) through
   * `neighbors` of `anchor`; a new anchor starts again from its first
   * (or, stepping back, last) neighbour. Returns the neighbour and its
   * position, or null when there is none.
   */
  step(anchor: number, neighbors: readonly number[], dir: 1 | -1): { node: number; index: number; count: number } | null {
    const n = neighbors.length;
    if (anchor !== this.anchor) {
      this.anchor = anchor;
      this.index = -1;
    }
    if (n === 0) return null;
    this.index = this.index < 0 ? (dir > 0 ? 0 : n - 1) : (((this.index + dir) % n) + n) % n;
    return { node: neighbors[this.index]!, index: this.index, count: n };
  }

  /** The anchor and neighbour the keyboard stands on, or null. */
  current(neighbors: (anchor: number) => readonly number[]): { anchor: number; node: number } | null {
    if (this.anchor < 0 || this.index < 0) return null;
    const node = neighbors(this.anchor)[this.index];
    return node === undefined ? null : { anchor: this.anchor, node };
  }

  /** The node whose neighbours the cursor steps through (-1: none). */
  anchorNode(): number {
    return this.anchor;
  }

  /** Forgets the position (a new selection elsewhere). */
  reset(): void {
    this.anchor = -1;
    this.index = -1;
  }
}
