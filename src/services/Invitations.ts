/**
 * Invitations to a seat of a served Hallyu Hex game (pure helpers; `Games`
 * runs them). A game for two clients gives its creator one seat's secret and
 * an invitation for the other seat: a code, single use, unguessable (the game
 * ID and 32 bytes of `node:crypto` randomness) and expiring, that the other
 * client exchanges (`POST /v1/hhx/invitations`) for its own seat's secret.
 * The server stores, in the invited seat's secret-hash column, only a
 * placeholder — `invite:<sha256 of the code's random part>:<expiry in ms>` —
 * never the code; the exchange draws the seat's secret then and replaces the
 * placeholder by the secret's sha256 in one compare-and-set, so the code works
 * once and nobody but the joiner ever holds the secret.
 *
 * @since 0.1.0
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import { sha256Hex } from "../kernel/Canonical.js"

/** How long an invitation stays open by default: one hour. */
export const DEFAULT_INVITATION_TTL_MS = 60 * 60 * 1000

/** A new invitation: the code for the inviter to hand over, and the placeholder the store keeps. */
export interface NewInvitation {
  readonly code: string
  readonly placeholder: string
  readonly expiresAtMs: number
}

const PREFIX = "invite:"

export const newInvitation = (gameId: string, nowMs: number, ttlMs: number): NewInvitation => {
  const token = randomBytes(32).toString("base64url")
  const expiresAtMs = nowMs + ttlMs
  return { code: `${gameId}.${token}`, placeholder: `${PREFIX}${sha256Hex(token)}:${expiresAtMs}`, expiresAtMs }
}

/** A code's game ID and random part (undefined: not the shape of a code). */
export const parseCode = (code: string): { readonly gameId: string; readonly token: string } | undefined => {
  const dot = code.lastIndexOf(".")
  if (dot <= 0 || dot === code.length - 1) return undefined
  return { gameId: code.slice(0, dot), token: code.slice(dot + 1) }
}

/** Whether a stored seat hash is an open invitation's placeholder. */
export const isPlaceholder = (stored: string): boolean => stored.startsWith(PREFIX)

/**
 * Whether `token` opens the placeholder at `nowMs`: its sha256 equal (compared
 * in constant time) and the invitation not expired.
 */
export const opens = (placeholder: string, token: string, nowMs: number): boolean => {
  const [, hash = "", expires = ""] = placeholder.split(":")
  if (!/^[0-9a-f]{64}$/.test(hash)) return false
  const same = timingSafeEqual(Buffer.from(sha256Hex(token), "hex"), Buffer.from(hash, "hex"))
  return same && Number(expires) > nowMs
}
