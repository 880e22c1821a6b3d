/**
 * Model-based test (fast-check `commands`): random sequences of apply, remove,
 * replace, retry, stale write, command-ID reuse, fork, discard and restart run
 * against the real SQLite file store (through the planner service) and an
 * in-memory model of the store's contract that decides with the same pure
 * `plan`. Every outcome — status, revision, sequence, fingerprint, diagnostic
 * codes — and every read must be identical. One temp folder; a fresh database
 * file per sequence.
 */
import { Effect, Either } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CardLedger } from "../../../src/composition/ledger/Ledger.js"
import { emptyLedger } from "../../../src/composition/ledger/Ledger.js"
import { plan } from "../../../src/composition/planner/Plan.js"
import { CardTransformationPlanner } from "../../../src/composition/planner/Planner.js"
import type { Runtime } from "../../../src/composition/Runtime.js"
import {
  type CommandOutcome,
  type CommandRequest,
  LedgerStore,
  MAIN,
  requestHash
} from "../../../src/composition/store/LedgerStore.js"
import { BASE, type Rt, runtimeOf, sqliteAt, tempDir } from "./support.js"

const RUNS = Number(process.env.CARDFX_MODEL_RUNS ?? 200)
const tmp = tempDir("model")
let runtime: Runtime
let fileCounter = 0
let totalCommands = 0
let applied = 0
const seenCodes = new Set<string>()

beforeAll(async () => {
  runtime = await runtimeOf(BASE)
})
afterAll(() => tmp.cleanup())

// ---------------------------------------------------------------------------
// The model

interface Snap {
  readonly revision: number
  readonly sequence: number
  readonly ledger: CardLedger
  readonly fingerprint: string
}

interface Model {
  sequence: number
  readonly commands: Map<string, { hash: string; outcome: CommandOutcome }>
  readonly branches: Map<string, number>
  /** branch → instance → snapshots in revision order */
  readonly snaps: Map<string, Map<string, Array<Snap>>>
  readonly issued: Array<CommandRequest>
  nextId: number
}

const INSTANCES: ReadonlyArray<readonly [string, string]> = [
  ["basic_attack", "basic_attack"],
  ["a2", "basic_attack"],
  ["heal", "heal"],
  ["twin_strike", "twin_strike"]
]
const UPGRADES = ["core.ember.affinity", "core.sharpened_strike", "no.such.upgrade"]
const ACTIVITIES = ["scenario", "canonical_command", "journey_opportunity"]
const BRANCHES = [MAIN, MAIN, "b1", "b2"]

const newModel = (): Model => ({
  sequence: 0,
  commands: new Map(),
  branches: new Map(),
  snaps: new Map(),
  issued: [],
  nextId: 0
})

const modelState = (m: Model, branch: string, instanceId: string, cardId: string) => {
  const chain: Array<readonly [string, number]> = [[branch, Number.MAX_SAFE_INTEGER]]
  if (branch !== MAIN) chain.push([MAIN, m.branches.get(branch) ?? 0])
  for (const [b, limit] of chain) {
    const list = (m.snaps.get(b)?.get(instanceId) ?? []).filter((s) => s.sequence <= limit)
    const last = list[list.length - 1]
    if (last !== undefined) return { ...last, cardId: last.ledger.cardId }
  }
  return { revision: 0, sequence: 0, ledger: emptyLedger(cardId), fingerprint: undefined, cardId }
}

const modelExecute = (m: Model, r: CommandRequest): CommandOutcome | "command_conflict" => {
  const hash = requestHash(r)
  const prior = m.commands.get(r.commandId)
  if (prior !== undefined) return prior.hash === hash ? prior.outcome : "command_conflict"
  const base = { commandId: r.commandId, branch: r.branch, instanceId: r.instanceId, cardId: r.cardId }
  const rejected = (revision: number, codes: ReadonlyArray<CommandOutcome["diagnostics"][number]>): CommandOutcome => ({
    ...base,
    status: "rejected",
    revision,
    sequence: null,
    entryId: null,
    fingerprint: null,
    changedComponentIds: [],
    diagnostics: codes
  })
  let outcome: CommandOutcome
  if (r.branch !== MAIN && !m.branches.has(r.branch)) {
    outcome = rejected(0, [{ code: "branch_not_found", severity: "error", message: "", subject: r.branch }])
  } else {
    const s = modelState(m, r.branch, r.instanceId, r.cardId)
    if (s.revision !== r.expectedRevision) {
      outcome = rejected(s.revision, [{
        code: "revision_conflict",
        severity: "error",
        message: "",
        subject: r.instanceId
      }])
    } else {
      const p = plan({
        runtime,
        ledger: s.ledger,
        command: r.command,
        activity: r.activity,
        at: { lastSequence: s.sequence, nextSequence: m.sequence + 1 }
      })
      if (p.change === undefined) outcome = rejected(s.revision, p.assessment.diagnostics)
      else {
        m.sequence++
        const snap: Snap = {
          revision: s.revision + 1,
          sequence: m.sequence,
          ledger: p.change.ledger,
          fingerprint: p.change.effective.fingerprint
        }
        const byBranch = m.snaps.get(r.branch) ?? new Map<string, Array<Snap>>()
        m.snaps.set(r.branch, byBranch)
        byBranch.set(r.instanceId, [...(byBranch.get(r.instanceId) ?? []), snap])
        outcome = {
          ...base,
          status: "applied",
          revision: snap.revision,
          sequence: snap.sequence,
          entryId: p.change.entry?.entryId ?? null,
          fingerprint: snap.fingerprint,
          changedComponentIds: p.assessment.changedComponentIds,
          diagnostics: []
        }
      }
    }
  }
  m.commands.set(r.commandId, { hash, outcome })
  return outcome
}

