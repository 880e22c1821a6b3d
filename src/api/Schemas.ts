/**
 * The public Schemas the HTTP documents are made of, for the modules the
 * typed client and the workbench page load (src/api/Api.ts and
 * Documents.ts). Named re-exports only, from the modules that define them, so
 * importing this module loads no more than those do — unlike `Library.ts`,
 * which brings every service. Each name is public: exported by `index.ts`
 * (the Hallyu Hex ones under its `Hallyu` namespace), checked by
 * test/cli/spec.test.ts.
 *
 * @since 0.1.0
 */
export { CardInspection, EffectiveCardDefinition } from "../composition/Effective.js"
export { CombatState } from "../composition/executor/CombatState.js"
export { CardLedger, PackagePin } from "../composition/ledger/Ledger.js"
export { AssessResult, Discovery, LedgerCommand } from "../composition/planner/Plan.js"
export { ScenarioReport } from "../composition/scenario/Runner.js"
export { ScenarioLedgers, ScenarioStep } from "../composition/scenario/Scenario.js"
export { RequestId } from "../composition/schema/Symbols.js"
export { CommandOutcome, EventBody } from "../composition/store/LedgerStore.js"
export { HistoryPaging, ReplayPaging } from "../composition/store/Schemas.js"
export { BalanceReport } from "../hallyu/engine/Balance.js"
export { GameLogSchema } from "../hallyu/engine/Simulate.js"
export { StarterDeck } from "../hallyu/Schema.js"
export { Diagnostic, diagnostic, DiagnosticCodeSchema } from "../kernel/Diagnostic.js"
export { type DiagnosticCode, type HttpStatus, httpStatusOf } from "../kernel/DiagnosticCode.js"
export { Limits } from "../kernel/Limits.js"
export * as SchemaExt from "../kernel/SchemaExt.js"
