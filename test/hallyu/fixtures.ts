import { Either } from "effect"
import { readFileSync } from "node:fs"
import type { StarterDeck } from "../../src/hallyu/Schema.js"
import { type DeckValidation, validateDeck } from "../../src/hallyu/Validate.js"
import { type JsonDocument, parseJson } from "../../src/kernel/Json.js"

export const deckPath = "data/hallyu-hex/starter-deck.v0.json"
export const deckText = readFileSync(deckPath, "utf8")

export const parse = (text: string, file = deckPath): JsonDocument => {
  const r = parseJson(text, { file })
  if (Either.isLeft(r)) throw new Error(`fixture does not parse: ${r.left.message}`)
  return r.right
}

export const realDoc = parse(deckText)

/** The validated real deck (throws in tests only). */
export const realDeck = (): StarterDeck => {
  const v = validateDeck(realDoc)
  if (v.deck === undefined) throw new Error(JSON.stringify(v.diagnostics))
  return v.deck
}

type Json = null | boolean | number | string | Array<Json> | { [key: string]: Json }

const walk = (root: Json, pointer: string): { parent: Json; key: string } => {
  const segs = pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
  let cur: Json = root
  for (const s of segs.slice(0, -1)) {
    if (cur === null || typeof cur !== "object") throw new Error(`no ${pointer}`)
    cur = (Array.isArray(cur) ? cur[Number(s)] : cur[s]) as Json
  }
  return { parent: cur, key: segs[segs.length - 1] ?? "" }
}

/** Reads the value at a JSON pointer. */
export const getAt = (root: Json, pointer: string): Json => {
  const { parent, key } = walk(root, pointer)
  if (parent === null || typeof parent !== "object") throw new Error(`no ${pointer}`)
  return (Array.isArray(parent) ? parent[Number(key)] : parent[key]) as Json
}

/** Sets (or, with `undefined`, deletes) the value at a JSON pointer. */
export const setAt = (root: Json, pointer: string, value: Json | undefined): void => {
  const { parent, key } = walk(root, pointer)
  if (parent === null || typeof parent !== "object") throw new Error(`no ${pointer}`)
  if (Array.isArray(parent)) {
    if (value === undefined) parent.splice(Number(key), 1)
    else parent[Number(key)] = value
  } else if (value === undefined) delete parent[key]
  else parent[key] = value
}

export type Edit = readonly [pointer: string, value: Json | undefined]

/** Validates a copy of the real deck with edits applied (pretty-printed like the original). */
export const mutated = (...edits: ReadonlyArray<Edit>): { doc: JsonDocument; result: DeckValidation } => {
  const copy = JSON.parse(deckText) as Json
  for (const [p, v] of edits) setAt(copy, p, v)
  const doc = parse(JSON.stringify(copy, null, 2))
  return { doc, result: validateDeck(doc) }
}

export const realJson = (): Json => JSON.parse(deckText) as Json
