/**
 * `cardfx inspect --package DIR [--package DIR...] --card ID [--with UPGRADE_ID...]
 * [--ledger FILE] [--format human|json]`.
 *
 * Publishes the packages, takes the card's ledger (from `--ledger FILE`, a
 * `CardLedger` JSON document whose entries are verified as sealed, or empty),
 * seals and appends each `--with` transformation in order in the published
 * runtime, resolves the effective card and prints it with its composition
 * trace and fingerprint. `--format json` prints one document:
 * `{"ok": true, "inspection": {cardId, ledger, effectiveBase, origins}}` or
 * `{"ok": false, "diagnostics": [...]}`. The human view lists every component
 * in execution order with the ledger entry and rule that produced it.
 * Exit 0 ok, 1 content/composition errors, 2 usage errors.
 *
 * @since 0.1.0
 */
import type { FileSystem } from "@effect/platform"
import { Console, Effect, Either, Option } from "effect"
import {
  appendEntry,
  type CardfxError,
  type CardInspection,
  type CardLedger,
  type CompiledNodeType as CompiledNode,
  componentOrigins,
  type ContentLoader,
  type Diagnostic,
  diagnostic,
  type EffectiveCardDefinition,
  errorFromDiagnostic,
  resolveEffectiveCard,
  sealById
} from "../services/index.js"
import { cardOption, loadRuntime, packagesOption, readLedger, requireCard } from "./assess.js"
import * as Command from "./Command.js"
import * as Options from "./Options.js"
import { resultFormatOption } from "./Output.js"

const withOption = Options.text("with").pipe(
  Options.repeated,
  Options.withDescription("A transformation to seal and append to the ledger, in order (repeatable).")
)
const ledgerOption = Options.file("ledger").pipe(
  Options.optional,
  Options.withDescription("A CardLedger JSON file (sealed entries) to start from.")
)

const describeEffect = (n: CompiledNode): string => {
  const e = n.effect
  const extra: Array<string> = []
  if (e.repeat !== 1) extra.push(`×${e.repeat}`)
  if (e.chance !== 1) extra.push(`chance ${e.chance}`)
  if (e.conditions.length > 0) {
    extra.push(
      `if ${
        e.conditions.map((c) =>
          `${c.not === true ? "not " : ""}${c.fact}${c.statusId !== undefined ? `(${c.statusId})` : ""}${
            c.value !== undefined ? ` ${c.value}` : ""
          }`
        ).join(" and ")
      }`
    )
  }
  const payload = Object.keys(e.payload)
    .sort()
    .map((k) => `${k}=${e.payload[k]} from ${e.payloadSources[k]}`)
  const what = e.type === "APPLY_STATUS"
    ? `APPLY_STATUS ${e.statusId} stacks ${e.stacks}${e.duration > 0 ? ` duration ${e.duration}` : ""}${
      payload.length > 0 ? ` [${payload.join(", ")}]` : ""
    }`
    : `${e.type} ${e.amount}`
  return `${what} → ${e.target}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`
}

