/** Test support: load and publish real package folders through the real FileSystem layer. */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { type LoadedPackage, loadPackage } from "../../src/composition/ContentPackage.js"
import { type PublicationResult, publish } from "../../src/composition/Publication.js"
import type { Runtime } from "../../src/composition/Runtime.js"

export const BASE = "data/heroscript.base"
export const RESIDUAL = "test/fixtures/residual-extension"

/** Loads package folders from disk. */
export const load = (...dirs: ReadonlyArray<string>): Promise<ReadonlyArray<LoadedPackage>> =>
  Effect.runPromise(Effect.forEach(dirs, loadPackage).pipe(Effect.provide(NodeFileSystem.layer)))

export type LoadAndPublish = PublicationResult & { readonly loadDiagnostics: ReadonlyArray<unknown> }

/** Loads and publishes package folders together. */
export const loadAndPublish = async (...dirs: ReadonlyArray<string>): Promise<LoadAndPublish> => {
  const loaded = await load(...dirs)
  const loadDiagnostics = loaded.flatMap((l) => l.diagnostics)
  const packages = loaded.flatMap((l) => (l.package === undefined ? [] : [l.package]))
  return { ...publish(packages), loadDiagnostics }
}

/** Loads and publishes, failing the test with the diagnostics when publication fails. */
export const runtimeOf = async (...dirs: ReadonlyArray<string>): Promise<Runtime> => {
  const r = await loadAndPublish(...dirs)
  if (r.runtime === undefined) {
    throw new Error(`publication failed: ${JSON.stringify([...r.loadDiagnostics, ...r.diagnostics])}`)
  }
  return r.runtime
}

/** A card of a package's cards.json, as a content edit sees it. */
export interface EditableCard {
  readonly cardId: string
  readonly cost: number
  readonly tags?: ReadonlyArray<string>
  readonly components?: ReadonlyArray<unknown>
}

/** Rewrites a package folder's cards.json through `edit`. */
export const editCards = (dir: string, edit: (cards: Array<EditableCard>) => Array<EditableCard>): void => {
  const file = join(dir, "cards.json")
  const doc = JSON.parse(readFileSync(file, "utf8")) as { cards: Array<EditableCard> }
  writeFileSync(file, JSON.stringify({ ...doc, cards: edit(doc.cards) }, null, 2))
}

/**
 * The incompatible content change the reload and `ledger check` tests make: basic_attack's strike stops being
 * a DAMAGE (or HEAL) effect, so the sealed ember rules of a stored ledger match nothing.
 */
export const breakStrike = (cards: Array<EditableCard>): Array<EditableCard> =>
  cards.map((c) =>
    c.cardId === "basic_attack"
      ? {
        ...c,
        components: [{
          type: "effect",
          componentId: "strike",
          order: 10,
          effect: { type: "APPLY_STATUS", target: "TARGET", statusId: "burning", stacks: 1, duration: 3 }
        }]
      }
      : c
  )
