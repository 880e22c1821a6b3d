/** Test support: load and publish real package folders through the real FileSystem layer. */
import { NodeFileSystem } from "@effect/platform-node"
import { Effect } from "effect"
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
