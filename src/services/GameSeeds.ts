/**
 * The seed of a served Hallyu Hex game, which no player chooses: the server
 * draws 32 bytes from `node:crypto` for every game; a client's seed is only
 * mixed in (sha256 of the server's bytes and the client's seed), so two games
 * created with the same client seed deal different hands, and a seat cannot
 * recover the seed from its own hand by search (2^256 candidates). The
 * creation answer carries the seed's commitment, `sha256(seed)` in hex; the
 * seed itself is revealed with the log once the game has ended, so anyone can
 * check it against the commitment and replay the game. Only the operator may
 * fix a seed (`fixedSeed: true`: tests, tournaments).
 *
 * @since 0.1.0
 */
import { randomBytes } from "node:crypto"
import { sha256Hex } from "../kernel/Canonical.js"

/** A game's seed: 64 hex characters drawn by the server, with the client's seed (if any) mixed in. */
export const drawSeed = (clientSeed: string | undefined): string => {
  const server = randomBytes(32)
  if (clientSeed === undefined) return server.toString("hex")
  // The server's bytes as hex, a NUL, then the client's seed: sha256 over that text.
  return sha256Hex(`${server.toString("hex")}\u0000${clientSeed}`)
}

/** The commitment to a seed: its sha256 (hex of its UTF-8 bytes), published when the game is created. */
export const commitmentOf = (seed: string): string => sha256Hex(seed)