/** The human rendering of an inspection. */
export const renderInspection = (i: CardInspection): Array<string> => {
  const e = i.effectiveBase
  const lines: Array<string> = []
  const byEntry = new Map(i.ledger.entries.map((x) => [x.entryId, x]))
  const byMember = new Map<string, EffectiveCardDefinition["compositionTrace"][number]>()
  for (const t of e.compositionTrace) for (const id of t.memberIds) byMember.set(id, t)
  lines.push(`card ${e.cardId}  cost ${e.cost}  engine ${e.engineVersion}`)
  lines.push(`tags: ${e.tags.join(", ") || "(none)"}`)
  lines.push(`capabilities: ${e.capabilities.join(", ") || "(none)"}`)
  lines.push("ledger:")
  const active = i.ledger.entries.filter((x) => x.state === "active").sort((a, b) => a.position - b.position)
  if (active.length === 0) lines.push("  (empty)")
  for (const x of active) {
    lines.push(
      `  ${x.entryId}  ${x.upgradeId}  position ${x.position}  revision ${x.captured.revision}  seal ${
        x.sealHash.slice(0, 12)
      }`
    )
  }
  lines.push("components (execution order):")
  const walk = (nodes: ReadonlyArray<CompiledNode>, indent: string): void => {
    for (const n of nodes) {
      const timing = n.depth > 1 ? ` {${n.childTiming}, ${n.executionScope}}` : ""
      const origin = i.origins?.[n.componentId] ?? "base"
      const t = byMember.get(n.componentId)
      const why = t !== undefined
        ? `from ${t.entryId} ${t.transformationId} / rule ${t.ruleId} (bundle ${t.bundleId}, ${t.scope}, anchor ${
          t.anchorId ?? "none"
        })`
        : origin.startsWith("patch:")
        ? `added by ${origin.slice(6)} ${byEntry.get(origin.slice(6))?.upgradeId ?? ""}`
        : origin.startsWith("base+patch:")
        ? `base, changed by ${
          origin
            .slice(11)
            .split(",")
            .map((id) => `${id} ${byEntry.get(id)?.upgradeId ?? ""}`)
            .join(", ")
        }`
        : "base"
      lines.push(`${indent}${n.componentId}: ${describeEffect(n)}${timing}  ← ${why}`)
      walk(n.children, `${indent}  `)
    }
  }
  walk(e.compiled.roots, "  ")
  lines.push("composition trace:")
  if (e.compositionTrace.length === 0) lines.push("  (no expansions)")
  for (const t of e.compositionTrace) {
    lines.push(
      `  ${t.entryId} ${t.transformationId} / ${t.ruleId}: bundle ${t.bundleId}, ${t.scope}, anchor ${
        t.anchorId ?? "none"
      } → ${t.expansionId} [${t.memberIds.join(", ")}]`
    )
  }
  lines.push(`fingerprint: ${e.fingerprint}`)
  return lines
}

const firstError = (ds: ReadonlyArray<Diagnostic>): CardfxError =>
  errorFromDiagnostic(
    ds.find((d) => d.severity === "error") ?? ds[0] ?? diagnostic("invalid_composition", "the card cannot be resolved")
  )

/** Builds the inspection (pure once the packages and the ledger file are read). */
export const inspect = (options: {
  readonly packages: ReadonlyArray<string>
  readonly cardId: string
  readonly upgrades: ReadonlyArray<string>
  readonly ledgerFile: string | undefined
}): Effect.Effect<CardInspection, CardfxError, FileSystem.FileSystem | ContentLoader> =>
  Effect.gen(function*() {
    const runtime = yield* loadRuntime(options.packages)
    yield* requireCard(runtime, options.cardId)
    const baseCard = runtime.cards.get(options.cardId)
    if (baseCard === undefined) return yield* Effect.fail(firstError([]))
    let ledger: CardLedger = yield* readLedger(options.ledgerFile, options.cardId)
    const taken = new Set(ledger.entries.map((x) => x.entryId))
    for (const upgradeId of options.upgrades) {
      const sealed = sealById(runtime, upgradeId)
      if (Either.isLeft(sealed)) return yield* Effect.fail(firstError(sealed.left))
      let n = ledger.entries.length + 1
      while (taken.has(`e${n}`)) n++
      taken.add(`e${n}`)
      const next = appendEntry(ledger, sealed.right, {
        entryId: `e${n}`,
        captured: { revision: ledger.revision, sequence: 0, step: 0 }
      })
      if (Either.isLeft(next)) return yield* Effect.fail(firstError(next.left))
      ledger = next.right
    }
    const effective = resolveEffectiveCard({ baseCard, ledger, statuses: runtime.statuses })
    if (Either.isLeft(effective)) return yield* Effect.fail(firstError(effective.left))
    return {
      cardId: options.cardId,
      ledger,
      effectiveBase: effective.right,
      origins: componentOrigins(ledger, effective.right)
    }
  })

/** The `inspect` subcommand. */
export const inspectCommand = Command.make(
  "inspect",
  {
    packages: packagesOption,
    card: cardOption,
    upgrades: withOption,
    ledger: ledgerOption,
    format: resultFormatOption
  },
  ({ card, format, ledger, packages, upgrades }) =>
    Effect.gen(function*() {
      const inspection = yield* inspect({
        packages,
        cardId: card,
        upgrades,
        ledgerFile: Option.getOrUndefined(ledger)
      })
      if (format === "json") yield* Console.log(JSON.stringify({ ok: true, inspection }, null, 2))
      else for (const line of renderInspection(inspection)) yield* Console.log(line)
    })
).pipe(
  Command.withDescription(
    "Show a card's effective definition: its ledger (from --ledger and --with), final components with the entry and rule that produced each, trace and fingerprint."
  )
)
