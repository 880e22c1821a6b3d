/**
 * The random player's choice: a seeded, deterministic pick among the legal
 * actions (xorshift32 over a string seed), so a game against it replays.
 *
 * @since 0.1.0
 */

/** FNV-1a of a string: the chooser's starting state (never 0). */
export const seedOf = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h === 0 ? 1 : h
}

/** The next state and an index in `0..n-1`. */
export const pick = (state: number, n: number): { readonly state: number; readonly index: number } => {
  let x = state >>> 0
  x ^= x << 13
  x >>>= 0
  x ^= x >>> 17
  x ^= x << 5
  x >>>= 0
  return { state: x === 0 ? 1 : x, index: n <= 0 ? 0 : x % n }
}
