/**
 * The limits a served application puts on anonymous clients (`cardfx serve`'s
 * flags): the creation rate limit per client address, the live-games cap,
 * the event-stream slots and the spectators' idle time. Every field is
 * optional: an absent one keeps its documented default (docs/serving.md).
 *
 * @since 0.1.0
 */
import type { GameLimits, StreamLimits } from "./Games.js"

export interface ServingLimits {
  /** Games and branches created without the operator token, per client address (token bucket). */
  readonly rateLimit?: { readonly perMinute: number; readonly burst: number } | undefined
  readonly streams?: Partial<StreamLimits> | undefined
  readonly games?: Partial<GameLimits> | undefined
}