/** What must agree: everything but diagnostic messages (the model does not spell them). */
const comparable = (o: CommandOutcome | "command_conflict") =>
  o === "command_conflict"
    ? o
    : { ...o, diagnostics: o.diagnostics.map((d) => [d.code, d.transformationId ?? null, d.subject ?? null]) }

// ---------------------------------------------------------------------------
// The real system

interface Real {
  rt: Rt
  readonly file: string
}

const realExecute = (real: Real, r: CommandRequest): Promise<CommandOutcome | "command_conflict"> =>
  real.rt.runPromise(
    Effect.flatMap(CardTransformationPlanner, (p) => p.execute(runtime, r)).pipe(
      Effect.catchTag("CommandConflict", () => Effect.succeed("command_conflict" as const))
    )
  )

const checkRead = async (m: Model, real: Real, branch: string, instanceId: string, cardId: string) => {
  if (branch !== MAIN && !m.branches.has(branch)) return
  const s = await real.rt.runPromise(Effect.flatMap(LedgerStore, (st) => st.read(branch, instanceId, cardId)))
  const e = modelState(m, branch, instanceId, cardId)
  expect([s.revision, s.fingerprint ?? null]).toEqual([e.revision, e.fingerprint ?? null])
}

type Cmd = fc.AsyncCommand<Model, Real, false>

const issue = async (m: Model, real: Real, r: CommandRequest) => {
  totalCommands++
  m.issued.push(r)
  const expected = comparable(modelExecute(m, r))
  const outcome = await realExecute(real, r)
  const actual = comparable(outcome)
  expect(actual).toEqual(expected)
  if (process.env.DBG) {
    console.log(
      JSON.stringify(r.command),
      r.branch,
      r.instanceId,
      r.activity,
      outcome === "command_conflict" ? outcome : outcome.status + " " + outcome.diagnostics.map((d) => d.code).join(",")
    )
  }
  if (outcome === "command_conflict") seenCodes.add(outcome)
  else if (outcome.status === "applied") applied++
  else for (const d of outcome.diagnostics) seenCodes.add(d.code)
  await checkRead(m, real, r.branch, r.instanceId, r.cardId)
}

// Weighted towards commands that can succeed, so sequences build real ledgers.
const pick = fc.record({
  instance: fc.oneof({ arbitrary: fc.constantFrom(...INSTANCES.slice(0, 3)), weight: 5 }, {
    arbitrary: fc.constantFrom(...INSTANCES),
    weight: 1
  }),
  branch: fc.oneof({ arbitrary: fc.constant(MAIN), weight: 3 }, { arbitrary: fc.constantFrom(...BRANCHES), weight: 1 }),
  activity: fc.oneof({ arbitrary: fc.constant("scenario"), weight: 4 }, {
    arbitrary: fc.constantFrom(...ACTIVITIES),
    weight: 1
  })
})

class Issue implements Cmd {
  constructor(
    readonly kind: "apply" | "remove" | "replace" | "stale",
    readonly where: { instance: readonly [string, string]; branch: string; activity: string },
    readonly upgrade: string,
    readonly entryPick: number,
    readonly delta: number
  ) {}
  check = () => true
  async run(m: Model, real: Real) {
    const [instanceId, cardId] = this.where.instance
    const s = modelState(m, this.where.branch, instanceId, cardId)
    const active = s.ledger.entries.filter((e) => e.state === "active")
    const entryId = active.length === 0 || this.entryPick === 3
      ? "e99"
      : (active[this.entryPick % active.length]?.entryId ?? "e99")
    const command = this.kind === "remove"
      ? ({ kind: "remove", entryId } as const)
      : this.kind === "replace"
      ? ({ kind: "replace", entryId, upgradeId: this.upgrade } as const)
      : ({ kind: "apply", upgradeId: this.upgrade } as const)
    const expectedRevision = this.kind === "stale" ? Math.max(0, s.revision + this.delta) : s.revision
    await issue(m, real, {
      commandId: `c${m.nextId++}`,
      branch: this.where.branch,
      instanceId,
      cardId,
      expectedRevision: this.kind === "stale" && expectedRevision === s.revision ? s.revision + 1 : expectedRevision,
      activity: this.where.activity,
      command
    })
  }
  toString = () =>
    `${this.kind}(${this.where.branch}/${
      this.where.instance[0]
    },${this.upgrade},${this.entryPick},${this.where.activity})`
}

