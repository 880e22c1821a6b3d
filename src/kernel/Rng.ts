/**
 * A seeded random number generator whose whole state is plain serializable
 * data: xoshiro128** over four unsigned 32-bit words. A named stream's state
 * is derived from the seed and the name with sha256, so streams are
 * independent and reproducible. No `Math.random` and no clock, anywhere.
 *
 * Two surfaces over one algorithm: the pure `next(state)` for immutable game
 * states (the state lives inside the game, boardgame.io style), and the
 * mutable `RngStream` for hot loops. `Rng` is the Effect service that hands
 * out named streams for a seed.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { sha256Hex } from "./Canonical.js"

export const RngState = Schema.Struct({
  /** xoshiro128** state words, each an unsigned 32-bit integer. */
  s: Schema.Tuple(Schema.Number, Schema.Number, Schema.Number, Schema.Number)
})
export type RngState = typeof RngState.Type

/** The state of the stream `name` for `seed`. */
export const seedState = (seed: number | string, name = "main"): RngState => {
  const h = sha256Hex(`cardfx.rng/${String(seed)}/${name}`)
  const s: [number, number, number, number] = [wordLE(h, 0), wordLE(h, 1), wordLE(h, 2), wordLE(h, 3)]
  // xoshiro must not start from the all-zero state.
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1
  return { s }
}

/** The value of one lower-case hex digit's character code. */
const nibble = (code: number): number => (code <= 57 ? code - 48 : code - 87)

/** Byte `b` of a hex digest. */
const byteAt = (hex: string, b: number): number =>
  (nibble(hex.charCodeAt(2 * b)) << 4) | nibble(hex.charCodeAt(2 * b + 1))

/**
 * The `i`-th 32-bit word of a hex digest, read little-endian (bytes 4i..4i+3). Read by character
 * codes: slicing and joining the digits for `parseInt` cost more than the hash (two seeds per game).
 */
const wordLE = (hex: string, i: number): number =>
  (byteAt(hex, 4 * i) | (byteAt(hex, 4 * i + 1) << 8) | (byteAt(hex, 4 * i + 2) << 16) |
    (byteAt(hex, 4 * i + 3) << 24)) >>>
  0

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0

/** One step: the next unsigned 32-bit value and the new state (pure). */
export const next = (state: RngState): readonly [number, RngState] => {
  const stream = new RngStream(state)
  const v = stream.nextUint32()
  return [v, stream.state()]
}

/** Pure: a uniform integer in [0, n) and the new state. */
export const nextInt = (state: RngState, n: number): readonly [number, RngState] => {
  const stream = new RngStream(state)
  const v = stream.int(n)
  return [v, stream.state()]
}

/** A mutable stream for hot loops; `state()` snapshots it as data. */
export class RngStream {
  private s0: number
  private s1: number
  private s2: number
  private s3: number
  /** Number of 32-bit words drawn so far. */
  draws = 0

  constructor(state: RngState) {
    ;[this.s0, this.s1, this.s2, this.s3] = state.s
  }

  static fromSeed(seed: number | string, name = "main"): RngStream {
    return new RngStream(seedState(seed, name))
  }

  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0
    const t = (this.s1 << 9) >>> 0
    this.s2 = (this.s2 ^ this.s0) >>> 0
    this.s3 = (this.s3 ^ this.s1) >>> 0
    this.s1 = (this.s1 ^ this.s2) >>> 0
    this.s0 = (this.s0 ^ this.s3) >>> 0
    this.s2 = (this.s2 ^ t) >>> 0
    this.s3 = rotl(this.s3, 11)
    this.draws++
    return result
  }

  /** A float in [0, 1) with 32 bits of resolution. */
  float(): number {
    return this.nextUint32() / 4294967296
  }

  /** A uniform integer in [0, n), unbiased (rejection sampling); n in 1..2^32. */
  int(n: number): number {
    if (n <= 1) return 0
    const limit = 4294967296 - (4294967296 % n)
    for (;;) {
      const v = this.nextUint32()
      if (v < limit) return v % n
    }
  }

  state(): RngState {
    return { s: [this.s0, this.s1, this.s2, this.s3] }
  }
}

/**
 * The RNG service: deterministic named streams for one seed. Provide it with
 * `Rng.layer(seed)`; a program asks for the stream it needs by name, so adding
 * a stream never shifts the draws of another.
 */
export class Rng extends Context.Tag("cardfx/Rng")<
  Rng,
  {
    readonly seed: number | string
    readonly stream: (name: string) => Effect.Effect<RngStream>
  }
>() {
  static readonly make = (seed: number | string): Context.Tag.Service<Rng> => ({
    seed,
    stream: (name) => Effect.sync(() => RngStream.fromSeed(seed, name))
  })
  static readonly layer = (seed: number | string): Layer.Layer<Rng> => Layer.succeed(Rng, Rng.make(seed))
}
