/**
 * The document shapes the workbench reads: the same JSON documents the CLI
 * prints with `--format json` (`inspect`, `discover`, `assess`, `run`,
 * `ledger …`), typed by the Schemas the server encodes them with (src/api:
 * the wire Schemas, and the rule sets' Schemas it reuses). Type imports only:
 * the page's bundle carries none of those modules for this.
 *
 * @since 0.1.0
 */
import type { RunDocument } from "../../api/Documents.js"
import type { AssessResult, CardLedger, Diagnostic, Discovery, EffectiveCardDefinition } from "../../api/Schemas.js"

/** A diagnostic: `{code, severity, message, ...}` with its location. */
export type DiagnosticDoc = typeof Diagnostic.Type

/** An effective card (`inspect`'s `effectiveBase`, an instance's `effective`). */
export type EffectiveDoc = typeof EffectiveCardDefinition.Type

/** One component of an effective card, with its children. */
export type ComponentDoc = EffectiveDoc["components"][number]

/** The effect a component carries. */
export type EffectDoc = ComponentDoc["effect"]

/** A node of the compiled container, with its children in execution order. */
export type CompiledNodeDoc = EffectiveDoc["compiled"]["roots"][number]

/** One entry of `compositionTrace`: the ledger entry and rule that produced an expansion. */
export type TraceDoc = EffectiveDoc["compositionTrace"][number]

export type LedgerDoc = typeof CardLedger.Type

export type LedgerEntryDoc = LedgerDoc["entries"][number]

export type AssessmentDoc = typeof AssessResult.Type

/** `cardfx discover --format json`. */
export type DiscoverDoc = typeof Discovery.Type

export type OfferDoc = DiscoverDoc["offers"][number]

/** One executor event of `cardfx run --format json`. */
export type ExecutorEventDoc = RunDocument["report"]["steps"][number]["events"][number]

/** One contribution to an impact's bucket pipeline. */
export type ContributionDoc = Extract<ExecutorEventDoc, { readonly type: "impact" }>["contributions"][number]