class Retry implements Cmd {
  constructor(readonly which: number, readonly tamper: boolean) {}
  check = (m: Readonly<Model>) => m.issued.length > 0
  async run(m: Model, real: Real) {
    const r = m.issued[this.which % m.issued.length] as CommandRequest
    await issue(m, real, this.tamper ? { ...r, expectedRevision: (r.expectedRevision ?? 0) + 1 } : r)
  }
  toString = () => `retry(${this.which}${this.tamper ? ",tampered" : ""})`
}

class Fork implements Cmd {
  constructor(readonly name: string, readonly back: number) {}
  check = (m: Readonly<Model>) => !m.branches.has(this.name)
  async run(m: Model, real: Real) {
    const at = Math.max(0, m.sequence - this.back)
    m.branches.set(this.name, at)
    await real.rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.fork(this.name, { atSequence: at })))
  }
  toString = () => `fork(${this.name},-${this.back})`
}

class Discard implements Cmd {
  constructor(readonly name: string) {}
  check = () => true
  async run(m: Model, real: Real) {
    const exists = m.branches.has(this.name)
    const mainBefore = await real.rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.dump(MAIN)))
    const r = await real.rt.runPromise(Effect.either(Effect.flatMap(LedgerStore, (s) => s.discard(this.name))))
    expect(Either.isRight(r)).toBe(exists)
    if (Either.isLeft(r)) expect(r.left._tag).toBe("BranchNotFound")
    m.branches.delete(this.name)
    m.snaps.delete(this.name)
    expect(await real.rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.dump(MAIN)))).toBe(mainBefore)
  }
  toString = () => `discard(${this.name})`
}

class Restart implements Cmd {
  check = () => true
  async run(m: Model, real: Real) {
    await real.rt.dispose()
    real.rt = sqliteAt(real.file)
    for (const [instanceId, cardId] of INSTANCES) await checkRead(m, real, MAIN, instanceId, cardId)
  }
  toString = () => "restart"
}

const issueCommand = fc
  .tuple(
    fc.constantFrom("apply", "apply", "apply", "remove", "replace", "stale" as const),
    pick,
    fc.oneof({ arbitrary: fc.constantFrom(...UPGRADES.slice(0, 2)), weight: 6 }, {
      arbitrary: fc.constant(UPGRADES[2] as string),
      weight: 1
    }),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: -2, max: 2 })
  )
  .map(([k, w, u, e, d]) => new Issue(k as "apply", w, u, e, d))

const commands = fc.commands(
  [
    // issued commands: three times as likely as each other command
    issueCommand,
    issueCommand,
    issueCommand,
    fc.tuple(fc.nat(50), fc.boolean()).map(([w, t]) => new Retry(w, t)),
    fc.tuple(fc.constantFrom("b1", "b2"), fc.nat(3)).map(([n, b]) => new Fork(n, b)),
    fc.constantFrom("b1", "b2", "nope").map((n) => new Discard(n)),
    fc.constant(new Restart())
  ],
  { maxCommands: 14, size: "max" }
)

describe("model-based: real SQLite store vs in-memory model", () => {
  it(`agrees on ${RUNS} random command sequences`, async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const file = `${tmp.dir}/m${fileCounter++}.db`
        const real: Real = { rt: sqliteAt(file), file }
        try {
          await fc.asyncModelRun(() => ({ model: newModel(), real }), cmds)
          // and the whole file replays to its stored fingerprints
          const steps = await real.rt.runPromise(Effect.flatMap(LedgerStore, (s) => s.replay()))
          for (const s of steps) expect(s.fingerprint).toBe(s.stored)
        } finally {
          await real.rt.dispose()
        }
      }),
      { numRuns: RUNS, seed: 20261129 }
    )
    expect(totalCommands).toBeGreaterThan(RUNS)
    // the generated sequences reach applications and every kind of rejection the store and planner make here
    expect(applied).toBeGreaterThan(RUNS / 2)
    for (
      const code of [
        "revision_conflict",
        "command_conflict",
        "branch_not_found",
        "not_authorized",
        "slot_full",
        "entry_not_found",
        "unknown_transformation",
        "not_eligible"
      ]
    ) {
      expect([code, seenCodes.has(code)]).toEqual([code, true])
    }
  }, 240_000)
})
