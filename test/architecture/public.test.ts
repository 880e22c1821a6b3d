/**
 * The faces are written against public modules only: every value the faces'
 * door (src/services/index.ts) and the HTTP contract's Schemas
 * (src/api/Schemas.ts) export is reachable from the package root `cardfx`
 * (or its `cardfx/engine` subpath) through one of its namespaces — the same
 * object, not a copy.
 */
import { describe, expect, it } from "vitest"

type Module = Readonly<Record<string, unknown>>

/** Every value reachable as `root.Namespace.name` (and `root.Hallyu.name`), and the namespaces themselves. */
const publicValues = (root: Module): ReadonlySet<unknown> => {
  const out = new Set<unknown>()
  for (const ns of Object.values(root)) {
    out.add(ns)
    for (const v of Object.values(ns as Module)) out.add(v)
  }
  return out
}

describe("what the faces use is public", () => {
  it("every value of src/services/index.ts and src/api/Schemas.ts is the root's, through a namespace", async () => {
    const root: Module = await import("../../src/index.js")
    // The root and `cardfx/engine` (the per-call engine Tags: Planner, Resolver, Executor).
    const engine: Module = await import("../../src/engine.js")
    const reachable = publicValues({ ...root, ...engine })
    const notPublic: Array<string> = []
    const modules = [
      ["services/index", await import("../../src/services/index.js")],
      ["api/Schemas", await import("../../src/api/Schemas.js")],
      ["api/Documents", await import("../../src/api/Documents.js")]
    ] as const
    for (const [module, mod] of modules) {
      for (const [name, value] of Object.entries(mod as Module)) {
        if (!reachable.has(value)) notPublic.push(`${module}: ${name}`)
      }
    }
    expect(notPublic).toEqual([])
    // And the check can fail: an internal helper is not among them.
    const internal: Module = await import("../../src/hallyu/validate/Report.js")
    expect(Object.values(internal).filter((v) => typeof v === "function" && reachable.has(v))).toEqual([])
  })
})
