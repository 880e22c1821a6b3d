/**
 * The composition core has no import cycle (issue 21, item 6). Walks every
 * `.ts` file under src/composition, reads its import and export-from
 * specifiers with TypeScript's own pre-processor (type-only imports count:
 * a cycle of types is still a cycle of modules), keeps the relative ones
 * that stay inside src/composition, and fails naming every cycle found
 * (one per strongly connected component, as a path back to its start).
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = resolve(import.meta.dirname, "../../src/composition")

const tsFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : []
  )

/** The module graph: file (relative to src/composition) → the files it imports inside src/composition. */
const importGraph = (dir: string): Map<string, Array<string>> => {
  const files = tsFiles(dir)
  const known = new Set(files)
  const graph = new Map<string, Array<string>>()
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, false)
    const deps: Array<string> = []
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith(".")) continue
      const target = resolve(dirname(file), fileName.replace(/\.js$/, ".ts"))
      const candidate = known.has(target) ? target : join(target, "index.ts")
      if (known.has(candidate)) deps.push(relative(dir, candidate))
    }
    graph.set(relative(dir, file), [...new Set(deps)].sort())
  }
  return graph
}

/** Every cycle of a graph: one per strongly connected component (Tarjan), spelled as a path a → … → a. */
export const cyclesOf = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const components: Array<Array<string>> = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      const selfLoop = (graph.get(v) ?? []).includes(v)
      if (component.length > 1 || selfLoop) components.push(component)
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  // Spell each component as one concrete cycle: a shortest path from its first member back to itself.
  return components.map((component) => {
    const members = new Set(component)
    const start = [...component].sort()[0] as string
    const from = new Map<string, string>()
    const queue = [start]
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i] as string
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue
        if (w === start) {
          const path = [v]
          for (let u = v; u !== start;) path.push(u = from.get(u) as string)
          return [...path.reverse(), start]
        }
        if (!from.has(w)) {
          from.set(w, v)
          queue.push(w)
        }
      }
    }
    return [start, start]
  })
}

describe("the composition core's imports", () => {
  it("finds cycles when there are some (the walker itself)", () => {
    const graph = new Map([
      ["Runtime.ts", ["planner/PlanningCache.ts"]],
      ["planner/PlanningCache.ts", ["store/Schemas.ts"]],
      ["store/Schemas.ts", ["Runtime.ts", "ledger/Ledger.ts"]],
      ["ledger/Ledger.ts", []],
      ["a.ts", ["a.ts"]]
    ])
    expect(cyclesOf(graph)).toEqual([
      ["Runtime.ts", "planner/PlanningCache.ts", "store/Schemas.ts", "Runtime.ts"],
      ["a.ts", "a.ts"]
    ])
  })

  it("reads the real graph (imports, type imports and export-from)", () => {
    const graph = importGraph(root)
    expect(graph.size).toBeGreaterThan(40)
    // A few edges every version of the core has: a value import, a type-only import, an export-from.
    expect(graph.get("planner/Planner.ts")).toContain("store/LedgerStore.ts")
    expect(graph.get("planner/Plan.ts")).toContain("Runtime.ts")
    expect(graph.get("store/LedgerStore.ts")).toContain("store/Schemas.ts")
  })

  it("has no cycle", () => {
    const cycles = cyclesOf(importGraph(root)).map((c) => c.join(" → "))
    expect(cycles, `import cycles in src/composition:\n${cycles.join("\n")}`).toEqual([])
  })
})
