/**
 * Test helpers: the real packages published synchronously (node:fs + the
 * pure decode/publish path), compiled containers from authored components,
 * and small combat states.
 */
import { Either } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import type { CompiledContainer } from "../../../src/composition/Compiled.js"
import { compileContainer } from "../../../src/composition/Compiler.js"
import { type DecodedPackage, decodePackage } from "../../../src/composition/ContentPackage.js"
import type { Character, CombatState } from "../../../src/composition/executor/CombatState.js"
import { publish } from "../../../src/composition/Publication.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import type { EffectComponent } from "../../../src/composition/schema/Card.js"
import { type JsonDocument, parseJson } from "../../../src/kernel/Json.js"

export const repoRoot = join(import.meta.dirname, "../../..")
export const basePackageDir = join(repoRoot, "data/heroscript.base")
export const residualPackageDir = join(repoRoot, "test/fixtures/residual-extension")

const walk = (dir: string): Array<string> => {
  const out: Array<string> = []
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) { for (const f of walk(p)) out.push(f) }
    else if (p.endsWith(".json")) out.push(p)
  }
  return out
}

const doc = (file: string): JsonDocument => {
  const r = parseJson(readFileSync(file), { file })
  if (Either.isLeft(r)) throw new Error(`${file}: ${r.left.message}`)
  return r.right
}

export const decodeDir = (dir: string): DecodedPackage => {
  const files = walk(dir)
  const manifest = files.find((f) => f.endsWith("/manifest.json"))
  if (manifest === undefined) throw new Error(`${dir} has no manifest`)
  const d = decodePackage(dir, doc(manifest), files.filter((f) => f !== manifest).map(doc))
  if (d.package === undefined) throw new Error(JSON.stringify(d.diagnostics))
  return d.package
}

const runtimes = new Map<string, Runtime>()

/** The runtime published from these package folders (cached). */
export const runtimeOf = (...dirs: Array<string>): Runtime => {
  const key = dirs.join("|")
  const cached = runtimes.get(key)
  if (cached !== undefined) return cached
  const r = publish(dirs.map(decodeDir))
  if (r.runtime === undefined) throw new Error(JSON.stringify(r.diagnostics))
  runtimes.set(key, r.runtime)
  return r.runtime
}

export const baseRuntime = (): Runtime => runtimeOf(basePackageDir)
export const residualRuntime = (): Runtime => runtimeOf(basePackageDir, residualPackageDir)

/** Compiles authored components against a runtime's statuses (ranks optional). */
export const compile = (
  runtime: Runtime,
  components: ReadonlyArray<EffectComponent>,
  options: { cardId?: string; ranks?: ReadonlyMap<string, number> } = {}
): CompiledContainer => {
  const r = compileContainer(
    { cardId: options.cardId ?? "test_card", cost: 1, components },
    { statuses: runtime.statuses, ranks: options.ranks, generatedIds: new Set(components.flatMap(ids)) }
  )
  if (Either.isLeft(r)) throw new Error(JSON.stringify(r.left))
  return r.right
}

const ids = (c: EffectComponent): Array<string> => [c.componentId, ...(c.children ?? []).flatMap(ids)]

/** A character with defaults. */
export const char = (
  characterId: string,
  side: "ally" | "enemy",
  hp: number,
  extra: Partial<Omit<Character, "characterId" | "side" | "hp">> = {}
): Character => ({
  characterId,
  side,
  hp,
  maxHp: extra.maxHp ?? Math.max(hp, 1),
  statuses: extra.statuses ?? [],
  attributes: extra.attributes ?? {},
  relics: extra.relics ?? [],
  buffs: extra.buffs ?? []
})

export const combat = (...characters: Array<Character>): CombatState => ({ turn: 1, activeSide: "ally", characters })

export type ComponentExtra = Partial<EffectComponent> & { target?: string; chance?: number; repeat?: number }

/** A component around `effect`, with the test defaults (order 10) and the optional child fields of `extra`. */
export const component = (
  componentId: string,
  effect: Record<string, unknown>,
  extra: ComponentExtra = {}
): EffectComponent =>
  ({
    type: "effect",
    componentId,
    order: extra.order ?? 10,
    ...(extra.childTiming !== undefined ? { childTiming: extra.childTiming } : {}),
    ...(extra.executionScope !== undefined ? { executionScope: extra.executionScope } : {}),
    effect: {
      target: (extra.target ?? "TARGET") as "TARGET",
      ...effect,
      ...(extra.chance !== undefined ? { chance: extra.chance } : {}),
      ...(extra.repeat !== undefined ? { repeat: extra.repeat } : {})
    },
    ...(extra.children !== undefined ? { children: extra.children } : {})
  }) as EffectComponent

/** A DAMAGE component with defaults. */
export const dmg = (componentId: string, amount: number, extra: ComponentExtra = {}): EffectComponent =>
  component(componentId, { type: "DAMAGE", amount }, extra)
