/**
 * Seat credentials: who a caller is (the operator, a seat by its secret, or
 * a spectator), checked in constant time against a game's stored hashes;
 * fresh random tokens for IDs and secrets (node:crypto, never a game input).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { randomBytes, timingSafeEqual } from "node:crypto"
import type * as Hallyu from "../hallyu/index.js"
import { sha256Hex } from "../kernel/Canonical.js"
import { errorOf, type Forbidden, type Unauthorized } from "../kernel/Errors.js"
import type { Viewer } from "./GameDocuments.js"
import type { StoredGame } from "./GameStore.js"
import * as Invitations from "./Invitations.js"

/** What a credential can fail with. */
export type CredentialError = Unauthorized | Forbidden

/**
 * Who asks, as the face proved it: whether the request carried the
 * operator's token, the seat secret it carried (checked here, against the
 * game's stored hashes), and the seat whose view it asks for (`?seat=`).
 */
export interface Caller {
  readonly operator: boolean
  readonly secret?: string | undefined
  readonly seat?: Hallyu.Seat | undefined
  /** The client's network address (the per-client limits on spectator streams); undefined: unknown. */
  readonly address?: string | undefined
}

/** A caller with no credential: a spectator. */
export const anonymous: Caller = { operator: false }

/** A fresh random token: `bytes` of node:crypto randomness as base64url (an ID or a secret, never a game input). */
export const randomToken = (bytes: number): string => randomBytes(bytes).toString("base64url")

const hashOf = (secret: string): Buffer => Buffer.from(sha256Hex(secret), "hex")

/**
 * The seat whose secret this is (constant time: both seats' hashes are
 * always compared), or undefined.
 */
const seatOfSecret = (hashes: readonly [string, string] | null, secret: string): Hallyu.Seat | undefined => {
  if (hashes === null) return undefined
  const given = hashOf(secret)
  // An invited seat's entry is a placeholder until the invitation is exchanged: it matches no secret.
  const zero = timingSafeEqual(given, hashBytes(hashes[0])) && !Invitations.isPlaceholder(hashes[0])
  const one = timingSafeEqual(given, hashBytes(hashes[1])) && !Invitations.isPlaceholder(hashes[1])
  return zero ? 0 : one ? 1 : undefined
}

const NO_HASH = Buffer.alloc(32)
/** A stored seat hash as 32 bytes (a placeholder: zeros, compared all the same so the time does not tell). */
const hashBytes = (stored: string): Buffer => /^[0-9a-f]{64}$/.test(stored) ? Buffer.from(stored, "hex") : NO_HASH

/** The viewer a caller's credential proves for a game. */
export const viewerOf = (game: StoredGame, caller: Caller): Effect.Effect<Viewer, CredentialError> => {
  if (caller.secret !== undefined) {
    const seat = seatOfSecret(game.seatHashes, caller.secret)
    if (seat === undefined) {
      return Effect.fail(
        errorOf(
          "forbidden",
          game.seatHashes === null
            ? `game ${game.gameId} was created before seat secrets: only the operator may act in it or read its seats`
            : `this X-Seat-Secret is not a seat of game ${game.gameId}`,
          { subject: game.gameId }
        )
      )
    }
    if (caller.seat !== undefined && caller.seat !== seat) {
      return Effect.fail(
        errorOf("forbidden", `seat ${seat}'s secret cannot read seat ${caller.seat}'s view`, {
          subject: game.gameId,
          details: { seat, asked: caller.seat }
        })
      )
    }
    return Effect.succeed({ seat, operator: caller.operator })
  }
  if (caller.operator) return Effect.succeed({ seat: caller.seat ?? null, operator: true })
  if (caller.seat !== undefined) {
    return Effect.fail(
      errorOf("unauthorized", `seat ${caller.seat}'s view needs its X-Seat-Secret`, { subject: game.gameId })
    )
  }
  return Effect.succeed({ seat: null, operator: false })
}
