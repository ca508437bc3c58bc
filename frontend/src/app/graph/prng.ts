// A small seeded pseudo-random generator (mulberry32) for the layout: the
// same seed always yields the same sequence, so a graph's layout is
// reproducible. DOM-free (imported by the layout worker).

/** Returns a generator of uniform numbers in [0, 1) determined by seed. */
export function seededRandom(seed: number): () => number {
  // Mix the seed once so that nearby seeds (0, 1, 2) start far apart.
  let state = (Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) ^ 0x27d4eb2f) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
